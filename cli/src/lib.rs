//! Symplay's command line as a library: the spec-script runner behind
//! `symplay wast`, so that tests can run scripts without the binary.

pub mod wast;
