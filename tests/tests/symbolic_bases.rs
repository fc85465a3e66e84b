//! Relocatable bases (`--bases symbolic`, `relocatable_and_caching.md`
//! §1): a pointer to a heap block is a term over the block's base symbol,
//! and decisions, addresses, queries and results see the symbol's hidden
//! address. With the hidden address the block's address, an exploration
//! finds what it finds with concrete pointers: the same paths, outcomes,
//! memory errors, results and leaks, on the heap corpus and on every
//! example.

use symplay_engine::exec::{explore, Options};
use symplay_engine::memory::BaseMode;
use symplay_engine::report::{PathReport, Report};
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
    format!(
        "{} {:?} {:?} {:?} {:?} {:?}",
        p.outcome(),
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
