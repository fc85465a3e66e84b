//! Relocatable bases (`--bases symbolic`, `relocatable_and_caching.md`
//! §1): a pointer to a heap block is a term over the block's base symbol,
//! and decisions, addresses, queries and results see the symbol's hidden
//! address. With the hidden address the block's address, an exploration
//! finds what it finds with concrete pointers: the same paths, outcomes,
//! memory errors, results and leaks, on the heap corpus and on every
//! example.

use symplay_engine::exec::{explore, replay_traced, Options, ReplayOptions};
use symplay_engine::memory::{BaseMode, HeapOptions};
use symplay_engine::report::{PathReport, Report, Status, TraceEvent};
use symplay_tests::corpus;
use symplay_wasm::{ExportKind, Module};

/// What a path found, for comparing two explorations: its input may
/// differ, as the solver may answer an equivalent query with another model
/// (`replay_vs_wasmi` replays each).
fn found(p: &PathReport) -> String {
    let error = p
        .memory_error
        .as_ref()
        .map(|e| (e.kind, e.access, e.object, e.offset, e.width));
    // A pointer result: where it points, as the run says under symbolic
    // bases and as its number's block says under concrete ones.
    let places: Vec<_> = (0..p.returns.len()).map(|i| p.place_of(i)).collect();
    let outcome = match (p.status, p.exit_code) {
        (Status::Returned, None) => format!("returned {places:?}"),
        _ => p.outcome(),
    };
    format!(
        "{} {:?} {:?} {:?} {:?} {:?}",
        outcome,
        error,
        p.location,
        p.returns,
        p.leaks,
        p.objects.iter().map(|o| o.base).collect::<Vec<_>>()
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
