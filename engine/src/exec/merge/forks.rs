//! SMOpt's formulas (`../shared/design/symbolic_size.md` §3, O2 and O3),
//! built over the forks a context's states went through inside the loop.
//! The forks are rebuilt from the states' suffixes (what each assumed
//! since the context's prefix, in order) as a trie: states share a node
//! as long as they assumed the same, and a node's children are the sides
//! of one fork, pairwise disjoint. A constraint assumed without a fork (a
//! value made concrete, an assumption) is a node of one child, so it is
//! never lost from the merged condition. A node folds to its own condition
//! only where its children are every side of a fork that kept every side
//! its path allowed: a side whose states all ended inside the loop is no
//! child, so its case is never taken in.

use crate::expr::{Join, TermId, TermStore};
use rustc_hash::FxHashSet;
use std::ops::Range;

/// The trie of a released context's states.
pub(crate) struct Forks {
    /// Node 0 is the prefix; a child comes after its parent.
    nodes: Vec<ForkNode>,
    /// Each state's node, by its index in the order the states were given.
    leaves: Vec<usize>,
}

struct ForkNode {
    /// The constraint assumed on the way from the parent (`true` at the
    /// root).
    edge: TermId,
    parent: usize,
    children: Vec<usize>,
    /// Whether the children are every side of one fork that kept every
    /// side its path allowed, so that they cover every case here.
    covering: bool,
}

/// What a node contributes to a merge: nothing (no merged state below it),
/// or its formula and whether it is its edge alone because every case
/// below it merged.
#[derive(Clone, Copy)]
enum Covered {
    None,
    Part(TermId),
    Whole(TermId),
}

impl Forks {
    /// The trie of states whose suffixes are `suffixes`, in order, below
    /// forks whose sides' conditions (sorted) are `complete_forks` where
    /// they kept every side their path allowed.
    pub(crate) fn new<'a>(
        store: &mut TermStore,
        suffixes: impl IntoIterator<Item = &'a [TermId]>,
        complete_forks: &FxHashSet<Vec<TermId>>,
    ) -> Forks {
        let mut nodes = vec![ForkNode {
            edge: store.tru(),
            parent: 0,
            children: Vec::new(),
            covering: false,
        }];
        let mut leaves = Vec::new();
        for suffix in suffixes {
            let mut at = 0;
            for &c in suffix {
                at = match nodes[at].children.iter().find(|&&k| nodes[k].edge == c) {
                    Some(&child) => child,
                    None => {
                        nodes.push(ForkNode {
                            edge: c,
                            parent: at,
                            children: Vec::new(),
                            covering: false,
                        });
                        let child = nodes.len() - 1;
                        nodes[at].children.push(child);
                        child
                    }
                };
            }
            leaves.push(at);
        }
        for n in 0..nodes.len() {
            if nodes[n].children.len() > 1 {
                let mut sides: Vec<TermId> =
                    nodes[n].children.iter().map(|&k| nodes[k].edge).collect();
                sides.sort_unstable();
                nodes[n].covering = complete_forks.contains(&sides);
            }
        }
        Forks { nodes, leaves }
    }

    /// For each node, the member (by its index within `members`, the
    /// states merged) whose path ends there, the first if several do.
    fn ending(&self, members: &Range<usize>) -> Vec<Option<usize>> {
        let mut ending = vec![None; self.nodes.len()];
        for (k, &leaf) in self.leaves[members.clone()].iter().enumerate() {
            ending[leaf].get_or_insert(k);
        }
        ending
    }

    /// Whether a state not among `members` ends at each node.
    fn others_ending(&self, members: &Range<usize>) -> Vec<bool> {
        let mut others = vec![false; self.nodes.len()];
        for (i, &leaf) in self.leaves.iter().enumerate() {
            if !members.contains(&i) {
                others[leaf] = true;
            }
        }
        others
    }

    /// The merged condition past the prefix of the states `members` (the
    /// seed's `mc`): each fork's condition once, on the way to a merged
    /// state; a node whose cases all merged is its edge alone (R2).
    pub(crate) fn condition(&self, store: &mut TermStore, members: &Range<usize>) -> TermId {
        let ending = self.ending(members);
        let others = self.others_ending(members);
        let mut covered = vec![Covered::None; self.nodes.len()];
        let mut kids = Vec::new();
        // Children come after their parents: a pass from the back sees
        // every child first.
        for n in (0..self.nodes.len()).rev() {
            let node = &self.nodes[n];
            if ending[n].is_some() {
                covered[n] = Covered::Whole(node.edge);
                continue;
            }
            kids.clear();
            let mut whole = node.covering && !others[n];
            for &k in &node.children {
                match covered[k] {
                    Covered::None => whole = false,
                    Covered::Part(f) => {
                        whole = false;
                        kids.push(f);
                    }
                    Covered::Whole(f) => kids.push(f),
                }
            }
            covered[n] = match (kids.is_empty(), whole) {
                (true, _) => Covered::None,
                (false, true) => Covered::Whole(node.edge),
                (false, false) => {
                    let below = store.or_all(&kids);
                    Covered::Part(if n == 0 {
                        below
                    } else {
                        store.and(node.edge, below)
                    })
                }
            };
        }
        match covered[0] {
            Covered::None => store.fls(),
            Covered::Part(f) | Covered::Whole(f) => f,
        }
    }

    /// How values of the states `members` join (the seed's `mv`): at each
    /// fork on the way to several of them, an `ite` over the conditions of
    /// its sides, the last side unguarded.
    pub(crate) fn values(&self, members: &Range<usize>) -> ForkValues {
        let ending = self.ending(members);
        // Whether a member is at or below each node.
        let mut present: Vec<bool> = ending.iter().map(Option::is_some).collect();
        for n in (1..self.nodes.len()).rev() {
            if present[n] {
                present[self.nodes[n].parent] = true;
            }
        }
        let mut steps = Vec::new();
        if present[0] {
            self.emit(0, &ending, &present, &mut steps);
        }
        ForkValues { steps }
    }

    /// The steps that join the values below `root`, children before their
    /// node (post-order), without recursion: a chain of forks can be as
    /// long as the loop ran.
    fn emit(&self, root: usize, ending: &[Option<usize>], present: &[bool], out: &mut Vec<Step>) {
        // (node, whether its children were emitted)
        let mut stack = vec![(root, false)];
        while let Some((n, expanded)) = stack.pop() {
            if let Some(k) = ending[n] {
                out.push(Step::Value(k));
                continue;
            }
            let kids = self.nodes[n].children.iter().filter(|&&k| present[k]);
            if expanded {
                let guards: Vec<TermId> = kids.map(|&k| self.nodes[k].edge).collect();
                if guards.len() > 1 {
                    out.push(Step::Ite(guards[..guards.len() - 1].to_vec()));
                }
            } else {
                stack.push((n, true));
                // Pushed in reverse, emitted in order.
                let kids: Vec<usize> = kids.copied().collect();
                stack.extend(kids.into_iter().rev().map(|k| (k, false)));
            }
        }
    }
}

/// A join of the values of merged states, as steps over a stack: a
/// state's value, or an `ite` of the values on top (one per guard and
/// the last unguarded).
pub(crate) struct ForkValues {
    steps: Vec<Step>,
}

enum Step {
    Value(usize),
    Ite(Vec<TermId>),
}

impl Join for ForkValues {
    fn join(&mut self, store: &mut TermStore, values: &[TermId]) -> TermId {
        let mut stack: Vec<TermId> = Vec::new();
        for step in &self.steps {
            match step {
                Step::Value(k) => stack.push(values[*k]),
                Step::Ite(guards) => {
                    let top = stack.split_off(stack.len() - guards.len() - 1);
                    // A fork whose sides give one value needs no ite.
                    let joined = if top.iter().all(|&v| v == top[0]) {
                        top[0]
                    } else {
                        store.ite_chain(guards, &top)
                    };
                    stack.push(joined);
                }
            }
        }
        stack.pop().expect("a merge joins one value at least")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Sort};

    /// The forks of `symbolic_size.md` §5 E1 (Fig. 3), the group
    /// {s1, s5, s7, s8} first and s3 (the break) last.
    struct E1 {
        st: TermStore,
        suffixes: Vec<Vec<TermId>>,
        /// n ≤ 0, n > 0, z ≠ 0, n ≤ 1, n ≤ 2, z = 0.
        conds: [TermId; 6],
    }

    fn e1() -> E1 {
        let mut st = TermStore::new();
        let n = st.declare("n", Sort::Bv(32)).unwrap();
        let z = st.declare("z", Sort::Bv(32)).unwrap();
        let [zero, one, two] = [0, 1, 2].map(|k| st.bv_const(32, k));
        let at_most = |st: &mut TermStore, k| st.cmp(BvCmp::Ule, n, k);
        let (le0, le1, le2) = (
            at_most(&mut st, zero),
            at_most(&mut st, one),
            at_most(&mut st, two),
        );
        let [gt0, gt1, gt2] = [le0, le1, le2].map(|c| st.not(c));
        let z0 = st.eq(z, zero);
        let nz = st.not(z0);
        let suffixes = vec![
            vec![le0],
            vec![gt0, nz, le1],
            vec![gt0, nz, gt1, le2],
            vec![gt0, nz, gt1, gt2],
            vec![gt0, z0],
        ];
        E1 {
            st,
            suffixes,
            conds: [le0, gt0, nz, le1, le2, z0],
        }
    }

    /// E1's forks, each complete unless `cut` (as past the path limit).
    fn forks(e: &mut E1, cut: bool) -> Forks {
        let [le0, gt0, nz, le1, le2, z0] = e.conds;
        let [gt1, gt2] = [le1, le2].map(|c| e.st.not(c));
        let complete: FxHashSet<Vec<TermId>> = if cut {
            FxHashSet::default()
        } else {
            [[le0, gt0], [nz, z0], [le1, gt1], [le2, gt2]]
                .into_iter()
                .map(|mut sides| {
                    sides.sort_unstable();
                    sides.to_vec()
                })
                .collect()
        };
        Forks::new(&mut e.st, e.suffixes.iter().map(Vec::as_slice), &complete)
    }

    #[test]
    fn e1s_loop_end_group_merges_to_the_seeds_condition() {
        let mut e = e1();
        let f = forks(&mut e, false);
        let [le0, gt0, nz, _, _, z0] = e.conds;
        // (n ≤ 0) ∨ (n > 0 ∧ z ≠ 0): the forks on n past z ≠ 0 all merged.
        let inner = e.st.and(gt0, nz);
        let expected = e.st.or(le0, inner);
        assert_eq!(f.condition(&mut e.st, &(0..4)), expected);
        // With s3 too, every case merged: the prefix alone.
        assert_eq!(f.condition(&mut e.st, &(0..5)), e.st.tru());
        // The break alone: its forks' conditions in turn.
        let alone = e.st.and(gt0, z0);
        assert_eq!(f.condition(&mut e.st, &(4..5)), alone);
    }

    #[test]
    fn a_fork_that_left_a_side_out_folds_nothing_away() {
        let mut e = e1();
        let f = forks(&mut e, true);
        let condition = f.condition(&mut e.st, &(0..5));
        // Each fork's sides stay, each condition once, top-down.
        let [le0, gt0, nz, le1, le2, z0] = e.conds;
        let [gt1, gt2] = [le1, le2].map(|c| e.st.not(c));
        let last = e.st.or(le2, gt2);
        let past_one = e.st.and(gt1, last);
        let sides = e.st.or(le1, past_one);
        let went_on = e.st.and(nz, sides);
        let either = e.st.or(went_on, z0);
        let past_zero = e.st.and(gt0, either);
        assert_eq!(condition, e.st.or(le0, past_zero));
    }

    #[test]
    fn a_fork_with_a_side_that_never_reached_the_exit_keeps_its_sides() {
        // Three sides, one of whose states all ended inside the loop: the
        // two that merged do not cover the fork's cases.
        let mut st = TermStore::new();
        let [a, b, c] = ["a", "b", "c"].map(|n| st.declare(n, Sort::Bool).unwrap());
        let mut sides = vec![a, b, c];
        sides.sort_unstable();
        let complete = FxHashSet::from_iter([sides]);
        let suffixes = [vec![a], vec![b]];
        let f = Forks::new(&mut st, suffixes.iter().map(Vec::as_slice), &complete);
        let expected = st.or(a, b);
        assert_eq!(f.condition(&mut st, &(0..2)), expected);
    }

    #[test]
    fn a_constraint_assumed_without_a_fork_stays_in_the_condition() {
        let mut st = TermStore::new();
        let c = st.declare("c", Sort::Bool).unwrap();
        let x = st.declare("x", Sort::Bv(8)).unwrap();
        let five = st.bv_const(8, 5);
        let concretised = st.eq(x, five);
        let not_c = st.not(c);
        let suffixes = [vec![c, concretised], vec![not_c]];
        let mut sides = vec![c, not_c];
        sides.sort_unstable();
        let complete = FxHashSet::from_iter([sides]);
        let f = Forks::new(&mut st, suffixes.iter().map(Vec::as_slice), &complete);
        let kept = st.and(c, concretised);
        let expected = st.or(kept, not_c);
        assert_eq!(f.condition(&mut st, &(0..2)), expected);
    }

    #[test]
    fn e1s_values_are_chosen_by_the_forks_between_the_states() {
        let mut e = e1();
        let f = forks(&mut e, false);
        let [le0, _, _, le1, le2, _] = e.conds;
        // p[2]: e (the byte malloc left) in s1, s5 and s7, 2 in s8.
        let byte = e.st.declare("e", Sort::Bv(8)).unwrap();
        let two = e.st.bv_const(8, 2);
        let joined = f.values(&(0..4)).join(&mut e.st, &[byte, byte, byte, two]);
        let deepest = e.st.ite(le2, byte, two);
        let middle = e.st.ite(le1, byte, deepest);
        assert_eq!(joined, e.st.ite(le0, byte, middle));
        // Where the states agree, no ite.
        let same = f.values(&(0..4)).join(&mut e.st, &[two; 4]);
        assert_eq!(same, two);
    }
}
