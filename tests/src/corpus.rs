//! The example corpus: the committed C examples under `static/examples/c`
//! and the entries Symplay can explore in each; the heap corpus under
//! `tests/data/heap`, with the memory error each entry has; and the
//! generated module of n independent branches that the path-cost and
//! parallel benchmarks and tests share.

use std::path::{Path, PathBuf};
use symplay_engine::exec::Options;
use symplay_engine::search::SearchKind;
use symplay_wasm::{ExportKind, Module, ValType};

/// A compiled example: its file name, binary and loaded module.
pub struct Example {
    pub name: String,
    pub wasm: Vec<u8>,
    pub module: Module,
}

/// The files under `dir` (relative to the workspace root) whose names end
/// in `.extension`, sorted.
/// WAT of `f(p)`: the length of the NUL-terminated string at `p`, one
/// fork per byte read.
pub const STRLEN_WAT: &str = r#"(module (memory 1)
  (func (export "f") (param $p i32) (result i32) (local $n i32)
    (block $done (loop $next
      (br_if $done (i32.eqz (i32.load8_u (i32.add (local.get $p) (local.get $n)))))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $next)))
    (local.get $n)))"#;

/// WAT of `f(x)`: one independent branch per bit of `x`, for its low `n`
/// bits (2^n paths, a full tree; the browser bench's `bits`).
pub fn bits_wat(n: u32) -> String {
    let branches: String = (0..n)
        .map(|k| {
            format!(
                "(if (i32.and (local.get 0) (i32.const {})) \
                 (then (local.set 1 (i32.add (local.get 1) (i32.const 1)))))\n",
                1u32 << k
            )
        })
        .collect();
    format!(
        "(module (func (export \"f\") (param i32) (result i32) (local i32)\n{branches}(local.get 1)))"
    )
}

pub fn files_in(dir: &str, extension: &str) -> Result<Vec<PathBuf>, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|x| x == extension) {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

/// The example and test modules, sorted by file name: the C examples'
/// `.wasm`, `tests/data/*.wasm`, the worked examples of relocatable
/// addressing (`tests/data/relocatable/examples.wasm`) and
/// `tests/data/wat/*.wat`
/// (`tests/data/factor.wat`, one solver query of minutes, is not among
/// them).
pub fn example_and_test_modules() -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for (dir, extension) in [
        ("static/examples/c", "wasm"),
        ("tests/data", "wasm"),
        ("tests/data/relocatable", "wasm"),
        ("tests/data/wat", "wat"),
    ] {
        files.extend(files_in(dir, extension)?);
    }
    files.sort_by_key(|p| p.file_name().map(ToOwned::to_owned));
    Ok(files)
}

/// The benchmark set of relocatable addressing: the C and Rust programs
/// that use pointers and the heap, `tests/data/pointers/*.wasm`, but for
/// the array-heavy ones (`arrays.wasm`: 4 KiB arrays a debug build solves
/// for minutes under each option; the split benchmark checks their bugs).
pub fn pointer_programs() -> Result<Vec<PathBuf>, String> {
    let mut files = files_in("tests/data/pointers", "wasm")?;
    files.retain(|f| !f.ends_with("arrays.wasm"));
    Ok(files)
}

/// The C examples and the pointer programs, each with a name and its
/// bytes: the modules whose every integer entry a parallel or sharded run
/// is checked on.
pub fn examples_and_pointer_programs() -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut modules: Vec<(String, Vec<u8>)> = (c_examples()?.into_iter())
        .map(|e| (e.name, e.wasm))
        .collect();
    for path in pointer_programs()? {
        let wasm = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        modules.push((path.display().to_string(), wasm));
    }
    Ok(modules)
}

/// Every `.wasm` under `static/examples/c`, by file name.
pub fn c_examples() -> Result<Vec<Example>, String> {
    files_in("static/examples/c", "wasm")?
        .iter()
        .map(|path| {
            let wasm = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let module =
                symplay_wasm::load(&wasm).map_err(|e| format!("{}: {e}", path.display()))?;
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            Ok(Example {
                name: name.into_owned(),
                wasm,
                module,
            })
        })
        .collect()
}

/// The exported functions whose parameters are all integers, which Symplay
/// makes symbolic (float parameters would stay zero).
pub fn integer_entries(module: &Module) -> Vec<String> {
    module
        .exports
        .iter()
        .filter(|e| e.kind == ExportKind::Func)
        .filter(|e| {
            module.func_type(e.index).is_some_and(|t| {
                t.params
                    .iter()
                    .all(|p| matches!(p, ValType::I32 | ValType::I64))
            })
        })
        .map(|e| e.name.clone())
        .collect()
}

/// How the heap corpus is explored (depth first): at most this many paths
/// and instructions per entry.
pub const HEAP_MAX_PATHS: u64 = 500;
pub const HEAP_MAX_INSTRUCTIONS: u64 = 50_000_000;

/// The options the heap corpus is explored with.
pub fn heap_options() -> Options {
    Options {
        search: SearchKind::Dfs,
        max_paths: Some(HEAP_MAX_PATHS),
        max_instructions: Some(HEAP_MAX_INSTRUCTIONS),
        ..Options::default()
    }
}

/// An entry of the heap corpus and the memory error
/// `tests/data/heap/expected.txt` says it has.
pub struct HeapCase {
    /// The module's file name under `tests/data/heap`.
    pub file: String,
    pub entry: String,
    /// The error's kind (`heap_overflow`, ..., `leak`), or `none`.
    pub kind: String,
    /// `read`, `write`, `free`, or `-`.
    pub access: String,
    /// The C source line, where there is one.
    pub line: Option<u32>,
}

/// The heap corpus's folder.
pub fn heap_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/heap")
}

/// Every entry of the heap corpus, in the order `expected.txt` lists them.
pub fn heap_cases() -> Result<Vec<HeapCase>, String> {
    let listed = heap_dir().join("expected.txt");
    let text =
        std::fs::read_to_string(&listed).map_err(|e| format!("{}: {e}", listed.display()))?;
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| match l.split(' ').collect::<Vec<&str>>()[..] {
            [file, entry, kind, access, line] => Ok(HeapCase {
                file: file.into(),
                entry: entry.into(),
                kind: kind.into(),
                access: access.into(),
                line: line.parse().ok(),
            }),
            _ => Err(format!("{}: {l}: not five fields", listed.display())),
        })
        .collect()
}
