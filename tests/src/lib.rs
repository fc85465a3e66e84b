//! Shared code of Symplay's cross-crate tests and benchmarks: random term
//! generators, a z3 process to compare against, operator coverage counts,
//! the example corpus, and what the benchmarks share.

pub mod bench;
pub mod corpus;
pub mod coverage;
pub mod gen;
pub mod rng;
pub mod z3;
