//! Symplay's engine: hash-consed terms, the solver chain, and (later) the
//! symbolic interpreter, memory models and state merging.

pub mod expr;
pub mod memory;
pub mod smtlib;
pub mod solver;
