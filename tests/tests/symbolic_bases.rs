//! Relocatable bases (`--bases symbolic`, `relocatable_and_caching.md`
//! §1): a pointer to a heap block is a term over the block's base symbol,
//! and decisions, addresses, queries and results see the symbol's hidden
//! address. With hidden addresses in the arena, an exploration finds
//! what it finds with concrete pointers: the same paths, outcomes, memory
//! errors, results and leaks, on the heap corpus and on every example; a
//! module that allocates sees the same `memory.size` it had, and a freed
//! block's slot is taken again.

use symplay_engine::exec::{explore, replay_traced, Options, ReplayOptions};
use symplay_engine::memory::{BaseMode, HeapOptions};
use symplay_engine::report::{Number, PathReport, Report, Status, TraceEvent};
use symplay_tests::corpus;
use symplay_wasm::{ExportKind, Module};

/// What a path found, for comparing two explorations: its input may
/// differ, as the solver may answer an equivalent query with another model
/// (`replay_vs_wasmi` replays each), and so may the offset a symbolic
/// pointer faults at, where the blocks lie elsewhere.
fn found(p: &PathReport) -> String {
    // A bulk length made concrete is the solver's choice, which another
    // layout's constraints may make otherwise, as a fault's offset.
    let chosen_width = p.notes.iter().any(|n| n.contains(" size to "));
    let error = p.memory_error.as_ref().map(|e| {
        (
            e.kind,
            e.access,
            e.object,
            (!chosen_width).then_some(e.width),
        )
    });
    // A pointer result: where it points, as the run says under symbolic
    // bases and as its number's block says under concrete ones.
    let places: Vec<_> = (0..p.returns.len()).map(|i| p.place_of(i)).collect();
    // A memory error's text names addresses: its fields say the rest.
    let outcome = match (p.status, p.exit_code, &p.memory_error) {
        (Status::Returned, None, _) => format!("returned {places:?}"),
        (_, _, Some(_)) => "memory error".to_string(),
        _ => p.outcome(),
    };
    format!(
        "{} {:?} {:?} {:?} {:?} {:?}",
        outcome,
        error,
        p.location,
        // A pointer result is its place above.
        (0..p.returns.len())
            .map(|i| p.place_of(i).is_none().then(|| p.returns[i]))
            .collect::<Vec<_>>(),
        p.leaks,
        // Where blocks lie differs (the arena); what they are does not.
        p.objects
            .iter()
            .map(|o| (&o.kind, o.size, o.capacity, &o.freed_at))
            .collect::<Vec<_>>()
    )
}

/// `entry` explored with concrete and with symbolic bases finds the same
/// paths; returns the symbolic run's report.
fn alike(module: &Module, entry: &str, options: &Options, what: &str) -> Option<Report> {
    let concrete = explore(module, entry, options).ok()?;
    let mut symbolic_options = options.clone();
    symbolic_options.heap.bases = BaseMode::Symbolic;
    let symbolic = explore(module, entry, &symbolic_options)
        .unwrap_or_else(|e| panic!("{what}: symbolic bases: {e}"));
    // Sorted: where a fork's sides follow a model, another model orders
    // the same paths otherwise.
    let paths = |r: &Report| {
        let mut paths: Vec<String> = r.paths.iter().map(found).collect();
        paths.sort();
        paths
    };
    assert_eq!(paths(&symbolic), paths(&concrete), "{what}");
    assert_eq!(symbolic.stop_reason, concrete.stop_reason, "{what}");
    assert_eq!(symbolic.stats.forks, concrete.stats.forks, "{what}");
    Some(symbolic)
}

#[test]
fn under_symbolic_bases_the_heap_corpus_finds_the_same_paths() {
    let options = corpus::heap_options();
    let dir = corpus::heap_dir();
    let cases = corpus::heap_cases().unwrap();
    let mut named = 0;
    for case in &cases {
        let what = format!("{} {}", case.file, case.entry);
        let wasm = std::fs::read(dir.join(&case.file)).unwrap();
        let module = symplay_wasm::load(&wasm).unwrap();
        let r = alike(&module, &case.entry, &options, &what).expect("explores");
        // Live blocks lie in the arena, apart.
        for p in &r.paths {
            let mut live: Vec<(u64, u64)> = (p.objects.iter())
                .filter(|o| o.kind == "heap" && o.freed_at.is_none())
                .map(|o| (o.base, o.base + o.capacity))
                .collect();
            live.sort_unstable();
            assert!(live.iter().all(|&(lo, _)| lo >= 0x4000_0000), "{what}");
            assert!(
                live.windows(2).all(|w| w[0].1 <= w[1].0),
                "{what}: {live:?}"
            );
        }
        // Every heap block has a base symbol, named by its id.
        for o in r.paths.iter().flat_map(|p| &p.objects) {
            if o.kind == "heap" {
                assert_eq!(o.base_symbol, Some(format!("&obj{}", o.id)), "{what}");
                named += 1;
            }
        }
    }
    assert!(cases.len() >= 40 && named >= 40, "{named} blocks named");
}

#[test]
fn under_symbolic_bases_every_example_finds_the_same_paths() {
    let options = Options {
        max_paths: Some(200),
        max_depth: Some(64),
        ..corpus::heap_options()
    };
    let mut checked = 0;
    for path in corpus::example_and_test_modules().unwrap() {
        let module = symplay_wasm::load(&std::fs::read(&path).unwrap()).unwrap();
        for export in module.exports.iter().filter(|e| e.kind == ExportKind::Func) {
            let what = format!("{} {}", path.display(), export.name);
            if alike(&module, &export.name, &options, &what).is_some() {
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "{checked} entries");
}

/// A module whose pointers meet sizes, branches and a call's arguments.
const POINTERS: &str = r#"
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "env" "free" (func $free (param i32)))
  (import "symplay" "symbolic_i32" (func $symbolic_i32 (param i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "k\00")
  ;; A block as large as the span between two pointers into another: its
  ;; size is a number, as with concrete pointers. Returns the new block
  ;; minus the first (the layout), or -1 when malloc failed.
  (func (export "sized_by_pointers") (result i32)
    (local $p i32) (local $q i32) (local $k i32)
    (local.set $p (call $malloc (i32.const 64)))
    (local.set $k (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 15)))
    (local.set $q (call $malloc
      (i32.sub (i32.add (local.get $p) (i32.const 40)) (local.get $p))))
    (i32.store8 (i32.add (local.get $q) (local.get $k)) (i32.const 1))
    (if (result i32) (local.get $q)
      (then (i32.sub (local.get $q) (local.get $p)))
      (else (i32.const -1)))))
"#;

#[test]
fn a_size_a_branch_and_a_trace_see_a_pointer_as_its_address() {
    let module = symplay_wasm::load(&wat::parse_str(POINTERS).unwrap()).unwrap();
    let entry = "sized_by_pointers";
    let what = "sized_by_pointers";
    let r = alike(&module, entry, &corpus::heap_options(), what).expect("explores");
    // The 40-byte block is 40 bytes, not a symbolic size of the capacity:
    // writes at k < 40 stay in it, so no path overflows.
    assert!(r.paths.iter().all(|p| p.memory_error.is_none()), "{what}");
    for p in &r.paths {
        let block = &p.objects[1];
        assert_eq!((block.size, block.symbolic_size.as_deref()), (40, None));
    }
    // The replay's trace records the branch on the pointer as taken.
    let options = ReplayOptions {
        max_events: 100,
        heap: HeapOptions {
            bases: BaseMode::Symbolic,
            ..HeapOptions::default()
        },
        ..ReplayOptions::default()
    };
    let replayed = replay_traced(&module, entry, &r.paths[0].inputs, &options).unwrap();
    let branches: Vec<bool> = replayed
        .trace
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Branch { taken, .. } => Some(*taken),
            _ => None,
        })
        .collect();
    assert_eq!(branches, [true]);
}

/// Three blocks: the first two ordered by a branch, the third only checked
/// for NULL (by a comparison, and as a branch's condition itself) and for
/// alignment.
const OBSERVED: &str = r#"
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "observed") (result i32)
    (local $p i32) (local $q i32) (local $r i32)
    (local.set $p (call $malloc (i32.const 16)))
    (local.set $q (call $malloc (i32.const 16)))
    (local.set $r (call $malloc (i32.const 16)))
    (if (i32.eqz (local.get $r)) (then (return (i32.const -1))))
    (if (i32.eqz (if (result i32) (local.get $r) (then (i32.const 1)) (else (i32.const 0))))
      (then (return (i32.const -3))))
    (if (i32.and (local.get $r) (i32.const 7)) (then (return (i32.const -2))))
    (if (result i32) (i32.gt_u (local.get $p) (local.get $q))
      (then (i32.const 1))
      (else (i32.const 0)))))
"#;

/// A decision that depends on where blocks lie (their order) pins them,
/// where they were decided; a NULL check or an alignment test, true of
/// any layout, pins nothing. Concrete bases pin nothing.
#[test]
fn a_decision_on_the_order_of_blocks_pins_them_and_a_null_check_does_not() {
    let module = symplay_wasm::load(&wat::parse_str(OBSERVED).unwrap()).unwrap();
    let r = alike(&module, "observed", &corpus::heap_options(), "observed").expect("explores");
    assert_eq!(r.paths.len(), 1);
    let p = &r.paths[0];
    let pinned: Vec<bool> = p.objects.iter().map(|o| o.pinned_at.is_some()).collect();
    assert_eq!(pinned, [true, true, false]);
    let at = p.objects[0].pinned_at.as_ref().unwrap();
    assert_eq!(Some(at), p.objects[1].pinned_at.as_ref());
    // Never freed, so leaked, and pinned.
    let state = p.objects[0].state_text(p);
    assert!(
        state.starts_with("leaked, pinned at observed+0x"),
        "{state}"
    );
    let concrete = explore(&module, "observed", &corpus::heap_options()).unwrap();
    assert!(concrete.paths[0]
        .objects
        .iter()
        .all(|o| o.pinned_at.is_none()));
}

/// Blocks allocated, freed and allocated again, and the module's own
/// `memory.size` and `memory.grow`.
const ARENA: &str = r#"
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "env" "free" (func $free (param i32)))
  (import "env" "posix_memalign" (func $posix_memalign (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; 100 blocks of 4000 bytes, then memory.size.
  (func (export "sizes") (result i32)
    (local $i i32)
    (block $done (loop $more
      (br_if $done (i32.eq (local.get $i) (i32.const 100)))
      (drop (call $malloc (i32.const 4000)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $more)))
    (memory.size))
  ;; The module grows its memory to 1 GiB, then by one more page (the
  ;; second grow's result), then allocates and writes a block.
  (func (export "grows") (result i32)
    (local $p i32) (local $r i32)
    (drop (memory.grow (i32.const 16383)))
    (local.set $r (memory.grow (i32.const 1)))
    (local.set $p (call $malloc (i32.const 8)))
    (i32.store (local.get $p) (local.get $r))
    (i32.load (local.get $p)))
  ;; A block written at offset 4, freed; a block of the same size, read
  ;; at 4 (returned when k = 0), then the first one read through its
  ;; pointer at k & 12.
  (func (export "dangling") (param $k i32) (result i32)
    (local $p i32) (local $q i32) (local $r i32)
    (local.set $p (call $malloc (i32.const 24)))
    (i32.store offset=4 (local.get $p) (i32.const 5))
    (call $free (local.get $p))
    (local.set $q (call $malloc (i32.const 24)))
    (local.set $r (i32.load (i32.add (local.get $q) (i32.const 4))))
    (drop (br_if 0 (local.get $r) (i32.eqz (local.get $k))))
    (i32.load (i32.add (local.get $p) (i32.and (local.get $k) (i32.const 12)))))
  ;; memory.fill and memory.copy through the first block's pointer after
  ;; the second took its slot.
  (func (export "fill_dangling") (result i32)
    (local $p i32) (local $q i32)
    (local.set $p (call $malloc (i32.const 24)))
    (call $free (local.get $p))
    (local.set $q (call $malloc (i32.const 24)))
    (memory.fill (local.get $p) (i32.const 1) (i32.const 8))
    (i32.load (local.get $q)))
  (func (export "copy_dangling") (result i32)
    (local $p i32) (local $q i32)
    (local.set $p (call $malloc (i32.const 24)))
    (call $free (local.get $p))
    (local.set $q (call $malloc (i32.const 24)))
    (memory.copy (i32.add (local.get $q) (i32.const 8)) (local.get $p) (i32.const 8))
    (i32.load (local.get $q)))
  ;; Two blocks; a free through the first's pointer plus i, which frees
  ;; the second where i is the distance between them; a third block; then
  ;; the same free again.
  (func (export "free_twice_at") (param $i i32) (result i32)
    (local $p i32)
    (local.set $p (call $malloc (i32.const 24)))
    (drop (call $malloc (i32.const 24)))
    (call $free (i32.add (local.get $p) (local.get $i)))
    (drop (call $malloc (i32.const 24)))
    (call $free (i32.add (local.get $p) (local.get $i)))
    (i32.const 0))
  ;; Two blocks' pointers stored at 256 and 260; the first freed and its
  ;; slot taken by a third; then a word read through the pointer loaded
  ;; at 256 + 4 * (k & 1), a pointer that is no base symbol plus an offset.
  (func (export "indexed_dangling") (param $k i32) (result i32)
    (i32.store (i32.const 256) (call $malloc (i32.const 24)))
    (i32.store (i32.const 260) (call $malloc (i32.const 24)))
    (call $free (i32.load (i32.const 256)))
    (drop (call $malloc (i32.const 24)))
    (i32.load (i32.load (i32.add (i32.const 256)
      (i32.shl (i32.and (local.get $k) (i32.const 1)) (i32.const 2))))))
  ;; A block's pointer kept at 256 and in an iovec at 512; the block
  ;; freed and its slot taken; then fd_write reads the iovec's buffer.
  (func (export "host_dangling") (result i32)
    (i32.store (i32.const 256) (call $malloc (i32.const 24)))
    (i32.store (i32.const 512) (i32.load (i32.const 256)))
    (i32.store (i32.const 516) (i32.const 4))
    (call $free (i32.load (i32.const 256)))
    (drop (call $malloc (i32.const 24)))
    (call $fd_write (i32.const 1) (i32.const 512) (i32.const 1) (i32.const 600)))
  ;; 1,100 blocks of 1 MiB, each freed before the next is made: more
  ;; than the arena has room to move out of the slot they all take.
  (func (export "crowded") (result i32)
    (local $i i32)
    (block $done (loop $more
      (br_if $done (i32.eq (local.get $i) (i32.const 1100)))
      (call $free (call $malloc (i32.const 1048576)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $more)))
    (call $malloc (i32.const 2097152)))
  ;; A block freed, then posix_memalign writes the pointer to a new block,
  ;; which takes the freed block's slot, into the freed block.
  (func (export "memalign_dangling") (result i32)
    (local $p i32)
    (local.set $p (call $malloc (i32.const 24)))
    (call $free (local.get $p))
    (call $posix_memalign (i32.add (local.get $p) (i32.const 8))
      (i32.const 16) (i32.const 24)))
  ;; A block's address kept as a float; the block freed and a new one
  ;; made; then a word read at the float's number.
  (func (export "float_dangling") (result i32)
    (local $p i32) (local $f f64)
    (local.set $p (call $malloc (i32.const 24)))
    (local.set $f (f64.convert_i32_u (local.get $p)))
    (call $free (local.get $p))
    (drop (call $malloc (i32.const 24)))
    (i32.load (i32.trunc_f64_u (local.get $f))))
  ;; The first block freed again after the second took its slot.
  (func (export "twice") (result i32)
    (local $p i32) (local $q i32)
    (local.set $p (call $malloc (i32.const 24)))
    (call $free (local.get $p))
    (local.set $q (call $malloc (i32.const 24)))
    (call $free (local.get $p))
    (local.get $q)))
"#;

/// The one integer result.
fn int(returns: &[Number]) -> i64 {
    match returns {
        [Number::Int(n)] => *n,
        _ => panic!("one integer: {returns:?}"),
    }
}

fn symbolic_bases() -> Options {
    let mut options = corpus::heap_options();
    options.heap.bases = BaseMode::Symbolic;
    options
}

#[test]
fn under_symbolic_bases_blocks_lie_in_the_arena_and_memory_size_stays_the_modules() {
    let module = symplay_wasm::load(&wat::parse_str(ARENA).unwrap()).unwrap();
    let returned = |r: &Report| int(&r.paths[0].returns);
    let concrete = explore(&module, "sizes", &corpus::heap_options()).unwrap();
    let symbolic = explore(&module, "sizes", &symbolic_bases()).unwrap();
    assert_eq!(returned(&symbolic), 1, "memory.size as the module made it");
    assert!(returned(&concrete) > 6, "concrete bases grow memory");
    let bases: Vec<u64> = symbolic.paths[0].objects.iter().map(|o| o.base).collect();
    assert_eq!(bases.len(), 100);
    assert!(bases
        .iter()
        .all(|&b| b >= 0x4000_0000 && b.is_multiple_of(16)));
    // The module's memory grows to 1 GiB, where the arena starts, and no
    // further; its blocks are there still.
    let concrete = explore(&module, "grows", &corpus::heap_options()).unwrap();
    let symbolic = explore(&module, "grows", &symbolic_bases()).unwrap();
    assert_eq!(returned(&concrete), 16384);
    assert_eq!(returned(&symbolic), -1);
    assert!(symbolic.paths[0].memory_error.is_none());
}

/// A C stack the program makes in a heap block (as a coroutine library
/// does): the stack pointer set to the block's end, a word pushed there
/// and read back, the pointer restored.
const OWN_STACK: &str = r#"
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (memory (export "memory") 2)
  (global $__stack_pointer (mut i32) (i32.const 65536))
  (data (i32.const 1024) "data")
  (func (export "own_stack") (result i32)
    (local $saved i32) (local $p i32) (local $r i32)
    (local.set $saved (global.get $__stack_pointer))
    (local.set $p (call $malloc (i32.const 1024)))
    (global.set $__stack_pointer (i32.add (local.get $p) (i32.const 1020)))
    (i32.store (global.get $__stack_pointer) (i32.const 7))
    (local.set $r (i32.load (global.get $__stack_pointer)))
    (global.set $__stack_pointer (local.get $saved))
    (local.get $r)))"#;

#[test]
fn a_stack_made_in_a_block_in_the_arena_is_no_stack_overflow() {
    let module = symplay_wasm::load(&wat::parse_str(OWN_STACK).unwrap()).unwrap();
    for options in [corpus::heap_options(), symbolic_bases()] {
        let r = explore(&module, "own_stack", &options).unwrap();
        let bases = options.heap.bases;
        assert_eq!(r.paths.len(), 1, "{bases:?}");
        let p = &r.paths[0];
        assert!(p.memory_error.is_none(), "{bases:?}: {:?}", p.memory_error);
        assert_eq!(int(&p.returns), 7, "{bases:?}");
        let in_arena = p.objects[0].base >= 0x4000_0000;
        assert_eq!(in_arena, bases == BaseMode::Symbolic);
    }
}

#[test]
fn a_freed_blocks_slot_is_taken_again_and_a_pointer_to_it_still_finds_it_freed() {
    let module = symplay_wasm::load(&wat::parse_str(ARENA).unwrap()).unwrap();
    let r = explore(&module, "dangling", &symbolic_bases()).unwrap();
    // k = 0 returns the new block's word at 4: zero, though the first
    // block had 5 there. Every other k reads the freed block, where the
    // new one lies now: one path, a use after free of the first at offset
    // k & 12, which none of the live block's bytes take.
    assert_eq!(r.paths.len(), 2);
    for p in &r.paths {
        let [first, second] = &p.objects[..] else {
            panic!("two blocks: {:?}", p.objects)
        };
        // The first block moved above every slot when the second took its
        // slot.
        assert_eq!(second.base, 0x4000_0010, "the slot taken again");
        assert!(first.base > second.base);
        let k = p.inputs.args[0];
        match &p.memory_error {
            None => assert_eq!((k, int(&p.returns)), (0, 0)),
            Some(e) => {
                assert_ne!(k, 0);
                assert_eq!(e.kind.name(), "use_after_free");
                assert_eq!(e.object, Some(first.id));
                assert_eq!(e.offset, Some(k & 12));
            }
        }
    }
    // Under concrete bases the blocks lie apart and the bugs are the same.
    let concrete = explore(&module, "dangling", &corpus::heap_options()).unwrap();
    let bugs = |r: &Report| -> Vec<_> {
        let errors = r.paths.iter().filter_map(|p| p.memory_error.as_ref());
        errors.map(|e| (e.kind, e.access, e.object)).collect()
    };
    assert_eq!(bugs(&concrete), bugs(&r));
    // A bulk operation through the first block's pointer is its use after
    // free too.
    for (entry, access) in [("fill_dangling", "write"), ("copy_dangling", "read")] {
        let r = explore(&module, entry, &symbolic_bases()).unwrap();
        let e = r.paths[0].memory_error.as_ref().expect(entry);
        let error = (e.kind.name(), e.access.name(), e.object);
        assert_eq!(error, ("use_after_free", access, Some(0)), "{entry}");
    }
    // A free whose address a path fixed at the second block's keeps that
    // block's slot from the third: the second free is its double free,
    // as under concrete bases, not the third block's free.
    let errors = |options: &Options| {
        let r = explore(&module, "free_twice_at", options).unwrap();
        let mut errors: Vec<_> = r
            .paths
            .iter()
            .map(|p| p.memory_error.as_ref().map(|e| (e.kind.name(), e.object)))
            .collect();
        errors.sort();
        errors
    };
    let concrete = errors(&corpus::heap_options());
    assert!(
        concrete.contains(&Some(("double_free", Some(1)))),
        "{concrete:?}"
    );
    assert_eq!(errors(&symbolic_bases()), concrete);
    // The second free of the first block is its double free, not the
    // second block's free.
    let r = explore(&module, "twice", &symbolic_bases()).unwrap();
    let e = r.paths[0].memory_error.as_ref().unwrap();
    assert_eq!((e.kind.name(), e.object), ("double_free", Some(0)));
    // A pointer loaded at a symbolic index still finds the freed block,
    // as under concrete bases.
    for options in [corpus::heap_options(), symbolic_bases()] {
        let r = explore(&module, "indexed_dangling", &options).unwrap();
        assert_eq!(r.paths.len(), 2);
        for p in &r.paths {
            let freed = p.inputs.args[0] & 1 == 0;
            let error = p.memory_error.as_ref().map(|e| (e.kind.name(), e.object));
            let expected = freed.then_some(("use_after_free", Some(0)));
            assert_eq!(error, expected, "{:?}", options.heap.bases);
        }
        // So does the host, reading a buffer through the freed block's
        // pointer.
        let r = explore(&module, "host_dangling", &options).unwrap();
        let e = r.paths[0].memory_error.as_ref().expect("host_dangling");
        let error = (e.kind.name(), e.access.name(), e.object);
        let bases = options.heap.bases;
        assert_eq!(error, ("use_after_free", "read", Some(0)), "{bases:?}");
        // And posix_memalign's write into it, and a read at its address
        // kept as a float.
        for (entry, access) in [("memalign_dangling", "write"), ("float_dangling", "read")] {
            let r = explore(&module, entry, &options).unwrap();
            let e = r.paths[0].memory_error.as_ref().expect(entry);
            let error = (e.kind.name(), e.access.name(), e.object);
            assert_eq!(
                error,
                ("use_after_free", access, Some(0)),
                "{entry} {bases:?}"
            );
        }
    }
    // Past the room the arena has to move freed blocks out, slots are
    // still taken (malloc never fails), and the path says what that
    // leaves unreported.
    let r = explore(&module, "crowded", &symbolic_bases()).unwrap();
    let p = &r.paths[0];
    assert_eq!(p.status, Status::Returned);
    assert_ne!(int(&p.returns), 0);
    let said = p
        .notes
        .iter()
        .filter(|n| n.contains("no room left"))
        .count();
    assert_eq!(said, 1, "{:?}", p.notes);
}
