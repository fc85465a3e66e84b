//! SMT-LIB2 front end: reads scripts in QF_BV and QF_ABV, runs them against
//! the [`Solver`](crate::solver::Solver) and prints the answers as z3 does.
//!
//! The pipeline, one module each: `lexer` splits text into tokens, `sexpr`
//! groups tokens into one command's S-expressions, `sorts` and `term` (with
//! `builtins`) turn S-expressions into sorts and terms of a
//! [`TermStore`](crate::expr::TermStore), `context` keeps the scoped
//! declarations and assertions, and `script` runs the commands.
//!
//! The S-expression [`Reader`] (with [`SExprs`], [`SExprId`] and the atoms'
//! [`TokenKind`]) is public because it is the workspace's one S-expression
//! reader: the differential tests read z3's answers with it, so the oracle's
//! output is parsed exactly as our own scripts are.
//!
//! Error policy:
//! - Input the front end cannot handle (a lexical or parenthesis error, an
//!   unknown or unsupported command, sort or symbol, an ill-sorted term, a bad
//!   literal or option value, a `pop` deeper than the stack) stops the script
//!   with a [`ScriptError`] naming the line, column and construct. Commands
//!   before it have run and their output is kept.
//! - `get-model` and `get-value` when no model is available (before any
//!   `check-sat`, after `unsat`/`unknown`, or after `assert`, `push` or
//!   `pop`) print z3's `(error "line L column C: model is not available")`
//!   line and the script goes on: whether a model exists depends on the
//!   solver's answer, not on the script. So does `get-info :reason-unknown`
//!   when the last answer was not `unknown`. [`ScriptOutput::error_lines`] counts them; the
//!   command line exits with 1 when it is not zero, as z3 does.
//! - Unsupported options and `get-info` keywords are warnings: the command
//!   answers `unsupported` (printed only under `:print-success` for
//!   `set-option`) and the script goes on. `set-info` accepts any keyword.
//!
//! Nothing here recurses on the nesting depth of the input, so deeply nested
//! terms are handled within the memory they take.

mod builtins;
mod context;
mod lexer;
mod script;
mod sexpr;
mod sorts;
mod term;
#[cfg(test)]
mod tests;

pub use lexer::TokenKind;
pub use script::{Flow, Script};
pub use sexpr::{Reader, SExprId, SExprs};

use crate::solver::{SolverConfig, SolverStats};
use std::fmt;

/// A position in the script text: 1-based line and column (in characters).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Something the front end cannot handle, and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Error {
    pub pos: Pos,
    pub message: String,
    /// The text ended inside an S-expression, string literal or quoted symbol.
    incomplete: bool,
}

impl Error {
    pub(crate) fn at(pos: Pos, message: impl Into<String>) -> Error {
        Error {
            pos,
            message: message.into(),
            incomplete: false,
        }
    }

    /// An error only because the text ended too soon: more text could
    /// complete what `pos` opened.
    pub(crate) fn incomplete(pos: Pos, message: impl Into<String>) -> Error {
        Error {
            incomplete: true,
            ..Error::at(pos, message)
        }
    }

    /// Whether the text ended inside an S-expression, a string literal or a
    /// quoted symbol, so that more text could complete it. Public for readers
    /// of a stream, such as the tests reading z3's answers off a pipe: they
    /// read more lines while this holds.
    pub fn is_incomplete(&self) -> bool {
        self.incomplete
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.message)
    }
}

impl std::error::Error for Error {}

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

/// Runs the SMT-LIB2 script `text` until its end, `(exit)` or an error.
pub fn run_script(text: &str, options: &RunOptions) -> Result<ScriptOutput, ScriptError> {
    let mut script = Script::new(options);
    match script.execute(text) {
        Ok(_) => Ok(script.take_output()),
        Err(error) => Err(ScriptError {
            error,
            output: Box::new(script.take_output()),
        }),
    }
}
