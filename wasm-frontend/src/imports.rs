//! The import catalogue: which imported functions are the symbolic-input API,
//! the allocator, or WASI, each with its expected signature.
//!
//! # The symbolic-input API (module `symplay`)
//!
//! Pointers are `i32` offsets into linear memory; `name` points to a
//! NUL-terminated string naming the input in reports and test cases.
//!
//! | import | signature | meaning |
//! |---|---|---|
//! | `symbolic_i32(name: i32) -> i32` | `(i32) -> i32` | a fresh symbolic 32-bit integer |
//! | `symbolic_i64(name: i32) -> i64` | `(i32) -> i64` | a fresh symbolic 64-bit integer |
//! | `symbolic_buffer(ptr: i32, len: i32, name: i32)` | `(i32, i32, i32)` | fills `len` bytes at `ptr` with fresh symbolic bytes |
//! | `symbolic_sized_buffer(ptr: i32, capacity: i32, name: i32) -> i32` | `(i32, i32, i32) -> i32` | fills `capacity` bytes at `ptr` with fresh symbolic bytes and returns their symbolic length, at most `capacity`: the bytes become a memory object of that length |
//! | `assume(cond: i32)` | `(i32)` | paths where `cond` is zero are dropped |
//! | `assert(cond: i32)` | `(i32)` | a path where `cond` can be zero is a bug |
//!
//! Any other name, or one of these with another signature, is a load error.
//!
//! # The peers' symbolic APIs (modules `owi`, `symbolic`, `summaries`)
//!
//! Programs written for Owi (module `owi`) and for the older `symbolic`
//! module of WASP and the Owi/WASP benchmarks run as they are:
//!
//! | import | signature | meaning |
//! |---|---|---|
//! | `i32_symbol`, `i64_symbol` | `() -> i32`, `() -> i64` | a fresh symbolic integer, an input named `symbol` |
//! | `i8_symbol`, `char_symbol` (`symbolic`) | `() -> i32` | a fresh symbolic byte, zero-extended |
//! | `f32_symbol`, `f64_symbol` | `() -> f32`, `() -> f64` | zero, with a note: floats are not symbolic |
//! | `range_symbol(lo, hi)` (`owi`) | `(i32, i32) -> i32` | a fresh integer `x` with `lo <= x < hi` (signed); an empty range drops the path |
//! | `assume(c)`, `assert(c)` | `(i32)` | as `symplay`'s |
//! | `assume_positive_i32(x)` (`symbolic`) | `(i32)` | assumes `x >= 0` |
//! | `abort()` (`owi`, `summaries`) | `()` | drops the path, as Owi does |
//! | `exit(code)` (`owi`, `summaries`) | `(i32)` | ends the path with that exit code |
//!
//! Other functions of these modules (`alloc`, `dealloc`, `print_char`, ...)
//! are not provided: a path that calls one ends there.
//!
//! # Memory functions (module `env`)
//!
//! `memcpy`, `memmove` and `memset`, each `(i32, i32, i32) -> i32`, which
//! clang emits as calls in a build without libc (a struct copy, a zeroed
//! array): the host runs them as `memory.copy` and `memory.fill` and
//! returns the destination.
//!
//! # Unknown imports
//!
//! Any other function is [`ImportClass::Unknown`]: the module still loads
//! and explores; a path that calls one ends there (or, by option, gets a
//! fresh symbolic value per result).
//!
//! The catalogue knows only signatures and import names; the
//! [`Module`](crate::Module) holds its [`FuncImport`]s and answers questions
//! about them, so this module does not depend on it.

use crate::error::{ErrorKind, LoadError};
use crate::types::{FuncType, ImportName, ValType};

use ValType::{F32, F64, I32, I64};

/// An imported function and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncImport {
    pub name: ImportName,
    pub class: ImportClass,
    /// Byte offset of the import entry.
    pub offset: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportClass {
    Symbolic(SymbolicApi),
    Peer(PeerApi),
    Allocator(AllocatorFn),
    Memory(MemoryFn),
    Wasi(WasiFn),
    /// Anything else; whether it is allowed is for the executor to decide (see
    /// [`Module::check_no_unknown_imports`](crate::Module::check_no_unknown_imports)).
    Unknown,
}

/// A function of Owi's `owi` module or the `symbolic` and `summaries`
/// modules of WASP and the Owi/WASP benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerApi {
    /// A fresh integer of this many bits (8: zero-extended to an `i32`).
    Symbol(u8),
    /// A float symbol, which is zero: floats are not symbolic.
    FloatSymbol(ValType),
    Range,
    Assume,
    Assert,
    AssumePositive,
    Abort,
    Exit,
    /// `alloc(base, size)`: the block the module's allocator placed at
    /// `base` is a memory object.
    Alloc,
    /// `dealloc(p)`: frees that object; gives `p` back.
    Dealloc,
    /// `print_char(c)`: one character of output.
    PrintChar,
}

/// The C memory functions the host provides under `env`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryFn {
    Memcpy,
    Memmove,
    Memset,
}

/// The functions of module `symplay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolicApi {
    SymbolicI32,
    SymbolicI64,
    SymbolicBuffer,
    SymbolicSizedBuffer,
    Assume,
    Assert,
}

/// An allocator function: C's, Rust's global allocator shims or C++'s
/// `operator new` and `delete` (wasm32 mangling), imported from module `env`
/// or defined in the module under one of these names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocatorFn {
    Malloc,
    Free,
    Calloc,
    Realloc,
    AlignedAlloc,
    PosixMemalign,
    RustAlloc,
    RustAllocZeroed,
    RustDealloc,
    RustRealloc,
    New,
    NewArray,
    Delete,
    DeleteArray,
    DeleteSized,
    DeleteArraySized,
}

/// The `wasi_snapshot_preview1` functions that clang's wasm32-wasi modules
/// commonly import.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WasiFn {
    FdWrite,
    ProcExit,
    ArgsSizesGet,
    ArgsGet,
    EnvironSizesGet,
    EnvironGet,
    RandomGet,
    FdClose,
    FdSeek,
    FdFdstatGet,
    ClockTimeGet,
}

pub const SYMPLAY_MODULE: &str = "symplay";
pub const ALLOCATOR_MODULE: &str = "env";
pub const WASI_MODULE: &str = "wasi_snapshot_preview1";

/// Name, class and signature of every known import of one module.
type Catalogue<T> = [(&'static str, T, &'static [ValType], &'static [ValType])];

const SYMBOLIC_API: &Catalogue<SymbolicApi> = &[
    ("symbolic_i32", SymbolicApi::SymbolicI32, &[I32], &[I32]),
    ("symbolic_i64", SymbolicApi::SymbolicI64, &[I32], &[I64]),
    (
        "symbolic_buffer",
        SymbolicApi::SymbolicBuffer,
        &[I32, I32, I32],
        &[],
    ),
    (
        "symbolic_sized_buffer",
        SymbolicApi::SymbolicSizedBuffer,
        &[I32, I32, I32],
        &[I32],
    ),
    ("assume", SymbolicApi::Assume, &[I32], &[]),
    ("assert", SymbolicApi::Assert, &[I32], &[]),
];

const OWI: &Catalogue<PeerApi> = &[
    ("i32_symbol", PeerApi::Symbol(32), &[], &[I32]),
    ("i64_symbol", PeerApi::Symbol(64), &[], &[I64]),
    ("f32_symbol", PeerApi::FloatSymbol(F32), &[], &[F32]),
    ("f64_symbol", PeerApi::FloatSymbol(F64), &[], &[F64]),
    ("range_symbol", PeerApi::Range, &[I32, I32], &[I32]),
    ("assume", PeerApi::Assume, &[I32], &[]),
    ("assert", PeerApi::Assert, &[I32], &[]),
    ("abort", PeerApi::Abort, &[], &[]),
    ("exit", PeerApi::Exit, &[I32], &[]),
    ("alloc", PeerApi::Alloc, &[I32, I32], &[I32]),
    ("dealloc", PeerApi::Dealloc, &[I32], &[I32]),
    ("print_char", PeerApi::PrintChar, &[I32], &[]),
];

const SYMBOLIC: &Catalogue<PeerApi> = &[
    ("i8_symbol", PeerApi::Symbol(8), &[], &[I32]),
    ("char_symbol", PeerApi::Symbol(8), &[], &[I32]),
    ("i32_symbol", PeerApi::Symbol(32), &[], &[I32]),
    ("i64_symbol", PeerApi::Symbol(64), &[], &[I64]),
    ("f32_symbol", PeerApi::FloatSymbol(F32), &[], &[F32]),
    ("f64_symbol", PeerApi::FloatSymbol(F64), &[], &[F64]),
    ("assume", PeerApi::Assume, &[I32], &[]),
    ("assert", PeerApi::Assert, &[I32], &[]),
    ("assume_positive_i32", PeerApi::AssumePositive, &[I32], &[]),
];

const SUMMARIES: &Catalogue<PeerApi> = &[
    ("abort", PeerApi::Abort, &[], &[]),
    ("exit", PeerApi::Exit, &[I32], &[]),
    ("alloc", PeerApi::Alloc, &[I32, I32], &[I32]),
    ("dealloc", PeerApi::Dealloc, &[I32], &[I32]),
];

const MEMORY: &Catalogue<MemoryFn> = &[
    ("memcpy", MemoryFn::Memcpy, &[I32, I32, I32], &[I32]),
    ("memmove", MemoryFn::Memmove, &[I32, I32, I32], &[I32]),
    ("memset", MemoryFn::Memset, &[I32, I32, I32], &[I32]),
];

const ALLOCATOR: &Catalogue<AllocatorFn> = &[
    ("malloc", AllocatorFn::Malloc, &[I32], &[I32]),
    ("free", AllocatorFn::Free, &[I32], &[]),
    ("calloc", AllocatorFn::Calloc, &[I32, I32], &[I32]),
    ("realloc", AllocatorFn::Realloc, &[I32, I32], &[I32]),
    (
        "aligned_alloc",
        AllocatorFn::AlignedAlloc,
        &[I32, I32],
        &[I32],
    ),
    (
        "posix_memalign",
        AllocatorFn::PosixMemalign,
        &[I32, I32, I32],
        &[I32],
    ),
    ("__rust_alloc", AllocatorFn::RustAlloc, &[I32, I32], &[I32]),
    (
        "__rust_alloc_zeroed",
        AllocatorFn::RustAllocZeroed,
        &[I32, I32],
        &[I32],
    ),
    (
        "__rust_dealloc",
        AllocatorFn::RustDealloc,
        &[I32, I32, I32],
        &[],
    ),
    (
        "__rust_realloc",
        AllocatorFn::RustRealloc,
        &[I32, I32, I32, I32],
        &[I32],
    ),
    ("_Znwm", AllocatorFn::New, &[I32], &[I32]),
    ("_Znam", AllocatorFn::NewArray, &[I32], &[I32]),
    ("_ZdlPv", AllocatorFn::Delete, &[I32], &[]),
    ("_ZdaPv", AllocatorFn::DeleteArray, &[I32], &[]),
    ("_ZdlPvm", AllocatorFn::DeleteSized, &[I32, I32], &[]),
    ("_ZdaPvm", AllocatorFn::DeleteArraySized, &[I32, I32], &[]),
];

/// The allocator function a function named `name` is (a Rust shim, named
/// `__rustc::__rust_alloc` once demangled, counts by its last identifier),
/// with the signature it must have.
pub fn allocator_named(name: &str) -> Option<(AllocatorFn, FuncType)> {
    let name = name.strip_prefix("__rustc::").unwrap_or(name);
    ALLOCATOR
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, f, params, results)| (*f, FuncType::new(params, results)))
}

const WASI: &Catalogue<WasiFn> = &[
    ("fd_write", WasiFn::FdWrite, &[I32, I32, I32, I32], &[I32]),
    ("proc_exit", WasiFn::ProcExit, &[I32], &[]),
    ("args_sizes_get", WasiFn::ArgsSizesGet, &[I32, I32], &[I32]),
    ("args_get", WasiFn::ArgsGet, &[I32, I32], &[I32]),
    (
        "environ_sizes_get",
        WasiFn::EnvironSizesGet,
        &[I32, I32],
        &[I32],
    ),
    ("environ_get", WasiFn::EnvironGet, &[I32, I32], &[I32]),
    ("random_get", WasiFn::RandomGet, &[I32, I32], &[I32]),
    ("fd_close", WasiFn::FdClose, &[I32], &[I32]),
    ("fd_seek", WasiFn::FdSeek, &[I32, I64, I32, I32], &[I32]),
    ("fd_fdstat_get", WasiFn::FdFdstatGet, &[I32, I32], &[I32]),
    (
        "clock_time_get",
        WasiFn::ClockTimeGet,
        &[I32, I64, I32],
        &[I32],
    ),
];

/// Classifies an imported function with signature `ty`. A known name with the
/// wrong signature, and an unknown name in module `symplay`, are errors.
pub(crate) fn classify(
    name: &ImportName,
    ty: &FuncType,
    offset: u64,
) -> Result<ImportClass, LoadError> {
    let class = match name.module.as_str() {
        SYMPLAY_MODULE => match lookup(SYMBOLIC_API, name, ty, offset)? {
            Some(api) => ImportClass::Symbolic(api),
            None => {
                let known: Vec<String> = SYMBOLIC_API
                    .iter()
                    .map(|(n, _, params, results)| format!("{n}{}", FuncType::new(params, results)))
                    .collect();
                return Err(LoadError::new(
                    ErrorKind::Import,
                    format!(
                        "unknown symplay import {name} (module `symplay` provides: {})",
                        known.join(", ")
                    ),
                    Some(offset),
                ));
            }
        },
        ALLOCATOR_MODULE => match lookup(ALLOCATOR, name, ty, offset)? {
            Some(f) => ImportClass::Allocator(f),
            None => {
                lookup(MEMORY, name, ty, offset)?.map_or(ImportClass::Unknown, ImportClass::Memory)
            }
        },
        "owi" => lookup(OWI, name, ty, offset)?.map_or(ImportClass::Unknown, ImportClass::Peer),
        "symbolic" => {
            lookup(SYMBOLIC, name, ty, offset)?.map_or(ImportClass::Unknown, ImportClass::Peer)
        }
        "summaries" => {
            lookup(SUMMARIES, name, ty, offset)?.map_or(ImportClass::Unknown, ImportClass::Peer)
        }
        WASI_MODULE => {
            lookup(WASI, name, ty, offset)?.map_or(ImportClass::Unknown, ImportClass::Wasi)
        }
        _ => ImportClass::Unknown,
    };
    Ok(class)
}

/// Finds `name` in `catalogue` and checks its signature.
fn lookup<T: Copy>(
    catalogue: &Catalogue<T>,
    name: &ImportName,
    ty: &FuncType,
    offset: u64,
) -> Result<Option<T>, LoadError> {
    let Some((_, class, params, results)) = catalogue.iter().find(|(n, ..)| *n == name.name) else {
        return Ok(None);
    };
    let expected = FuncType::new(params, results);
    if *ty != expected {
        return Err(LoadError::new(
            ErrorKind::Import,
            format!("import {name} has signature {ty}, expected {expected}"),
            Some(offset),
        ));
    }
    Ok(Some(*class))
}
