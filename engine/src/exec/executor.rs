//! The executor: a program and the exploration context that runs it, lent
//! together to the instruction semantics (`interp.rs`, `fast.rs`, `ops.rs`,
//! `memops.rs`, `fork.rs`, `host.rs`, `path.rs`, `tracer.rs`) for one
//! stretch of the driver's loop.

use super::context::Context;
use super::program::Program;

pub struct Executor<'a> {
    pub program: Program<'a>,
    pub cx: &'a mut Context,
}
