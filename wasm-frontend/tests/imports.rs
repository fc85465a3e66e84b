//! Classification of imported functions and signature checks.

use symplay_wasm::imports::{AllocatorFn, ImportClass, SymbolicApi, WasiFn};
use symplay_wasm::{load, ErrorKind, LoadError, Module};

fn module_importing(imports: &str) -> Result<Module, LoadError> {
    load(format!("(module {imports})").as_bytes())
}

fn classes(module: &Module) -> Vec<ImportClass> {
    module
        .func_imports()
        .map(|(_, import)| import.class)
        .collect()
}

#[test]
fn symbolic_input_api() {
    let module = module_importing(
        r#"(import "symplay" "symbolic_i32" (func (param i32) (result i32)))
           (import "symplay" "symbolic_i64" (func (param i32) (result i64)))
           (import "symplay" "symbolic_buffer" (func (param i32 i32 i32)))
           (import "symplay" "assume" (func (param i32)))
           (import "symplay" "assert" (func (param i32)))"#,
    )
    .unwrap();
    use SymbolicApi::*;
    assert_eq!(
        classes(&module),
        [SymbolicI32, SymbolicI64, SymbolicBuffer, Assume, Assert].map(ImportClass::Symbolic)
    );
    module.check_no_unknown_imports().unwrap();
}

#[test]
fn allocator_and_wasi() {
    let module = module_importing(
        r#"(import "env" "malloc" (func (param i32) (result i32)))
           (import "env" "free" (func (param i32)))
           (import "env" "calloc" (func (param i32 i32) (result i32)))
           (import "env" "realloc" (func (param i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
           (import "wasi_snapshot_preview1" "args_sizes_get" (func (param i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "args_get" (func (param i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "environ_sizes_get" (func (param i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "environ_get" (func (param i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "random_get" (func (param i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "fd_close" (func (param i32) (result i32)))
           (import "wasi_snapshot_preview1" "fd_seek" (func (param i32 i64 i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "fd_fdstat_get" (func (param i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))"#,
    )
    .unwrap();
    use AllocatorFn::*;
    use WasiFn::*;
    let mut expected: Vec<ImportClass> = [Malloc, Free, Calloc, Realloc]
        .map(ImportClass::Allocator)
        .to_vec();
    expected.extend(
        [
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
        ]
        .map(ImportClass::Wasi),
    );
    assert_eq!(classes(&module), expected);
}

#[test]
fn unknown_imports_are_reported_by_the_helper() {
    let module = module_importing(
        r#"(import "env" "malloc" (func (param i32) (result i32)))
           (import "env" "foo" (func (param i32) (result i32)))
           (import "wasi_snapshot_preview1" "fd_read" (func (param i32 i32 i32 i32) (result i32)))"#,
    )
    .unwrap();
    assert_eq!(
        classes(&module)[1..],
        [ImportClass::Unknown, ImportClass::Unknown]
    );
    let error = module.check_no_unknown_imports().unwrap_err();
    assert_eq!(error.kind, ErrorKind::Import);
    assert_eq!(error.message, "unsupported import env.foo (i32) -> i32");
}

#[test]
fn wrong_signatures_are_errors() {
    let cases = [
        (
            r#"(import "symplay" "symbolic_i32" (func (result i32)))"#,
            "import symplay.symbolic_i32 has signature () -> i32, expected (i32) -> i32",
        ),
        (
            r#"(import "symplay" "assert" (func (param i64)))"#,
            "import symplay.assert has signature (i64), expected (i32)",
        ),
        (
            r#"(import "env" "malloc" (func (param i64) (result i64)))"#,
            "import env.malloc has signature (i64) -> i64, expected (i32) -> i32",
        ),
        (
            r#"(import "wasi_snapshot_preview1" "fd_seek" (func (param i32 i32 i32 i32) (result i32)))"#,
            "import wasi_snapshot_preview1.fd_seek has signature (i32, i32, i32, i32) -> i32, \
             expected (i32, i64, i32, i32) -> i32",
        ),
    ];
    for (import, message) in cases {
        let error = module_importing(import).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Import);
        assert_eq!(error.message, message);
        assert!(error.offset.is_some());
    }
}

#[test]
fn unknown_symplay_name_is_an_error_listing_the_api() {
    let error =
        module_importing(r#"(import "symplay" "symbolic_u8" (func (param i32) (result i32)))"#)
            .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Import);
    assert_eq!(
        error.message,
        "unknown symplay import symplay.symbolic_u8 (module `symplay` provides: \
         symbolic_i32(i32) -> i32, symbolic_i64(i32) -> i64, symbolic_buffer(i32, i32, i32), \
         symbolic_sized_buffer(i32, i32, i32) -> i32, assume(i32), assert(i32))"
    );
}

#[test]
fn imported_memory_table_and_globals_are_kept() {
    let module = module_importing(
        r#"(import "env" "memory" (memory 1))
           (import "env" "__indirect_function_table" (table 2 funcref))
           (import "env" "__stack_pointer" (global (mut i32)))"#,
    )
    .unwrap();
    assert_eq!(module.memories[0].import.as_ref().unwrap().name, "memory");
    assert_eq!(
        module.tables[0].import.as_ref().unwrap().name,
        "__indirect_function_table"
    );
    assert!(module.globals[0].mutable);
}

#[test]
fn allocator_functions_are_known_by_name_with_their_signatures() {
    use symplay_wasm::imports::{allocator_named, AllocatorFn};
    use symplay_wasm::{FuncType, ValType::I32};
    let cases = [
        ("malloc", AllocatorFn::Malloc, FuncType::new(&[I32], &[I32])),
        (
            "posix_memalign",
            AllocatorFn::PosixMemalign,
            FuncType::new(&[I32, I32, I32], &[I32]),
        ),
        ("_ZdlPv", AllocatorFn::Delete, FuncType::new(&[I32], &[])),
        (
            "__rustc::__rust_dealloc",
            AllocatorFn::RustDealloc,
            FuncType::new(&[I32, I32, I32], &[]),
        ),
        (
            "__rust_realloc",
            AllocatorFn::RustRealloc,
            FuncType::new(&[I32, I32, I32, I32], &[I32]),
        ),
    ];
    for (name, f, ty) in cases {
        assert_eq!(allocator_named(name), Some((f, ty)), "{name}");
    }
    for name in [
        "dlmalloc",
        "mallocx",
        "__rustc::__rust_allocx",
        "__rustc::",
        "core::__rustc::__rust_alloc",
    ] {
        assert_eq!(allocator_named(name), None, "{name}");
    }
}

#[test]
fn globals_are_found_by_their_name_section_name_or_export() {
    let wat = r#"(module
      (global $__stack_pointer (mut i32) (i32.const 1024))
      (global (export "__heap_base") i32 (i32.const 4096)))"#;
    let m = symplay_wasm::load(wat.as_bytes()).unwrap();
    assert_eq!(m.global_named("__stack_pointer"), Some(0));
    assert_eq!(m.global_named("__heap_base"), Some(1));
    assert_eq!(m.global_named("__data_end"), None);
}
