//! Going on after a fork: an operation run on every side, each state
//! whose operation ends its path ended, and a guard that ends the paths
//! where a bad condition holds.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::expr::TermId;
use crate::state::State;

impl Executor<'_> {
    /// Runs `then` in `s`, which took alternative `chosen` of a fork, and
    /// in each sibling with its own; a state whose `then` fails ends, and
    /// every state that goes on is in the flow (`s` first, or a sibling in
    /// its place).
    pub(crate) fn each_alternative(
        &mut self,
        s: &mut State,
        chosen: usize,
        siblings: Vec<(usize, State)>,
        then: &mut dyn FnMut(&mut Self, &mut State, usize) -> Result<Flow, End>,
    ) -> Result<Flow, End> {
        let mut going_on = Vec::new();
        for (i, mut sibling) in siblings {
            match then(self, &mut sibling, i) {
                Ok(flow) => {
                    going_on.push(sibling);
                    if let Flow::Fork(more) = flow {
                        going_on.extend(more);
                    }
                }
                Err(end) => self.end_path(sibling, end),
            }
        }
        match then(self, s, chosen) {
            Ok(Flow::Fork(more)) => going_on.extend(more),
            Ok(Flow::Next) => {}
            Err(end) => {
                let Some(next) = going_on.pop() else {
                    return Err(end);
                };
                let ended = std::mem::replace(s, next);
                self.end_path(ended, end);
            }
        }
        Ok(if going_on.is_empty() {
            Flow::Next
        } else {
            Flow::Fork(going_on)
        })
    }

    /// Where `bad` can hold, a path ends with `end`; `s` continues where it
    /// cannot (or ends with `end` if it must hold).
    pub(crate) fn guard(&mut self, s: &mut State, bad: TermId, end: End) -> Result<(), End> {
        self.guard_with(s, bad, &mut |_, _| end.clone())
    }

    /// [`guard`](Self::guard) of an end that depends on the path: each
    /// state where `bad` holds ends with what `end_of` makes of it (often
    /// after giving a symbolic address its value there).
    pub(crate) fn guard_with(
        &mut self,
        s: &mut State,
        bad: TermId,
        end_of: &mut dyn FnMut(&mut Self, &mut State) -> End,
    ) -> Result<(), End> {
        let ok = self.cx.terms.not(bad);
        let (chosen, siblings) = self.fork(s, &[ok, bad])?;
        for (_, mut sibling) in siblings {
            let end = end_of(self, &mut sibling);
            self.end_path(sibling, end);
        }
        if chosen == 1 {
            return Err(end_of(self, s));
        }
        Ok(())
    }
}
