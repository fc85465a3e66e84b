//! Symplay's engine: hash-consed terms, the solver chain, linear memory, the
//! symbolic interpreter with its searchers, and the exploration report.

pub mod exec;
pub mod expr;
pub mod limits;
pub mod memory;
pub mod report;
pub mod search;
pub mod smtlib;
pub mod solver;
pub mod state;
pub mod tree;
