//! Where in the script text something is, and what the front end could not
//! handle there.

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
