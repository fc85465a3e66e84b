//! Constraint independence: constraints that share no symbol, directly or
//! through other constraints, are solved apart, so a new branch condition only
//! re-solves the constraints it is connected to and the rest hit the caches.

use crate::expr::{SymbolId, TermId, TermStore};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// The symbols of each constraint seen so far; constraints recur across
/// queries, so their symbol sets are computed once.
#[derive(Default)]
pub struct SymbolIndex {
    symbols: FxHashMap<TermId, Rc<[SymbolId]>>,
}

impl SymbolIndex {
    pub fn symbols_of(&mut self, store: &TermStore, t: TermId) -> Rc<[SymbolId]> {
        self.symbols
            .entry(t)
            .or_insert_with(|| store.symbols_in(&[t]).into())
            .clone()
    }

    /// The symbols of all constraints in `group`, sorted.
    pub fn symbols_of_group(&mut self, store: &TermStore, group: &[TermId]) -> Vec<SymbolId> {
        let mut all: Vec<SymbolId> = group
            .iter()
            .flat_map(|&c| self.symbols_of(store, c).to_vec())
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// Splits sorted `constraints` into groups that share no symbol. Each
    /// group stays sorted; groups come in the order of their first constraint.
    pub fn partition(&mut self, store: &TermStore, constraints: &[TermId]) -> Vec<Vec<TermId>> {
        // Union-find over constraint positions, joined through shared symbols.
        let mut parent: Vec<usize> = (0..constraints.len()).collect();
        fn find(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let mut owner: FxHashMap<SymbolId, usize> = FxHashMap::default();
        for (i, &c) in constraints.iter().enumerate() {
            for &s in self.symbols_of(store, c).iter() {
                match owner.get(&s) {
                    Some(&j) => {
                        let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                        if ri != rj {
                            parent[ri.max(rj)] = ri.min(rj);
                        }
                    }
                    None => {
                        owner.insert(s, i);
                    }
                }
            }
        }
        let mut group_of_root: FxHashMap<usize, usize> = FxHashMap::default();
        let mut groups: Vec<Vec<TermId>> = Vec::new();
        for (i, &c) in constraints.iter().enumerate() {
            let root = find(&mut parent, i);
            let g = *group_of_root.entry(root).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(c);
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Sort};

    #[test]
    fn constraints_join_through_shared_symbols() {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let y = s.declare("y", Sort::Bv(8)).unwrap();
        let z = s.declare("z", Sort::Bv(8)).unwrap();
        let w = s.declare("w", Sort::Bv(8)).unwrap();
        let c1 = s.cmp(BvCmp::Ult, x, y);
        let c2 = s.cmp(BvCmp::Ult, z, w);
        let c3 = s.cmp(BvCmp::Ult, y, z);
        let c4 = s.cmp(BvCmp::Ult, w, w);
        let lone = s.declare("lone", Sort::Bv(8)).unwrap();
        let c5 = s.cmp(BvCmp::Ule, lone, lone);
        let mut index = SymbolIndex::default();
        let mut cs = vec![c1, c2, c4, c5];
        cs.sort();
        let groups = index.partition(&s, &cs);
        assert_eq!(groups.len(), 3, "{groups:?}");
        assert!(groups.iter().any(|g| g == &vec![c2, c4]));
        cs.push(c3);
        cs.sort();
        let groups = index.partition(&s, &cs);
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!(groups[0], vec![c1, c2, c3, c4]);
        assert_eq!(groups[1], vec![c5]);
    }
}
