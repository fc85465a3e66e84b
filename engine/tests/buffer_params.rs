//! An entry parameter that points to a buffer of symbolic length (the
//! page's "buffer of symbolic length ≤ N", `explore --buffer`): the bug
//! that exists for one length only is found by the range size modes and
//! replays; Base pins the length; bad requests are named.

use symplay_engine::exec::{explore, replay_traced, Options, ReplayOptions};
use symplay_engine::memory::{HeapOptions, SizeMode};
use symplay_engine::report::{BufferArg, InputValue, MemoryErrorKind, Report, Status};
use symplay_engine::search::SearchKind;

fn module() -> symplay_wasm::Module {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/heap/params/header.wat"
    );
    symplay_wasm::load(std::fs::read_to_string(path).unwrap().as_bytes()).unwrap()
}

fn options(size_mode: SizeMode, buffer_args: Vec<BufferArg>) -> Options {
    Options {
        search: SearchKind::Dfs,
        max_paths: Some(1000),
        heap: HeapOptions {
            size_mode,
            ..HeapOptions::default()
        },
        buffer_args,
        ..Options::default()
    }
}

fn buffer(param: usize, capacity: u32, length_param: Option<usize>) -> BufferArg {
    BufferArg {
        param,
        capacity,
        length_param,
    }
}

fn errors(r: &Report) -> Vec<(MemoryErrorKind, Option<i64>)> {
    r.paths
        .iter()
        .filter_map(|p| p.memory_error.as_ref().map(|e| (e.kind, e.offset)))
        .collect()
}

fn bytes_of(r: &Report, path: usize) -> Vec<u8> {
    match &r.paths[path].inputs.named[0].value {
        InputValue::Bytes(b) => b.clone(),
        other => panic!("not bytes: {other:?}"),
    }
}

#[test]
fn a_read_past_a_buffer_of_length_one_is_found_and_replays() {
    let m = module();
    let buffers = vec![buffer(0, 8, Some(1))];
    for size_mode in [SizeMode::ForkLazy, SizeMode::ForkEager] {
        let o = options(size_mode, buffers.clone());
        let r = explore(&m, "header", &o).unwrap();
        assert_eq!(r.buffer_args, buffers);
        assert_eq!(
            errors(&r),
            vec![(MemoryErrorKind::BufferOverflow, Some(1))],
            "{size_mode}"
        );
        let bug = r
            .paths
            .iter()
            .position(|p| p.memory_error.is_some())
            .unwrap();
        let p = &r.paths[bug];
        // The input: one byte '#', the length 1 given to parameter 1.
        assert_eq!(p.inputs.named[0].name, "s_buf");
        assert_eq!(bytes_of(&r, bug), b"#");
        assert_eq!(p.inputs.args[1], 1);
        let e = p.memory_error.as_ref().unwrap();
        let object = p.objects.iter().find(|o| Some(o.id) == e.object).unwrap();
        assert_eq!(object.capacity, 8);
        if size_mode == SizeMode::ForkLazy {
            assert_eq!(object.size_range, Some([1, 1]));
        }
        // Every path replays to its outcome, with the buffer made alike.
        let replay = ReplayOptions {
            max_instructions: Some(100_000),
            max_events: 0,
            heap: r.heap.clone(),
            buffer_args: r.buffer_args.clone(),
            max_depth: None,
            max_call_depth: None,
            havoc_imports: false,
        };
        for p in &r.paths {
            let again = replay_traced(&m, "header", &p.inputs, &replay)
                .unwrap()
                .path;
            assert_eq!(
                (again.status, again.returns.clone()),
                (p.status, p.returns.clone())
            );
            assert_eq!(
                again.memory_error.as_ref().map(|e| (e.kind, e.offset)),
                p.memory_error.as_ref().map(|e| (e.kind, e.offset))
            );
        }
    }
    // Fork-eager has a path per length (0 to 8) before the bytes fork.
    let eager = explore(&m, "header", &options(SizeMode::ForkEager, buffers.clone())).unwrap();
    let mut lengths: Vec<i64> = eager.paths.iter().map(|p| p.inputs.args[1]).collect();
    lengths.dedup();
    assert_eq!(lengths.len(), 9, "{lengths:?}");
    // Base pins the length to 8, misses the bug, and says so.
    let base = explore(&m, "header", &options(SizeMode::Base, buffers)).unwrap();
    assert!(errors(&base).is_empty());
    assert!(base.paths.iter().all(|p| p.inputs.args[1] == 8));
    assert!(base
        .concretised_summary()
        .unwrap()
        .contains("pinned to its largest value"));
}

#[test]
fn a_string_without_its_length_is_read_to_its_terminator_or_past_its_end() {
    let m = module();
    let r = explore(
        &m,
        "count_hashes",
        &options(SizeMode::ForkLazy, vec![buffer(0, 3, None)]),
    )
    .unwrap();
    // A string of length n with no NUL in it is read past its end.
    let overflows = r
        .paths
        .iter()
        .filter(|p| p.status == Status::MemoryError)
        .collect::<Vec<_>>();
    assert!(!overflows.is_empty());
    for p in &overflows {
        let e = p.memory_error.as_ref().unwrap();
        assert_eq!(e.kind, MemoryErrorKind::BufferOverflow);
        let InputValue::Bytes(b) = &p.inputs.named[0].value else {
            panic!()
        };
        assert!(!b.contains(&0), "a terminated string is read no further");
        assert_eq!(e.offset, Some(b.len() as i64));
    }
    assert!(r.paths.iter().any(|p| p.status == Status::Returned));
}

#[test]
fn bad_buffer_parameters_are_named() {
    let m = module();
    // (entry, buffers, values, memory objects on, message)
    type Case = (
        &'static str,
        Vec<BufferArg>,
        Vec<Option<i64>>,
        bool,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            "header",
            vec![buffer(2, 8, None)],
            vec![],
            true,
            "parameter 2 cannot be a buffer: the entry has 2 parameters",
        ),
        (
            "header",
            vec![buffer(0, 8, Some(0))],
            vec![],
            true,
            "parameter 0 has two roles",
        ),
        (
            "header",
            vec![buffer(0, 0, None)],
            vec![],
            true,
            "must hold 1 to",
        ),
        (
            "header",
            vec![buffer(0, 8, None)],
            vec![Some(64)],
            true,
            "parameter 0 is a buffer: it takes no value of its own",
        ),
        (
            "header",
            vec![buffer(0, 8, Some(1))],
            vec![None, Some(3)],
            true,
            "parameter 1 is a buffer length: it takes no value",
        ),
        (
            "takes_float",
            vec![buffer(0, 8, None)],
            vec![],
            true,
            "parameter 0 is f32: a buffer parameter is an i32 address",
        ),
        (
            "header",
            vec![buffer(0, 8, None)],
            vec![],
            false,
            "needs the memory-objects heap model",
        ),
        (
            "header",
            vec![buffer(0, 4097, None)],
            vec![],
            true,
            "must hold 1 to 4096 bytes",
        ),
    ];
    for (entry, buffers, concrete_args, objects, message) in cases {
        let mut o = options(SizeMode::ForkLazy, buffers);
        o.concrete_args = concrete_args;
        o.heap.objects = objects;
        let err = explore(&m, entry, &o).unwrap_err().to_string();
        assert!(err.contains(message), "{message}: {err}");
    }
    // Memory that cannot grow has no room.
    let fixed =
        symplay_wasm::load(br#"(module (memory 1 1) (func (export "f") (param i32)))"#).unwrap();
    let o = options(SizeMode::ForkLazy, vec![buffer(0, 16, None)]);
    let err = explore(&fixed, "f", &o).unwrap_err().to_string();
    assert!(
        err.contains("linear memory has no room for the buffer of parameter 0 (16 bytes)"),
        "{err}"
    );
    // A length parameter may be an i64.
    let o = options(SizeMode::ForkLazy, vec![buffer(1, 4, Some(2))]);
    let wide = symplay_wasm::load(
        br#"(module (memory 1) (func (export "f") (param i32 i32 i64) (result i64) (local.get 2)))"#,
    )
    .unwrap();
    let r = explore(&wide, "f", &o).unwrap();
    assert_eq!(r.paths.len(), 1);
}

#[test]
fn new_input_written_into_an_entry_buffer_is_a_buffer_inside_it() {
    // Two fresh bytes written at the start of the entry's buffer, then
    // read: the buffer stays (no use after free), the new input takes its
    // own reads, and a buffer shorter than 2 is overflowed by the write.
    let m = symplay_wasm::load(
        br#"(module
          (import "symplay" "symbolic_buffer" (func $buffer (param i32 i32 i32)))
          (memory 1)
          (data (i32.const 16) "x\00")
          (func (export "f") (param $p i32) (param $n i32) (result i32)
            (call $buffer (local.get $p) (i32.const 2) (i32.const 16))
            (i32.load8_u offset=1 (local.get $p))))"#,
    )
    .unwrap();
    let r = explore(
        &m,
        "f",
        &options(SizeMode::ForkEager, vec![buffer(0, 4, Some(1))]),
    )
    .unwrap();
    let mut outcomes: Vec<(i64, Option<MemoryErrorKind>)> = r
        .paths
        .iter()
        .map(|p| (p.inputs.args[1], p.memory_error.as_ref().map(|e| e.kind)))
        .collect();
    outcomes.sort_by_key(|o| o.0);
    assert_eq!(
        outcomes,
        vec![
            (0, Some(MemoryErrorKind::BufferOverflow)),
            (1, Some(MemoryErrorKind::BufferOverflow)),
            (2, None),
            (3, None),
            (4, None),
        ]
    );
}
