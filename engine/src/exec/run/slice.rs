//! Running one state for a slice of instructions: on the fast path while
//! it can, else one step at a time, until the slice is used, the state
//! forks, its path ends (and is recorded), it leaves the loop of its
//! merging context (and waits), or (PAT) comes to the loop's head.

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
        // A traced replay records every branch, so it runs through `step`.
        let fast = self.cx.records.trace.is_none();
        let mut fast_next = fast;
        loop {
            if self.cx.merging.has_left(&state) {
                return Ran::Suspended(Box::new(state));
            }
            // (A state that starts its slice there has been seen there.)
            if left < slice && self.cx.merging.at_loop_head(&state) {
                return Ran::AtLoopHead(Box::new(state));
            }
            if left == 0 {
                return Ran::Paused(Box::new(state));
            }
            if fast_next {
                fast_next = false;
                let ran = self.run_fast(&mut state, left);
                if ran > 0 {
                    left -= ran;
                    continue;
                }
            }
            fast_next = fast;
            left -= 1;
            match self.step(&mut state) {
                Ok(Flow::Next) if to_fork && state.node != node => {
                    return Ran::Paused(Box::new(state))
                }
                Ok(Flow::Next) => {}
                Ok(Flow::Fork(mut siblings)) => {
                    siblings.insert(0, state);
                    return Ran::Forked(siblings);
                }
                Err(end) => {
                    let (node, merging) = (state.node, state.merging);
                    self.end_path(state, end);
                    return Ran::Ended { node, merging };
                }
            }
        }
    }

    /// [`fast::run`] on `s`, counted.
    fn run_fast(&mut self, s: &mut State, max: u64) -> u64 {
        let cx = &mut *self.cx;
        let bounds = cx.merging.bounds(s);
        let ran = fast::run(
            &self.program,
            &mut cx.caches.fast,
            &mut cx.records.covered,
            &mut cx.terms,
            s,
            max,
            bounds,
        );
        cx.counters.instructions += ran;
        ran
    }
}
