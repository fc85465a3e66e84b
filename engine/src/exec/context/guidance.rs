//! Replay guidance: where the values of a run's inputs come from (fresh
//! symbols, a test's concrete values, or symbols that follow a test's
//! values at every fork), and the equalities a guided replay follows.

use crate::expr::TermId;
use crate::report::{InputValue, TestInput};
use std::collections::BTreeSet;

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
    /// Named inputs the run has read from the test.
    pub(crate) read: BTreeSet<String>,
    /// What did not fit in the test: a value missing, of the wrong kind,
    /// out of its input's range, or a buffer of the wrong length.
    pub(crate) misfits: Vec<String>,
    /// A job of a parallel run goes down to the state it was handed: at
    /// each fork that splits, the side of this route (from the whole
    /// run's root), with the test's values where a value is made
    /// concrete; past its end, it explores freely.
    pub(crate) route: Vec<u32>,
}

impl Guidance {
    pub(crate) fn new(source: InputSource) -> Guidance {
        Guidance {
            source,
            guide: Vec::new(),
            read: BTreeSet::new(),
            misfits: Vec::new(),
            route: Vec::new(),
        }
    }

    /// The state followed the route to where the job it runs begins: from
    /// here on, inputs are fresh symbols and forks explore every side.
    pub(crate) fn arrive(&mut self) {
        self.source = InputSource::Symbolic;
        self.guide.clear();
        self.route.clear();
    }

    /// Whether a job's state is still on its way to where the job begins.
    pub(crate) fn on_the_way(&self) -> bool {
        !self.route.is_empty()
    }

    /// The test's value of the `width`-bit integer input `name`, in a
    /// replay; what does not fit is a misfit (and reads as 0).
    pub(crate) fn given_int(&mut self, name: &str, width: u8) -> Option<u64> {
        let test = self.source.test()?;
        self.read.insert(name.to_string());
        let misfit = match test.get(name) {
            Some(InputValue::Int(v)) => match fits(*v, width) {
                Ok(bits) => return Some(bits),
                Err(why) => format!("input `{name}` {why}"),
            },
            Some(InputValue::Bytes(_)) => {
                format!("input `{name}` is an integer, but the test gives it bytes")
            }
            None => format!("the test gives no value for input `{name}`"),
        };
        self.misfits.push(misfit);
        Some(0)
    }

    /// The test's bytes of buffer input `name`, in a replay: exactly
    /// `len` of them when `len` is given, else at most `capacity`.
    pub(crate) fn given_bytes(
        &mut self,
        name: &str,
        len: Option<u64>,
        capacity: u64,
    ) -> Option<Vec<u8>> {
        let test = self.source.test()?;
        self.read.insert(name.to_string());
        let misfit = match test.get(name) {
            Some(InputValue::Bytes(b)) => match len {
                Some(len) if b.len() as u64 != len => format!(
                    "input `{name}` has {len} bytes, but the test gives {}",
                    b.len()
                ),
                None if b.len() as u64 > capacity => format!(
                    "input `{name}` holds at most {capacity} bytes, but the test gives {}",
                    b.len()
                ),
                _ => return Some(b.clone()),
            },
            Some(InputValue::Int(_)) => {
                format!("input `{name}` is a buffer of bytes, but the test gives it a number")
            }
            None => format!("the test gives no value for input `{name}`"),
        };
        self.misfits.push(misfit);
        Some(Vec::new())
    }

    /// Every misfit of a replay, with the test's inputs that the run
    /// never read (a name misspelt, or an input of another program).
    pub(crate) fn all_misfits(&self) -> Vec<String> {
        let mut all = self.misfits.clone();
        let mut seen = BTreeSet::new();
        all.retain(|m| seen.insert(m.clone()));
        if let Some(test) = self.source.test() {
            let unknown: Vec<&str> = test
                .named
                .iter()
                .map(|n| n.name.as_str())
                .filter(|n| !self.read.contains(*n))
                .collect();
            if !unknown.is_empty() {
                let known: Vec<&str> = self.read.iter().map(String::as_str).collect();
                all.push(format!(
                    "the test gives {}, which the path never reads (its inputs: {})",
                    unknown
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            }
        }
        all
    }
}

/// `v` as the bits of a `width`-bit input: a signed value of that width
/// (a flag of 1 bit is 0 or 1), or why it is not one.
pub(crate) fn fits(v: i64, width: u8) -> Result<u64, String> {
    let (lo, hi) = match width {
        1 => (0, 1),
        64 => (i64::MIN, i64::MAX),
        w => (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1),
    };
    if (lo..=hi).contains(&v) {
        return Ok(v as u64 & crate::expr::mask(width));
    }
    let kind = match width {
        1 => "a flag".to_string(),
        8 => "a byte".to_string(),
        w => format!("an i{w}"),
    };
    let mut why = format!("is {kind} ({lo} to {hi}): {v} is out of range");
    if width > 1 && (v as u64) >> width == 0 {
        let same = crate::expr::to_signed(width, v as u64);
        why.push_str(&format!(" (the same bits are {same})"));
    }
    Err(why)
}
