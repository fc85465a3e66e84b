//! The mutable context of one exploration: the terms and the solver shared
//! by its states, the execution tree, the finished paths, counters, limits,
//! and the caches built while running. Paired with the program in an
//! [`Executor`](super::executor::Executor) for each stretch of the driver's
//! loop; it outlives them, so an exploration can run in steps.

use super::fast::FastCode;
use super::outcome::End;
use super::program::Program;
use super::sites::SiteCounts;
use super::trace::Trace;
use crate::expr::{TermId, TermStore};
use crate::limits::{Limits, Reached};
use crate::report::{DropCause, PathReport};
use crate::solver::simplify::Simplifier;
use crate::solver::Solver;
use crate::state::State;
use crate::tree::ExecTree;

/// Where the values of symbolic inputs come from.
#[derive(Clone, Debug)]
pub enum InputSource {
    /// Fresh symbols: exploration.
    Symbolic,
    /// Concrete values of a test input: replay.
    Concrete(crate::report::TestInput),
    /// Fresh symbols, each fork going the way the test input's values go:
    /// the replay of a module whose checks read the form of a symbolic
    /// address (its C variables), which concrete values lose.
    Guided(crate::report::TestInput),
}

impl InputSource {
    /// The test input a replay takes its values from.
    pub fn test(&self) -> Option<&crate::report::TestInput> {
        match self {
            InputSource::Symbolic => None,
            InputSource::Concrete(test) | InputSource::Guided(test) => Some(test),
        }
    }

    /// Inputs are symbols.
    pub fn symbolic(&self) -> bool {
        !matches!(self, InputSource::Concrete(_))
    }
}

pub struct Context {
    pub terms: TermStore,
    pub solver: Solver,
    pub(crate) simplifier: Simplifier,
    pub tree: ExecTree,
    pub paths: Vec<PathReport>,
    pub instructions: u64,
    pub forks: u64,
    /// Paths dropped, by cause and place.
    pub drops: SiteCounts<DropCause>,
    /// Reported paths on which a value was made concrete, by what and where.
    pub concretised: SiteCounts<String>,
    /// The exploration's time and memory limits and its interrupt: they cut
    /// off a solver query or a host call under way...
    pub limits: Limits,
    /// ...and the first one that did ends the run.
    pub stopped_by: Option<Reached>,
    /// States left unexplored by a cut-off query.
    pub cut_off: u64,
    /// Executed instructions, per store function and pc.
    pub covered: Vec<Vec<bool>>,
    pub source: InputSource,
    /// Under [`InputSource::Guided`]: `input = value` for each input made,
    /// the test's values.
    pub guide: Vec<TermId>,
    pub max_depth: u32,
    /// The path limit: a fork splits a state only while the paths ended
    /// and the states pending (each a path to come) stay within it; past
    /// it, a state follows one side of a fork, so the run ends with its
    /// paths instead of piling up states it will never finish.
    pub max_paths: Option<u64>,
    /// Sides of forks not taken because of the path limit.
    pub unforked: u64,
    /// The store function the paths start in.
    pub entry: u32,
    /// Recorded only when replaying with a trace.
    pub trace: Option<Trace>,
    /// When set, ended paths are kept here as they are (state and end)
    /// instead of becoming reported paths.
    pub(crate) finished: Option<Vec<(State, End)>>,
    pub(crate) fast: FastCode,
}

impl Context {
    /// The context of an exploration of `program` from store function
    /// `entry`, over `terms`, with a tree of one root node.
    pub fn new(
        program: &Program<'_>,
        terms: TermStore,
        entry: u32,
        source: InputSource,
        max_depth: u32,
    ) -> Context {
        let covered = (0..program.links.funcs.len() as u32)
            .map(|f| {
                program
                    .code(f)
                    .map_or_else(Vec::new, |c| vec![false; c.instrs.len()])
            })
            .collect();
        Context {
            terms,
            solver: Solver::default(),
            simplifier: Simplifier::new(),
            tree: ExecTree::new(),
            paths: Vec::new(),
            instructions: 0,
            forks: 0,
            drops: SiteCounts::default(),
            concretised: SiteCounts::default(),
            limits: Limits::default(),
            stopped_by: None,
            cut_off: 0,
            covered,
            source,
            guide: Vec::new(),
            max_depth,
            max_paths: None,
            unforked: 0,
            entry,
            trace: None,
            finished: None,
            fast: FastCode::default(),
        }
    }
}
