//! A result still symbolic where a path ends (the entry's results, an
//! `exit` code), split into one path per feasible value when it chooses
//! among a few (an `ite`, a lookup table), so that each outcome has a test
//! of its own: optimised code computes many of its branches as values, and
//! a path that returned a term would show one of its outcomes only.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::expr::{Node, Sort, TermId, TermStore};
use crate::report::ForkKind;
use crate::solver::SolveResult;
use crate::state::value::Val;
use crate::state::State;
use rustc_hash::FxHashSet;

/// Whether `t` chooses among values (an `ite`, a read of memory at a
/// symbolic index, as from a lookup table, or one of `ks`, over which
/// states merged under PAT): only such a result can take a few values.
/// The walk does not enter arrays, which hold the whole of memory.
fn chooses(terms: &TermStore, t: TermId, ks: &FxHashSet<TermId>) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        match *terms.node(u) {
            Node::Ite(..) => return true,
            Node::Symbol(_) if ks.contains(&u) => return true,
            // A read at a symbolic index: a lookup. One at a known index
            // is a stored value, perhaps an input's byte.
            Node::Select(_, index) if terms.as_bv_const(index).is_none() => return true,
            ref node => stack.extend(node.children().filter(|&c| terms.sort(c) != Sort::Array)),
        }
    }
    false
}

/// One value the results can take: the condition that gives it, and the
/// results as concrete values.
struct Alternative {
    condition: TermId,
    values: Vec<Val>,
}

impl Executor<'_> {
    /// Ends the path of `s` with `end` of `results`, first split over the
    /// values the symbolic ones can take, one path each, when they choose
    /// among at most as many as the run's rule allows; one that can take
    /// more stays a term, with a note, and arithmetic on the inputs (a sum)
    /// stays a term without a query.
    pub(crate) fn end_with_results(
        &mut self,
        s: &mut State,
        results: Vec<Val>,
        end: fn(Vec<Val>) -> End,
    ) -> Result<Flow, End> {
        s.pointer_results = (results.iter().enumerate().take(64))
            .filter(|(_, v)| matches!(v, Val::Sym(t) if self.cx.terms.has_base(*t)))
            .fold(0, |bits, (i, _)| bits | 1 << i);
        let results: Vec<Val> = results.into_iter().map(|v| self.settle(s, v)).collect();
        let max = self.cx.outcomes.result_values as usize;
        let terms: Vec<TermId> = results
            .iter()
            .filter_map(|v| match v {
                Val::Sym(t) => Some(*t),
                Val::Con { .. } => None,
            })
            .collect();
        if terms.is_empty() || max == 0 || s.depth >= self.cx.bounds.max_depth {
            return Err(end(results));
        }
        let ks = self.cx.merging.ks();
        if !terms.iter().any(|&t| chooses(&self.cx.terms, t, ks)) {
            // Arithmetic on the inputs (a sum, a quotient, an input itself)
            // takes more values than a split would show, and telling how
            // many would cost as many queries: it stays a term.
            return Err(end(results));
        }
        let Some(mut alternatives) = self.result_values(s, &results, max)? else {
            s.note(format!(
                "the result can take more than {max} values: it stays a term"
            ));
            return Err(end(results));
        };
        if alternatives.len() < 2 {
            // The path fixes the results already.
            return Err(end(alternatives.pop().map_or(results, |a| a.values)));
        }
        let conditions: Vec<TermId> = alternatives.iter().map(|a| a.condition).collect();
        let (chosen, siblings) = self.fork_satisfied(s, &conditions, ForkKind::Result)?;
        for (i, sibling) in siblings {
            self.end_path(sibling, end(alternatives[i].values.clone()));
        }
        Err(end(alternatives.swap_remove(chosen).values))
    }

    /// Every value of `results` the path allows, each with its condition,
    /// when they are at most `max` (and the solver could tell them all).
    fn result_values(
        &mut self,
        s: &State,
        results: &[Val],
        max: usize,
    ) -> Result<Option<Vec<Alternative>>, End> {
        let mut alternatives = Vec::new();
        let mut query = s.condition.constraints();
        loop {
            let model = match self.check(&query) {
                SolveResult::Sat(model) => model,
                SolveResult::Unsat => return Ok(Some(alternatives)),
                SolveResult::Unknown(_) if self.cut_off() => return Err(End::CutOff),
                SolveResult::Unknown(_) => return Ok(None),
            };
            if alternatives.len() == max {
                return Ok(None);
            }
            let mut equalities = Vec::new();
            let mut values = Vec::with_capacity(results.len());
            for &v in results {
                let Val::Sym(t) = v else {
                    values.push(v);
                    continue;
                };
                let width = self.cx.terms.width(t);
                let bits = self.bits_under(t, &model)?.unwrap_or(0);
                let constant = self.cx.terms.bv_const(width, bits);
                equalities.push(self.cx.terms.eq(t, constant));
                values.push(Val::Con { width, bits });
            }
            let condition = self.cx.terms.and_all(&equalities);
            query.push(self.cx.terms.not(condition));
            alternatives.push(Alternative { condition, values });
        }
    }
}
