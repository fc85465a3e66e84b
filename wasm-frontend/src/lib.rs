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
mod liveness;
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

/// A binary that ends where its encoding needs more bytes, said so: a
/// download or a copy cut short, not a module to fix.
fn cut_short(e: LoadError, len: usize) -> LoadError {
    if e.kind != ErrorKind::Malformed || !e.message.contains("unexpected end") {
        return e;
    }
    LoadError::new(
        ErrorKind::Malformed,
        format!("the module is cut short: its {len} bytes end in the middle of a section (copied or downloaded only in part?)"),
        e.offset,
    )
}

/// Why `bytes` (a file that is neither) is not a module, with its first
/// bytes: `not a Wasm module: it starts with 7f 45 4c 46 ("\x7fELF"), ...`.
fn not_a_module(bytes: &[u8]) -> String {
    let first = &bytes[..bytes.len().min(8)];
    let hex: Vec<String> = first.iter().map(|b| format!("{b:02x}")).collect();
    let shown: String = first.escape_ascii().to_string();
    if bytes.is_empty() {
        return "not a Wasm module: the file is empty".into();
    }
    if WASM_MAGIC.starts_with(first) {
        return format!(
            "not a Wasm module: the file is cut short after {} bytes (a binary module starts with the 8 bytes 00 61 73 6d 01 00 00 00)",
            bytes.len()
        );
    }
    format!(
        "not a Wasm module: it starts with {} (\"{shown}\"), where a binary module starts with 00 61 73 6d (\"\\0asm\"), and it is not WAT text either",
        hex.join(" ")
    )
}

/// Loads a module from its binary encoding (detected by the `\0asm` magic) or
/// from WAT text, with every supported feature.
pub fn load(bytes: &[u8]) -> Result<Module, LoadError> {
    load_with(bytes, Profile::Supported)
}

/// Loads a module as [`load`] does, validated against `profile`.
pub fn load_with(bytes: &[u8], profile: Profile) -> Result<Module, LoadError> {
    if bytes.starts_with(WASM_MAGIC) {
        return load::load_binary(bytes, profile, CodeLayout::Linked)
            .map_err(|e| cut_short(e, bytes.len()));
    }
    let not_wasm = || LoadError::new(ErrorKind::Malformed, not_a_module(bytes), None);
    if bytes.is_empty() {
        return Err(not_wasm());
    }
    let text = std::str::from_utf8(bytes).map_err(|_| not_wasm())?;
    let binary = wat::parse_str(text).map_err(|e| match foreign_source::recognise(text) {
        Some(language) => LoadError::new(ErrorKind::SourceCode, language.advice(), None),
        // Control characters: a binary file of another kind, not a typo.
        None if text.chars().any(|c| c.is_control() && !c.is_whitespace()) => not_wasm(),
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
