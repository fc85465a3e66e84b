//! Symplay's WebAssembly front end: loads a module (binary or WAT text),
//! validates it against the supported feature set, and lowers every function
//! to a compact IR ([`ir`]) with resolved branch targets, loop headers and
//! exits, for the symbolic interpreter.
//!
//! Supported: Wasm 1.0 plus mutable globals, sign extension, non-trapping
//! float-to-int, multi-value, bulk memory and reference types (what clang
//! and rustc emit by default: Wasm 2.0 without SIMD). Anything else is an error naming the feature and the byte
//! offset, e.g. `unsupported feature: SIMD (v128) at offset 0x2a`.
//! [`load_with`] can validate against exactly Wasm 1.0 instead
//! ([`Profile::Wasm1`]), as the 1.0 spec tests expect.
//!
//! Imported functions are classified ([`imports`]): the symbolic-input API
//! (module `symplay`), the C allocator, WASI, or unknown. A module compiled
//! with debug information maps its code to source lines ([`SourceLines`]),
//! and an edited copy of it assembled from WAT text keeps them where its
//! code is unchanged ([`carry_source_lines`]);
//! its parameters are named by the name section or DWARF
//! ([`Module::local_name`]).
//! When no entry is named, [`entry::default_entry`] picks the function to
//! explore.

mod carried_lines;
mod dwarf;
pub mod entry;
mod error;
mod features;
mod foreign_source;
pub mod imports;
pub mod ir;
mod load;
mod local_names;
mod lower;
mod module;
mod names;
mod parameters;
mod source_lines;
mod types;
mod variables;

pub use carried_lines::{carry_source_lines, LinesCarried};
pub use error::{ErrorKind, LoadError};
pub use features::Profile;
use load::CodeLayout;
pub use local_names::LocalNames;
pub use module::{
    ConstExpr, DataMode, DataSegment, ElementMode, ElementSegment, Export, ExportKind, Func,
    FuncBody, FuncIdx, Global, GlobalInit, Memory, Module, Table, MAX_TABLE_ENTRIES,
};
pub use source_lines::{SourceLine, SourceLines};
pub use types::{FuncType, ImportName, ValType};
pub use variables::{FrameBase, FrameVariables, Variable, Variables};

/// The first bytes of every binary module.
const WASM_MAGIC: &[u8] = b"\0asm";

/// Loads a module from its binary encoding (detected by the `\0asm` magic) or
/// from WAT text, with every supported feature.
pub fn load(bytes: &[u8]) -> Result<Module, LoadError> {
    load_with(bytes, Profile::Supported)
}

/// Loads a module as [`load`] does, validated against `profile`.
pub fn load_with(bytes: &[u8], profile: Profile) -> Result<Module, LoadError> {
    if bytes.starts_with(WASM_MAGIC) {
        return load::load_binary(bytes, profile, CodeLayout::Linked);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        LoadError::new(
            ErrorKind::Malformed,
            "malformed module: neither a binary module (no \\0asm magic) nor UTF-8 WAT text",
            Some(e.valid_up_to() as u64),
        )
    })?;
    let binary = wat::parse_str(text).map_err(|e| match foreign_source::recognise(text) {
        Some(language) => LoadError::new(ErrorKind::SourceCode, language.advice(), None),
        None => LoadError::new(ErrorKind::InvalidText, format!("invalid WAT: {e}"), None),
    })?;
    let mut module = load::load_binary(&binary, profile, CodeLayout::Reassembled)?;
    // Line tables kept as `@custom` text describe the code as the linker
    // laid it out; assembled again, function bodies move (lld pads their
    // sizes, `wat` does not), so the lines would be wrong. Global
    // variables keep their addresses, and stack frames are found by their
    // function's name instead of its code address. (Lines can be carried
    // from the binary the text was printed from: `carry_source_lines`.)
    module.source_lines = None;
    Ok(module)
}
