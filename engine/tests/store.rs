//! The store: instances that keep their state between calls, symbolic calls
//! on a copy, limits, and instances linked through imported functions,
//! tables, memories and globals.

use symplay_engine::exec::store::{
    Extern, Imports, InstanceId, InstantiateError, InvokeError, Outcome, Store, Value,
};
use symplay_engine::report::Trap;

fn module(wat: &str) -> symplay_wasm::Module {
    symplay_wasm::load(wat.as_bytes()).unwrap()
}

fn instantiate(store: &mut Store, wat: &str) -> InstanceId {
    store.instantiate(module(wat), &Imports::default()).unwrap()
}

fn returned(values: &[Value]) -> Outcome {
    Outcome::Returned(values.to_vec())
}

const COUNTER: &str = include_str!("../../tests/data/wat/counter.wat");

#[test]
fn memory_and_globals_persist_between_calls_and_traps_keep_effects() {
    let mut store = Store::new();
    let i = instantiate(&mut store, COUNTER);
    assert_eq!(
        store.invoke(i, "bump", &[Value::I32(2)]),
        Ok(returned(&[Value::I32(2)]))
    );
    assert_eq!(
        store.invoke(i, "bump", &[Value::I32(3)]),
        Ok(returned(&[Value::I32(5)]))
    );
    assert_eq!(
        store.invoke(i, "bump", &[Value::I32(200)]),
        Ok(Outcome::Trapped(Trap::Unreachable))
    );
    assert_eq!(store.get_global(i, "n"), Some(Value::I32(205)));
    assert_eq!(
        store.invoke(i, "stored", &[]),
        Ok(returned(&[Value::I32(205)]))
    );
}

#[test]
fn a_symbolic_call_has_one_feasible_path_and_leaves_the_store_as_it_was() {
    let mut store = Store::new();
    let i = instantiate(&mut store, COUNTER);
    store.invoke(i, "bump", &[Value::I32(1)]).unwrap();
    let paths = store.invoke_symbolic(i, "bump", &[Value::I32(4)]).unwrap();
    assert_eq!(paths.len(), 1, "{paths:?}");
    assert!(paths[0].feasible);
    assert_eq!(paths[0].outcome, Some(returned(&[Value::I32(5)])));
    let paths = store
        .invoke_symbolic(i, "bump", &[Value::I32(101)])
        .unwrap();
    assert_eq!(paths[0].outcome, Some(Outcome::Trapped(Trap::Unreachable)));
    assert_eq!(store.get_global(i, "n"), Some(Value::I32(1)));
    assert_eq!(
        store.invoke(i, "stored", &[]),
        Ok(returned(&[Value::I32(1)]))
    );
}

#[test]
fn recursion_exhausts_the_stack_and_a_runaway_loop_hits_the_limit() {
    let mut store = Store::new();
    store.max_instructions = 100_000;
    let i = instantiate(
        &mut store,
        r#"(module
          (global $g (export "g") (mut i32) (i32.const 0))
          (func $rec (export "rec") (call $rec))
          (func (export "spin") (global.set $g (i32.const 1)) (loop (br 0))))"#,
    );
    assert_eq!(
        store.invoke(i, "rec", &[]),
        Ok(Outcome::Trapped(Trap::StackExhausted))
    );
    assert_eq!(store.invoke(i, "spin", &[]), Err(InvokeError::Limit));
    assert_eq!(store.get_global(i, "g"), Some(Value::I32(0)));
    assert!(matches!(
        store.invoke(i, "rec", &[Value::I32(1)]),
        Err(InvokeError::Call(_))
    ));
    assert!(matches!(
        store.invoke(i, "nope", &[]),
        Err(InvokeError::Call(_))
    ));
}

#[test]
fn instances_share_imported_tables_memories_and_globals() {
    let mut store = Store::new();
    let a = instantiate(
        &mut store,
        r#"(module
          (type $t (func (result i32)))
          (table (export "tab") 2 funcref)
          (memory (export "mem") 1)
          (global (export "seven") i32 (i32.const 7))
          (func (export "call") (param i32) (result i32) (call_indirect (type $t) (local.get 0)))
          (func (export "peek") (result i32) (i32.load8_u (i32.const 3))))"#,
    );
    let export = |store: &Store, name| store.export(a, name).unwrap();
    let (Extern::Table(tab), Extern::Memory(mem), Extern::Global(seven)) = (
        export(&store, "tab"),
        export(&store, "mem"),
        export(&store, "seven"),
    ) else {
        panic!("wrong export kinds");
    };
    let Extern::Func(call) = export(&store, "call") else {
        panic!("call is a function");
    };
    let b = store
        .instantiate(
            module(
                r#"(module
                  (import "a" "call" (func $call (param i32) (result i32)))
                  (import "a" "tab" (table 2 funcref))
                  (import "a" "mem" (memory 1))
                  (global $seven (import "a" "seven") i32)
                  (elem (i32.const 1) $f)
                  (data (i32.const 3) "\2a")
                  (func $f (result i32) (global.get $seven))
                  (func (export "via_a") (result i32) (call $call (i32.const 1))))"#,
            ),
            &Imports {
                funcs: vec![call],
                globals: vec![seven],
                memories: vec![mem],
                tables: vec![tab],
            },
        )
        .unwrap();
    assert_eq!(
        store.invoke(a, "call", &[Value::I32(1)]),
        Ok(returned(&[Value::I32(7)]))
    );
    assert_eq!(
        store.invoke(b, "via_a", &[]),
        Ok(returned(&[Value::I32(7)]))
    );
    assert_eq!(
        store.invoke(a, "peek", &[]),
        Ok(returned(&[Value::I32(42)]))
    );
    assert_eq!(
        store.invoke(a, "call", &[Value::I32(0)]),
        Ok(Outcome::Trapped(Trap::IndirectCall))
    );
    let paths = store.invoke_symbolic(a, "call", &[Value::I32(1)]).unwrap();
    let feasible: Vec<_> = paths.iter().filter(|p| p.feasible).collect();
    assert_eq!(feasible.len(), 1, "{paths:?}");
    assert_eq!(feasible[0].outcome, Some(returned(&[Value::I32(7)])));
}

#[test]
fn mismatched_imports_are_link_errors() {
    let mut store = Store::new();
    let a = instantiate(&mut store, r#"(module (func (export "f") (param i32)))"#);
    let Some(Extern::Func(f)) = store.export(a, "f") else {
        panic!("f is a function");
    };
    let error = store
        .instantiate(
            module(r#"(module (import "a" "f" (func (param i64))))"#),
            &Imports {
                funcs: vec![f],
                ..Imports::default()
            },
        )
        .unwrap_err();
    assert!(matches!(error, InstantiateError::Link(_)), "{error}");
    let error = store
        .instantiate(
            module(r#"(module (import "a" "f" (func (param i32))))"#),
            &Imports::default(),
        )
        .unwrap_err();
    assert!(matches!(error, InstantiateError::Link(_)), "{error}");
}

#[test]
fn a_failing_start_keeps_what_the_segments_wrote() {
    let mut store = Store::new();
    let a = instantiate(
        &mut store,
        r#"(module (memory (export "mem") 1)
             (func (export "peek") (result i32) (i32.load8_u (i32.const 0))))"#,
    );
    let Some(Extern::Memory(mem)) = store.export(a, "mem") else {
        panic!("mem is a memory");
    };
    let imports = Imports {
        memories: vec![mem],
        ..Imports::default()
    };
    let error = store
        .instantiate(
            module(
                r#"(module (import "a" "mem" (memory 1)) (data (i32.const 0) "h")
                     (func $main unreachable) (start $main))"#,
            ),
            &imports,
        )
        .unwrap_err();
    assert!(
        matches!(
            error,
            InstantiateError::Trap {
                trap: Trap::Unreachable,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(
        store.invoke(a, "peek", &[]),
        Ok(returned(&[Value::I32(104)]))
    );
    let error = store
        .instantiate(
            module(r#"(module (import "a" "mem" (memory 1)) (data (i32.const 65536) "x"))"#),
            &imports,
        )
        .unwrap_err();
    assert!(
        matches!(
            error,
            InstantiateError::Trap {
                trap: Trap::OutOfBounds,
                ..
            }
        ),
        "{error}"
    );
}
