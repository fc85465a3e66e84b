//! The one driver loop, for exploration, replay and the spec-script store:
//! takes states in the searcher's order, checks the limits between slices,
//! runs a slice of instructions of a state and hands what it forked to the
//! searcher.

use super::executor::Executor;
use super::outcome::Ran;
use crate::search::{SearchKind, Searcher};
use crate::state::State;
use crate::tree::ExecTree;
use web_time::{Duration, Instant};

/// Instructions a state runs before the driver checks limits again.
const SLICE: u64 = 4096;

/// What the caller's check says before a slice.
pub(crate) enum Control {
    Run,
    /// End the run, for this reason (`memory limit`, `cancelled`).
    Stop(&'static str),
}

/// Why a stretch of the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stretch {
    /// No state is left: every path ended.
    Completed,
    /// A limit or the caller ended the run; the state stays pending.
    Stopped(&'static str),
    /// The stretch's time is up; the run goes on at the next call.
    Paused,
}

pub(crate) struct Driver {
    searcher: Searcher<State>,
    /// The state a paused slice left, run first by the next stretch. Like
    /// the searcher's states, it is counted in the tree's pending states.
    current: Option<State>,
    pub max_paths: Option<u64>,
    pub max_instructions: Option<u64>,
}

impl Driver {
    /// A driver that runs `first`, a state in `tree`, first.
    pub fn new(search: SearchKind, seed: u64, first: State, tree: &mut ExecTree) -> Driver {
        tree.count_pending(first.node, true);
        Driver {
            searcher: Searcher::new(search, seed),
            current: Some(first),
            max_paths: None,
            max_instructions: None,
        }
    }

    /// Another state to run (a start that forked).
    pub fn add(&mut self, s: State, tree: &mut ExecTree) {
        self.searcher.push(s, tree);
    }

    /// States waiting to run.
    pub fn pending(&self) -> usize {
        self.searcher.len() + usize::from(self.current.is_some())
    }

    /// Runs slices until no state is left, a limit or `check` stops the
    /// run, or `time` has passed (after one slice at least, so that a zero
    /// time still progresses). `check` sees the executor, the searcher and
    /// the state about to run.
    pub fn run(
        &mut self,
        exec: &mut Executor<'_>,
        time: Duration,
        mut check: impl FnMut(&Executor<'_>, &Searcher<State>, &State) -> Control,
    ) -> Stretch {
        let started = Instant::now();
        loop {
            // The state stays counted while it runs, so a paused slice
            // walks no tree path; it is counted out where it was counted in.
            let state = match self.current.take() {
                Some(s) => s,
                None => {
                    let covered = &exec.cx.covered;
                    match self
                        .searcher
                        .pop(|f, pc| covered[f as usize][pc as usize], &mut exec.cx.tree)
                    {
                        Some(s) => {
                            exec.cx.tree.count_pending(s.node, true);
                            s
                        }
                        // A cut-off query stops the run at once (below), so
                        // no state is left behind here.
                        None => return Stretch::Completed,
                    }
                }
            };
            let stop = if let Some(reached) = exec.cx.limits.reached() {
                Some(reached.stop_reason())
            } else if self
                .max_paths
                .is_some_and(|n| exec.cx.paths.len() as u64 >= n)
            {
                Some("path limit")
            } else if self
                .max_instructions
                .is_some_and(|n| exec.cx.instructions >= n)
            {
                Some("instruction limit")
            } else if let Control::Stop(reason) = check(exec, &self.searcher, &state) {
                Some(reason)
            } else {
                None
            };
            if let Some(reason) = stop {
                self.current = Some(state);
                return Stretch::Stopped(reason);
            }
            let slice = self
                .max_instructions
                .map_or(SLICE, |n| SLICE.min(n - exec.cx.instructions));
            let counted_at = state.node;
            match exec.run(state, slice) {
                // A fork whose other sides ended at once moves the state on.
                Ran::Paused(s) => {
                    if s.node != counted_at {
                        exec.cx.tree.count_pending(counted_at, false);
                        exec.cx.tree.count_pending(s.node, true);
                    }
                    self.current = Some(*s);
                }
                Ran::Forked(states) => {
                    exec.cx.tree.count_pending(counted_at, false);
                    for s in states {
                        self.searcher.push(s, &mut exec.cx.tree);
                    }
                }
                Ran::Ended => exec.cx.tree.count_pending(counted_at, false),
            }
            // A limit cut off a query or a host call inside the slice.
            if let Some(limit) = exec.cx.stopped_by {
                return Stretch::Stopped(limit.stop_reason());
            }
            if started.elapsed() >= time {
                return Stretch::Paused;
            }
        }
    }
}
