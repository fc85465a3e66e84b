//! State merging changes how many states explore a program, never what
//! the program does, on the heap corpus, the examples and the pointer
//! programs, under every size mode. States that wait at a loop's exit for
//! the loop's other states, and go on unmerged (`max_states` 1), explore
//! the very paths a run without merging explores, with the same forks;
//! states that merge (CFG, SM, SMOpt, each merge proved right by the
//! solver) find the same outcomes (status, trap,
//! memory error, place), and each of their paths' inputs replays to its
//! own.

use std::collections::BTreeSet;
use symplay_engine::exec::{
    explore, replay_traced, MergeMode, MergeOptions, Options, ReplayOptions,
};
use symplay_engine::memory::SizeMode;
use symplay_engine::report::{PathReport, Report, Status};
use symplay_tests::corpus;
use symplay_wasm::{ExportKind, Module};

/// A path as the comparison sees it: how it ended, and where (its inputs
/// and symbolic results come from a model of its path, which may differ).
fn path(p: &PathReport) -> String {
    let error = p
        .memory_error
        .as_ref()
        .map(|e| (e.kind, e.access, e.offset));
    format!(
        "{:?} {:?} {error:?} at {}",
        p.status,
        p.trap,
        p.location.text()
    )
}

fn paths(r: &Report) -> Vec<String> {
    let mut paths: Vec<String> = r.paths.iter().map(path).collect();
    paths.sort();
    paths
}

/// Explores `entry` of `module` without merging and with states waiting
/// at loop exits, and checks that both find the same paths and forks;
/// returns whether both completed and whether states waited.
fn compare_waiting(module: &Module, entry: &str, base: &Options, what: &str) -> (bool, bool) {
    let Ok(plain) = explore(module, entry, base) else {
        return (false, false);
    };
    let waiting = Options {
        merge: MergeOptions {
            mode: MergeMode::Cfg,
            max_states: 1,
            validate: false,
        },
        ..base.clone()
    };
    let r = explore(module, entry, &waiting).unwrap_or_else(|e| panic!("{what}: {e}"));
    let merging = r.stats.merging.clone().expect("a merging run reports it");
    assert!(plain.stats.merging.is_none(), "{what}");
    let completed = plain.stop_reason == "completed";
    assert_eq!(
        r.stop_reason == "completed",
        completed,
        "{what}: {}",
        r.stop_reason
    );
    if completed {
        assert_eq!(paths(&r), paths(&plain), "{what}");
        assert_eq!(r.stats.forks, plain.stats.forks, "{what}: forks");
        assert_eq!(r.stats.pending_states, 0, "{what}");
    }
    (completed, completed && merging.waited > 0)
}

/// Compares every entry of `entries` (module, entry, name) under every
/// size mode with `compare`; returns the explorations compared and those
/// where states waited (or merged).
fn compare_all(
    entries: &[(Module, String, String)],
    base: &Options,
    compare: fn(&Module, &str, &Options, &str) -> (bool, bool),
) -> (usize, usize) {
    let (mut compared, mut acted) = (0, 0);
    for (module, entry, what) in entries {
        for size_mode in SizeMode::ALL {
            let mut options = base.clone();
            options.heap.size_mode = size_mode;
            let (c, a) = compare(module, entry, &options, &format!("{what}, {size_mode}"));
            compared += usize::from(c);
            acted += usize::from(a);
        }
    }
    (compared, acted)
}

fn exports(paths: &[std::path::PathBuf]) -> Vec<(Module, String, String)> {
    let mut entries = Vec::new();
    for path in paths {
        let module = symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap();
        for export in module.exports.iter().filter(|e| e.kind == ExportKind::Func) {
            let what = format!("{} {}", path.display(), export.name);
            entries.push((module.clone(), export.name.clone(), what));
        }
    }
    entries
}

fn heap_entries() -> Vec<(Module, String, String)> {
    let dir = corpus::heap_dir();
    (corpus::heap_cases().unwrap().iter())
        .map(|case| {
            let wasm = std::fs::read(dir.join(&case.file)).unwrap();
            let module = symplay_wasm::load(&wasm).unwrap();
            let what = format!("{} {}", case.file, case.entry);
            (module, case.entry.clone(), what)
        })
        .collect()
}

/// The examples, the test modules and the pointer programs, each export,
/// with the options they are explored with.
fn example_entries() -> (Vec<(Module, String, String)>, Options) {
    let options = Options {
        max_paths: Some(200),
        max_depth: Some(64),
        ..corpus::heap_options()
    };
    let mut files = corpus::example_and_test_modules().unwrap();
    files.extend(corpus::pointer_programs().unwrap());
    (exports(&files), options)
}

#[test]
fn waiting_at_loop_exits_keeps_the_heap_corpus_paths() {
    let options = corpus::heap_options();
    let (compared, waited) = compare_all(&heap_entries(), &options, compare_waiting);
    println!("{compared} explorations compared, {waited} with states waiting");
    assert!(compared >= 40 * 3 / 2, "{compared}");
    assert!(waited >= 10, "{waited}");
}

#[test]
fn waiting_at_loop_exits_keeps_the_examples_and_pointer_programs_paths() {
    let (entries, options) = example_entries();
    let (compared, waited) = compare_all(&entries, &options, compare_waiting);
    println!("{compared} explorations compared, {waited} with states waiting");
    assert!(compared >= 100, "{compared}");
    assert!(waited >= 10, "{waited}");
}

/// What a run found, each kind of ending once: status, trap, memory
/// error (its kind and access: one merged path covers the offsets of
/// several) and place.
fn outcomes(r: &Report) -> BTreeSet<String> {
    (r.paths.iter())
        .map(|p| {
            let error = p.memory_error.as_ref().map(|e| (e.kind, e.access));
            format!(
                "{:?} {:?} {error:?} at {}",
                p.status,
                p.trap,
                p.location.text()
            )
        })
        .collect()
}

/// Explores `entry` without merging and merging under CFG, SM, SMOpt and
/// PAT with every merge validated, and checks that the solver proves each
/// merge right, that merging finds the same outcomes, every one of its
/// paths replaying to its own, and that SMOpt explores the forks and
/// paths SM does; returns whether the runs completed and whether states
/// merged.
fn compare_merged(module: &Module, entry: &str, base: &Options, what: &str) -> (bool, bool) {
    let Ok(plain) = explore(module, entry, base) else {
        return (false, false);
    };
    if plain.stop_reason != "completed" {
        return (false, false);
    }
    let mut merged = false;
    let mut sm = None;
    for mode in [
        MergeMode::Cfg,
        MergeMode::Sm,
        MergeMode::SmOpt,
        MergeMode::Pat,
    ] {
        let what = format!("{what}, {mode}");
        let merging = Options {
            merge: MergeOptions {
                mode,
                validate: true,
                ..MergeOptions::default()
            },
            ..base.clone()
        };
        let r = explore(module, entry, &merging).unwrap_or_else(|e| panic!("{what}: {e}"));
        if r.stop_reason != "completed" {
            return (false, false);
        }
        let stats = r.stats.merging.clone().expect("a merging run reports it");
        assert_eq!(stats.violations, 0, "{what}: {:?}", r.warnings);
        assert_eq!(stats.validated, stats.merges, "{what}");
        assert_eq!(outcomes(&r), outcomes(&plain), "{what}");
        match mode {
            MergeMode::Sm => sm = Some((r.stats.forks, r.paths.len(), stats.merges)),
            MergeMode::SmOpt => assert_eq!(
                Some((r.stats.forks, r.paths.len(), stats.merges)),
                sm,
                "{what}: forks, paths and merges against SM"
            ),
            _ => {}
        }
        let replay = ReplayOptions {
            max_instructions: Some(corpus::HEAP_MAX_INSTRUCTIONS),
            heap: base.heap.clone(),
            ..ReplayOptions::default()
        };
        for p in r.paths.iter().filter(|p| p.status != Status::Limit) {
            let replayed = replay_traced(module, entry, &p.inputs, &replay)
                .unwrap_or_else(|e| panic!("{what}: replay: {e}"))
                .path;
            assert_eq!(path(&replayed), path(p), "{what}: {:?}", p.inputs);
        }
        merged |= r.stats.merging.is_some_and(|m| m.merges > 0);
    }
    (true, merged)
}

#[test]
fn merging_finds_the_heap_corpus_outcomes_and_its_tests_replay() {
    let options = corpus::heap_options();
    let (compared, merged) = compare_all(&heap_entries(), &options, compare_merged);
    println!("{compared} explorations compared, {merged} with states merged");
    assert!(compared >= 40 * 3 / 2, "{compared}");
    assert!(merged >= 10, "{merged}");
}

#[test]
fn merging_finds_the_examples_and_pointer_programs_outcomes() {
    let (entries, options) = example_entries();
    let (compared, merged) = compare_all(&entries, &options, compare_merged);
    println!("{compared} explorations compared, {merged} with states merged");
    assert!(compared >= 100, "{compared}");
    assert!(merged >= 10, "{merged}");
}
