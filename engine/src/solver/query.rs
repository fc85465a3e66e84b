//! What a query is given and gives back: its budget, its answer (and the
//! answer of one independent group of its constraints, which the layers
//! pass along), and the work each layer counts.

use crate::expr::Model;
use crate::limits::{Interrupt, Limits};
use std::rc::Rc;
use web_time::{Duration, Instant};

/// How much work one query may do before the answer is `unknown`: checked
/// in bit-blasting and in the SAT search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Conflicts the SAT core may spend on one query.
    pub max_conflicts: Option<u64>,
    /// Wall-clock time one query may take.
    pub timeout: Option<Duration>,
    /// Once set, the query under way ends as `unknown`.
    pub interrupt: Option<Interrupt>,
    /// Heap in use past which the query ends as `unknown` (where the heap
    /// is metered: [`crate::limits`]).
    pub max_memory: Option<u64>,
}

impl Budget {
    /// The budget of a query that starts now. Its deadline is fixed here,
    /// once, so that every phase of the query and every independent group
    /// share one time limit.
    pub fn starting_now(&self) -> QueryBudget {
        QueryBudget {
            limits: Limits {
                deadline: self.timeout.map(|t| Instant::now() + t),
                interrupt: self.interrupt,
                max_memory: self.max_memory,
            },
            max_conflicts: self.max_conflicts,
        }
    }
}

/// The budget of one query under way: absolute limits, and the conflicts
/// each SAT call may spend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryBudget {
    pub limits: Limits,
    pub max_conflicts: Option<u64>,
}

/// The answer to a satisfiability query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// Satisfiable, with a value for every symbol of the query.
    Sat(Model),
    Unsat,
    /// The budget ran out; the reason says which.
    Unknown(String),
}

/// Work done by one layer: how many queries reached it, how many it answered,
/// and the time spent in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerStats {
    pub queries: u64,
    pub hits: u64,
    pub time: Duration,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Calls to [`Solver::check`].
    pub queries: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Hits: queries decided by simplification alone.
    pub simplify: LayerStats,
    /// Queries: independent groups produced; hits: constraints of those
    /// groups that earlier answers already covered.
    pub independence: LayerStats,
    /// Queries: those with a base form asked of it (a branch under
    /// `--aa-cache`); hits: those it answered.
    pub address_aware: LayerStats,
    pub aa: AaStats,
    pub query_cache: LayerStats,
    pub cex_cache: LayerStats,
    /// Queries: SAT calls; hits: those answered sat or unsat.
    pub sat_solver: LayerStats,
    /// The main SAT instance's size (not the one of small queries).
    pub sat_vars: u64,
    pub sat_clauses: u64,
    /// Every SAT variable the bit-blaster made, over all its instances.
    pub sat_vars_made: u64,
    /// Every clause the bit-blaster added, over all its instances.
    pub sat_clauses_made: u64,
    pub total_time: Duration,
    /// Each query once, by the costliest layer its answer needed.
    pub answered: QueryAnswers,
    /// Queries with foralls over symbolic bounds, by the stage that
    /// answered them.
    pub quantified: QuantifiedStages,
}

/// Quantified queries answered at each stage of the procedure of
/// `quantified_merging.md` §6, and those left unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QuantifiedStages {
    pub strip: u64,
    pub duplicate: u64,
    pub repair: u64,
    pub fallback: u64,
    pub unknown: u64,
}

impl QuantifiedStages {
    /// One more query, answered at `stage` (none: unknown).
    pub fn count(&mut self, stage: Option<super::QuantifiedStage>) {
        use super::QuantifiedStage as S;
        *match stage {
            Some(S::Strip) => &mut self.strip,
            Some(S::Duplicate) => &mut self.duplicate,
            Some(S::Repair) => &mut self.repair,
            Some(S::Fallback) => &mut self.fallback,
            None => &mut self.unknown,
        } += 1;
    }

    pub fn total(&self) -> u64 {
        self.strip + self.duplicate + self.repair + self.fallback + self.unknown
    }
}

impl std::ops::AddAssign for QuantifiedStages {
    fn add_assign(&mut self, other: QuantifiedStages) {
        self.strip += other.strip;
        self.duplicate += other.duplicate;
        self.repair += other.repair;
        self.fallback += other.fallback;
        self.unknown += other.unknown;
    }
}

/// A quantified query as the procedure answered it, for the report: the
/// foralls' upper bounds (each a PAT merge's k) by name, the stage that
/// answered (none where the answer is unknown), the answer, its time, and
/// where sat the model's value of each symbol the query reads.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QuantifiedQuery {
    pub bounds: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<super::QuantifiedStage>,
    /// `sat`, `unsat`, or `unknown: ` and why.
    pub answer: String,
    pub micros: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model: Vec<String>,
    /// Where sat, each cell of an array the model gives a value, and
    /// where that value came from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<ModelCell>,
}

/// A cell of an array in a quantified query's model.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ModelCell {
    pub array: String,
    pub index: u32,
    pub value: u8,
    pub origin: CellOrigin,
}

/// Where a cell's value in a quantified query's model came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CellOrigin {
    /// The quantifier-free solver's model.
    Solver,
    /// Copied from the cell a forall's first instance reads (duplicate).
    Duplicated,
    /// Kept as the solver gave it: repair found it in conflict.
    Protected,
}

impl CellOrigin {
    pub fn name(self) -> &'static str {
        match self {
            CellOrigin::Solver => "solver",
            CellOrigin::Duplicated => "duplicated",
            CellOrigin::Protected => "protected",
        }
    }
}

impl SolverStats {
    /// What `layer` did.
    pub fn of_layer(&self, layer: super::Layer) -> LayerStats {
        match layer {
            super::Layer::Simplify => self.simplify,
            super::Layer::Independence => self.independence,
            super::Layer::QueryCache => self.query_cache,
            super::Layer::CexCache => self.cex_cache,
            super::Layer::Sat => self.sat_solver,
        }
    }
}

/// What the address-aware cache did beside its hits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AaStats {
    /// Of the queries that reached it (those the exact layers left to
    /// SAT): those whose key the guard trusts with a model only, not with
    /// an unsat answer (a base symbol where an address may change the
    /// answer), and those left to SAT for a block of symbolic size.
    pub guarded: u64,
    pub symbolic_sizes: u64,
    /// Answers that contradicted the cache: under `--aa-cache check`, hits
    /// SAT, asked too, answered otherwise; and at any time, for a key the
    /// guard trusts, an unsat answer where it held a model or a model
    /// where it held unsat (0 unless the guard trusts a key it should
    /// not).
    pub disagreements: u64,
    /// Answers it holds, and their bytes (keys and models).
    pub entries: u64,
    pub bytes: u64,
}

impl AaStats {
    /// Adds another run's (a part of a parallel run).
    pub fn add(&mut self, other: &AaStats) {
        self.guarded += other.guarded;
        self.symbolic_sizes += other.symbolic_sizes;
        self.disagreements += other.disagreements;
        self.entries += other.entries;
        self.bytes += other.bytes;
    }
}

/// How queries were answered, each by the costliest layer it needed (of
/// its independent groups, the one that went furthest down the chain):
/// the parts add up to the queries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QueryAnswers {
    /// Decided by simplification alone.
    pub simplified: u64,
    /// Every group already covered by earlier answers (independence).
    pub sliced: u64,
    /// Answered by the address-aware cache, in front of SAT.
    #[serde(default)]
    pub address_aware: u64,
    pub query_cache: u64,
    pub cex_cache: u64,
    /// At least one group went to the SAT solver.
    pub sat: u64,
    /// The answer was `unknown` (a budget or a limit).
    pub unknown: u64,
}

impl QueryAnswers {
    /// Adds another run's answers (a part of a parallel run).
    pub fn add(&mut self, other: &QueryAnswers) {
        self.simplified += other.simplified;
        self.sliced += other.sliced;
        self.address_aware += other.address_aware;
        self.query_cache += other.query_cache;
        self.cex_cache += other.cex_cache;
        self.sat += other.sat;
        self.unknown += other.unknown;
    }

    pub fn total(&self) -> u64 {
        self.simplified
            + self.sliced
            + self.address_aware
            + self.query_cache
            + self.cex_cache
            + self.sat
            + self.unknown
    }
}

/// The answer for one independent group of constraints.
#[derive(Clone)]
pub(super) enum GroupAnswer {
    Sat(Rc<Model>),
    Unsat,
    Unknown(String),
}
