//! What an exploration records as it runs, for its report: the execution
//! tree, the paths that ended, the paths dropped or made concrete counted
//! by site ([`SiteCounts`]), the instructions covered, and a replay's
//! trace ([`Trace`]); or, for the spec-script store, the ended states
//! themselves.

use crate::exec::outcome::End;
use crate::exec::program::Program;
use crate::exec::record::evaluation::Evaluation;
use crate::exec::record::formulas::FormulaTable;
use crate::expr::{TermId, Value};
use crate::report::{DropCause, Location, Number, PathReport, TraceEvent};
use crate::state::value::number;
use crate::state::State;
use crate::tree::ExecTree;
use rustc_hash::FxHashMap;
use std::hash::Hash;
use symplay_wasm::ValType;

pub(crate) struct Records {
    pub(crate) tree: ExecTree,
    pub(crate) paths: Vec<PathReport>,
    /// The tree's branch conditions and the paths' conditions, each once.
    pub(crate) formulas: FormulaTable,
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
            formulas: FormulaTable::default(),
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
    /// Values still symbols when recorded (a guided replay's inputs and
    /// what they compute), given their values by the path's model when
    /// it ends: (event, which value, term, its type).
    unknown: Vec<(usize, Slot, TermId, ValType)>,
}

/// Which value of a trace event a term stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// An argument of a call or a value returned.
    Value(usize),
    /// A host call's result.
    HostResult(usize),
    /// Whether a branch is taken (the condition is not zero).
    Taken,
    /// A `br_table`'s index.
    Index,
    /// The table slot of an indirect call.
    Table,
}

impl Trace {
    pub fn new(limit: usize) -> Trace {
        Trace {
            limit,
            ..Trace::default()
        }
    }

    /// Records `event`, whose values in `unknown` are still symbols.
    pub(crate) fn push(&mut self, event: TraceEvent, unknown: Vec<(Slot, TermId, ValType)>) {
        self.awaiting_results = false;
        if self.events.len() < self.limit {
            self.awaiting_results = matches!(event, TraceEvent::HostCall { .. });
            let at = self.events.len();
            self.unknown
                .extend(unknown.into_iter().map(|(slot, t, ty)| (at, slot, t, ty)));
            self.events.push(event);
        } else {
            self.omitted += 1;
        }
    }

    /// The results of the host call recorded last, if it awaits them.
    pub(crate) fn fill_host_results(
        &mut self,
        values: Vec<Number>,
        unknown: Vec<(Slot, TermId, ValType)>,
    ) {
        if !self.awaiting_results {
            return;
        }
        self.awaiting_results = false;
        let at = self.events.len() - 1;
        if let Some(TraceEvent::HostCall { results, .. }) = self.events.last_mut() {
            *results = values;
            self.unknown
                .extend(unknown.into_iter().map(|(slot, t, ty)| match slot {
                    Slot::Value(i) => (at, Slot::HostResult(i), t, ty),
                    other => (at, other, t, ty),
                }));
        }
    }

    /// Gives the values that were symbols their values under the model of
    /// the path the trace follows; past a limit, they stay unresolved.
    pub(crate) fn resolve(&mut self, eval: &mut Evaluation) {
        let ids: Vec<TermId> = self.unknown.iter().map(|&(_, _, t, _)| t).collect();
        let Some(values) = eval.values(&ids) else {
            return;
        };
        let unknown = std::mem::take(&mut self.unknown);
        for ((at, slot, _, ty), value) in unknown.into_iter().zip(values) {
            let bits = match value {
                Value::Bool(b) => u64::from(b),
                other => other.as_bv().unwrap_or(0),
            };
            match (&mut self.events[at], slot) {
                (TraceEvent::Branch { taken, .. }, Slot::Taken) => *taken = bits != 0,
                (TraceEvent::BrTable { index, .. }, Slot::Index) => *index = bits as u32,
                (TraceEvent::Call { table_slot, .. }, Slot::Table) => {
                    *table_slot = Some(bits as u32);
                }
                (
                    TraceEvent::Call { args: values, .. }
                    | TraceEvent::HostCall { args: values, .. }
                    | TraceEvent::Return { values, .. },
                    Slot::Value(i),
                )
                | (
                    TraceEvent::HostCall {
                        results: values, ..
                    },
                    Slot::HostResult(i),
                ) => {
                    values[i] = number(ty, bits);
                }
                _ => {}
            }
        }
    }
}
