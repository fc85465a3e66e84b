//! Replay guidance: where the values of a run's inputs come from (fresh
//! symbols, a test's concrete values, or symbols that follow a test's
//! values at every fork), and the equalities a guided replay follows.

use crate::expr::TermId;
use crate::report::TestInput;

/// Where the values of symbolic inputs come from.
#[derive(Clone, Debug)]
pub(crate) enum InputSource {
    /// Fresh symbols: exploration.
    Symbolic,
    /// Concrete values of a test input: replay.
    Concrete(TestInput),
    /// Fresh symbols, each fork going the way the test input's values go:
    /// the replay of a module whose checks read the form of a symbolic
    /// address (its C variables), which concrete values lose.
    Guided(TestInput),
}

impl InputSource {
    /// The test input a replay takes its values from.
    pub(crate) fn test(&self) -> Option<&TestInput> {
        match self {
            InputSource::Symbolic => None,
            InputSource::Concrete(test) | InputSource::Guided(test) => Some(test),
        }
    }

    /// Inputs are symbols.
    pub(crate) fn symbolic(&self) -> bool {
        !matches!(self, InputSource::Concrete(_))
    }
}

pub(crate) struct Guidance {
    pub(crate) source: InputSource,
    /// Under [`InputSource::Guided`]: `input = value` for each input made,
    /// the test's values.
    pub(crate) guide: Vec<TermId>,
}
