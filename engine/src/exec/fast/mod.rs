//! The concrete fast path: runs the top frame of a state for as long as its
//! operands are concrete and its instructions simple, with the semantics of
//! `step` (results, instruction count, coverage, `State::at`), one dispatch
//! per fused op ([`fuse`]) on the frame held in registers
//! ([`registers`], driven by [`run`]). Anything else (a symbolic operand, a
//! trap, an out-of-bounds access or one to a returned frame's variable, a
//! call, the end of the slice) leaves the fast path at the first pc of the
//! op, for `step`. It knows the program and the state only, not the
//! exploration around them.

mod fuse;
mod registers;
mod run;

pub(crate) use fuse::FastCode;
pub(crate) use run::run;
