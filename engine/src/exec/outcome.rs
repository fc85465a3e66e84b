//! What running a state gives: how an instruction left control, how a slice
//! of instructions ended, and how a path ended.

use super::rust_panic::Panic;
use crate::memory::ObjectId;
use crate::report::{Access, DropCause, MemoryErrorKind, Trap};
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::Variable;

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
    /// The path ended (or was dropped) at this tree node.
    Ended(usize),
}

/// A memory error as the engine finds it, its object by id in the memory
/// model.
#[derive(Clone, Debug)]
pub struct MemoryFault {
    pub kind: MemoryErrorKind,
    pub access: Access,
    pub address: u64,
    pub width: u32,
    pub object: Option<ObjectId>,
    pub detail: Option<String>,
    /// The C variable of a global or stack overflow.
    pub variable: Option<VariableFault>,
}

/// A C variable an access left: where it was on the path, and whose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableFault {
    pub base: u64,
    pub variable: Variable,
    /// The store function whose frame held it; `None` for a global.
    pub frame_of: Option<u32>,
    /// Where that function returned, for a use after return.
    pub returned_at: Option<(u32, u32)>,
}

impl MemoryFault {
    pub fn end(self) -> End {
        End::MemoryError(Box::new(self))
    }
}
