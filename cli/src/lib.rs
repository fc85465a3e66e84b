//! Symplay's command line as a library: the spec-script runner behind
//! `symplay wast`, so that tests can run scripts without the binary, and
//! the `/proc` reader that the binary and its tests share.

pub mod procfs;
pub mod wast;
