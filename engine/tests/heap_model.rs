//! The objects model on hand-written modules: the worked examples of
//! `symbolic_size.md` §5 with their path and fork counts per size mode,
//! a length-dependent bug that the range modes find and Base misses,
//! symbolic pointers into several objects, the allocator's corner cases,
//! and bad input reported as such.

use symplay_engine::exec::{explore, replay_traced, Options, ReplayOptions};
use symplay_engine::memory::{HeapOptions, SizeMode};
use symplay_engine::report::{Access, MemoryErrorKind, NodeMemory, PathReport, Report, Status};
use symplay_engine::search::SearchKind;

/// Imports and names shared by the modules below.
const PRELUDE: &str = r#"
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "env" "free" (func $free (param i32)))
  (import "env" "calloc" (func $calloc (param i32 i32) (result i32)))
  (import "env" "realloc" (func $realloc (param i32 i32) (result i32)))
  (import "symplay" "symbolic_i32" (func $sym (param i32) (result i32)))
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (import "symplay" "assume" (func $assume (param i32)))
  (memory 1)
  (data (i32.const 16) "n\00z\00i\00s\00")
"#;

fn module(body: &str) -> symplay_wasm::Module {
    let text = format!("(module {PRELUDE} {body})");
    symplay_wasm::load(text.as_bytes()).unwrap()
}

fn run(m: &symplay_wasm::Module, entry: &str, heap: HeapOptions) -> Report {
    let options = Options {
        search: SearchKind::Dfs,
        max_paths: Some(1000),
        heap,
        ..Options::default()
    };
    explore(m, entry, &options).unwrap()
}

/// The seed's model: a capacity, and sizes past it left out (the worked
/// examples' counts are the paper's).
fn mode(size_mode: SizeMode, capacity: u32) -> HeapOptions {
    HeapOptions {
        size_mode,
        capacity,
        past_capacity: false,
        ..HeapOptions::default()
    }
}

fn errors(r: &Report) -> Vec<(MemoryErrorKind, Option<i64>)> {
    r.paths
        .iter()
        .filter_map(|p| p.memory_error.as_ref().map(|e| (e.kind, e.offset)))
        .collect()
}

fn count(r: &Report, status: Status) -> usize {
    r.paths.iter().filter(|p| p.status == status).count()
}

/// The replay of `p` ends the same way at the same place.
fn replays(m: &symplay_wasm::Module, entry: &str, heap: &HeapOptions, p: &PathReport) {
    let options = ReplayOptions {
        max_instructions: Some(1_000_000),
        max_events: 0,
        heap: heap.clone(),
        buffer_args: Vec::new(),
        max_depth: None,
        max_call_depth: None,
        havoc_imports: false,
    };
    let replayed = replay_traced(m, entry, &p.inputs, &options).unwrap().path;
    assert_eq!(replayed.status, p.status, "path {}", p.id);
    assert_eq!(replayed.location, p.location, "path {}", p.id);
    let error = |p: &PathReport| {
        p.memory_error
            .as_ref()
            .map(|e| (e.kind, e.access, e.offset))
    };
    assert_eq!(error(&replayed), error(p), "path {}", p.id);
}

/// The worked examples of `symbolic_size.md` §5, also run by the size-mode
/// benchmark.
fn size_example(name: &str) -> symplay_wasm::Module {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/heap/size/");
    let text = std::fs::read_to_string(format!("{dir}{name}.wat")).unwrap();
    symplay_wasm::load(text.as_bytes()).unwrap()
}

#[test]
fn e1_has_the_path_and_fork_counts_of_each_mode() {
    let m = size_example("e1");
    // (mode, paths, forks): the concrete model pins n to 3 and forks only
    // on z; ForkLazy has the five paths of the paper's execution tree (n =
    // 0, the break, 1 to 3 iterations), its four forks; ForkEager a path
    // per size 0 to 3, three of them forking on z.
    for (size_mode, paths, forks) in [
        (SizeMode::Base, 2, 1),
        (SizeMode::ForkLazy, 5, 4),
        (SizeMode::ForkEager, 7, 4),
    ] {
        let heap = mode(size_mode, 3);
        let r = run(&m, "e1", heap.clone());
        assert_eq!(r.paths.len(), paths, "{size_mode} paths");
        assert_eq!(r.stats.forks, forks, "{size_mode} forks");
        assert!(errors(&r).is_empty(), "{size_mode}: no bug");
        assert_eq!(r.memory_model, "objects");
        // Sizes above the capacity are not explored, and the run says so.
        assert!(r.concretised_summary().unwrap().contains("capacity 3"));
        for p in &r.paths {
            replays(&m, "e1", &heap, p);
        }
    }
}

#[test]
fn a_loop_over_the_size_has_a_path_per_size_in_the_range_modes() {
    let m = size_example("strided");
    for (size_mode, paths) in [
        (SizeMode::Base, 1),
        (SizeMode::ForkLazy, 11),
        (SizeMode::ForkEager, 11),
    ] {
        let r = run(&m, "fill", mode(size_mode, 200));
        assert_eq!(r.paths.len(), paths, "{size_mode}");
        assert_eq!(count(&r, Status::Returned), paths, "{size_mode}");
        // n <= 10 already bounds the size: only base leaves sizes out, and
        // says so.
        match (size_mode, r.concretised_summary()) {
            (SizeMode::Base, Some(s)) => assert!(s.contains("pinned to its largest value")),
            (SizeMode::Base, None) => panic!("base pins the size and must say so"),
            (_, summary) => assert_eq!(summary, None, "{size_mode}"),
        }
    }
}

#[test]
fn a_strided_write_overflows_for_some_sizes_only() {
    // p[2i] with capacity 4: n = 0 and 1 return, n = 2 overflows at i = 1
    // (offset 2), n = 3 and 4 at i = 2 (offset 4).
    let m = size_example("strided");
    let overflow = |offset| (MemoryErrorKind::HeapOverflow, Some(offset));
    let lazy = run(&m, "fill_strided", mode(SizeMode::ForkLazy, 4));
    assert_eq!(count(&lazy, Status::Returned), 2);
    assert_eq!(errors(&lazy), vec![overflow(2), overflow(4)]);
    let eager = run(&m, "fill_strided", mode(SizeMode::ForkEager, 4));
    assert_eq!(count(&eager, Status::Returned), 2);
    let mut eager_errors = errors(&eager);
    eager_errors.sort_unstable_by_key(|e| e.1);
    assert_eq!(eager_errors, vec![overflow(2), overflow(4), overflow(4)]);
    // Base takes n = 4 only: the bug, but no size that returns.
    let base = run(&m, "fill_strided", mode(SizeMode::Base, 4));
    assert_eq!(errors(&base), vec![overflow(4)]);
    assert_eq!(count(&base, Status::Returned), 0);
    for (r, size_mode) in [(&lazy, SizeMode::ForkLazy), (&eager, SizeMode::ForkEager)] {
        for p in &r.paths {
            replays(&m, "fill_strided", &mode(size_mode, 4), p);
        }
    }
    // The error's object gives the sizes its path allows.
    let p = lazy
        .paths
        .iter()
        .find(|p| p.memory_error.is_some())
        .unwrap();
    let e = p.memory_error.as_ref().unwrap();
    let object = p.objects.iter().find(|o| Some(o.id) == e.object).unwrap();
    assert_eq!(object.size_range, Some([2, 2]));
    assert_eq!(object.capacity, 4);
}

#[test]
fn a_length_dependent_read_is_found_by_the_range_modes_and_missed_by_base() {
    let m = size_example("headers");
    let base = run(&m, "headers", mode(SizeMode::Base, 8));
    assert!(errors(&base).is_empty(), "the length is pinned to 8");
    for size_mode in [SizeMode::ForkLazy, SizeMode::ForkEager] {
        let heap = mode(size_mode, 8);
        let r = run(&m, "headers", heap.clone());
        assert_eq!(
            errors(&r),
            vec![(MemoryErrorKind::BufferOverflow, Some(1))],
            "{size_mode}"
        );
        let p = r.paths.iter().find(|p| p.memory_error.is_some()).unwrap();
        let input = serde_json::to_value(&p.inputs.named[0].value).unwrap();
        assert_eq!(input.as_array().map(Vec::len), Some(1), "a one-byte input");
        replays(&m, "headers", &heap, p);
    }
}

#[test]
fn a_symbolic_index_into_heap_pointers_reaches_each_object() {
    // Three blocks of 4 bytes; a[k][j] = 1 for symbolic k < 3 and j.
    let m = module(
        r#"
  (func (export "pick") (local $k i32) (local $j i32)
    (i32.store (i32.const 64) (call $malloc (i32.const 4)))
    (i32.store (i32.const 68) (call $malloc (i32.const 4)))
    (i32.store (i32.const 72) (call $malloc (i32.const 4)))
    (local.set $k (call $sym (i32.const 16)))
    (local.set $j (call $sym (i32.const 18)))
    (call $assume (i32.lt_u (local.get $k) (i32.const 3)))
    (call $assume (i32.lt_u (local.get $j) (i32.const 6)))
    (i32.store8
      (i32.add (i32.load (i32.add (i32.const 64) (i32.mul (local.get $k) (i32.const 4))))
               (local.get $j))
      (i32.const 1)))
"#,
    );
    let r = run(&m, "pick", HeapOptions::default());
    // In each block for j < 4, past it for j = 4 and 5.
    assert_eq!(count(&r, Status::Returned), 3);
    let errors = errors(&r);
    assert!(!errors.is_empty());
    assert!(errors
        .iter()
        .all(|(kind, offset)| *kind == MemoryErrorKind::HeapOverflow
            && matches!(offset, Some(4 | 5))));
    let returned: Vec<i64> = r
        .paths
        .iter()
        .filter(|p| p.status == Status::Returned)
        .map(|p| match &p.inputs.named[0].value {
            symplay_engine::report::InputValue::Int(k) => *k,
            other => panic!("k is an integer, not {other:?}"),
        })
        .collect();
    let mut ks = returned.clone();
    ks.sort_unstable();
    assert_eq!(ks, vec![0, 1, 2], "one returning path per block");
    for p in &r.paths {
        replays(&m, "pick", &HeapOptions::default(), p);
    }
}

#[test]
fn the_allocator_zeroes_copies_fails_and_frees_as_c_says() {
    let m = module(
        r#"
  (func (export "calloc_zeroes") (result i32) (local $p i32)
    (local.set $p (call $calloc (i32.const 4) (i32.const 4)))
    (i32.load offset=12 (local.get $p)))
  (func (export "calloc_overflow") (result i32)
    (call $calloc (i32.const 0x10000) (i32.const 0x10001)))
  (func (export "realloc_copies") (result i32) (local $p i32)
    (local.set $p (call $malloc (i32.const 4)))
    (i32.store (local.get $p) (i32.const 0x11223344))
    (local.set $p (call $realloc (local.get $p) (i32.const 64)))
    (i32.load (local.get $p)))
  (func (export "malloc_zero") (result i32) (local $p i32)
    (local.set $p (call $malloc (i32.const 0)))
    (if (i32.eqz (local.get $p)) (then unreachable))
    (i32.load8_u (local.get $p)))
  (func (export "too_big") (result i32)
    (call $malloc (i32.const 0xffff0000)))
  (func (export "free_null")
    (call $free (i32.const 0)))
"#,
    );
    let heap = HeapOptions::default();
    let only = |entry: &str| {
        let r = run(&m, entry, heap.clone());
        assert_eq!(r.paths.len(), 1, "{entry}");
        r.paths[0].clone()
    };
    let int = |p: &PathReport| serde_json::to_value(&p.returns).unwrap();
    assert_eq!(int(&only("calloc_zeroes")), serde_json::json!([0]));
    assert_eq!(int(&only("calloc_overflow")), serde_json::json!([0]));
    assert_eq!(
        int(&only("realloc_copies")),
        serde_json::json!([0x11223344])
    );
    assert_eq!(int(&only("too_big")), serde_json::json!([0]));
    assert_eq!(only("free_null").status, Status::Returned);
    let zero = only("malloc_zero");
    let e = zero.memory_error.expect("malloc(0) has no byte to read");
    assert_eq!((e.kind, e.offset), (MemoryErrorKind::HeapOverflow, Some(0)));
}

#[test]
fn an_allocation_may_fail_when_asked_and_the_failure_replays() {
    let m = module(
        r#"
  (func (export "use") (result i32) (local $p i32)
    (local.set $p (call $malloc (i32.const 8)))
    (i32.store8 (local.get $p) (i32.const 1))
    (i32.const 0))
"#,
    );
    let heap = HeapOptions {
        malloc_may_fail: true,
        ..HeapOptions::default()
    };
    let r = run(&m, "use", heap.clone());
    // NULL is address 0, below the heap: a write Wasm allows.
    assert_eq!(count(&r, Status::Returned), 2);
    let failed = r
        .paths
        .iter()
        .find(|p| p.objects.is_empty())
        .expect("a path where malloc returned NULL");
    replays(&m, "use", &heap, failed);
}

#[test]
fn bad_input_is_reported_and_never_panics() {
    let m = module(
        r#"
  (func (export "capacity_zero") (result i32)
    (call $sized (i32.const 256) (i32.const 0) (i32.const 22)))
  (func (export "capacity_too_big") (result i32)
    (call $sized (i32.const 256) (i32.const 0x10000) (i32.const 22)))
  (func (export "free_garbage")
    (call $free (i32.const 12345)))
  (func (export "free_symbolic") (local $p i32)
    (local.set $p (call $malloc (i32.const 8)))
    (call $free (call $sym (i32.const 16))))
  (func (export "realloc_freed") (result i32) (local $p i32)
    (local.set $p (call $malloc (i32.const 8)))
    (call $free (local.get $p))
    (call $realloc (local.get $p) (i32.const 16)))
"#,
    );
    let heap = HeapOptions::default();
    let first_error = |entry: &str| {
        let r = run(&m, entry, heap.clone());
        let p = r
            .paths
            .iter()
            .find(|p| p.memory_error.is_some())
            .unwrap_or_else(|| panic!("{entry}: a memory error"))
            .clone();
        (r, p)
    };
    for entry in ["capacity_zero", "capacity_too_big"] {
        let (_, p) = first_error(entry);
        let e = p.memory_error.unwrap();
        assert_eq!(e.kind, MemoryErrorKind::BadArgument, "{entry}");
        assert!(e.detail.unwrap().contains("capacity"), "{entry}");
    }
    let (_, p) = first_error("free_garbage");
    assert_eq!(p.memory_error.unwrap().kind, MemoryErrorKind::InvalidFree);
    // A symbolic pointer freed: NULL, the block (both fine) or garbage.
    let (r, p) = first_error("free_symbolic");
    assert_eq!(r.paths.len(), 3);
    assert_eq!(p.memory_error.unwrap().kind, MemoryErrorKind::InvalidFree);
    let (_, p) = first_error("realloc_freed");
    let e = p.memory_error.unwrap();
    assert_eq!(
        (e.kind, e.access),
        (MemoryErrorKind::DoubleFree, Access::Realloc)
    );
}

#[test]
fn an_allocator_with_another_signature_runs_as_it_is() {
    let text = r#"(module
      (memory 1)
      (func $malloc (export "malloc") (param i64) (result i64) (local.get 0))
      (func (export "f") (result i64) (call $malloc (i64.const 7))))"#;
    let m = symplay_wasm::load(text.as_bytes()).unwrap();
    let r = explore(&m, "f", &Options::default()).unwrap();
    assert_eq!(r.memory_model, "flat");
    assert_eq!(r.warnings.len(), 1);
    assert!(r.warnings[0].contains("malloc has signature (i64) -> i64"));
    assert_eq!(
        serde_json::to_value(&r.paths[0].returns).unwrap(),
        serde_json::json!([7])
    );
}

#[test]
fn the_module_allocator_is_kept_when_asked() {
    let m = size_example("e1");
    let heap = HeapOptions {
        objects: false,
        ..HeapOptions::default()
    };
    let options = Options {
        heap,
        ..Options::default()
    };
    let e = explore(&m, "e1", &options).unwrap_err();
    assert!(e.message.contains("imports env.malloc"), "{e}");
}

#[test]
fn aligned_allocations_are_aligned_and_bad_alignments_fail() {
    let text = r#"(module
      (import "env" "aligned_alloc" (func $aligned (param i32 i32) (result i32)))
      (import "env" "posix_memalign" (func $memalign (param i32 i32 i32) (result i32)))
      (import "env" "free" (func $free (param i32)))
      (memory 1)
      (func (export "aligned") (result i32)
        (i32.and (call $aligned (i32.const 256) (i32.const 10)) (i32.const 255)))
      (func (export "not_a_power") (result i32)
        (call $aligned (i32.const 24) (i32.const 10)))
      (func (export "memalign") (result i32) (local $e i32)
        (local.set $e (call $memalign (i32.const 64) (i32.const 128) (i32.const 8)))
        (i32.store8 offset=7 (i32.load (i32.const 64)) (i32.const 1))
        (call $free (i32.load (i32.const 64)))
        (i32.or (local.get $e)
          (i32.and (i32.load (i32.const 64)) (i32.const 127))))
      (func (export "memalign_einval") (result i32)
        (call $memalign (i32.const 64) (i32.const 3) (i32.const 8))))"#;
    let m = symplay_wasm::load(text.as_bytes()).unwrap();
    for (entry, expected) in [
        ("aligned", 0),
        ("not_a_power", 0),
        ("memalign", 0),
        ("memalign_einval", 28),
    ] {
        let r = run(&m, entry, HeapOptions::default());
        assert_eq!(r.paths.len(), 1, "{entry}");
        let p = &r.paths[0];
        assert_eq!(p.status, Status::Returned, "{entry}: {}", p.outcome());
        assert_eq!(
            serde_json::to_value(&p.returns).unwrap(),
            serde_json::json!([expected]),
            "{entry}"
        );
    }
}

#[test]
fn a_replay_lays_the_heap_out_as_the_run_did() {
    // p = malloc(n) (symbolic), q = malloc(64): p[50] lands in p's reserved
    // capacity in the run; the replay, where n is concrete, must not put
    // q there.
    let m = module(
        r#"
  (func (export "layout") (result i32) (local $p i32) (local $q i32) (local $n i32)
    (local.set $n (call $sym (i32.const 16)))
    (call $assume (i32.le_u (local.get $n) (i32.const 8)))
    (local.set $p (call $malloc (local.get $n)))
    (local.set $q (call $malloc (i32.const 64)))
    (i32.store8 offset=50 (local.get $p) (i32.const 1))
    (i32.sub (local.get $q) (local.get $p)))
"#,
    );
    for size_mode in SizeMode::ALL {
        let heap = mode(size_mode, 100);
        let r = run(&m, "layout", heap.clone());
        assert!(!r.paths.is_empty());
        for p in &r.paths {
            assert_eq!(p.memory_error.as_ref().map(|e| e.offset), Some(Some(50)));
            replays(&m, "layout", &heap, p);
        }
    }
}

#[test]
fn bulk_copies_are_checked_whole() {
    let m = module(
        r#"
  (func (export "copy_past_memory")
    (memory.copy (i32.const 0) (i32.const 65535) (i32.const 3)))
  (func (export "copy_past_block") (local $p i32)
    (local.set $p (call $malloc (i32.const 8)))
    (memory.copy (i32.const 1024) (local.get $p) (i32.const 16)))
"#,
    );
    let r = run(&m, "copy_past_memory", HeapOptions::default());
    assert_eq!(r.paths[0].status, Status::Trapped);
    let r = run(&m, "copy_past_block", HeapOptions::default());
    let e = r.paths[0].memory_error.as_ref().expect("an over-read");
    assert_eq!(
        (e.kind, e.access, e.width),
        (MemoryErrorKind::HeapOverflow, Access::Read, 16)
    );
}

#[test]
fn an_inner_node_records_the_objects_when_it_forked() {
    // Two blocks, the first freed, then a branch: the root forks with
    // both made and the first freed; a later block is not counted.
    let m = module(
        r#"(func (export "node_memory") (param $x i32) (result i32) (local $p i32)
            (local.set $p (call $malloc (i32.const 8)))
            (drop (call $malloc (i32.const 4)))
            (call $free (local.get $p))
            (if (result i32) (local.get $x)
              (then (drop (call $malloc (i32.const 2))) (i32.const 1))
              (else (i32.const 0))))"#,
    );
    let r = run(&m, "node_memory", HeapOptions::default());
    let forked: Vec<_> = r.tree.iter().filter(|n| n.fork.is_some()).collect();
    assert_eq!(forked.len(), 1);
    assert_eq!(
        forked[0].memory,
        Some(NodeMemory {
            objects: 2,
            freed: vec![0],
        })
    );
    assert!(r
        .tree
        .iter()
        .filter(|n| n.path.is_some())
        .all(|n| n.memory.is_none()));
    // Flat memory: no objects to record.
    let flat = symplay_wasm::load(
        br#"(module (memory 1) (func (export "f") (param i32) (result i32)
            (if (result i32) (local.get 0) (then (i32.const 1)) (else (i32.const 0)))))"#,
    )
    .unwrap();
    let r = run(&flat, "f", HeapOptions::default());
    assert_eq!(r.memory_model, "flat");
    assert!(r.tree.iter().all(|n| n.memory.is_none()));
}

/// rustc's layout: the stack first (from 64 KiB down), the data above it.
const STACK_FIRST: &str = r#"(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (memory 2)
  (global $__stack_pointer (mut i32) (i32.const 65536))
  (global $__heap_base i32 (i32.const 65600))
  (data (i32.const 65536) "static data")
  (func (export "deref") (param $p i32) (result i32)
    (i32.load8_u (local.get $p)))
  ;; Takes a frame of 4 KiB per call, n calls deep.
  (func $recurse (export "recurse") (param $n i32)
    (global.set $__stack_pointer (i32.sub (global.get $__stack_pointer) (i32.const 4096)))
    (i32.store (global.get $__stack_pointer) (local.get $n))
    (if (local.get $n) (then (call $recurse (i32.sub (local.get $n) (i32.const 1)))))
    (global.set $__stack_pointer (i32.add (global.get $__stack_pointer) (i32.const 4096)))))"#;

#[test]
fn in_the_stack_first_layout_the_low_page_is_null_and_a_guard() {
    let m = symplay_wasm::load(STACK_FIRST.as_bytes()).unwrap();
    let r = run(&m, "deref", HeapOptions::default());
    let kinds: Vec<_> = errors(&r).into_iter().map(|(k, _)| k).collect();
    assert!(
        kinds.contains(&MemoryErrorKind::NullDereference),
        "{kinds:?}"
    );
    let null = r
        .paths
        .iter()
        .find(|p| {
            p.memory_error
                .as_ref()
                .is_some_and(|e| e.kind == MemoryErrorKind::NullDereference)
        })
        .unwrap();
    assert!(null.inputs.args[0] < 1024, "{:?}", null.inputs.args);
    replays(&m, "deref", &HeapOptions::default(), null);
    // The stack's own bytes, and the data above it, are the program's.
    assert!(r.paths.iter().any(|p| p.status == Status::Returned));
    // Fifteen frames of 4 KiB fit above the guard; sixteen reach it.
    let deep = |n: i64| {
        let o = Options {
            search: SearchKind::Dfs,
            concrete_args: vec![Some(n)],
            ..Options::default()
        };
        explore(&m, "recurse", &o).unwrap()
    };
    assert_eq!(errors(&deep(14)), vec![]);
    let overflow = deep(15);
    assert_eq!(
        overflow.paths[0].memory_error.as_ref().map(|e| e.kind),
        Some(MemoryErrorKind::StackOverflow)
    );
}

#[test]
fn past_the_capacity_one_more_path_takes_the_largest_size() {
    // p[2i] for n up to 4 with capacity 4 bytes... and sizes past it: the
    // default model adds a path with the largest size the path allows.
    let m = size_example("strided");
    let seed = run(&m, "fill_strided", mode(SizeMode::ForkLazy, 4));
    let past = run(
        &m,
        "fill_strided",
        HeapOptions {
            past_capacity: true,
            ..mode(SizeMode::ForkLazy, 4)
        },
    );
    assert_eq!(past.paths.len(), seed.paths.len() + 1);
    let extra: Vec<&PathReport> = past
        .paths
        .iter()
        .filter(|p| p.notes.iter().any(|n| n.contains("past its capacity 4")))
        .collect();
    assert_eq!(extra.len(), 1, "{:?}", past.paths);
    assert!(past
        .concretised_summary()
        .unwrap()
        .contains("a symbolic allocation size past its capacity 4"));
    for p in &past.paths {
        replays(&m, "fill_strided", &mode(SizeMode::ForkLazy, 4), p);
    }
}
