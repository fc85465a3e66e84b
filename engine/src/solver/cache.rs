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
/// The group's constraints whose stored queries give the candidates: those
/// the fewest stored queries hold (the most telling: a branch deep in the
/// path, not the first one, which every query below it holds).
const RAREST: usize = 4;
/// Stored queries taken as candidates from each of those constraints: the
/// newest, nearest the path being explored.
const NEWEST: usize = 16;

/// A look-up visits the cores filed under the group's own constraints, and
/// ranks by overlap only the newest stored queries that hold one of the
/// group's rarest constraints: its cost grows with the group's size, not
/// with the entries stored (a scan of every query sharing a constraint
/// took most of a run of 4,096 paths branching on one input).
#[derive(Default)]
pub struct CexCache {
    /// Unsatisfiable cores, sorted, by id; ids grow with insertion.
    cores: FxHashMap<u64, Box<[TermId]>>,
    core_order: VecDeque<u64>,
    /// Each core's id under its greatest constraint: a group holds a core
    /// only if it holds that one.
    cores_at: FxHashMap<TermId, VecDeque<u64>>,
    next_core: u64,
    /// Satisfiable queries, sorted, and a model of each, by id; ids grow
    /// with insertion, from 0.
    models: FxHashMap<u64, (Box<[TermId]>, Rc<Model>)>,
    model_order: VecDeque<u64>,
    /// For each constraint, the ids of the stored models' queries that
    /// contain it, oldest first.
    models_with: FxHashMap<TermId, VecDeque<u64>>,
    next_model: u64,
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
        let sorted = group.is_sorted();
        let holds = |c: &TermId| {
            if sorted {
                group.binary_search(c).is_ok()
            } else {
                group.contains(c)
            }
        };
        let cores = group
            .iter()
            .flat_map(|c| self.cores_at.get(c).into_iter().flatten());
        cores
            .filter_map(|id| self.cores.get(id))
            .any(|core| core.iter().all(holds))
    }

    /// A stored model that satisfies `group`, trying the candidates whose
    /// queries share the most constraints with it (newest first among
    /// equals, so the order is deterministic).
    fn satisfying_model(
        &self,
        store: &TermStore,
        group: &[TermId],
        checkpoint: &mut Checkpoint,
    ) -> Result<Option<Rc<Model>>, Reached> {
        let mut postings: Vec<&VecDeque<u64>> = group
            .iter()
            .filter_map(|c| self.models_with.get(c))
            .collect();
        postings.sort_by_key(|ids| ids.len());
        let mut candidates: Vec<u64> = postings
            .iter()
            .take(RAREST)
            .flat_map(|ids| ids.iter().rev().take(NEWEST))
            .copied()
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        let holds = |query: &[TermId], c: &TermId| query.binary_search(c).is_ok();
        let mut ranked: Vec<(usize, u64)> = candidates
            .into_iter()
            .filter_map(|id| {
                let (query, _) = self.models.get(&id)?;
                Some((group.iter().filter(|c| holds(query, c)).count(), id))
            })
            .collect();
        let most_first = |a: &(usize, u64), b: &(usize, u64)| b.cmp(a);
        if ranked.len() > MODELS_TRIED {
            ranked.select_nth_unstable_by(MODELS_TRIED - 1, most_first);
            ranked.truncate(MODELS_TRIED);
        }
        ranked.sort_unstable_by(most_first);
        for (_, id) in ranked {
            let Some((query, model)) = self.models.get(&id) else {
                continue;
            };
            // A model satisfies the query it was found for: only the
            // group's other constraints are evaluated.
            let others: Vec<TermId> = group.iter().filter(|c| !holds(query, c)).copied().collect();
            if others.is_empty() || store.satisfies_within(&others, model, checkpoint)? {
                return Ok(Some(model.clone()));
            }
        }
        Ok(None)
    }

    pub fn insert_unsat(&mut self, core: &[TermId]) {
        let mut core: Vec<TermId> = core.to_vec();
        core.sort_unstable();
        core.dedup();
        let Some(&greatest) = core.last() else {
            return;
        };
        let id = self.next_core;
        self.next_core += 1;
        self.cores_at.entry(greatest).or_default().push_back(id);
        self.cores.insert(id, core.into());
        self.core_order.push_back(id);
        if self.core_order.len() > CAPACITY {
            if let Some(old) = self.core_order.pop_front() {
                if let Some(members) = self.cores.remove(&old) {
                    forget(&mut self.cores_at, old, &members[members.len() - 1..]);
                }
            }
        }
    }

    pub fn insert_sat(&mut self, group: &[TermId], model: Rc<Model>) {
        let mut query = group.to_vec();
        query.sort_unstable();
        query.dedup();
        let id = self.next_model;
        self.next_model += 1;
        for &c in &query {
            self.models_with.entry(c).or_default().push_back(id);
        }
        self.models.insert(id, (query.into(), model));
        self.model_order.push_back(id);
        if self.model_order.len() > CAPACITY {
            if let Some(old) = self.model_order.pop_front() {
                if let Some((members, _)) = self.models.remove(&old) {
                    forget(&mut self.models_with, old, &members);
                }
            }
        }
    }
}

/// Drops `id`, the oldest entry, from the lists of `members`: ids grow with
/// insertion, so it and any id before it lead each list.
fn forget(index: &mut FxHashMap<TermId, VecDeque<u64>>, id: u64, members: &[TermId]) {
    for c in members {
        if let Some(ids) = index.get_mut(c) {
            while ids.front().is_some_and(|&x| x <= id) {
                ids.pop_front();
            }
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

    /// A model where x (of [`setup`]) is `v`.
    fn x_is(s: &TermStore, v: u64) -> Rc<Model> {
        let mut m = Model::new();
        m.set(
            s.symbol_named("x").unwrap(),
            Value::Bv { width: 8, value: v },
        );
        Rc::new(m)
    }

    fn x_of(s: &TermStore, m: &Model) -> Value {
        m.value_of(s.symbol_named("x").unwrap(), Sort::Bv(8))
    }

    #[test]
    fn models_are_tried_by_overlap_then_newest_first() {
        let (s, c) = setup();
        let model = |v: u64| x_is(&s, v);
        let mut cache = CexCache::default();
        cache.insert_sat(&[c[0], c[1]], model(5));
        cache.insert_sat(&[c[1]], model(6));
        cache.insert_sat(&[c[1]], model(7));
        let unlimited = &mut Checkpoint::new(crate::limits::Limits::default());
        let value = |m: Rc<Model>| x_of(&s, &m);
        // Each satisfies x < 20; the query sharing both constraints first.
        let found = cache.satisfying_model(&s, &[c[0], c[1]], unlimited);
        assert_eq!(
            value(found.unwrap().unwrap()),
            Value::Bv { width: 8, value: 5 }
        );
        // Sharing one each: the newest.
        let found = cache.satisfying_model(&s, &[c[1]], unlimited);
        assert_eq!(
            value(found.unwrap().unwrap()),
            Value::Bv { width: 8, value: 7 }
        );
    }

    #[test]
    fn a_rare_constraint_finds_an_old_model_among_many_newer() {
        let (s, c) = setup();
        let model = |v: u64| x_is(&s, v);
        let mut cache = CexCache::default();
        cache.insert_sat(&[c[0], c[1]], model(5));
        // Many newer queries hold x < 20 only, their models not x < 10.
        for _ in 0..10 * NEWEST {
            cache.insert_sat(&[c[1]], model(15));
        }
        let unlimited = &mut Checkpoint::new(crate::limits::Limits::default());
        let value = |m: Rc<Model>| x_of(&s, &m);
        let found = cache.satisfying_model(&s, &[c[1], c[0]], unlimited);
        assert_eq!(
            value(found.unwrap().unwrap()),
            Value::Bv { width: 8, value: 5 }
        );
    }

    #[test]
    fn the_oldest_entries_are_dropped_past_the_capacity() {
        let (s, c) = setup();
        let x = s.symbol_named("x").unwrap();
        let mut cache = CexCache::default();
        cache.insert_unsat(&[c[2], c[0]]);
        let mut model = Model::new();
        model.set(x, Value::Bv { width: 8, value: 5 });
        cache.insert_sat(&[c[0]], Rc::new(model));
        let unlimited = &mut Checkpoint::new(crate::limits::Limits::default());
        assert!(cache.has_unsat_subset(&[c[0], c[1], c[2]]));
        assert!(cache
            .satisfying_model(&s, &[c[0]], unlimited)
            .unwrap()
            .is_some());
        for _ in 0..CAPACITY {
            cache.insert_unsat(&[c[1]]);
            cache.insert_sat(&[c[2]], Rc::new(Model::new()));
        }
        assert!(!cache.has_unsat_subset(&[c[0], c[2]]));
        assert!(cache
            .satisfying_model(&s, &[c[0]], unlimited)
            .unwrap()
            .is_none());
        assert!(cache.has_unsat_subset(&[c[1]]));
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
