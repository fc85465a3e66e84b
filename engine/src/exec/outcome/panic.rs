//! A Rust panic as the engine finds it at the call of one of `core`'s
//! panic functions (`program/panic_fns.rs`): its message, whose numbers may
//! stay symbolic until the path's model gives them, and its location.

use crate::state::value::Val;

/// A part of a panic's message: text, or a `usize` argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Text(String),
    Number(Val),
}

/// A panic as the engine finds it: the message (its numbers may be
/// symbolic until the path's model gives them), when it could be read,
/// and the location `file:line:column`, when it could.
#[derive(Clone, Debug, PartialEq)]
pub struct Panic {
    pub message: Option<Vec<Part>>,
    pub location: Option<String>,
}
