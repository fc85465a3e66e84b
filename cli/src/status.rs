//! What `symplay`'s exit status says (docs/cli.md, "Exit status"): how a
//! command ended, and the failures that kept it from running.

use std::process::ExitCode;

/// A command that could not run: the command line is wrong (status 2) or
/// something it names cannot be used (status 1).
#[derive(Debug)]
pub enum Failure {
    /// An option, its value or the entry does not make sense.
    Usage(String),
    /// A file cannot be read or written, or the module cannot be explored.
    Error(String),
}

impl Failure {
    pub fn message(&self) -> &str {
        match self {
            Failure::Usage(m) | Failure::Error(m) => m,
        }
    }

    pub fn status(&self) -> ExitCode {
        ExitCode::from(match self {
            Failure::Usage(_) => USAGE,
            Failure::Error(_) => ERROR,
        })
    }
}

/// How a command that ran ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Nothing found: no bug, or a replay that matches its record.
    Clean,
    /// At least one path ends in a bug (a trap, a failed assertion, a
    /// memory error, a panic).
    BugFound,
    /// A replay whose outcome is not the one its test recorded.
    Differs,
    /// Stopped by Ctrl-C, with what it found written out.
    Interrupted,
    /// The engine found itself wrong (a merge validation refuted), with
    /// what it found written out.
    EngineError,
}

impl Ending {
    /// The status, with `--exit-zero` (`bugs_are_clean`) turning a bug
    /// found into 0.
    pub fn status(self, bugs_are_clean: bool) -> ExitCode {
        ExitCode::from(match self {
            Ending::Clean => 0,
            Ending::BugFound if bugs_are_clean => 0,
            Ending::BugFound => BUG_FOUND,
            Ending::Differs => DIFFERS,
            Ending::Interrupted => INTERRUPTED,
            Ending::EngineError => ERROR,
        })
    }
}

pub const ERROR: u8 = 1;
pub const USAGE: u8 = 2;
pub const DIFFERS: u8 = 3;
/// Owi's status when it finds a bug, which test harnesses already read.
pub const BUG_FOUND: u8 = 13;
/// The shell's status for a process ended by SIGINT (128 + 2).
pub const INTERRUPTED: u8 = 130;
