//! Parametric instructions: `drop`, and `select`: a fork on a symbolic
//! condition, so that each side's value is an outcome of its own, or by
//! the run's rules an `ite` of the values (always a fork for references,
//! which have no terms).

use crate::exec::executor::Executor;
use crate::exec::fork::{Decision, Truth};
use crate::exec::outcome::{End, Flow};
use crate::report::ForkKind;
use crate::state::value::Val;
use crate::state::State;

impl Executor<'_> {
    pub(super) fn drop_operand(&mut self, s: &mut State) -> Result<Flow, End> {
        s.pop();
        Ok(Flow::Next)
    }

    pub(super) fn select(&mut self, s: &mut State) -> Result<Flow, End> {
        if self.cx.outcomes.fork_selects {
            return self.select_by_fork(s);
        }
        let c = self.decide_top(s, Decision::Truth);
        let b = s.pop();
        let a = s.pop();
        let v = self.select_value(c, a, b);
        s.stack.push(v);
        Ok(Flow::Next)
    }

    /// `select` as a fork: by the run's rules, and always for references.
    pub(super) fn select_by_fork(&mut self, s: &mut State) -> Result<Flow, End> {
        let c = self.decide_top(s, Decision::Truth);
        let b = s.pop();
        let a = s.pop();
        // A known condition takes its side without a fork, and equal
        // values need none.
        if a == b {
            s.stack.push(a);
            return Ok(Flow::Next);
        }
        self.branch_if(s, c, ForkKind::Select, None, |s, taken| {
            s.stack.push(if taken { a } else { b })
        })
    }

    /// `select` with a symbolic condition is an `ite`, without forking; floats
    /// (always concrete) need a concrete condition.
    fn select_value(&mut self, c: Val, a: Val, b: Val) -> Val {
        let c = match self.truth(c) {
            Truth::Known(true) => return a,
            Truth::Known(false) => return b,
            Truth::Sym(c) => c,
        };
        if a == b {
            return a;
        }
        let (ta, tb) = (a.term(&mut self.cx.terms), b.term(&mut self.cx.terms));
        let ite = self.cx.terms.ite(c, ta, tb);
        let ite = self.cx.caches.simplifier.simplify(&mut self.cx.terms, ite);
        Val::from_term(&self.cx.terms, ite)
    }
}
