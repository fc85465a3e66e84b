//! What running a state gives: how an instruction left control, how a slice
//! of instructions ended, and how a path ended.

use super::memory_error::MemoryFault;
use super::panic::Panic;
use crate::report::{DropCause, Trap};
use crate::state::value::Val;
use crate::state::State;

/// How a path ended (or stopped being explored).
#[derive(Clone, Debug)]
pub enum End {
    Returned(Vec<Val>),
    Exited(Val),
    Trap(Trap),
    AssertFailed,
    MemoryError(Box<MemoryFault>),
    /// A call of one of Rust's panic functions.
    Panic(Box<Panic>),
    /// An `assume` that cannot hold, or a path the solver could not decide.
    Dropped(DropCause),
    DepthLimit,
    /// One call more than the engine's call-depth limit (frames).
    CallDepthLimit(usize),
    /// A call of an import the host does not provide: its name and type.
    NotProvided(String),
    /// A solver query was cut off by the deadline or the interrupt: the
    /// state stays unexplored.
    CutOff,
}

/// What an instruction did to control: continue, or the state forked and the
/// siblings (already constrained and placed in the tree) join the search.
pub enum Flow {
    Next,
    Fork(Vec<State>),
}

/// The result of running a state for a while.
pub enum Ran {
    /// The state used its instruction slice and can continue.
    Paused(Box<State>),
    /// The state forked: these states (itself included) continue later.
    Forked(Vec<State>),
    /// The state left the loop of its merging context, and waits.
    Suspended(Box<State>),
    /// Under PAT, the state came to a merge point of its context's loop
    /// (a fork's side, the loop's head), where it may merge with a state
    /// that came there before.
    AtMergePoint(Box<State>),
    /// The path ended (or was dropped) at this tree node, in this merging
    /// context.
    Ended { node: usize, merging: Option<u32> },
}

impl From<MemoryFault> for End {
    fn from(fault: MemoryFault) -> End {
        End::MemoryError(Box::new(fault))
    }
}
