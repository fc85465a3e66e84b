//! Which exported function to explore when none is named: one rule for the
//! command line and the page. Toolchains export functions of their own
//! beside the program's (constructors, reactor initialisers, stack helpers);
//! those are passed over, so that a module compiled from C with one
//! function explores that function.

use std::fmt;

use crate::module::{Export, ExportKind, Module};

/// Why a module has no default entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoEntry {
    /// No function is exported at all; the other exports, as `memory
    /// memory`, `global g`.
    NoFunction { exports: Vec<String> },
    /// Only runtime helpers are exported, by name.
    OnlyHelpers { functions: Vec<String> },
}

impl fmt::Display for NoEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoEntry::NoFunction { exports } if exports.is_empty() => {
                f.write_str("the module exports nothing, so it has no function to explore")
            }
            NoEntry::NoFunction { exports } => write!(
                f,
                "the module exports no function to explore (it exports {})",
                exports.join(", ")
            ),
            NoEntry::OnlyHelpers { functions } => write!(
                f,
                "the module exports only runtime helpers ({}), no function of the program",
                functions.join(", ")
            ),
        }
    }
}

impl std::error::Error for NoEntry {}

/// A function a toolchain exports for its runtime rather than for the
/// program: `__wasm_call_ctors`, `_initialize`, anything `__`-prefixed, and
/// Emscripten's stack and exception helpers. (`_start` is a program's
/// entry, taken only when nothing else is exported: see [`default_entry`].)
pub fn is_runtime_helper(name: &str) -> bool {
    const EMSCRIPTEN: &[&str] = &[
        "stackSave",
        "stackRestore",
        "stackAlloc",
        "setThrew",
        "getTempRet0",
        "setTempRet0",
    ];
    name.starts_with("__")
        || name == "_initialize"
        || name.starts_with("emscripten_")
        || name.starts_with("_emscripten_")
        || EMSCRIPTEN.contains(&name)
}

/// The name that explores a module's start function, for a module that
/// exports none of the program's (as the Owi and WASP benchmarks are
/// written: `(start $main)`).
pub const START_ENTRY: &str = "(start)";

/// The name of the function to explore when none is named: the
/// [`default_entry`], else the start function when the module has one.
pub fn default_entry_name(module: &Module) -> Result<String, NoEntry> {
    match default_entry(module) {
        Ok(export) => Ok(export.name.clone()),
        Err(_) if module.start.is_some() => Ok(START_ENTRY.to_string()),
        Err(e) => Err(e),
    }
}

/// A function of the C library or the allocator that a build exports beside
/// the program's own (wasi-libc under `--export-all`: `malloc`, `strcmp`,
/// `lseek`, ...): explored only when named.
pub fn is_library_function(name: &str) -> bool {
    const C_LIBRARY: &[&str] = &[
        "abort",
        "abs",
        "atexit",
        "atoi",
        "atol",
        "bsearch",
        "close",
        "exit",
        "fclose",
        "fflush",
        "fgets",
        "fopen",
        "fprintf",
        "fputc",
        "fputs",
        "fread",
        "fseek",
        "ftell",
        "fwrite",
        "getchar",
        "getenv",
        "isalnum",
        "isalpha",
        "isdigit",
        "isspace",
        "isatty",
        "labs",
        "lseek",
        "memchr",
        "memcmp",
        "memcpy",
        "memmove",
        "memset",
        "open",
        "printf",
        "putchar",
        "puts",
        "qsort",
        "rand",
        "read",
        "snprintf",
        "sprintf",
        "srand",
        "strcat",
        "strchr",
        "strcmp",
        "strcpy",
        "strdup",
        "strerror",
        "strlen",
        "strncat",
        "strncmp",
        "strncpy",
        "strndup",
        "strnlen",
        "strrchr",
        "strstr",
        "strtol",
        "strtoll",
        "strtoul",
        "strtoull",
        "tolower",
        "toupper",
        "vfprintf",
        "vprintf",
        "vsnprintf",
        "write",
    ];
    crate::imports::allocator_named(name).is_some() || C_LIBRARY.contains(&name)
}

/// The exported function to explore when none is named: the first one (in
/// export order) that is not a runtime helper, a library function nor
/// `_start`; then `_start`, then a library function, when nothing else
/// qualifies.
pub fn default_entry(module: &Module) -> Result<&Export, NoEntry> {
    let functions: Vec<&Export> = module
        .exports
        .iter()
        .filter(|e| e.kind == ExportKind::Func)
        .collect();
    let program = || functions.iter().filter(|e| !is_runtime_helper(&e.name));
    if let Some(export) = program()
        .find(|e| e.name != "_start" && !is_library_function(&e.name))
        .or_else(|| program().find(|e| e.name == "_start"))
        .or_else(|| program().next())
    {
        return Ok(export);
    }
    if !functions.is_empty() {
        return Err(NoEntry::OnlyHelpers {
            functions: functions.iter().map(|e| e.name.clone()).collect(),
        });
    }
    Err(NoEntry::NoFunction {
        exports: module
            .exports
            .iter()
            .map(|e| format!("{} `{}`", kind_name(e.kind), e.name))
            .collect(),
    })
}

fn kind_name(kind: ExportKind) -> &'static str {
    match kind {
        ExportKind::Func => "function",
        ExportKind::Table => "table",
        ExportKind::Memory => "memory",
        ExportKind::Global => "global",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry_of(wat: &str) -> Result<String, NoEntry> {
        let module = crate::load(wat.as_bytes()).unwrap();
        default_entry(&module).map(|e| e.name.clone())
    }

    #[test]
    fn the_first_function_of_the_program_is_the_default() {
        let cases = [
            (
                r#"(module (func (export "__wasm_call_ctors")) (func (export "divide"))
                   (func (export "remainder_of")))"#,
                "divide",
            ),
            (
                r#"(module (func (export "_initialize")) (func (export "__errno_location"))
                   (func (export "stackSave")) (func (export "emscripten_stack_init"))
                   (func (export "classify")))"#,
                "classify",
            ),
            // `_start` only when nothing else is exported.
            (
                r#"(module (func (export "_start")) (func (export "run")))"#,
                "run",
            ),
            (
                r#"(module (func (export "__wasm_call_ctors")) (func (export "_start")))"#,
                "_start",
            ),
            // A single underscore is a name of the program's.
            (r#"(module (func (export "_helper")))"#, "_helper"),
            // A libc build under --export-all: the allocator and the C
            // library come first in export order, the program's after.
            (
                r#"(module (func (export "malloc")) (func (export "strcmp"))
                   (func (export "lseek")) (func (export "check")) (func (export "free")))"#,
                "check",
            ),
            (
                r#"(module (func (export "_start")) (func (export "memcpy")))"#,
                "_start",
            ),
            // Only library functions: the first of them.
            (r#"(module (func (export "strlen")))"#, "strlen"),
        ];
        for (wat, entry) in cases {
            assert_eq!(entry_of(wat).as_deref(), Ok(entry), "{wat}");
        }
    }

    #[test]
    fn a_module_without_one_says_what_it_exports() {
        let helpers = entry_of(
            r#"(module (memory (export "memory") 1) (func (export "__wasm_call_ctors"))
               (func (export "_initialize")))"#,
        )
        .unwrap_err();
        assert_eq!(
            helpers.to_string(),
            "the module exports only runtime helpers (__wasm_call_ctors, _initialize), \
             no function of the program"
        );
        let data = entry_of(
            r#"(module (memory (export "memory") 1) (global (export "g") i32 (i32.const 0)))"#,
        )
        .unwrap_err();
        assert_eq!(
            data.to_string(),
            "the module exports no function to explore (it exports memory `memory`, global `g`)"
        );
        assert_eq!(
            entry_of("(module (func))").unwrap_err().to_string(),
            "the module exports nothing, so it has no function to explore"
        );
    }
}
