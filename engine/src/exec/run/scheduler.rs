//! The one loop that runs states, for exploration, replay and the
//! spec-script store: it takes states in the searcher's order, checks the
//! limits between slices, runs a slice of instructions of a state
//! (`slice.rs`) and hands what it forked to the searcher. While states
//! merge (`exec/merge/`), it runs the merge's steps instead, checking the
//! limits between them too.

use crate::exec::context::Context;
use crate::exec::executor::Executor;
use crate::exec::outcome::Ran;
use crate::search::{SearchKind, Searcher};
use crate::state::State;
use crate::tree::ExecTree;
use web_time::{Duration, Instant};

/// Instructions a state runs before the scheduler checks limits again.
const SLICE: u64 = 4096;

/// What the caller's check says before a slice.
pub(crate) enum Control {
    Run,
    /// End the run, for this reason (`memory limit`, `cancelled`).
    Stop(&'static str),
}

/// How far a stretch of the loop may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pace {
    /// Until the run is over, a limit stops it, or its time is up.
    Free,
    /// Until the state that runs next has run one instruction.
    Instruction,
    /// Until the state that runs next forks or ends.
    Branch,
}

/// What the state that ran last did in its slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moved {
    /// It goes on from where it stopped.
    On,
    /// It forked (the step's events come from the tree).
    Forked,
    /// Its path ended (or was dropped) at this node.
    Ended(usize),
    /// It left the loop of its merging context at this node, and waits
    /// for the loop's other states.
    Suspended(usize),
    /// No state ran: a step went on with the merges under way.
    Merged,
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
    /// A step of the pace asked for is done.
    Stepped(Moved),
}

pub(crate) struct Scheduler {
    searcher: Searcher<State>,
    /// The state a paused slice left, run first by the next stretch. Like
    /// the searcher's states, it is counted in the tree's pending states.
    current: Option<State>,
    /// A step of the pace asked for that is done, told once the merges it
    /// set off are (step mode shows a merge in the step that made it).
    stepped: Option<Moved>,
    pub max_paths: Option<u64>,
    pub max_instructions: Option<u64>,
}

impl Scheduler {
    /// A scheduler that runs `first`, a state in `tree`, first.
    pub fn new(search: SearchKind, seed: u64, first: State, tree: &mut ExecTree) -> Scheduler {
        tree.count_pending(first.node, true);
        Scheduler {
            searcher: Searcher::new(search, seed),
            current: Some(first),
            stepped: None,
            max_paths: None,
            max_instructions: None,
        }
    }

    /// Another state to run (a start that forked).
    pub fn add(&mut self, s: State, tree: &mut ExecTree) {
        self.searcher.push(s, tree);
    }

    /// States waiting to run (not those waiting at a loop's exit).
    pub fn pending(&self) -> usize {
        self.searcher.len() + usize::from(self.current.is_some())
    }

    /// The state that runs next, taken from the searcher if need be (as
    /// the next stretch would take it, so a step changes no order).
    pub fn next(&mut self, exec: &mut Executor<'_>) -> Option<&State> {
        if self.current.is_none() {
            self.current = self.take(exec);
        }
        self.current.as_ref()
    }

    /// The step a stop ended before the merges it set off were done: what
    /// the state that ran last did.
    pub fn take_stepped(&mut self) -> Option<Moved> {
        self.stepped.take()
    }

    /// The state taken to run next, if any.
    pub fn current(&self) -> Option<&State> {
        self.current.as_ref()
    }

    /// States waiting in the searcher (besides the current one).
    pub fn waiting(&self) -> usize {
        self.searcher.len()
    }

    /// A waiting state to hand to another job of a parallel run: the
    /// shallowest (the oldest of equals), whose subtree is likely the
    /// largest, of those outside merging contexts and below this run's
    /// root (a state there is the whole run); counted out of the tree.
    pub fn take_for_another(&mut self, tree: &mut ExecTree) -> Option<State> {
        let rank = |s: &State| (s.merging.is_none() && s.node != 0).then_some(s.depth);
        self.searcher.take_first(rank, tree)
    }

    /// Every waiting state taken out (the current one first), counted out
    /// of `tree`, and the states from now on taken in `search`'s order:
    /// the caller adds back those the run keeps.
    pub fn take_all(&mut self, search: SearchKind, seed: u64, tree: &mut ExecTree) -> Vec<State> {
        let mut states: Vec<State> = self.current.take().into_iter().collect();
        for s in &states {
            tree.count_pending(s.node, false);
        }
        states.extend(self.searcher.drain(tree));
        self.searcher = Searcher::new(search, seed);
        states
    }

    /// The searcher's next state, counted in the tree as running.
    fn take(&mut self, exec: &mut Executor<'_>) -> Option<State> {
        let covered = &exec.cx.records.covered;
        let s = self.searcher.pop(
            |f, pc| covered[f as usize][pc as usize],
            &mut exec.cx.records.tree,
        )?;
        // The state stays counted while it runs, so a paused slice walks
        // no tree path; it is counted out where it was counted in.
        exec.cx.records.tree.count_pending(s.node, true);
        Some(s)
    }

    /// Runs slices until no state is left, a limit or `check` stops the
    /// run, `time` has passed (after one slice at least, so that a zero
    /// time still progresses), or a step of `pace` is done. `check` sees
    /// the executor, the searcher and the state about to run (none before
    /// a step of a merge).
    pub fn run(
        &mut self,
        exec: &mut Executor<'_>,
        time: Duration,
        pace: Pace,
        mut check: impl FnMut(&Executor<'_>, &Searcher<State>, Option<&State>) -> Control,
    ) -> Stretch {
        let started = Instant::now();
        loop {
            if exec.cx.merging.merging() {
                if let Some(reason) = self.stop_reason(exec, &mut check, None) {
                    return self.stopped(exec, reason);
                }
                let ended = exec.cx.merging.merges_ended();
                for s in exec.merge_next() {
                    self.searcher.push(s, &mut exec.cx.records.tree);
                }
                // A limit cut off a query of the merge.
                if let Some(limit) = exec.cx.bounds.stopped_by {
                    return self.stopped(exec, limit.stop_reason());
                }
                // Step mode takes a merge a step: the step that set the
                // merges off ends with the first, and each further one is
                // a step (no state runs before the merges are done).
                if pace != Pace::Free && exec.cx.merging.merges_ended() > ended {
                    let moved = self.stepped.take().unwrap_or(Moved::Merged);
                    if exec.cx.merging.next_merge().is_some() {
                        return Stretch::Stepped(moved);
                    }
                    self.stepped = Some(moved);
                }
                if started.elapsed() >= time {
                    return Stretch::Paused;
                }
                continue;
            }
            // (A run that goes on freely past an unfinished step shows it
            // no more.)
            if let Some(moved) = self.stepped.take().filter(|_| pace != Pace::Free) {
                return Stretch::Stepped(moved);
            }
            let state = match self.current.take().or_else(|| self.take(exec)) {
                Some(s) => s,
                // A context is released when its last state inside the
                // loop stops there: none waits when no state is left.
                None if exec.cx.merging.suspended() > 0 => {
                    debug_assert!(false, "a merging context was never released");
                    for released in exec.cx.merging.release_all() {
                        exec.queue_merge(released);
                    }
                    continue;
                }
                // A cut-off query stops the run at once (below), so no
                // state is left behind here.
                None => return Stretch::Completed,
            };
            if let Some(reason) = self.stop_reason(exec, &mut check, Some(&state)) {
                self.current = Some(state);
                return self.stopped(exec, reason);
            }
            let slice = self.slice(exec, pace);
            let counted_at = state.node;
            let ran = exec.run_slice(state, slice, pace == Pace::Branch);
            let moved = self.hand_on(exec, counted_at, ran);
            // A limit cut off a query or a host call inside the slice.
            if let Some(limit) = exec.cx.bounds.stopped_by {
                return self.stopped(exec, limit.stop_reason());
            }
            match (pace, moved) {
                (Pace::Instruction, _)
                | (Pace::Branch, Moved::Forked | Moved::Ended(_) | Moved::Suspended(_)) => {
                    // The step is told once the merges it set off are done.
                    self.stepped = Some(moved);
                    continue;
                }
                _ => {}
            }
            if started.elapsed() >= time {
                return Stretch::Paused;
            }
        }
    }

    /// The run's end for `reason`: states waiting at loop exits go back to
    /// the searcher unmerged, so that the tree and the report count them
    /// pending where they are, as every state the run leaves.
    fn stopped(&mut self, exec: &mut Executor<'_>, reason: &'static str) -> Stretch {
        self.give_back(exec.cx);
        Stretch::Stopped(reason)
    }

    /// Hands the states waiting at loop exits, in contexts or merges, back
    /// to the searcher unmerged (the run stops).
    pub fn give_back(&mut self, cx: &mut Context) {
        for s in cx.merging.give_back() {
            self.searcher.push(s, &mut cx.records.tree);
        }
    }

    /// Why the run stops before `state` runs (or, with none, before a
    /// step of a merge), if it does: a limit of the run's, the path or
    /// instruction limit (before a state: a merge ends what the paths and
    /// instructions so far set off), or the caller's `check`.
    fn stop_reason(
        &self,
        exec: &Executor<'_>,
        check: &mut impl FnMut(&Executor<'_>, &Searcher<State>, Option<&State>) -> Control,
        state: Option<&State>,
    ) -> Option<&'static str> {
        // A slice may build up to a million terms: the term store's next
        // doubling counts as in use before it happens.
        let growth = exec.cx.terms.growth_bytes(1 << 20);
        if let Some(reached) = exec.cx.bounds.limits.reached_with(growth) {
            Some(reached.stop_reason())
        } else if state.is_some()
            && self
                .max_paths
                .is_some_and(|n| exec.cx.records.paths.len() as u64 >= n)
        {
            Some("path limit")
        } else if state.is_some()
            && self
                .max_instructions
                .is_some_and(|n| exec.cx.counters.instructions >= n)
        {
            Some("instruction limit")
        } else if let Control::Stop(reason) = check(exec, &self.searcher, state) {
            Some(reason)
        } else {
            None
        }
    }

    /// The instructions the next slice may run at `pace`, within the
    /// instruction limit.
    fn slice(&self, exec: &Executor<'_>, pace: Pace) -> u64 {
        let slice = match pace {
            Pace::Instruction => 1,
            Pace::Free | Pace::Branch => SLICE,
        };
        self.max_instructions
            .map_or(slice, |n| slice.min(n - exec.cx.counters.instructions))
    }

    /// Takes what a slice of the state counted pending at node
    /// `counted_at` gave: the state to run on, the states it forked into
    /// (to the searcher), or none; the tree's pending counts follow.
    fn hand_on(&mut self, exec: &mut Executor<'_>, counted_at: usize, ran: Ran) -> Moved {
        let tree = &mut exec.cx.records.tree;
        match ran {
            // A fork whose other sides ended at once moves the state on.
            Ran::Paused(s) => self.go_on(tree, counted_at, *s),
            Ran::Forked(states) => {
                tree.count_pending(counted_at, false);
                for s in states {
                    self.searcher.push(s, tree);
                }
                Moved::Forked
            }
            // A merge moves the state to the merged node.
            Ran::AtMergePoint(s) => {
                let s = exec.merge_at_point(*s, &mut self.searcher);
                self.go_on(&mut exec.cx.records.tree, counted_at, s)
            }
            Ran::Suspended(s) => {
                tree.count_pending(counted_at, false);
                let (merging, node) = (s.merging, s.node);
                exec.cx.merging.suspend(*s);
                self.release(exec, merging);
                Moved::Suspended(node)
            }
            Ran::Ended { node, merging } => {
                tree.count_pending(counted_at, false);
                self.release(exec, merging);
                Moved::Ended(node)
            }
        }
    }

    /// Runs `s`, counted pending at node `counted_at`, next: counted where
    /// it is now.
    fn go_on(&mut self, tree: &mut ExecTree, counted_at: usize, s: State) -> Moved {
        let moved = s.node != counted_at;
        if moved {
            tree.count_pending(counted_at, false);
            tree.count_pending(s.node, true);
        }
        self.current = Some(s);
        if moved {
            Moved::Forked
        } else {
            Moved::On
        }
    }

    /// Queues the merge of the states of merging context `merging` once
    /// none of them is left inside its loop.
    fn release(&mut self, exec: &mut Executor<'_>, merging: Option<u32>) {
        let Some(id) = merging else {
            return;
        };
        if let Some(released) = exec.cx.merging.release_if_done(id, &exec.cx.records.tree) {
            exec.queue_merge(released);
        }
    }
}
