//! Running one state for a slice of instructions: on the fast path while
//! it can, else one step at a time, until the slice is used, the state
//! forks, or its path ends (and is recorded).

use crate::exec::executor::Executor;
use crate::exec::fast;
use crate::exec::outcome::{Flow, Ran};
use crate::state::State;

impl Executor<'_> {
    /// Runs `state` for at most `slice` instructions; with `to_fork`, only
    /// until it moves to another tree node (a fork whose other sides ended
    /// at once), as step mode's branch steps stop there.
    pub(crate) fn run_slice(&mut self, mut state: State, slice: u64, to_fork: bool) -> Ran {
        let mut left = slice;
        let node = state.node;
        while left > 0 {
            // A traced replay records every branch, so it runs through `step`.
            if self.cx.records.trace.is_none() {
                left -= self.run_fast(&mut state, left);
            }
            if left == 0 {
                break;
            }
            left -= 1;
            match self.step(&mut state) {
                Ok(Flow::Next) if to_fork && state.node != node => break,
                Ok(Flow::Next) => {}
                Ok(Flow::Fork(mut siblings)) => {
                    siblings.insert(0, state);
                    return Ran::Forked(siblings);
                }
                Err(end) => {
                    let node = state.node;
                    self.end_path(state, end);
                    return Ran::Ended(node);
                }
            }
        }
        Ran::Paused(Box::new(state))
    }

    /// [`fast::run`] on `s`, counted.
    fn run_fast(&mut self, s: &mut State, max: u64) -> u64 {
        let cx = &mut *self.cx;
        let ran = fast::run(
            &self.program,
            &mut cx.caches.fast,
            &mut cx.records.covered,
            &mut cx.terms,
            s,
            max,
        );
        cx.counters.instructions += ran;
        ran
    }
}
