//! Quantified queries. Each `forall i in [lo, hi]. body` whose bounds are
//! constants (a query of `symplay solve`, a merged path condition with its
//! k pinned) is replaced by its instances' conjunction before the layers
//! see it, up to [`MAX_INSTANCES`] in all; a query with foralls over
//! symbolic bounds left is solved by the procedure of §6
//! ([`procedure`]), which asks the chain quantifier-free queries.

use crate::expr::{Node, TermId, TermStore};
use rustc_hash::FxHashMap;

pub mod procedure;

/// Instances of foralls a query may expand into, in all.
pub const MAX_INSTANCES: u64 = 4096;

/// `assertions` with their foralls over constant bounds expanded, or why
/// they cannot be (too many instances).
pub fn expand(store: &mut TermStore, assertions: &[TermId]) -> Result<Vec<TermId>, String> {
    let mut expansion = Expansion::default();
    (assertions.iter())
        .map(|&a| expansion.term(store, a))
        .collect()
}

#[derive(Default)]
struct Expansion {
    done: FxHashMap<TermId, TermId>,
    instances: u64,
}

impl Expansion {
    /// `t` with each forall in it expanded, innermost first.
    fn term(&mut self, store: &mut TermStore, t: TermId) -> Result<TermId, String> {
        let mut stack = vec![(t, false)];
        while let Some((u, children_done)) = stack.pop() {
            if self.done.contains_key(&u) {
                continue;
            }
            if !store.has_forall(u) {
                self.done.insert(u, u);
                continue;
            }
            let node = *store.node(u);
            if !children_done {
                stack.push((u, true));
                stack.extend(node.children().map(|c| (c, false)));
                continue;
            }
            let node = node.map_children(|c| self.done[&c]);
            let expanded = match node {
                Node::Forall(lo, hi, body) => self.forall(store, lo, hi, body)?,
                _ => store.mk(node),
            };
            self.done.insert(u, expanded);
        }
        Ok(self.done[&t])
    }

    /// The conjunction of `body` at each value from `lo` to `hi`, where
    /// both are constants; the forall as it is otherwise.
    fn forall(
        &mut self,
        store: &mut TermStore,
        lo: TermId,
        hi: TermId,
        body: TermId,
    ) -> Result<TermId, String> {
        let width = store.width(lo);
        let Some(range) = store.constant_range(lo, hi) else {
            return Ok(store.mk(Node::Forall(lo, hi, body)));
        };
        if !range.is_empty() {
            let count = (range.end() - range.start()).saturating_add(1);
            self.instances = self.instances.saturating_add(count);
        }
        if self.instances > MAX_INSTANCES {
            return Err(format!(
                "foralls of more than {MAX_INSTANCES} instances in all"
            ));
        }
        let instances = store.instances(body, width, range);
        Ok(store.and_all(&instances))
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::{BvBinOp, BvCmp, Node, Sort, TermId, TermStore};
    use crate::solver::simplify::Simplifier;
    use crate::solver::{SolveResult, Solver, SolverConfig};

    /// `forall i in [1, hi]. s[i - 1] != 0` over the array `s`.
    fn nonzero_prefix(st: &mut TermStore, hi: TermId) -> TermId {
        let s = st.declare("s", Sort::Array).unwrap();
        let i = st.bound(32);
        let one = st.bv_const(32, 1);
        let index = st.bin(BvBinOp::Sub, i, one);
        let read = st.select(s, index);
        let zero = st.bv_const(8, 0);
        let is_zero = st.eq(read, zero);
        let body = st.not(is_zero);
        st.forall(one, hi, body).unwrap()
    }

    /// `s[at] = 0`.
    fn zero_at(st: &mut TermStore, at: u64) -> TermId {
        let s = st.declare("s", Sort::Array).unwrap();
        let at = st.bv_const(32, at);
        let read = st.select(s, at);
        let zero = st.bv_const(8, 0);
        st.eq(read, zero)
    }

    #[test]
    fn a_query_with_constant_bounds_is_answered_by_its_instances() {
        let mut st = TermStore::new();
        let five = st.bv_const(32, 5);
        let all = nonzero_prefix(&mut st, five);
        let mut solver = Solver::new(SolverConfig::default());
        // s[0..5] nonzero: s[2] = 0 contradicts it, s[5] = 0 does not.
        let inside = zero_at(&mut st, 2);
        assert!(matches!(
            solver.check(&mut st, &[all, inside]),
            SolveResult::Unsat
        ));
        let past = zero_at(&mut st, 5);
        let SolveResult::Sat(model) = solver.check(&mut st, &[all, past]) else {
            panic!("satisfiable")
        };
        assert!(st.satisfies(&[all, past], &model));
    }

    #[test]
    fn a_query_over_symbolic_bounds_is_solved_and_one_of_too_many_instances_is_unknown() {
        let mut st = TermStore::new();
        let k = st.declare("k", Sort::Bv(32)).unwrap();
        let all = nonzero_prefix(&mut st, k);
        let three = st.bv_const(32, 3);
        let at_least_three = st.cmp(BvCmp::Ule, three, k);
        let mut solver = Solver::new(SolverConfig::default());
        let SolveResult::Sat(model) = solver.check(&mut st, &[all, at_least_three]) else {
            panic!("satisfiable")
        };
        assert!(st.satisfies(&[all, at_least_three], &model));
        assert_eq!(solver.stats().quantified.total(), 1);
        let many = st.bv_const(32, super::MAX_INSTANCES + 1);
        let all = nonzero_prefix(&mut st, many);
        let SolveResult::Unknown(why) = solver.check(&mut st, &[all]) else {
            panic!("not unknown")
        };
        assert_eq!(why, "foralls of more than 4096 instances in all");
    }

    #[test]
    fn simplification_expands_a_small_constant_range_and_keeps_the_rest() {
        let mut st = TermStore::new();
        let mut simplifier = Simplifier::new();
        let three = st.bv_const(32, 3);
        let small = nonzero_prefix(&mut st, three);
        let expanded = simplifier.simplify(&mut st, small);
        assert!(!st.has_forall(expanded));
        let instances: Vec<TermId> = (0..3)
            .map(|at| {
                let zero = zero_at(&mut st, at);
                st.not(zero)
            })
            .collect();
        let want = st.and_all(&instances);
        assert_eq!(expanded, simplifier.simplify(&mut st, want));
        let wide = st.bv_const(32, 100);
        let large = nonzero_prefix(&mut st, wide);
        // Kept, its body simplified.
        let kept = simplifier.simplify(&mut st, large);
        let Node::Forall(lo, hi, _) = *st.node(kept) else {
            panic!("{}", st.to_smtlib(kept))
        };
        assert_eq!((st.as_bv_const(lo), hi), (Some(1), wide));
        // A body that always holds, or never does.
        let (one, k) = (st.bv_const(32, 1), st.declare("k", Sort::Bv(32)).unwrap());
        let (tru, fls) = (st.tru(), st.fls());
        let always = st.forall(one, k, tru).unwrap();
        assert_eq!(simplifier.simplify(&mut st, always), tru);
        let never = st.forall(one, k, fls).unwrap();
        let empty = st.cmp(BvCmp::Ult, k, one);
        let empty = simplifier.simplify(&mut st, empty);
        assert_eq!(simplifier.simplify(&mut st, never), empty);
    }
}
