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

/// The number of queries that check a merge of `states` states that
/// joined `joins`: the condition's, and one per state where values joined.
fn query_count(states: usize, joins: &[(TermId, Vec<TermId>)]) -> usize {
    match joins.is_empty() {
        true => 1,
        false => 1 + states,
    }
}

/// Query `index` of those that check a merge beside its prefix, which is
/// satisfiable exactly when the merge is wrong as its fault says. Query 0
/// sets the merged condition past the prefix `either` against
/// `disjunction`, that of the states' `guards`; query `1 + i` asks whether
/// some value of `joins` (a merged term and the states' values) differs
/// from state `i`'s own under its guard.
fn validation_query(
    terms: &mut TermStore,
    index: usize,
    (either, disjunction): (TermId, TermId),
    guards: &[TermId],
    joins: &[(TermId, Vec<TermId>)],
) -> (TermId, Fault) {
    let Some(state) = index.checked_sub(1) else {
        return (terms.xor(either, disjunction), Fault::Condition);
    };
    let unequal: Vec<TermId> = (joins.iter())
        .map(|(joined, values)| {
            let equal = terms.eq(*joined, values[state]);
            terms.not(equal)
        })
        .collect();
    let any = terms.or_all(&unequal);
    (terms.and(guards[state], any), Fault::Value { state })
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
/// states' suffixes, their `guards` (the suffixes) and its `joins`.
pub(super) struct Checked<'a> {
    pub(super) merged: &'a State,
    pub(super) conditions: (TermId, TermId),
    pub(super) guards: &'a [TermId],
    pub(super) joins: &'a [(TermId, Vec<TermId>)],
}

impl Executor<'_> {
    /// Asks the next query of `validation` of `checked`; whether every
    /// query has been asked.
    pub(super) fn validate_step(&mut self, checked: &Checked, validation: &mut Validation) -> bool {
        let count = query_count(checked.guards.len(), checked.joins);
        if validation.next < count {
            let (query, fault) = validation_query(
                &mut self.cx.terms,
                validation.next,
                checked.conditions,
                checked.guards,
                checked.joins,
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
        let mut solver = Solver::default();
        let queries: Vec<(TermId, Fault)> = (0..query_count(guards.len(), joins))
            .map(|index| validation_query(st, index, conditions, guards, joins))
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
}
