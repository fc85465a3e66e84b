//! The peers' symbolic APIs run as their programs are written: Owi's `owi`
//! module and the `symbolic` module of WASP and the Owi/WASP benchmarks,
//! from the start function; and the B-tree suite's `with_ffi` tests, whose
//! path counts are the suite's (`tests/data/btree/published.tsv`).

use symplay_engine::exec::{explore, replay, Options};
use symplay_engine::report::{DropCause, InputValue, PathReport, Report, Status};
use symplay_wasm::entry::{default_entry_name, START_ENTRY};

fn data(path: &str) -> String {
    format!("{}/data/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The module at `path` explored from its default entry (the start
/// function), every path's test replayed to the same ending.
fn explore_start(path: &str) -> Report {
    let module = symplay_wasm::load(&std::fs::read(data(path)).unwrap()).unwrap();
    let entry = default_entry_name(&module).unwrap();
    assert_eq!(entry, START_ENTRY, "{path}");
    let report = explore(&module, &entry, &Options::default()).unwrap();
    for p in &report.paths {
        let again = replay(&module, &entry, &p.inputs).unwrap();
        assert_eq!((again.status, again.trap), (p.status, p.trap), "{path}");
    }
    report
}

fn int(p: &PathReport, name: &str) -> i64 {
    match p.inputs.get(name) {
        Some(InputValue::Int(v)) => *v,
        other => panic!("{name}: {other:?}"),
    }
}

fn count(r: &Report, status: Status) -> usize {
    r.paths.iter().filter(|p| p.status == status).count()
}

#[test]
fn owi_s_range_symbols_assumptions_and_assertions() {
    let r = explore_start("peers/owi_range.wat");
    assert_eq!(r.entry, START_ENTRY);
    assert_eq!((r.paths.len(), count(&r, Status::AssertFailed)), (2, 1));
    let failed = r
        .paths
        .iter()
        .find(|p| p.status == Status::AssertFailed)
        .unwrap();
    // range_symbol(lo, hi) takes lo <= x < hi: y < 299 fails at 299 only.
    assert!((10..20).contains(&int(failed, "symbol")));
    assert_eq!(int(failed, "symbol#2"), 299);
    assert_ne!(int(failed, "symbol#3"), 0);
}

#[test]
fn owi_s_exit_ends_with_its_code_and_abort_drops_the_path() {
    let r = explore_start("peers/owi_trap.wat");
    let exited: Vec<Option<i64>> = r
        .paths
        .iter()
        .filter_map(|p| p.exit_code.map(Some))
        .collect();
    assert_eq!(exited, [Some(7)]);
    assert_eq!(count(&r, Status::Trapped), 1);
    let trap = r
        .paths
        .iter()
        .find(|p| p.status == Status::Trapped)
        .unwrap();
    assert!(int(trap, "symbol") > 5);
    assert_eq!(r.paths.len(), 3);
    assert_eq!(
        r.drops
            .iter()
            .map(|d| (d.cause, d.paths))
            .collect::<Vec<_>>(),
        [(DropCause::Abort, 1)]
    );
}

#[test]
fn the_symbolic_module_of_wasp_and_the_benchmarks() {
    let r = explore_start("peers/wasp_symbolic.wat");
    assert_eq!(count(&r, Status::AssertFailed), 1);
    let failed = r
        .paths
        .iter()
        .find(|p| p.status == Status::AssertFailed)
        .unwrap();
    let (a, c) = (int(failed, "symbol"), int(failed, "symbol#2"));
    // assume_positive_i32(a), a byte symbol c, and a + c == 300.
    assert!(a >= 0 && (0..=255).contains(&c) && a + c == 300, "{a} {c}");
}

#[test]
fn the_btree_with_ffi_tests_have_the_suite_s_path_counts() {
    let table = std::fs::read_to_string(data("btree/published.tsv")).unwrap();
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (test, paths): (&str, usize) = (fields[0], fields[2].parse().unwrap());
        // The larger tests run in the benchmark.
        if paths > 120 {
            continue;
        }
        let r = explore_start(&format!("btree/with_ffi/{test}.wat"));
        assert_eq!(r.stop_reason, "completed", "{test}");
        // The suite counts the paths that pass the test's precondition;
        // the one that breaks it ends at its `unreachable`.
        assert_eq!(
            (
                count(&r, Status::Returned),
                count(&r, Status::Trapped),
                r.paths.len()
            ),
            (paths, 1, paths + 1),
            "{test}"
        );
        checked += 1;
    }
    assert_eq!(checked, 18);
}

/// Owi's `alloc` makes the block its C library placed a memory object, so
/// a write past it and a second `dealloc` are the bugs they are; with the
/// module's allocator kept, `alloc` gives its block back unchecked.
/// `print_char` writes the path's output.
#[test]
fn owi_s_alloc_and_dealloc_are_memory_objects_and_print_char_prints() {
    let r = explore_start("peers/owi_alloc.wat");
    let mut bugs: Vec<(String, i64)> = r
        .paths
        .iter()
        .filter_map(|p| {
            let e = p.memory_error.as_ref()?;
            Some((e.kind.name().to_string(), int(p, "symbol")))
        })
        .collect();
    bugs.sort();
    assert_eq!(
        bugs,
        [
            ("double_free".to_string(), 100),
            ("heap_overflow".to_string(), 8)
        ]
    );
    assert_eq!(count(&r, Status::Returned), 2);
    let returned = r
        .paths
        .iter()
        .find(|p| p.status == Status::Returned)
        .unwrap();
    assert_eq!(returned.stdout, "ok");
    let module = symplay_wasm::load(&std::fs::read(data("peers/owi_alloc.wat")).unwrap()).unwrap();
    let mut options = Options::default();
    options.heap.objects = false;
    let kept = explore(&module, START_ENTRY, &options).unwrap();
    assert_eq!(kept.paths.len(), 3);
    assert_eq!(count(&kept, Status::Returned), 3);
}
