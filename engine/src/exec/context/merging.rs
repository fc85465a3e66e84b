//! The run's merging: which states it merges ([`MergeMode`]), and its
//! merging contexts. A context opens where a state first forks inside a
//! loop with a side that leaves it; the state and every state forked from
//! it belong to it. A state of a context that leaves the loop (its frame
//! at the loop's depth goes past the loop's pcs, or returns) is suspended
//! there, in the group of states with its merge key (its exit and call
//! stack). When no state of the context is left inside the loop, neither
//! pending below the context's tree node nor running, the context is
//! released: its groups queue to merge (`exec/merge/`) and go on, and a
//! state leaves the context for good.

use crate::exec::merge::MergeJob;
use crate::expr::{SymbolId, TermId, TermStore};
use crate::report::{MergeReport, MergeStats};
use crate::search::Pending;
use crate::state::{Frame, MergeKey, MergeMode, MergeOptions, PathCondition, State};
use crate::tree::{ExecTree, NodeId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::ops::Range;
use std::rc::Rc;
use symplay_wasm::ir::Code;

/// A context's number, unique in its run.
pub(crate) type ContextId = u32;

/// The loop a context watches: the frame it runs in and its pcs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct WatchedLoop {
    /// The store function of the loop, and its pcs: from its header to
    /// its block's end.
    func: u32,
    body: Range<u32>,
    /// The number of frames of a state running the loop.
    depth: usize,
}

impl WatchedLoop {
    /// Whether `frame`, at the loop's depth, runs the loop.
    fn runs(&self, frame: &Frame) -> bool {
        frame.func == self.func && self.body.contains(&frame.pc)
    }
}

struct MergingContext {
    watched: WatchedLoop,
    /// The tree node of the state that opened it: every state of the
    /// context is at or below it, so its pending count is the context's
    /// states still inside the loop (suspended ones are counted out).
    root: NodeId,
    /// The path condition of the state that opened it: what every state of
    /// the context assumed before the loop.
    prefix: PathCondition,
    /// Whether a path of the context ended inside the loop.
    ended_inside: bool,
    /// The conditions of the sides of each fork inside the loop that kept
    /// every side its path allowed, sorted: sides that cover every case
    /// there (a fork the path limit or an undecided query cut is left out).
    complete_forks: FxHashSet<Vec<TermId>>,
    /// Suspended states, grouped by merge key in the order each group
    /// first arrived.
    groups: Vec<(MergeKey, Vec<State>)>,
    /// Under PAT, the context's states as each came to a merge point (at
    /// most [`MAX_SNAPSHOTS`]), for incremental merging.
    snapshots: Vec<State>,
}

/// Snapshots a context keeps at most: past them, a state coming to the
/// merge point may still merge with those kept.
pub(crate) const MAX_SNAPSHOTS: usize = 1024;

/// The open merging contexts of a run.
#[derive(Default)]
pub(crate) struct Contexts {
    pub(crate) options: MergeOptions,
    open: FxHashMap<ContextId, MergingContext>,
    next_id: ContextId,
    suspended: usize,
    /// Released contexts whose states are merging, a step at a time, in
    /// the order they were released.
    queued: VecDeque<MergeJob>,
    /// States suspended, and paths of a context ended inside its loop,
    /// over the run.
    waited: u64,
    ended_inside: u64,
    /// The symbols of the sizes kept symbolic so far: a loop whose
    /// leaving fork reads one depends on a size (SM's taint, by symbol).
    size_symbols: FxHashSet<SymbolId>,
    /// Groups of states that could not be merged (and went on as they
    /// were).
    unmerged_groups: u64,
    /// What was wrong with each merge validation found wrong.
    violations: Vec<String>,
    /// Each merge, for the report (and the counts of merges).
    reports: Vec<MergeReport>,
    /// The k of each PAT merge over one: a result that is a term of one
    /// chooses among the merged states' values, and splits like an `ite`.
    ks: FxHashSet<TermId>,
    /// The live locals at each merge point incremental merging met, by
    /// function and pc.
    live: FxHashMap<(u32, u32), Rc<[bool]>>,
}

impl Contexts {
    /// Records the symbols of `size`, a size kept symbolic.
    pub(crate) fn taint_size(&mut self, terms: &TermStore, size: TermId) {
        if self.options.mode.follows_sizes() {
            self.size_symbols.extend(terms.symbols_in(&[size]));
        }
    }

    /// Puts `s`, about to fork at `s.at` in `code` on `leaving`, the
    /// condition of a side that leaves the innermost loop there, in a new
    /// context for that loop, unless the run merges nothing, `s` is in a
    /// context already, or (SM) the condition reads no symbolic size.
    pub(crate) fn watch(&mut self, s: &mut State, code: &Code, terms: &TermStore, leaving: TermId) {
        let watched = match self.options.mode {
            MergeMode::None => false,
            MergeMode::Cfg | MergeMode::Pat => true,
            MergeMode::Sm | MergeMode::SmOpt => (terms.symbols_in(&[leaving]).iter())
                .any(|symbol| self.size_symbols.contains(symbol)),
        };
        if !watched || s.merging.is_some() {
            return;
        }
        let Some(l) = code.loop_around(s.at.1) else {
            return;
        };
        let id = self.next_id;
        self.next_id += 1;
        let context = MergingContext {
            watched: WatchedLoop {
                func: s.at.0,
                body: l.header..code.blocks[l.block as usize].end,
                depth: s.frames.len(),
            },
            root: s.node,
            prefix: s.condition_at_fork(),
            ended_inside: false,
            complete_forks: FxHashSet::default(),
            groups: Vec::new(),
            snapshots: Vec::new(),
        };
        self.open.insert(id, context);
        s.merging = Some(id);
        s.branches.clear();
    }

    /// The loop the context of `s` watches, if `s` is in one.
    fn watched(&self, s: &State) -> Option<&WatchedLoop> {
        Some(&self.open.get(&s.merging?)?.watched)
    }

    /// Whether `s` belongs to a context whose loop it has left.
    pub(crate) fn has_left(&self, s: &State) -> bool {
        self.watched(s).is_some_and(|w| {
            let depth = s.frames.len();
            depth < w.depth || depth == w.depth && !w.runs(&s.frames[depth - 1])
        })
    }

    /// The pcs the top frame of `s` may run through on the fast path
    /// before it must stop for its context: `None` when it may run
    /// anywhere. Under PAT it stops at the loop's head too, a merge point.
    pub(crate) fn bounds(&self, s: &State) -> Option<Range<u32>> {
        let head = usize::from(self.options.mode == MergeMode::Pat) as u32;
        self.watched(s)
            .filter(|w| w.depth == s.frames.len() && s.frames.last().is_some_and(|f| w.runs(f)))
            .map(|w| w.body.start + head..w.body.end)
    }

    /// Whether `s`, under PAT, is at the head of its context's loop, in
    /// the loop's frame: a merge point.
    pub(crate) fn at_loop_head(&self, s: &State) -> bool {
        self.in_watched_loop(s)
            && (self.watched(s).zip(s.frames.last())).is_some_and(|(w, f)| f.pc == w.body.start)
    }

    /// The function and header pc of the loop of the context of `s`.
    pub(crate) fn loop_of(&self, s: &State) -> Option<(u32, u32)> {
        self.watched(s).map(|w| (w.func, w.body.start))
    }

    /// Whether `s`, under PAT, runs its context's loop in the loop's frame,
    /// where it merges incrementally.
    pub(crate) fn in_watched_loop(&self, s: &State) -> bool {
        self.options.mode == MergeMode::Pat
            && self.watched(s).is_some_and(|w| {
                w.depth == s.frames.len() && s.frames.last().is_some_and(|f| w.runs(f))
            })
    }

    /// The snapshots of context `id`, oldest first.
    pub(crate) fn snapshots(&self, id: ContextId) -> &[State] {
        self.open.get(&id).map_or(&[], |c| &c.snapshots[..])
    }

    /// Keeps `s`, at a merge point, as a snapshot of its context.
    pub(crate) fn snapshot(&mut self, s: State) {
        if let Some(context) = s.merging.and_then(|id| self.open.get_mut(&id)) {
            if context.snapshots.len() < MAX_SNAPSHOTS {
                context.snapshots.push(s);
            }
        }
    }

    /// The live locals at pc `at` of function `func`, if known.
    pub(crate) fn live(&self, at: (u32, u32)) -> Option<Rc<[bool]>> {
        self.live.get(&at).cloned()
    }

    pub(crate) fn set_live(&mut self, at: (u32, u32), live: Rc<[bool]>) {
        self.live.insert(at, live);
    }

    /// Drops the snapshots and the suspended states of context `id` that
    /// `below` says are in a superseded subtree.
    pub(crate) fn supersede(&mut self, id: ContextId, below: impl Fn(NodeId) -> bool) {
        let Some(context) = self.open.get_mut(&id) else {
            return;
        };
        context.snapshots.retain(|s| !below(s.node));
        for (_, group) in &mut context.groups {
            let before = group.len();
            group.retain(|s| !below(s.node));
            self.suspended -= before - group.len();
        }
        context.groups.retain(|(_, group)| !group.is_empty());
    }

    /// Suspends `s`, which has left its context's loop.
    pub(crate) fn suspend(&mut self, s: State) {
        let Some(context) = s.merging.and_then(|id| self.open.get_mut(&id)) else {
            debug_assert!(false, "a state suspended outside any open context");
            return;
        };
        let key = s.merge_key();
        match context.groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, group)) => group.push(s),
            None => context.groups.push((key, vec![s])),
        }
        self.suspended += 1;
        self.waited += 1;
    }

    /// Counts a path of context `id` that ended inside the loop.
    pub(crate) fn ended_inside(&mut self, id: ContextId) {
        if let Some(context) = self.open.get_mut(&id) {
            context.ended_inside = true;
            self.ended_inside += 1;
        }
    }

    /// Records that `s`, if in a context, forked into `sides` (their
    /// conditions), every side its path allowed.
    pub(crate) fn forked(&mut self, s: &State, mut sides: Vec<TermId>) {
        if let Some(context) = s.merging.and_then(|id| self.open.get_mut(&id)) {
            sides.sort_unstable();
            context.complete_forks.insert(sides);
        }
    }

    /// What merging did so far, in a run that merges.
    pub(crate) fn stats(&self) -> Option<MergeStats> {
        (self.options.mode != MergeMode::None).then_some(MergeStats {
            contexts: u64::from(self.next_id),
            waited: self.waited,
            ended_inside: self.ended_inside,
            merges: self.reports.len() as u64,
            merged_states: self.reports.iter().map(|r| r.states).sum(),
            unmerged_groups: self.unmerged_groups,
            validated: self.reports.iter().filter(|r| r.validated).count() as u64,
            violations: self.violations.len() as u64,
            over_k: self.reports.iter().filter(|r| r.k.is_some()).count() as u64,
            incremental: self.reports.iter().filter(|r| r.incremental).count() as u64,
        })
    }

    /// States waiting at loops' exits: suspended in a context, or in a
    /// merge under way.
    pub(crate) fn suspended(&self) -> usize {
        self.suspended + self.merging_states()
    }

    /// The memory limit's estimate of the states waiting at loops' exits.
    pub(crate) fn estimated_bytes(&self) -> u64 {
        let suspended: u64 = (self.open.values())
            .flat_map(|c| {
                c.groups
                    .iter()
                    .flat_map(|(_, group)| group)
                    .chain(&c.snapshots)
            })
            .map(State::estimated_bytes)
            .sum();
        suspended
            + self
                .queued
                .iter()
                .map(MergeJob::estimated_bytes)
                .sum::<u64>()
    }

    /// Queues the merge of a released context's states.
    pub(crate) fn queue(&mut self, job: MergeJob) {
        self.queued.push_back(job);
    }

    /// Whether a merge is under way.
    pub(crate) fn merging(&self) -> bool {
        !self.queued.is_empty()
    }

    /// States in the merges under way.
    pub(crate) fn merging_states(&self) -> usize {
        self.queued.iter().map(MergeJob::states).sum()
    }

    /// Merges that ended since the run began: made, or whose states went
    /// on unmerged.
    pub(crate) fn merges_ended(&self) -> usize {
        self.reports.len() + self.unmerged_groups as usize
    }

    /// The next merge of the merges under way: the nodes of its states
    /// and its loop's function and header pc.
    pub(crate) fn next_merge(&self) -> Option<(Vec<NodeId>, (u32, u32))> {
        let max_states = self.options.max_states;
        (max_states >= 2)
            .then(|| {
                self.queued
                    .iter()
                    .find_map(|job| job.next_merge(max_states))
            })
            .flatten()
    }

    /// The merge whose step comes next, out of the queue.
    pub(crate) fn take_queued(&mut self) -> Option<MergeJob> {
        self.queued.pop_front()
    }

    /// Puts back `job`, taken for a step, first in the queue.
    pub(crate) fn requeue(&mut self, job: MergeJob) {
        self.queued.push_front(job);
    }

    /// Every state waiting at a loop's exit, unmerged, out of its context
    /// or merge (the run stopped): suspended ones in the order their
    /// contexts opened, then those of the merges under way.
    pub(crate) fn give_back(&mut self) -> Vec<State> {
        let mut states: Vec<State> = (self.release_all().into_iter())
            .flat_map(|r| r.groups.into_iter().flatten())
            .collect();
        states.extend(self.queued.drain(..).flat_map(MergeJob::into_states));
        states
    }

    /// When no state of context `id` is left inside its loop (by `tree`'s
    /// pending counts), closes it and gives what it held.
    pub(crate) fn release_if_done(&mut self, id: ContextId, tree: &ExecTree) -> Option<Released> {
        match self.open.get(&id) {
            Some(context) if tree.node(context.root).pending == 0 => self.close(id),
            _ => None,
        }
    }

    /// Closes every context, in the order they opened.
    pub(crate) fn release_all(&mut self) -> Vec<Released> {
        let mut ids: Vec<ContextId> = self.open.keys().copied().collect();
        ids.sort_unstable();
        ids.into_iter().filter_map(|id| self.close(id)).collect()
    }

    fn close(&mut self, id: ContextId) -> Option<Released> {
        let context = self.open.remove(&id)?;
        let groups: Vec<Vec<State>> = (context.groups.into_iter())
            .map(|(_, group)| {
                self.suspended -= group.len();
                group
                    .into_iter()
                    .map(|mut s| {
                        s.merging = None;
                        s
                    })
                    .collect()
            })
            .collect();
        Some(Released {
            root: context.root,
            loop_at: (context.watched.func, context.watched.body.start),
            prefix: context.prefix,
            complete: groups.len() == 1 && !context.ended_inside,
            complete_forks: context.complete_forks,
            groups,
        })
    }

    /// Counts a group of states that could not merge.
    pub(crate) fn count_unmerged(&mut self) {
        self.unmerged_groups += 1;
    }
}

impl Contexts {
    /// Records that validation found the merge of `states` states at tree
    /// node `root` wrong, as `wrong` says.
    pub(crate) fn count_violation(&mut self, states: usize, root: NodeId, wrong: &[String]) {
        self.violations.push(format!(
            "engine error: the merge of {states} states below tree node {root} was wrong ({}); \
             they went on unmerged",
            wrong.join("; ")
        ));
    }

    /// Keeps `report` of a merge (a merge validation proved says so).
    pub(crate) fn record(&mut self, report: MergeReport) {
        self.reports.push(report);
    }

    /// Records `k`, over which states merged.
    pub(crate) fn merged_over(&mut self, k: TermId) {
        self.ks.insert(k);
    }

    /// The k of each PAT merge so far.
    pub(crate) fn ks(&self) -> &FxHashSet<TermId> {
        &self.ks
    }

    /// The merges so far.
    pub(crate) fn reports(&self) -> &[MergeReport] {
        &self.reports
    }

    /// The engine errors validation found, for the report's warnings.
    pub(crate) fn violations(&self) -> &[String] {
        &self.violations
    }
}

/// What a released context held: its states in groups of one merge key
/// each, out of the context, with the context's tree node and the path
/// condition of the state that opened it (a prefix of theirs).
pub(crate) struct Released {
    pub(crate) root: NodeId,
    /// The loop's function and header pc.
    pub(crate) loop_at: (u32, u32),
    pub(crate) prefix: PathCondition,
    /// Whether its one group holds every state the loop had: none ended
    /// inside (the seed's complete merge, `symbolic_size.md` §3).
    pub(crate) complete: bool,
    /// The side conditions of each fork inside the loop that kept every
    /// side its path allowed, sorted.
    pub(crate) complete_forks: FxHashSet<Vec<TermId>>,
    pub(crate) groups: Vec<Vec<State>>,
}
