//! Rust's panic functions. Compiled Rust panics by calling one of `core`'s
//! panic functions, which format a message and end in `unreachable`. A call
//! of one ends the path as a panic instead, with the message the function
//! would print and the caller's source location (read at the call, by
//! `host/panic_message.rs`): the report says what Rust says, and no path
//! runs the formatting code. Here: which functions those are, by name and
//! signature, and what their arguments are.

use symplay_wasm::{Module, ValType};

/// The panic functions of `core`, by what their arguments are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanicFn {
    /// `panic_bounds_check(index, len)`.
    BoundsCheck,
    /// `panic(message: &str)`, `expect_failed(message: &str)`, and
    /// `result::unwrap_failed(message: &str, error: &dyn Debug)`, whose
    /// error's text needs its `Debug`, so only the message is read.
    Str,
    /// A message without arguments (`panic_const_add_overflow`, ...).
    Fixed(&'static str),
    /// `panic_fmt(arguments)`: formatted at run time, not read.
    Fmt,
    /// `slice_start_index_len_fail(index, len)` and the like: text, the
    /// first number, text, the second number.
    Slice(&'static str, &'static str),
}

/// The panic functions by their demangled path, with their Wasm arity
/// (`&str` is a pointer and a length; the last parameter is always the
/// `&Location`).
const PANIC_FNS: &[(&str, PanicFn, usize)] = &[
    (
        "core::panicking::panic_bounds_check",
        PanicFn::BoundsCheck,
        3,
    ),
    ("core::panicking::panic", PanicFn::Str, 3),
    ("core::option::expect_failed", PanicFn::Str, 3),
    ("core::panicking::panic_fmt", PanicFn::Fmt, 3),
    ("core::panicking::panic_fmt", PanicFn::Fmt, 2),
    (
        "core::option::unwrap_failed",
        PanicFn::Fixed("called `Option::unwrap()` on a `None` value"),
        1,
    ),
    ("core::result::unwrap_failed", PanicFn::Str, 5),
    (
        "core::slice::index::slice_start_index_len_fail",
        PanicFn::Slice("range start index ", " out of range for slice of length "),
        3,
    ),
    (
        "core::slice::index::slice_end_index_len_fail",
        PanicFn::Slice("range end index ", " out of range for slice of length "),
        3,
    ),
    (
        "core::slice::index::slice_index_order_fail",
        PanicFn::Slice("slice index starts at ", " but ends at "),
        3,
    ),
];

/// `core::panicking::panic_const::panic_const_NAME` and its message.
const PANIC_CONSTS: &[(&str, &str)] = &[
    ("add_overflow", "attempt to add with overflow"),
    ("sub_overflow", "attempt to subtract with overflow"),
    ("mul_overflow", "attempt to multiply with overflow"),
    ("div_overflow", "attempt to divide with overflow"),
    (
        "rem_overflow",
        "attempt to calculate the remainder with overflow",
    ),
    ("neg_overflow", "attempt to negate with overflow"),
    ("shr_overflow", "attempt to shift right with overflow"),
    ("shl_overflow", "attempt to shift left with overflow"),
    ("div_by_zero", "attempt to divide by zero"),
    (
        "rem_by_zero",
        "attempt to calculate the remainder with a divisor of zero",
    ),
];

impl PanicFn {
    /// The panic function defined function `index` of `module` is, by its
    /// (demangled) name and its signature.
    pub fn of(module: &Module, index: u32) -> Option<PanicFn> {
        let name = module.funcs.get(index as usize)?.name.as_str();
        let params = &module.func_type(index)?.params;
        if params.iter().any(|&t| t != ValType::I32) {
            return None;
        }
        if let Some(what) = name.strip_prefix("core::panicking::panic_const::panic_const_") {
            let (_, message) = PANIC_CONSTS.iter().find(|(n, _)| *n == what)?;
            return (params.len() == 1).then_some(PanicFn::Fixed(message));
        }
        PANIC_FNS
            .iter()
            .find(|(n, _, arity)| *n == name && *arity == params.len())
            .map(|&(_, f, _)| f)
    }
}
