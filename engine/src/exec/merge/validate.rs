//! Validation of merges (`--validate-merge`): the solver checks each merge
//! against the states it replaced. Beside the context's prefix, the merged
//! condition must be the disjunction of the states' suffixes, and each
//! value the merge joined must equal each state's own on that state's
//! path. A merge that fails is an engine error: it is reported, and its
//! states go on unmerged, so that no result rests on it.

use crate::exec::executor::Executor;
use crate::expr::{TermId, TermStore};
use crate::state::State;
use crate::tree::NodeId;

/// What a query of validation refutes when it is satisfiable.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fault {
    Condition,
    Value { state: usize },
}

impl Fault {
    fn text(&self) -> String {
        match self {
            Fault::Condition => "its condition is not the disjunction of theirs".into(),
            Fault::Value { state } => format!("a value differs from state {state}'s on its path"),
        }
    }
}

/// The queries that check a merge beside its prefix, each satisfiable
/// exactly when the merge is wrong as its fault says: the merged condition
/// past the prefix `either` against `disjunction`, that of the states'
/// `guards`, and for each state, whether some value of `joins` (a merged
/// term and the states' values) differs from its own under its guard.
fn validation_queries(
    terms: &mut TermStore,
    (either, disjunction): (TermId, TermId),
    guards: &[TermId],
    joins: &[(TermId, Vec<TermId>)],
) -> Vec<(TermId, Fault)> {
    let mut queries = vec![(terms.xor(either, disjunction), Fault::Condition)];
    if joins.is_empty() {
        return queries;
    }
    for (state, &guard) in guards.iter().enumerate() {
        let unequal: Vec<TermId> = (joins.iter())
            .map(|(joined, values)| {
                let equal = terms.eq(*joined, values[state]);
                terms.not(equal)
            })
            .collect();
        let any = terms.or_all(&unequal);
        queries.push((terms.and(guard, any), Fault::Value { state }));
    }
    queries
}

impl Executor<'_> {
    /// Whether the merge into `merged` (its condition still the prefix)
    /// holds for states whose suffixes are `guards` (their `disjunction`):
    /// its condition past the prefix `either` and its `joins`; `None` when
    /// the solver could not decide. A merge the solver proves wrong is
    /// counted and reported.
    pub(super) fn merge_holds(
        &mut self,
        merged: &State,
        conditions: (TermId, TermId),
        guards: &[TermId],
        joins: &[(TermId, Vec<TermId>)],
        root: NodeId,
    ) -> Option<bool> {
        let queries = validation_queries(&mut self.cx.terms, conditions, guards, joins);
        let mut decided = true;
        let mut wrong = Vec::new();
        for (query, fault) in queries {
            match self.feasible(merged, query) {
                Ok(Some(false)) => {}
                Ok(Some(true)) => wrong.push(fault.text()),
                _ => decided = false,
            }
        }
        if !wrong.is_empty() {
            self.cx.merging.count_violation(guards.len(), root, &wrong);
            return Some(false);
        }
        decided.then_some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Guarded, Join, Sort};
    use crate::solver::{SolveResult, Solver};

    /// The faults of the queries the solver finds satisfiable.
    fn faults(st: &mut TermStore, queries: Vec<(TermId, Fault)>) -> Vec<Fault> {
        let mut solver = Solver::default();
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
        let joined = Guarded(&guards).join(&mut st, &[one, two]);
        let right = validation_queries(
            &mut st,
            (either, either),
            &guards,
            &[(joined, vec![one, two])],
        );
        assert_eq!(faults(&mut st, right), []);
        // A condition that drops a state's case.
        let wrong = validation_queries(&mut st, (g0, either), &guards, &[(joined, vec![one, two])]);
        assert_eq!(faults(&mut st, wrong), [Fault::Condition]);
        // A value that is not state 1's on its path.
        let wrong = validation_queries(
            &mut st,
            (either, either),
            &guards,
            &[(joined, vec![one, three])],
        );
        assert_eq!(faults(&mut st, wrong), [Fault::Value { state: 1 }]);
    }
}
