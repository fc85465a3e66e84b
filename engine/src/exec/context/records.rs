//! What an exploration records as it runs, for its report: the execution
//! tree, the paths that ended, the paths dropped or made concrete counted
//! by site ([`SiteCounts`]), the instructions covered, and a replay's
//! trace ([`Trace`]); or, for the spec-script store, the ended states
//! themselves.

use crate::exec::outcome::End;
use crate::exec::program::Program;
use crate::report::{DropCause, Location, Number, PathReport, TraceEvent};
use crate::state::State;
use crate::tree::ExecTree;
use rustc_hash::FxHashMap;
use std::hash::Hash;

pub(crate) struct Records {
    pub(crate) tree: ExecTree,
    pub(crate) paths: Vec<PathReport>,
    /// Paths dropped, by cause and place.
    pub(crate) drops: SiteCounts<DropCause>,
    /// Reported paths on which a value was made concrete, by what and where.
    pub(crate) concretised: SiteCounts<String>,
    /// Executed instructions, per store function and pc.
    pub(crate) covered: Vec<Vec<bool>>,
    /// Recorded only when replaying with a trace.
    pub(crate) trace: Option<Trace>,
    /// When set, ended paths are kept here as they are (state and end)
    /// instead of becoming reported paths.
    pub(crate) finished: Option<Vec<(State, End)>>,
}

impl Records {
    /// The records of a run of `program` before it starts: a tree of one
    /// root node, and no instruction covered.
    pub(crate) fn new(program: &Program<'_>) -> Records {
        let covered = (0..program.links.funcs.len() as u32)
            .map(|f| {
                program
                    .code(f)
                    .map_or_else(Vec::new, |c| vec![false; c.instrs.len()])
            })
            .collect();
        Records {
            tree: ExecTree::new(),
            paths: Vec::new(),
            drops: SiteCounts::default(),
            concretised: SiteCounts::default(),
            covered,
            trace: None,
            finished: None,
        }
    }
}

/// Paths counted by a key and an instruction, in the order the sites were
/// first met, so that reports are deterministic.
#[derive(Debug)]
pub struct SiteCounts<K> {
    sites: Vec<(K, Location, u64)>,
    /// By key and (store function, pc): the site's index in `sites`.
    index: FxHashMap<(K, (u32, u32)), usize>,
}

impl<K> Default for SiteCounts<K> {
    fn default() -> Self {
        SiteCounts {
            sites: Vec::new(),
            index: FxHashMap::default(),
        }
    }
}

impl<K: Clone + Eq + Hash> SiteCounts<K> {
    /// One more path for `key` at the instruction `at`, which is `location`.
    pub(crate) fn record(&mut self, key: K, at: (u32, u32), location: Location) {
        let next = self.sites.len();
        let site = *self.index.entry((key.clone(), at)).or_insert(next);
        if site == next {
            self.sites.push((key, location, 0));
        }
        self.sites[site].2 += 1;
    }

    pub fn total(&self) -> u64 {
        self.sites.iter().map(|s| s.2).sum()
    }

    /// Each site: its key, location and number of paths.
    pub fn sites(&self) -> &[(K, Location, u64)] {
        &self.sites
    }
}

/// Events recorded so far; past `limit` they are only counted.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub events: Vec<TraceEvent>,
    pub omitted: u64,
    limit: usize,
    /// The last event is a host call whose results are still to come.
    awaiting_results: bool,
}

impl Trace {
    pub fn new(limit: usize) -> Trace {
        Trace {
            limit,
            ..Trace::default()
        }
    }

    pub(crate) fn push(&mut self, event: TraceEvent) {
        self.awaiting_results = false;
        if self.events.len() < self.limit {
            self.awaiting_results = matches!(event, TraceEvent::HostCall { .. });
            self.events.push(event);
        } else {
            self.omitted += 1;
        }
    }

    /// The results of the host call recorded last, if it awaits them.
    pub(crate) fn fill_host_results(&mut self, values: Vec<Number>) {
        if !self.awaiting_results {
            return;
        }
        self.awaiting_results = false;
        if let Some(TraceEvent::HostCall { results, .. }) = self.events.last_mut() {
            *results = values;
        }
    }
}
