//! Running one state for a slice of instructions: on the fast path while
//! it can, else one step at a time, until the slice is used, the state
//! forks, its path ends (and is recorded), it leaves the loop of its
//! merging context (and waits), or (PAT) comes to a merge point.

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
            if state.at_merge_point && self.cx.merging.in_watched_loop(&state) {
                return Ran::AtMergePoint(Box::new(state));
            }
            if left == 0 {
                return Ran::Paused(Box::new(state));
            }
            if fast_next {
                fast_next = false;
                let ran = self.run_fast(&mut state, left);
                if ran > 0 {
                    left -= ran;
                    state.at_merge_point = self.cx.merging.at_loop_head(&state);
                    continue;
                }
            }
            fast_next = fast;
            left -= 1;
            let before = state.node;
            match self.step(&mut state) {
                // (A fork whose other sides ended at once put the state
                // on its side, a merge point.)
                Ok(Flow::Next) if state.node == before => {
                    state.at_merge_point = self.cx.merging.at_loop_head(&state);
                }
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
