//! The executor: a program and the exploration context that runs it, lent
//! together for one stretch of the scheduler's loop to the code that runs
//! states, each folder adding its methods (`fork/`, `semantics/`,
//! `memcheck/`, `host/`, `record/`, `run/`).

use super::context::Context;
use super::program::Program;

pub(crate) struct Executor<'a> {
    pub(crate) program: Program<'a>,
    pub(crate) cx: &'a mut Context,
}
