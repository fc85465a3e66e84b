//! Values made concrete on a path: a symbolic value fixed to its value in
//! a model of the path condition, the equality added to the path, and the
//! path's notes and report saying so.

use crate::exec::executor::Executor;
use crate::exec::outcome::End;
use crate::expr::TermId;
use crate::state::value::Val;
use crate::state::State;

impl Executor<'_> {
    /// The value of `v` on this path: a symbolic value is fixed to a model
    /// value, with that equality added to the path condition and a note.
    pub(crate) fn concretize(&mut self, s: &mut State, v: Val, what: &str) -> Result<u64, End> {
        let value = match self.settle(s, v) {
            Val::Con { bits, .. } => bits,
            Val::Sym(t) => {
                let value = self.pin(s, t)?;
                s.note(format!(
                    "concretised {what} to {value} at {}",
                    self.program.location_text(s.at)
                ));
                s.mark_concretised(what.to_string(), s.at);
                value
            }
        };
        // A pointer the host takes as a number keeps its blocks where
        // they are.
        self.pin_number(s, v, value);
        Ok(value)
    }

    /// [`concretize`](Self::concretize) for a number the program keeps (a
    /// float made of it): a pointer's blocks stay where they are.
    pub(crate) fn concretize_kept(
        &mut self,
        s: &mut State,
        v: Val,
        what: &str,
    ) -> Result<u64, End> {
        let value = self.concretize(s, v, what)?;
        self.pin_kept_number(s, v, value);
        Ok(value)
    }

    /// Fixes the term `t` to its value in a model of the path condition,
    /// and returns it (where the path ends there, or every value is
    /// explored elsewhere, so nothing is lost).
    pub(crate) fn pin(&mut self, s: &mut State, t: TermId) -> Result<u64, End> {
        let value = self.value_now(s, t)?;
        let c = self.cx.terms.bv_const(self.cx.terms.width(t), value);
        let eq = self.cx.terms.eq(t, c);
        s.condition.assume(&mut self.cx.terms, eq, None);
        Ok(value)
    }
}
