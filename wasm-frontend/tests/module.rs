//! Module-level contents: names, exports, globals, segments, tables, memories,
//! and the hand-written clang-style module.

use symplay_wasm::imports::{AllocatorFn, ImportClass, WasiFn};
use symplay_wasm::{
    load, ConstExpr, DataMode, ElementMode, ErrorKind, ExportKind, FuncBody, GlobalInit,
    ImportName, ValType,
};

#[test]
fn names_from_name_section_then_exports_then_imports_then_index() {
    let module = load(
        br#"(module
            (import "env" "foo" (func (param i32)))
            (import "env" "bar" (func $named_import))
            (func $from_names)
            (func (export "from_export"))
            (func))"#,
    )
    .unwrap();
    let names: Vec<&str> = module.funcs.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "env.foo",
            "named_import",
            "from_names",
            "from_export",
            "func[4]"
        ]
    );
}

#[test]
fn exports_and_export_func() {
    let module = load(
        br#"(module
            (memory (export "memory") 1)
            (global (export "g") i32 (i32.const 1))
            (func (export "run") (result i32) i32.const 0)
            (func (export "other")))"#,
    )
    .unwrap();
    assert_eq!(module.export("memory").unwrap().kind, ExportKind::Memory);
    assert_eq!(module.export("g").unwrap().kind, ExportKind::Global);
    assert_eq!(module.export_func("run").unwrap(), 0);
    assert_eq!(module.export_func("other").unwrap(), 1);
    let error = module.export_func("memory").unwrap_err();
    assert_eq!(error.kind, ErrorKind::Export);
    assert_eq!(
        error.to_string(),
        "no exported function `memory` (exported functions: run, other)"
    );
}

#[test]
fn globals_with_const_inits_and_imports() {
    let module = load(
        br#"(module
            (import "env" "base" (global i32))
            (global (mut i32) (i32.const 65536))
            (global i64 (i64.const -3))
            (global f32 (f32.const 2.5))
            (global f64 (f64.const -1))
            (global i32 (global.get 0)))"#,
    )
    .unwrap();
    let g = &module.globals;
    assert_eq!(g.len(), 6);
    assert_eq!(
        g[0].init,
        GlobalInit::Import(ImportName {
            module: "env".into(),
            name: "base".into()
        })
    );
    assert!(!g[0].mutable);
    assert!(g[1].mutable);
    assert_eq!(g[1].init, GlobalInit::Const(ConstExpr::I32(65536)));
    assert_eq!(
        (g[2].ty, &g[2].init),
        (ValType::I64, &GlobalInit::Const(ConstExpr::I64(-3)))
    );
    assert_eq!(
        g[3].init,
        GlobalInit::Const(ConstExpr::F32(2.5f32.to_bits()))
    );
    assert_eq!(
        g[4].init,
        GlobalInit::Const(ConstExpr::F64((-1f64).to_bits()))
    );
    assert_eq!(g[5].init, GlobalInit::Const(ConstExpr::GlobalGet(0)));
}

#[test]
fn data_and_element_segments() {
    let module = load(
        br#"(module
            (import "env" "memory" (memory 2 10))
            (table 4 funcref)
            (func $a) (func $b)
            (elem (i32.const 1) $a $b)
            (elem func $b)
            (elem declare func $a)
            (data (i32.const 1024) "hi\00")
            (data "passive")
            (func (export "f")
              i32.const 0 i32.const 0 i32.const 1 table.init 1
              elem.drop 1
              i32.const 0 i32.const 1 i32.const 1 table.copy))"#,
    )
    .unwrap();
    let memory = &module.memories[0];
    assert_eq!((memory.min_pages, memory.max_pages), (2, Some(10)));
    assert_eq!(memory.import.as_ref().unwrap().to_string(), "env.memory");
    assert_eq!((module.tables[0].min, module.tables[0].max), (4, None));

    let e = &module.elements;
    assert_eq!(e.len(), 3);
    assert_eq!(
        e[0].mode,
        ElementMode::Active {
            table: 0,
            offset: ConstExpr::I32(1)
        }
    );
    assert_eq!(
        &*e[0].items,
        &[ConstExpr::RefFunc(0), ConstExpr::RefFunc(1)]
    );
    assert_eq!(e[1].mode, ElementMode::Passive);
    assert_eq!(&*e[1].items, &[ConstExpr::RefFunc(1)]);
    assert_eq!(e[2].mode, ElementMode::Declared);

    let d = &module.data;
    assert_eq!(
        d[0].mode,
        DataMode::Active {
            memory: 0,
            offset: ConstExpr::I32(1024)
        }
    );
    assert_eq!(&*d[0].bytes, b"hi\0");
    assert_eq!(d[1].mode, DataMode::Passive);
    assert_eq!(&*d[1].bytes, b"passive");

    let FuncBody::Defined(code) = &module.funcs[2].body else {
        panic!()
    };
    use symplay_wasm::ir::Instr::*;
    assert_eq!(code.instrs[3], TableInit { elem: 1, table: 0 });
    assert_eq!(code.instrs[4], ElemDrop { elem: 1 });
    assert_eq!(code.instrs[8], TableCopy { dst: 0, src: 0 });
}

#[test]
fn reference_types_in_tables_globals_and_segments() {
    let module = load(
        br#"(module
            (import "m" "t" (table 1 2 externref))
            (import "m" "g" (global $g funcref))
            (table $f 3 funcref)
            (global funcref (ref.func $h))
            (global externref (ref.null extern))
            (func $h (param externref) (result funcref) (ref.null func))
            (elem (table $f) (i32.const 1) funcref (ref.func $h) (ref.null func) (global.get $g))
            (elem externref (ref.null extern))
            (func (export "f") (result i32)
              (table.size $f)
              (ref.is_null (table.get $f (i32.const 0)))
              (select (result funcref) (ref.func $h) (ref.null func) (i32.const 1))
              drop drop drop i32.const 0))"#,
    )
    .unwrap();
    let types: Vec<_> = module.tables.iter().map(|t| t.ty).collect();
    assert_eq!(types, [ValType::ExternRef, ValType::FuncRef]);
    assert_eq!(module.tables[0].import.as_ref().unwrap().to_string(), "m.t");
    assert_eq!(module.globals[0].ty, ValType::FuncRef);
    assert_eq!(
        module.globals[1].init,
        GlobalInit::Const(ConstExpr::RefFunc(0))
    );
    assert_eq!(
        module.globals[2].init,
        GlobalInit::Const(ConstExpr::RefNull(ValType::ExternRef))
    );
    assert_eq!(
        module.func_type(0).unwrap().to_string(),
        "(externref) -> funcref"
    );
    let e = &module.elements;
    assert_eq!(
        e[0].mode,
        ElementMode::Active {
            table: 1,
            offset: ConstExpr::I32(1)
        }
    );
    assert_eq!(
        &*e[0].items,
        &[
            ConstExpr::RefFunc(0),
            ConstExpr::RefNull(ValType::FuncRef),
            ConstExpr::GlobalGet(0)
        ]
    );
    assert_eq!(
        (e[1].ty, e[1].mode),
        (ValType::ExternRef, ElementMode::Passive)
    );
    let FuncBody::Defined(code) = &module.funcs[1].body else {
        panic!("f has code");
    };
    use symplay_wasm::ir::Instr;
    for instr in [
        Instr::TableSize(1),
        Instr::TableGet(1),
        Instr::RefIsNull,
        Instr::SelectRef,
    ] {
        assert!(
            code.instrs.contains(&instr),
            "{instr:?} in {:?}",
            code.instrs
        );
    }
}

#[test]
fn start_function_and_call_indirect_type() {
    let module = load(
        br#"(module
            (type $t (func (param i32) (result i32)))
            (table 1 funcref)
            (func $init)
            (func (param i32) (result i32)
              local.get 0
              i32.const 0
              call_indirect (type $t)
              call 0
              i32.const 0 i32.const 1 i32.const 2 select
              drop)
            (start $init))"#,
    )
    .unwrap();
    assert_eq!(module.start, Some(0));
    let FuncBody::Defined(code) = &module.funcs[1].body else {
        panic!()
    };
    use symplay_wasm::ir::Instr::*;
    assert_eq!(
        code.instrs[2],
        CallIndirect {
            type_index: 0,
            table: 0
        }
    );
    assert_eq!(code.instrs[3], Call { func: 0 });
    assert_eq!(code.instrs[7], Select);
    assert_eq!(module.func_type(1).unwrap().to_string(), "(i32) -> i32");
}

/// What `clang --target=wasm32-wasi -O1` emits for a small program that
/// prints a string: WASI imports, a data segment, the `__stack_pointer`
/// mutable global, an exported memory, an indirect function table, names.
const CLANG_STYLE: &str = r#"
(module
  (type (;0;) (func (param i32 i32 i32 i32) (result i32)))
  (type (;1;) (func (param i32)))
  (type (;2;) (func))
  (type (;3;) (func (param i32 i32) (result i32)))
  (type (;4;) (func (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $__imported_wasi_snapshot_preview1_fd_write (type 0)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $__imported_wasi_snapshot_preview1_proc_exit (type 1)))
  (import "env" "malloc" (func $malloc (type 4)))
  (func $__wasm_call_ctors (type 2))
  (func $check (type 3) (param i32 i32) (result i32)
    (local i32)
    global.get $__stack_pointer
    i32.const 16
    i32.sub
    local.tee 2
    global.set $__stack_pointer
    block  ;; label = @1
      local.get 0
      i32.const 10
      i32.gt_s
      br_if 0 (;@1;)
      local.get 2
      i32.const 1024
      i32.store offset=8
      local.get 2
      i32.const 6
      i32.store offset=12
      i32.const 1
      local.get 2
      i32.const 8
      i32.add
      i32.const 1
      local.get 2
      i32.const 4
      i32.add
      call $__imported_wasi_snapshot_preview1_fd_write
      drop
    end
    local.get 2
    i32.const 16
    i32.add
    global.set $__stack_pointer
    local.get 0
    local.get 1
    i32.add)
  (table (;0;) 1 1 funcref)
  (memory (;0;) 2)
  (global $__stack_pointer (mut i32) (i32.const 66576))
  (export "memory" (memory 0))
  (export "check" (func $check))
  (export "_initialize" (func $__wasm_call_ctors))
  (data $.rodata (i32.const 1024) "hello\0a\00"))
"#;

#[test]
fn clang_style_module() {
    let module = load(CLANG_STYLE.as_bytes()).unwrap();
    let check = module.export_func("check").unwrap();
    assert_eq!(check, 4);
    assert_eq!(module.funcs[check as usize].name, "check");
    assert_eq!(
        module.funcs[0].name,
        "__imported_wasi_snapshot_preview1_fd_write"
    );
    let classes: Vec<ImportClass> = module.func_imports().map(|(_, i)| i.class).collect();
    assert_eq!(
        classes,
        [
            ImportClass::Wasi(WasiFn::FdWrite),
            ImportClass::Wasi(WasiFn::ProcExit),
            ImportClass::Allocator(AllocatorFn::Malloc),
        ]
    );
    module.check_no_unknown_imports().unwrap();
    assert!(module.globals[0].mutable);
    assert_eq!(
        module.globals[0].init,
        GlobalInit::Const(ConstExpr::I32(66576))
    );
    assert_eq!(module.memories[0].min_pages, 2);
    assert_eq!(&*module.data[0].bytes, b"hello\n\0");
    let FuncBody::Defined(code) = &module.funcs[check as usize].body else {
        panic!()
    };
    assert_eq!(&*code.locals, &[ValType::I32]);
    // The `br_if 0` skips the fd_write call and lands on `local.get 2`.
    let symplay_wasm::ir::Instr::BrIf(target) = code.instrs[8] else {
        panic!("{:?}", code.instrs[8])
    };
    assert_eq!(
        code.instrs[target.pc as usize],
        symplay_wasm::ir::Instr::LocalGet(2)
    );
    assert_eq!((target.keep, target.drop), (0, 0));
}

/// WAT text printed from a `clang -g` module keeps its DWARF as custom
/// sections; assembled again, its bodies move, and each stack frame's
/// variables are found by their function's name instead of its code
/// address: the same frames as the binary's.
#[test]
fn reassembled_text_keeps_the_stack_frames_by_function_name() {
    for file in ["use_after_return.O1.wasm", "stack_frames.O0.wasm"] {
        let path = format!("{}/../tests/data/heap/{file}", env!("CARGO_MANIFEST_DIR"));
        let binary = std::fs::read(path).unwrap();
        let text = wasmprinter::print_bytes(&binary).unwrap();
        let linked = load(&binary).unwrap().variables.unwrap();
        let reassembled = load(text.as_bytes()).unwrap().variables.unwrap();
        assert!(linked.frames.len() >= 2, "{file}");
        assert_eq!(reassembled.frames, linked.frames, "{file}");
        assert_eq!(reassembled.globals, linked.globals, "{file}");
    }
}
