//! The mutable context of one exploration, grouped by what each part is:
//! the terms and the solver its states share, its counters, its bounds
//! (limits, and which one stopped it), the guidance a replay follows
//! ([`guidance`]), its caches, the merging contexts that hold states
//! waiting at loop exits, and its records ([`records`]: the tree, the
//! paths, and what else the report counts). Paired with the program in an
//! [`Executor`](super::executor::Executor) for each stretch of the
//! scheduler's loop; it outlives them, so an exploration can run in steps.

pub(crate) mod guidance;
pub(crate) mod merging;
pub(crate) mod records;

use self::guidance::{Guidance, InputSource};
use self::merging::Contexts;
use self::records::Records;
use super::fast::FastCode;
use super::fork::PendingForms;
use super::program::Program;
use super::semantics::MAX_FRAMES;
use crate::expr::TermStore;
use crate::limits::{Limits, Reached};
use crate::report::OutcomeRules;
use crate::solver::simplify::Simplifier;
use crate::solver::Solver;
use rustc_hash::{FxHashMap, FxHashSet};

pub(crate) struct Context {
    /// The terms of every state of the run.
    pub(crate) terms: TermStore,
    pub(crate) solver: Solver,
    /// The store function the paths start in.
    pub(crate) entry: u32,
    pub(crate) counters: Counters,
    pub(crate) bounds: Bounds,
    /// Which values become paths of their own.
    pub(crate) outcomes: OutcomeRules,
    /// An import the host does not provide gives fresh symbolic results
    /// instead of ending the path.
    pub(crate) havoc_imports: bool,
    pub(crate) guidance: Guidance,
    pub(crate) caches: Caches,
    /// The states that wait at loop exits to be merged.
    pub(crate) merging: Contexts,
    pub(crate) records: Records,
}

/// What the run has done so far.
#[derive(Default)]
pub(crate) struct Counters {
    pub(crate) instructions: u64,
    pub(crate) forks: u64,
    /// States left unexplored by a cut-off query.
    pub(crate) cut_off: u64,
    /// Sides of forks not taken because of the path limit.
    pub(crate) unforked: u64,
    /// Accesses at symbolic offsets narrowed to the pieces of a split
    /// object or region.
    pub(crate) split_accesses: u64,
    /// The most bytes the array of one symbolic access held.
    pub(crate) largest_array: u64,
    /// Segments made of heap blocks (`--resolve segment`), and the most
    /// bytes one spanned.
    pub(crate) segments: u64,
    pub(crate) largest_segment: u64,
    /// Accesses that context-based resolution placed with one query.
    pub(crate) context_resolutions: u64,
    /// Paths of a parallel run's job that ended before reaching the state
    /// the job was handed (a test that no longer leads there).
    pub(crate) off_course: u64,
}

impl Counters {
    /// Counts a symbolic access whose array holds `bytes` bytes.
    pub(crate) fn array_of(&mut self, bytes: u64) {
        self.largest_array = self.largest_array.max(bytes);
    }
}

/// How far the run may go, and what stopped it.
pub(crate) struct Bounds {
    /// The exploration's time and memory limits and its interrupt: they cut
    /// off a solver query or a host call under way...
    pub(crate) limits: Limits,
    /// ...and the first one that did ends the run.
    pub(crate) stopped_by: Option<Reached>,
    /// Forks along one path; a path that would fork deeper ends as `limit`.
    pub(crate) max_depth: u32,
    /// The path limit: a fork splits a state only while the paths ended
    /// and the states pending (each a path to come) stay within it; past
    /// it, a state follows one side of a fork, so the run ends with its
    /// paths instead of piling up states it will never finish.
    pub(crate) max_paths: Option<u64>,
    /// Frames a path may have: one call more is the engine's limit (an
    /// exploration's path ends as `limit`), or, where `frames_trap`, the
    /// trap a Wasm engine gives when its call stack is exhausted (spec
    /// scripts assert it).
    pub(crate) max_frames: usize,
    pub(crate) frames_trap: bool,
}

/// What the run builds once and reuses.
#[derive(Default)]
pub(crate) struct Caches {
    pub(crate) simplifier: Simplifier,
    /// The fused ops of the fast path, per function.
    pub(crate) fast: FastCode,
    /// Per access instruction, the contexts (hashes) of the blocks it met
    /// under segments, over every state (context-based resolution).
    pub(crate) contexts: FxHashMap<(u32, u32), FxHashSet<u64>>,
    /// Base forms of the instruction under way (`--aa-cache`).
    pub(crate) forms: PendingForms,
}

impl Context {
    /// States pending that the scheduler does not hold: waiting at loops'
    /// exits, and cut off by the time limit.
    pub(crate) fn pending_elsewhere(&self) -> usize {
        self.merging.suspended() + self.counters.cut_off as usize
    }

    /// The context of an exploration of `program` from store function
    /// `entry`, over `terms`, with a tree of one root node.
    pub(crate) fn new(
        program: &Program<'_>,
        terms: TermStore,
        entry: u32,
        source: InputSource,
        max_depth: u32,
    ) -> Context {
        Context {
            terms,
            solver: Solver::default(),
            entry,
            counters: Counters::default(),
            bounds: Bounds {
                limits: Limits::default(),
                stopped_by: None,
                max_depth,
                max_paths: None,
                max_frames: MAX_FRAMES,
                frames_trap: true,
            },
            outcomes: OutcomeRules::default(),
            havoc_imports: false,
            guidance: Guidance::new(source),
            caches: Caches::default(),
            merging: Contexts::default(),
            records: Records::new(program),
        }
    }
}
