//! The solver's queries on a path, cut off by the run's limits: whether a
//! condition is feasible, and a value under a model of the path.

use crate::exec::executor::Executor;
use crate::exec::outcome::End;
use crate::expr::{Model, TermId};
use crate::limits::{Checkpoint, Reached};
use crate::report::DropCause;
use crate::solver::{Beside, SolveResult};
use crate::state::value::Val;
use crate::state::State;

impl Executor<'_> {
    /// A solver query, cut off by the run's limits: one hard query must not
    /// keep a run going past its time or memory limit or a stop.
    pub(crate) fn check(&mut self, constraints: &[TermId]) -> SolveResult {
        self.cx
            .solver
            .check_within(&mut self.cx.terms, constraints, &self.cx.bounds.limits)
    }

    /// Whether a limit of the run is reached (an `unknown` came from it, or
    /// a host call must stop): the state is then left unexplored, not
    /// dropped as undecidable, and the run ends.
    pub(crate) fn cut_off(&mut self) -> bool {
        let reached = self
            .cx
            .solver
            .take_stopped_by()
            .or_else(|| self.cx.bounds.limits.reached());
        if let Some(limit) = reached {
            self.cx.bounds.stopped_by.get_or_insert(limit);
        }
        reached.is_some()
    }

    /// The bits of `t` under `model` (0 for a non-bit-vector); a limit
    /// reached while evaluating it (a term over a large array) ends the
    /// state as a cut-off query does.
    pub(crate) fn bits_under(&mut self, t: TermId, model: &Model) -> Result<Option<u64>, End> {
        let checkpoint = &mut Checkpoint::new(self.cx.bounds.limits);
        let value = self.cx.terms.eval_within(t, model, checkpoint);
        Ok(value.map_err(|limit| self.cut_at(limit))?.as_bv())
    }

    /// Ends the state at `limit`, reached while building its terms: it is
    /// left unexplored and the run ends, as at a cut-off query.
    pub(crate) fn cut_at(&mut self, limit: Reached) -> End {
        self.cx.bounds.stopped_by.get_or_insert(limit);
        End::CutOff
    }

    /// Is the path condition of `s` together with `extra` satisfiable?
    /// `None` when the solver cannot tell; a cut-off query ends the state.
    pub(crate) fn feasible(&mut self, s: &State, extra: TermId) -> Result<Option<bool>, End> {
        Ok(match self.beside(s, extra)? {
            Beside::Sat(_) => Some(true),
            Beside::Unsat => Some(false),
            Beside::Unknown(_) => None,
        })
    }

    /// Whether `extra` can hold beside the path condition of `s`, with the
    /// witness of its slice when it can; a cut-off query ends the state.
    /// Every constraint was added as satisfiable, so only those connected
    /// to `extra` are asked.
    pub(crate) fn beside(&mut self, s: &State, extra: TermId) -> Result<Beside, End> {
        let extra = self.unfolded(s, extra);
        let answer = self.cx.solver.check_beside_within(
            &mut self.cx.terms,
            &s.condition.constraints(),
            &[extra],
            &self.cx.bounds.limits,
        );
        match answer {
            Beside::Unknown(_) if self.cut_off() => Err(End::CutOff),
            answer => Ok(answer),
        }
    }

    /// [`beside`](Self::beside) for a condition with a base form, which a
    /// branch's query is asked with through the address-aware cache.
    pub(crate) fn beside_formed(
        &mut self,
        s: &State,
        extra: TermId,
        form: Option<TermId>,
    ) -> Result<Beside, End> {
        match self.beside_with_form(s, extra, form) {
            Some(Beside::Unknown(_)) if self.cut_off() => Err(End::CutOff),
            Some(answer) => Ok(answer),
            None => self.beside(s, extra),
        }
    }

    /// `t` with the hidden addresses of the base symbols in it: the solver
    /// never sees a base symbol, which it would take for a free input.
    pub(crate) fn unfolded(&mut self, s: &State, t: TermId) -> TermId {
        if self.cx.terms.has_base(t) {
            self.with_facts(s, t)
        } else {
            t
        }
    }

    /// `v` with the hidden addresses of the base symbols in it, where a
    /// value leaves the engine's terms (a size, an exit code, a message).
    pub(crate) fn unfolded_val(&mut self, s: &State, v: Val) -> Val {
        match v {
            Val::Sym(t) if self.cx.terms.has_base(t) => {
                let t = self.with_facts(s, t);
                Val::from_term(&self.cx.terms, t)
            }
            _ => v,
        }
    }

    /// The value of `t` in a model of the path condition.
    pub(crate) fn value_now(&mut self, s: &State, t: TermId) -> Result<u64, End> {
        // Unsat cannot be: every constraint was added as satisfiable. A
        // guided replay takes the test's values.
        let guide = self.cx.guidance.guide.clone();
        self.model_value(s, &guide, t)?
            .ok_or(End::Dropped(DropCause::Undecided))
    }

    /// The value of `t` in a model of the path condition with `extra`, or
    /// `None` when there is none (or the solver cannot tell); a cut-off
    /// query ends the state.
    pub(crate) fn model_value(
        &mut self,
        s: &State,
        extra: &[TermId],
        t: TermId,
    ) -> Result<Option<u64>, End> {
        let mut query = s.condition.constraints();
        query.extend(extra.iter().map(|&e| self.unfolded(s, e)));
        let t = self.unfolded(s, t);
        match self.check(&query) {
            SolveResult::Sat(model) => self.bits_under(t, &model),
            SolveResult::Unknown(_) if self.cut_off() => Err(End::CutOff),
            SolveResult::Unsat | SolveResult::Unknown(_) => Ok(None),
        }
    }
}
