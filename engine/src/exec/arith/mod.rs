//! Wasm's numeric instructions on concrete bits, pure functions shared by
//! the fast path and the interpreter: integers ([`int`]: results, traps,
//! and the operators the fast path fuses) and floats ([`float`], which the
//! engine keeps concrete).

pub(crate) mod float;
pub(crate) mod int;
