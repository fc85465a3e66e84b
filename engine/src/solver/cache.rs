//! The two caches in front of the SAT core.
//!
//! The query cache answers a group of constraints seen before, exactly. The
//! counterexample cache (as in KLEE) answers groups it has not seen: `unsat`
//! when a stored unsatisfiable core is a subset of the group, `sat` when a
//! stored model, tried on the group, satisfies it.

use super::query::GroupAnswer;
use crate::expr::{Model, TermId, TermStore};
use crate::limits::{Checkpoint, Reached};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::rc::Rc;

/// Exact answers, keyed by the sorted constraint list.
#[derive(Default)]
pub struct QueryCache {
    answers: FxHashMap<Box<[TermId]>, GroupAnswer>,
}

impl QueryCache {
    pub fn get(&self, group: &[TermId]) -> Option<GroupAnswer> {
        self.answers.get(group).cloned()
    }

    pub fn insert(&mut self, group: &[TermId], answer: &GroupAnswer) {
        if !matches!(answer, GroupAnswer::Unknown(_)) {
            self.answers.insert(group.into(), answer.clone());
        }
    }
}

/// Stored models tried on a miss: the ones whose queries overlap the group
/// most, up to this many.
const MODELS_TRIED: usize = 8;
/// Stored entries of each kind before the oldest are dropped.
const CAPACITY: usize = 4096;

#[derive(Default)]
pub struct CexCache {
    /// Unsatisfiable cores, sorted, by id; ids grow with insertion.
    cores: FxHashMap<u64, Box<[TermId]>>,
    core_order: VecDeque<u64>,
    /// For each constraint, the ids of the cores that contain it.
    cores_with: FxHashMap<TermId, Vec<u64>>,
    /// Satisfiable queries and a model of each, by id.
    models: FxHashMap<u64, (Box<[TermId]>, Rc<Model>)>,
    model_order: VecDeque<u64>,
    /// For each constraint, the ids of the stored models' queries that contain it.
    models_with: FxHashMap<TermId, Vec<u64>>,
    next_id: u64,
}

impl CexCache {
    pub fn lookup(
        &mut self,
        store: &TermStore,
        group: &[TermId],
        checkpoint: &mut Checkpoint,
    ) -> Result<Option<GroupAnswer>, Reached> {
        if self.has_unsat_subset(group) {
            return Ok(Some(GroupAnswer::Unsat));
        }
        Ok(self
            .satisfying_model(store, group, checkpoint)?
            .map(GroupAnswer::Sat))
    }

    /// Whether every constraint of some stored core is in `group`.
    fn has_unsat_subset(&self, group: &[TermId]) -> bool {
        let mut covered: FxHashMap<u64, usize> = FxHashMap::default();
        for c in group {
            for &id in self.cores_with.get(c).into_iter().flatten() {
                *covered.entry(id).or_default() += 1;
            }
        }
        covered
            .iter()
            .any(|(id, &n)| self.cores.get(id).is_some_and(|core| core.len() == n))
    }

    /// A stored model that satisfies `group`, trying those whose queries
    /// share the most constraints with it.
    fn satisfying_model(
        &self,
        store: &TermStore,
        group: &[TermId],
        checkpoint: &mut Checkpoint,
    ) -> Result<Option<Rc<Model>>, Reached> {
        let mut overlap: FxHashMap<u64, usize> = FxHashMap::default();
        for c in group {
            for &id in self.models_with.get(c).into_iter().flatten() {
                *overlap.entry(id).or_default() += 1;
            }
        }
        let mut ranked: Vec<(usize, u64)> = overlap.into_iter().map(|(id, n)| (n, id)).collect();
        // Most overlap first; newest first among equals, so the order is deterministic.
        ranked.sort_unstable_by(|a, b| b.cmp(a));
        for (_, id) in ranked.into_iter().take(MODELS_TRIED) {
            let Some((_, model)) = self.models.get(&id) else {
                continue;
            };
            if store.satisfies_within(group, model, checkpoint)? {
                return Ok(Some(model.clone()));
            }
        }
        Ok(None)
    }

    pub fn insert_unsat(&mut self, core: &[TermId]) {
        let mut core: Vec<TermId> = core.to_vec();
        core.sort_unstable();
        core.dedup();
        let id = self.fresh_id();
        for &c in &core {
            self.cores_with.entry(c).or_default().push(id);
        }
        self.cores.insert(id, core.into());
        self.core_order.push_back(id);
        if self.core_order.len() > CAPACITY {
            if let Some(old) = self.core_order.pop_front() {
                if let Some(members) = self.cores.remove(&old) {
                    forget(&mut self.cores_with, old, &members);
                }
            }
        }
    }

    pub fn insert_sat(&mut self, group: &[TermId], model: Rc<Model>) {
        let id = self.fresh_id();
        for &c in group {
            self.models_with.entry(c).or_default().push(id);
        }
        self.models.insert(id, (group.into(), model));
        self.model_order.push_back(id);
        if self.model_order.len() > CAPACITY {
            if let Some(old) = self.model_order.pop_front() {
                if let Some((members, _)) = self.models.remove(&old) {
                    forget(&mut self.models_with, old, &members);
                }
            }
        }
    }

    fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}

fn forget(index: &mut FxHashMap<TermId, Vec<u64>>, id: u64, members: &[TermId]) {
    for c in members {
        if let Some(ids) = index.get_mut(c) {
            ids.retain(|&x| x != id);
            if ids.is_empty() {
                index.remove(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Sort, Value};

    fn setup() -> (TermStore, Vec<TermId>) {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let ten = s.bv_const(8, 10);
        let twenty = s.bv_const(8, 20);
        let lt10 = s.cmp(BvCmp::Ult, x, ten);
        let lt20 = s.cmp(BvCmp::Ult, x, twenty);
        let ge20 = s.cmp(BvCmp::Ule, twenty, x);
        (s, vec![lt10, lt20, ge20])
    }

    #[test]
    fn a_stored_core_answers_its_supersets_unsat() {
        let (_, c) = setup();
        let mut cache = CexCache::default();
        let mut core = vec![c[1], c[2]];
        core.sort();
        cache.insert_unsat(&core);
        let mut query = vec![c[0], c[1], c[2]];
        query.sort();
        assert!(cache.has_unsat_subset(&query));
        assert!(!cache.has_unsat_subset(&[c[0], c[1]]));
        assert!(!cache.has_unsat_subset(&[c[2]]));
    }

    #[test]
    fn a_stored_model_is_reused_only_when_it_satisfies() {
        let (s, c) = setup();
        let x = s.symbol_named("x").unwrap();
        let mut cache = CexCache::default();
        let mut model = Model::new();
        model.set(x, Value::Bv { width: 8, value: 5 });
        cache.insert_sat(&[c[0]], Rc::new(model));
        let unlimited = &mut Checkpoint::new(crate::limits::Limits::default());
        let mut tried = |group: &[TermId]| cache.satisfying_model(&s, group, unlimited).unwrap();
        // x = 5 satisfies x < 20 too: a query that shares nothing is not tried.
        assert!(tried(&[c[1]]).is_none());
        let both = [c[0], c[1]];
        let found = tried(&both).expect("x = 5 satisfies both");
        assert!(s.satisfies(&both, &found));
        // x = 5 does not satisfy x >= 20.
        assert!(tried(&[c[0], c[2]]).is_none());
    }

    #[test]
    fn the_query_cache_is_exact() {
        let (_, c) = setup();
        let mut cache = QueryCache::default();
        cache.insert(&[c[0], c[1]], &GroupAnswer::Unsat);
        assert!(matches!(cache.get(&[c[0], c[1]]), Some(GroupAnswer::Unsat)));
        assert!(cache.get(&[c[0]]).is_none());
        cache.insert(&[c[0]], &GroupAnswer::Unknown("budget".into()));
        assert!(cache.get(&[c[0]]).is_none());
    }
}
