//! Shared code of Symplay's cross-crate tests and benchmarks: random term
//! generators, a z3 process to compare against, and operator coverage counts.

pub mod coverage;
pub mod gen;
pub mod rng;
pub mod sexpr;
pub mod z3;
