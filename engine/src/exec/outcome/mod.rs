//! How running a state comes out: what an instruction did to control, how
//! a slice of instructions ended, and how a path ended ([`end`]), with the
//! two ends that carry what the engine found: a memory error ([`memory_error`],
//! the one place where a fault becomes an error of a kind) and a Rust panic
//! ([`panic`]).

pub(crate) mod end;
pub(crate) mod memory_error;
pub(crate) mod panic;

pub(crate) use end::{End, Flow, Ran};
pub(crate) use memory_error::{MemoryFault, VariableFault};
