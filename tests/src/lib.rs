//! Shared code of Symplay's cross-crate tests and benchmarks: random term
//! generators, a z3 process to compare against, operator coverage counts,
//! the example corpus, the repository's sources, the explorations the
//! memory tests make and read, explorations run in parts as parallel jobs
//! split them, and what the benchmarks share.

pub mod bench;
pub mod corpus;
pub mod coverage;
pub mod gen;
pub mod parts;
pub mod reports;
pub mod rng;
pub mod sources;
pub mod z3;
