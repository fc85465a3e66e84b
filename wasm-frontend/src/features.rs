//! The feature sets a module is validated against, and the names used when
//! rejecting the rest.
//!
//! Supported: Wasm 1.0 plus mutable globals, sign extension, non-trapping
//! float-to-int, multi-value, bulk memory and reference types, which is
//! what clang and rustc emit by default (Wasm 2.0 without SIMD).

use wasmparser::{Operator, WasmFeatures};

/// Which Wasm a module may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Profile {
    /// Everything the engine supports (see the crate documentation).
    #[default]
    Supported,
    /// Exactly Wasm 1.0 (with mutable globals, which 1.0 includes): what the
    /// 1.0 spec tests expect, where e.g. a block with two results is invalid.
    Wasm1,
}

impl Profile {
    /// The validator's feature set: exactly the profile's features, so
    /// validation rejects everything else. The overlong `call_indirect`
    /// table-index encoding is an encoding detail that recent LLVM emits, not
    /// a feature; Wasm 1.0 requires the single zero byte.
    pub(crate) fn features(self) -> WasmFeatures {
        match self {
            Profile::Supported => {
                WasmFeatures::WASM1
                    | WasmFeatures::SIGN_EXTENSION
                    | WasmFeatures::SATURATING_FLOAT_TO_INT
                    | WasmFeatures::MULTI_VALUE
                    | WasmFeatures::BULK_MEMORY
                    | WasmFeatures::REFERENCE_TYPES
                    | WasmFeatures::CALL_INDIRECT_OVERLONG
            }
            Profile::Wasm1 => WasmFeatures::WASM1,
        }
    }
}

/// The features a module may use that we do not support: the wasmparser
/// flag, the proposal's name in wasmparser's operator table, and the name
/// shown to users.
const UNSUPPORTED: &[(WasmFeatures, &str, &str)] = &[
    (WasmFeatures::SIMD, "simd", "SIMD (v128)"),
    (WasmFeatures::RELAXED_SIMD, "relaxed_simd", "relaxed SIMD"),
    (
        WasmFeatures::THREADS,
        "threads",
        "threads (atomics, shared memory)",
    ),
    (
        WasmFeatures::SHARED_EVERYTHING_THREADS,
        "shared_everything_threads",
        "shared-everything threads",
    ),
    (WasmFeatures::TAIL_CALL, "tail_call", "tail calls"),
    (
        WasmFeatures::MULTI_MEMORY,
        "multi_memory",
        "multiple memories",
    ),
    (WasmFeatures::EXCEPTIONS, "exceptions", "exception handling"),
    (
        WasmFeatures::LEGACY_EXCEPTIONS,
        "legacy_exceptions",
        "exception handling (legacy)",
    ),
    (WasmFeatures::MEMORY64, "memory64", "memory64"),
    (
        WasmFeatures::EXTENDED_CONST,
        "extended_const",
        "extended constant expressions",
    ),
    (
        WasmFeatures::COMPONENT_MODEL,
        "component_model",
        "component model",
    ),
    (
        WasmFeatures::FUNCTION_REFERENCES,
        "function_references",
        "function references",
    ),
    (WasmFeatures::GC, "gc", "GC"),
    (
        WasmFeatures::MEMORY_CONTROL,
        "memory_control",
        "memory control",
    ),
    (
        WasmFeatures::CUSTOM_PAGE_SIZES,
        "custom_page_sizes",
        "custom page sizes",
    ),
    (
        WasmFeatures::STACK_SWITCHING,
        "stack_switching",
        "stack switching",
    ),
    (
        WasmFeatures::WIDE_ARITHMETIC,
        "wide_arithmetic",
        "wide arithmetic",
    ),
    (
        WasmFeatures::CUSTOM_DESCRIPTORS,
        "custom_descriptors",
        "custom descriptors",
    ),
    (
        WasmFeatures::COMPACT_IMPORTS,
        "compact_imports",
        "compact imports",
    ),
];

/// Names the feature whose absence wasmparser reported.
pub(crate) fn feature_name(missing: WasmFeatures) -> Option<&'static str> {
    UNSUPPORTED
        .iter()
        .find(|(flag, _, _)| missing.intersects(*flag))
        .map(|(_, _, name)| *name)
}

/// Names the feature behind a validation error that wasmparser reports
/// without a feature flag (limits that the disabled features would lift).
pub(crate) fn feature_in_message(message: &str) -> Option<&'static str> {
    match message {
        "multiple memories" => Some("multiple memories"),
        _ => None,
    }
}

/// The name of the unsupported feature an operator belongs to, or `None` if
/// the operator is in the supported set.
pub(crate) fn unsupported_operator(op: &Operator<'_>) -> Option<&'static str> {
    match proposal_of(op) {
        "mvp"
        | "sign_extension"
        | "saturating_float_to_int"
        | "bulk_memory"
        | "reference_types" => None,
        proposal => Some(
            UNSUPPORTED
                .iter()
                .find(|(_, p, _)| *p == proposal)
                .map_or(proposal, |(_, _, name)| *name),
        ),
    }
}

/// The proposal that introduced an operator, as spelled in wasmparser's
/// operator table (`mvp`, `simd`, `threads`, ...), generated from that table
/// so that new operators are classified without changes here.
fn proposal_of(op: &Operator<'_>) -> &'static str {
    macro_rules! proposal_match {
        ($( @$proposal:ident $op:ident $({ $($arg:ident: $argty:ty),* })? => $visit:ident ($($ann:tt)*))*) => {
            match op {
                $( Operator::$op { .. } => stringify!($proposal), )*
                _ => "unknown operator",
            }
        };
    }
    wasmparser::for_each_operator!(proposal_match)
}
