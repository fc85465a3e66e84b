//! Validation of merges (`--validate-merge`): the solver checks each merge
//! against the states it replaced. Beside the context's prefix, the merged
//! condition must be the disjunction of the states' suffixes, and each
//! value the merge joined must equal each state's own on that state's
//! path. A PAT merge over `k` is checked as Thm 6.2.7 states it
//! (`../shared/design/quantified_merging.md` T7): its condition allows
//! nothing the disjunction does not, each state's suffix implies it at that
//! state's `k_j`, and at `k = k_j` each value is that state's. A merge that
//! fails is an engine error: it is reported, and its states go on unmerged,
//! so that no result rests on it.

use crate::exec::executor::Executor;
use crate::expr::{TermId, TermStore};
use crate::solver::simplify::Simplifier;
use crate::state::State;
use crate::tree::NodeId;

/// What a query of validation refutes when it is satisfiable.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fault {
    Condition,
    /// A PAT condition allows a case none of the states had.
    Wider,
    /// A PAT condition at a state's `k_j` leaves out some of its case.
    Missing {
        state: usize,
    },
    Value {
        state: usize,
    },
}

impl Fault {
    fn text(&self) -> String {
        match self {
            Fault::Condition => "its condition is not the disjunction of theirs".into(),
            Fault::Wider => "its condition allows a case none of theirs does".into(),
            Fault::Missing { state } => {
                format!("its condition at state {state}'s k leaves out some of that state's case")
            }
            Fault::Value { state } => format!("a value differs from state {state}'s on its path"),
        }
    }
}

/// The number of queries that check a merge of `states` states that
/// joined `joins`: the condition's, one per state where values joined,
/// and over `k` one more per state for its case.
fn query_count(states: usize, joins: &[(TermId, Vec<TermId>)], over_k: bool) -> usize {
    let values = if joins.is_empty() { 0 } else { states };
    let cases = if over_k { states } else { 0 };
    1 + cases + values
}

/// Query `index` of those that check a merge beside its prefix, which is
/// satisfiable exactly when the merge is wrong as its fault says. Query 0
/// sets the merged condition past the prefix `either` against
/// `disjunction`, that of the states' `guards`; over `k` (each state's
/// `k_j`), queries `1 + i` ask whether state `i`'s case is left out of
/// `either` at its `k_i`; the last queries ask, one per state, whether
/// some value of `joins` (a merged term and the states' values) differs
/// from state `i`'s own on its path (under its guard, or at `k = k_i`).
fn validation_query(
    terms: &mut TermStore,
    index: usize,
    (either, disjunction): (TermId, TermId),
    guards: &[TermId],
    joins: &[(TermId, Vec<TermId>)],
    over_k: Option<(TermId, &[u32])>,
) -> (TermId, Fault) {
    let Some(after) = index.checked_sub(1) else {
        return match over_k {
            None => (terms.xor(either, disjunction), Fault::Condition),
            Some(_) => {
                let none = terms.not(disjunction);
                (terms.and(either, none), Fault::Wider)
            }
        };
    };
    let (state, path) = match over_k {
        None => (after, guards[after]),
        Some((k, ks)) if after < guards.len() => {
            let kj = terms.bv_const(32, u64::from(ks[after]));
            let there = Simplifier::substitute(terms, |t| (t == k).then_some(kj), either);
            let left_out = terms.not(there);
            return (
                terms.and(guards[after], left_out),
                Fault::Missing { state: after },
            );
        }
        Some((k, ks)) => {
            let state = after - guards.len();
            let kj = terms.bv_const(32, u64::from(ks[state]));
            let is = terms.eq(k, kj);
            (state, terms.and(either, is))
        }
    };
    let unequal: Vec<TermId> = (joins.iter())
        .map(|(joined, values)| {
            let equal = terms.eq(*joined, values[state]);
            terms.not(equal)
        })
        .collect();
    let any = terms.or_all(&unequal);
    (terms.and(path, any), Fault::Value { state })
}

/// A merge's check under way, a query at a time: the next query, and
/// what the queries asked so far found.
#[derive(Default)]
pub(super) struct Validation {
    next: usize,
    undecided: bool,
    wrong: Vec<String>,
}

/// What is checked: the merge into `merged` (its condition still the
/// prefix), its condition past the prefix beside the disjunction of the
/// states' suffixes, their `guards` (the suffixes), its `joins`, and for
/// a PAT merge its `k` and each state's `k_j`.
pub(super) struct Checked<'a> {
    pub(super) merged: &'a State,
    pub(super) conditions: (TermId, TermId),
    pub(super) guards: &'a [TermId],
    pub(super) joins: &'a [(TermId, Vec<TermId>)],
    pub(super) over_k: Option<(TermId, &'a [u32])>,
}

impl Executor<'_> {
    /// Asks the next query of `validation` of `checked`; whether every
    /// query has been asked.
    pub(super) fn validate_step(&mut self, checked: &Checked, validation: &mut Validation) -> bool {
        let over_k = checked.over_k.is_some();
        let count = query_count(checked.guards.len(), checked.joins, over_k);
        if validation.next < count {
            let (query, fault) = validation_query(
                &mut self.cx.terms,
                validation.next,
                checked.conditions,
                checked.guards,
                checked.joins,
                checked.over_k,
            );
            validation.next += 1;
            match self.feasible(checked.merged, query) {
                Ok(Some(false)) => {}
                Ok(Some(true)) => validation.wrong.push(fault.text()),
                _ => validation.undecided = true,
            }
        }
        validation.next == count
    }

    /// Whether the merge of `states` states below tree node `root` that
    /// `validation` checked holds; `None` when the solver could not
    /// decide. A merge the solver proved wrong is counted and reported.
    pub(super) fn merge_holds(
        &mut self,
        validation: Validation,
        states: usize,
        root: NodeId,
    ) -> Option<bool> {
        if !validation.wrong.is_empty() {
            (self.cx.merging).count_violation(states, root, &validation.wrong);
            return Some(false);
        }
        (!validation.undecided).then_some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Guarded, Join, Sort};
    use crate::solver::{SolveResult, Solver};

    /// The faults of the queries that check a merge which the solver
    /// finds satisfiable.
    fn faults(
        st: &mut TermStore,
        conditions: (TermId, TermId),
        guards: &[TermId],
        joins: &[(TermId, Vec<TermId>)],
    ) -> Vec<Fault> {
        faults_over_k(st, conditions, guards, joins, None)
    }

    /// [`faults`] of a merge over `k` where `over_k` says.
    fn faults_over_k(
        st: &mut TermStore,
        conditions: (TermId, TermId),
        guards: &[TermId],
        joins: &[(TermId, Vec<TermId>)],
        over_k: Option<(TermId, &[u32])>,
    ) -> Vec<Fault> {
        let mut solver = Solver::default();
        let count = query_count(guards.len(), joins, over_k.is_some());
        let queries: Vec<(TermId, Fault)> = (0..count)
            .map(|index| validation_query(st, index, conditions, guards, joins, over_k))
            .collect();
        (queries.into_iter())
            .filter(|(q, _)| matches!(solver.check(st, &[*q]), SolveResult::Sat(_)))
            .map(|(_, fault)| fault)
            .collect()
    }

    #[test]
    fn a_right_merge_passes_and_each_kind_of_wrong_one_is_named() {
        let mut st = TermStore::new();
        let x = st.declare("x", Sort::Bv(8)).unwrap();
        let zero = st.bv_const(8, 0);
        let [one, two, three] = [1, 2, 3].map(|k| st.bv_const(8, k));
        // Two states apart on x == 0, holding 1 and 2.
        let g0 = st.eq(x, zero);
        let g1 = st.not(g0);
        let guards = [g0, g1];
        let either = st.or(g0, g1);
        let joined = Guarded(guards.to_vec()).join(&mut st, &[one, two]);
        let right = [(joined, vec![one, two])];
        assert_eq!(faults(&mut st, (either, either), &guards, &right), []);
        // A condition that drops a state's case.
        let wrong = faults(&mut st, (g0, either), &guards, &right);
        assert_eq!(wrong, [Fault::Condition]);
        // A value that is not state 1's on its path.
        let wrong = [(joined, vec![one, three])];
        let wrong = faults(&mut st, (either, either), &guards, &wrong);
        assert_eq!(wrong, [Fault::Value { state: 1 }]);
    }

    #[test]
    fn a_merge_over_k_is_checked_as_the_theorem_states_it() {
        // T7 on T5's shape: state j read 'a' j times, then no 'a' at s[j];
        // merged as k <= 2, forall i in [1, k]: s[i - 1] = 'a', s[k] != 'a',
        // count k.
        let mut st = TermStore::new();
        let s = st.declare("s", Sort::Array).unwrap();
        let k = st.declare("k", Sort::Bv(32)).unwrap();
        let a = st.bv_const(8, 97);
        let at = |st: &mut TermStore, i: TermId| {
            let read = st.select(s, i);
            st.eq(read, a)
        };
        let counts: Vec<TermId> = (0..3).map(|j| st.bv_const(32, j)).collect();
        let guards: Vec<TermId> = (0..3)
            .map(|j: usize| {
                let mut parts: Vec<TermId> = (0..j).map(|i| at(&mut st, counts[i])).collect();
                let last = at(&mut st, counts[j]);
                parts.push(st.not(last));
                st.and_all(&parts)
            })
            .collect();
        let disjunction = st.or_all(&guards);
        let one = st.bv_const(32, 1);
        let i = st.bound(32);
        let before = st.bin(crate::expr::BvBinOp::Sub, i, one);
        let body = at(&mut st, before);
        let all = st.forall(one, k, body).unwrap();
        let at_k = at(&mut st, k);
        let not_at_k = st.not(at_k);
        let over = |st: &mut TermStore, most: u64| {
            let most = st.bv_const(32, most);
            let range = st.cmp(crate::expr::BvCmp::Ule, k, most);
            st.and_all(&[range, all, not_at_k])
        };
        let ks = [0, 1, 2];
        let right = over(&mut st, 2);
        let joins = [(k, counts.clone())];
        let check = |st: &mut TermStore, either, joins: &[(TermId, Vec<TermId>)]| {
            faults_over_k(
                st,
                (either, disjunction),
                &guards,
                joins,
                Some((k, &ks[..])),
            )
        };
        assert_eq!(check(&mut st, right, &joins), []);
        // k up to 1 leaves state 2 out; up to 3 takes in s = "aaa" + not 'a'.
        let narrow = over(&mut st, 1);
        assert_eq!(
            check(&mut st, narrow, &joins),
            [Fault::Missing { state: 2 }]
        );
        let wide = over(&mut st, 3);
        assert_eq!(check(&mut st, wide, &joins), [Fault::Wider]);
        // count = k + 1 is no state's count at its k.
        let k_plus_one = st.bin(crate::expr::BvBinOp::Add, k, one);
        let wrong = [(k_plus_one, counts.clone())];
        assert_eq!(
            check(&mut st, right, &wrong),
            (0..3)
                .map(|state| Fault::Value { state })
                .collect::<Vec<_>>()
        );
    }
}
