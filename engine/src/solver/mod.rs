//! The solver chain: simplification, constraint independence, exact query
//! cache, counterexample cache, bit-blasting and SAT.

pub mod bitblast;
pub mod sat;
pub mod simplify;

use crate::expr::{Model, TermId, TermStore};
use web_time::Duration;

/// How much work one SAT call may do before the answer is `unknown`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Conflicts the SAT core may spend on one query.
    pub max_conflicts: Option<u64>,
    /// Wall-clock time one query may take.
    pub timeout: Option<Duration>,
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
