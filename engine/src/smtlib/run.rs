//! What running a script takes (its options) and gives (its answers, what
//! it printed, or the error that stopped it).

use super::error::Error;
use crate::solver::{SolverConfig, SolverStats};
use std::fmt;

/// How a script runs: the solver configuration, including the budget of each
/// `check-sat` (a script's `:timeout` option can only lower the time limit).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    pub solver: SolverConfig,
}

/// The answer to one `check-sat` or `check-sat-assuming`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Answer {
    Sat,
    Unsat,
    /// The solver gave up; the reason says why.
    Unknown(String),
}

/// What a script printed, and what it found.
#[derive(Clone, Debug, Default)]
pub struct ScriptOutput {
    /// The responses, as z3 prints them on standard output.
    pub text: String,
    /// Diagnostics for standard error, such as unsupported options, each
    /// starting with its `line:column`.
    pub warnings: Vec<String>,
    /// One answer per `check-sat` or `check-sat-assuming`, in order.
    pub answers: Vec<Answer>,
    /// How many `(error ...)` responses `text` holds.
    pub error_lines: usize,
    /// The solver's statistics at the end of the script.
    pub stats: SolverStats,
}

/// A script stopped by an error, with what it printed before.
#[derive(Clone, Debug)]
pub struct ScriptError {
    pub error: Error,
    pub output: Box<ScriptOutput>,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for ScriptError {}
