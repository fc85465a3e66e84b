//! What each instruction does to a state: [`step`] runs the next
//! instruction of a state, one call per instruction, and the other files
//! hold those calls, grouped as the Wasm spec groups instructions: control
//! ([`control`]: branches and `br_table`), calls and returns ([`calls`]),
//! `drop` and `select` ([`parametric`]), locals and globals ([`locals`]),
//! numeric instructions ([`numeric`]), memory ([`memory`]) and tables and
//! references ([`tables`]). A symbolic condition forks (`fork/`); every
//! memory access goes through `memcheck/`.

mod calls;
mod control;
mod locals;
mod memory;
mod numeric;
mod parametric;
mod step;
mod tables;

pub use calls::MAX_FRAMES;
