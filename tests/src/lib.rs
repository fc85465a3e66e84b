//! Shared code of Symplay's cross-crate tests and benchmarks: random term
//! generators, a z3 process to compare against, operator coverage counts,
//! and the example corpus.

pub mod corpus;
pub mod coverage;
pub mod gen;
pub mod rng;
pub mod sexpr;
pub mod z3;
