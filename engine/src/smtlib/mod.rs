//! SMT-LIB2 front end: reads scripts in QF_BV and QF_ABV, runs them against
//! the [`Solver`](crate::solver::Solver) and prints the answers as z3 does.
//!
//! The pipeline, one module each: `lexer` splits text into tokens, `sexpr`
//! groups tokens into one command's S-expressions, `sorts` and `term` (with
//! `builtins`) turn S-expressions into sorts and terms of a
//! [`TermStore`](crate::expr::TermStore), `context` keeps the scoped
//! declarations and assertions, and `script` runs the commands. `error`
//! holds the position and error every stage reports, and `run` what a run
//! takes and gives.
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
mod error;
mod lexer;
mod run;
mod script;
mod sexpr;
mod sorts;
mod term;
#[cfg(test)]
mod tests;

pub use error::{Error, Pos};
pub use lexer::TokenKind;
pub use run::{Answer, RunOptions, ScriptError, ScriptOutput};
pub use script::{Flow, Script};
pub use sexpr::{Reader, SExprId, SExprs};

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
