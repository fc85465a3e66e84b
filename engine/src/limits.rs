//! What a run may use (time, memory, and a flag that stops it), checked
//! wherever the engine can work for long: between slices of instructions,
//! inside host calls that make large inputs, and inside the solver's
//! bit-blasting and SAT search, so that a limit holds within about a
//! second in every phase.
//!
//! Memory is the heap in use as the program counts it: the command line and
//! the page's worker install a counting allocator and register it with
//! [`set_heap_meter`]. Without one (the engine as a library), an
//! exploration falls back to its estimate of what states and terms hold.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use web_time::Instant;

/// A flag set from elsewhere (a Ctrl-C handler, the page's Stop) to stop
/// work at once, even inside one long solver query.
#[derive(Clone, Copy, Debug)]
pub struct Interrupt(pub &'static AtomicBool);

impl Interrupt {
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The same flag, not the same value.
impl PartialEq for Interrupt {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Interrupt {}

/// How the program reads its heap: bytes in use, the peak since the last
/// reset, and the reset.
#[derive(Clone, Copy, Debug)]
pub struct HeapMeter {
    pub in_use: fn() -> usize,
    pub peak: fn() -> usize,
    pub reset_peak: fn(),
}

static METER: OnceLock<HeapMeter> = OnceLock::new();

/// Registers the program's heap meter; the first registration holds.
pub fn set_heap_meter(meter: HeapMeter) {
    let _ = METER.set(meter);
}

/// Bytes of heap in use, where the program counts them.
pub fn heap_in_use() -> Option<u64> {
    METER.get().map(|m| (m.in_use)() as u64)
}

/// The most heap in use since [`reset_heap_peak`], where counted.
pub fn heap_peak() -> Option<u64> {
    METER.get().map(|m| (m.peak)() as u64)
}

/// Starts counting the peak anew from what is in use now.
pub fn reset_heap_peak() {
    if let Some(m) = METER.get() {
        (m.reset_peak)();
    }
}

/// The limit a run reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reached {
    Time,
    Memory,
    /// The interrupt flag (Ctrl-C, Stop) was set.
    Interrupt,
}

impl Reached {
    /// How reports name it: `time limit`, `memory limit`, `cancelled`.
    pub fn stop_reason(self) -> &'static str {
        match self {
            Reached::Time => "time limit",
            Reached::Memory => "memory limit",
            Reached::Interrupt => "cancelled",
        }
    }
}

/// The limits that hold inside long phases of work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub interrupt: Option<Interrupt>,
    /// Bytes of heap in use; checked only where the heap is metered.
    pub max_memory: Option<u64>,
}

impl Limits {
    /// Both limits at once: the earlier deadline, the smaller memory; the
    /// interrupt of `other` where it has one (one query serves one run).
    pub fn and(self, other: &Limits) -> Limits {
        Limits {
            deadline: smaller(self.deadline, other.deadline),
            interrupt: other.interrupt.or(self.interrupt),
            max_memory: smaller(self.max_memory, other.max_memory),
        }
    }

    /// The limit reached now, if any: the interrupt first, then time, then
    /// memory.
    pub fn reached(&self) -> Option<Reached> {
        self.reached_with(0)
    }

    /// As [`Limits::reached`], with `headroom` more bytes counted as in
    /// use: what a structure about to double will take at once. Memory
    /// is reached a 32nd short of the limit, which leaves
    /// room for what is allocated between two looks and for the report.
    pub fn reached_with(&self, headroom: u64) -> Option<Reached> {
        if self.interrupt.is_some_and(|i| i.is_set()) {
            Some(Reached::Interrupt)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Reached::Time)
        } else if self.max_memory.is_some_and(|max| {
            heap_in_use()
                .is_some_and(|used| used.saturating_add(headroom) >= max - max / MEMORY_MARGIN)
        }) {
            Some(Reached::Memory)
        } else {
            None
        }
    }
}

/// The share of the memory limit kept free: the run stops when what is in
/// use comes within `max / MEMORY_MARGIN` of it.
const MEMORY_MARGIN: u64 = 32;

/// The smaller of two optional limits; a missing one sets none.
fn smaller<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

/// Looks at [`Limits`] once per [`Checkpoint::WORK`] units of work (graph
/// nodes made, clauses added): cheap enough for the innermost loops of a
/// long phase, often enough to stop within milliseconds.
pub struct Checkpoint {
    limits: Limits,
    work: u64,
}

impl Checkpoint {
    pub const WORK: u64 = 1 << 16;

    pub fn new(limits: Limits) -> Self {
        Checkpoint { limits, work: 0 }
    }

    /// Counts `work` more done; the limit reached, when it is time to look.
    pub fn after(&mut self, work: u64) -> Option<Reached> {
        self.after_with(work, || 0)
    }

    /// As [`Checkpoint::after`], with the bytes the next [`Checkpoint::WORK`]
    /// of work may allocate at once counted as in use.
    pub fn after_with(&mut self, work: u64, headroom: impl FnOnce() -> u64) -> Option<Reached> {
        self.work += work;
        if self.work < Self::WORK {
            return None;
        }
        self.work = 0;
        self.limits.reached_with(headroom())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use web_time::Duration;

    #[test]
    fn each_limit_is_named_as_reports_name_it() {
        static STOP: AtomicBool = AtomicBool::new(true);
        let none = Limits::default();
        assert_eq!(none.reached(), None);
        let past = Limits {
            deadline: Some(Instant::now() - Duration::from_millis(1)),
            ..Limits::default()
        };
        assert_eq!(past.reached(), Some(Reached::Time));
        let later = Limits {
            deadline: Some(Instant::now() + Duration::from_secs(60)),
            ..Limits::default()
        };
        assert_eq!(later.reached(), None);
        // The interrupt wins over a deadline passed.
        let both = Limits {
            interrupt: Some(Interrupt(&STOP)),
            ..past
        };
        assert_eq!(both.reached(), Some(Reached::Interrupt));
        assert_eq!(Reached::Interrupt.stop_reason(), "cancelled");
        assert_eq!(Reached::Memory.stop_reason(), "memory limit");
        // Tests run without a heap meter: memory is not checked then.
        let memory = Limits {
            max_memory: Some(1),
            ..Limits::default()
        };
        assert_eq!(heap_in_use(), None);
        assert_eq!(memory.reached(), None);
    }

    #[test]
    fn a_checkpoint_looks_once_per_amount_of_work() {
        let past = Limits {
            deadline: Some(Instant::now() - Duration::from_millis(1)),
            ..Limits::default()
        };
        let mut checkpoint = Checkpoint::new(past);
        assert_eq!(checkpoint.after(Checkpoint::WORK - 1), None);
        assert_eq!(checkpoint.after(1), Some(Reached::Time));
        assert_eq!(checkpoint.after(100), None);
        assert_eq!(checkpoint.after(Checkpoint::WORK * 5), Some(Reached::Time));
    }
}
