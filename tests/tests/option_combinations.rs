//! The memory options change how an exploration models memory, never what
//! a program does: under every combination of bases (concrete, symbolic),
//! splitting (none, 16-byte pieces of objects over 24 bytes), contents
//! (per-object, whole; whole splits nothing) and resolution (a fork per
//! block, or segments: over symbolic bases and per-object contents), each
//! entry of the heap corpus and of the examples finds the same bugs (kind,
//! access, place) as under the defaults with the same size mode, and every
//! path's input replays under those defaults to the path's outcome and
//! results. (The paths themselves may differ: splitting forks more,
//! segments fork less, and a result that stays a term is given its value
//! in the path's model.) Size modes differ by design (base pins a size and
//! may miss a bug), so each is compared with itself. Address-aware caching
//! runs in its check mode, where the solver is asked again for every
//! answer it gives: none may be contradicted.

use std::collections::BTreeSet;
use symplay_engine::exec::{explore, replay_traced, Options, ReplayOptions};
use symplay_engine::memory::{
    AaCacheMode, BaseMode, Contents, HeapOptions, Segments, SizeMode, Split,
};
use symplay_engine::report::{PathReport, Report, Status};
use symplay_tests::corpus;
use symplay_wasm::{ExportKind, Module};

/// Every combination of the memory options but the size mode (and the
/// defaults, which the others are compared with), with a name.
fn combinations() -> Vec<(String, HeapOptions)> {
    let small = Split {
        threshold: 24,
        piece: 16,
    };
    let mut all = Vec::new();
    for bases in BaseMode::ALL {
        for contents in Contents::ALL {
            for split in [None, Some(small)] {
                for segments in [None, Some(Segments::default())] {
                    let defaults = (BaseMode::default(), Contents::default(), None, None);
                    // Pieces need per-object contents and segments symbolic
                    // bases; segments are tried with per-object contents,
                    // where their arrays differ from their members'.
                    if split.is_some() && contents == Contents::Whole
                        || segments.is_some()
                            && (bases == BaseMode::Concrete || contents == Contents::Whole)
                        || (bases, contents, split, segments) == defaults
                    {
                        continue;
                    }
                    let heap = HeapOptions {
                        bases,
                        contents,
                        split,
                        segments,
                        ..HeapOptions::default()
                    };
                    let name = format!(
                        "bases {bases}, contents {contents}, {}, {}",
                        if split.is_some() {
                            "split"
                        } else {
                            "whole objects"
                        },
                        if segments.is_some() {
                            "segments"
                        } else {
                            "forks per block"
                        }
                    );
                    all.push((name, heap));
                }
            }
        }
    }
    // Address-aware caching over symbolic bases, its answers checked by
    // the solver: with whole objects forked per block, and with pieces and
    // segments (whose moved blocks it leaves to the chain).
    for (split, segments) in [(None, None), (Some(small), Some(Segments::default()))] {
        let heap = HeapOptions {
            bases: BaseMode::Symbolic,
            split,
            segments,
            aa_cache: AaCacheMode::Check,
            ..HeapOptions::default()
        };
        let name = format!(
            "address-aware cache, {}",
            if split.is_some() {
                "split, segments"
            } else {
                "whole objects, forks per block"
            }
        );
        all.push((name, heap));
    }
    all
}

/// The bugs an exploration found: each kind, access and place.
fn bugs(r: &Report) -> BTreeSet<String> {
    r.paths
        .iter()
        .filter(|p| !matches!(p.status, Status::Returned | Status::Limit))
        .map(|p| match &p.memory_error {
            Some(e) => format!(
                "{} {} at {}",
                e.kind.name(),
                e.access.name(),
                p.location.text()
            ),
            None => format!("{:?} {:?} at {}", p.status, p.trap, p.location.text()),
        })
        .collect()
}

/// What a path ended with: its outcome, or its memory error by kind,
/// access and the offset into its object (its text names addresses, and
/// under symbolic bases blocks lie in the arena). The results of a path
/// that returned are compared apart, a pointer by where it points.
fn ending(p: &PathReport) -> String {
    let outcome = match (p.status, p.exit_code, &p.memory_error) {
        (Status::Returned, None, _) => "returned".to_string(),
        (_, _, Some(e)) => format!(
            "{:?} {:?} at offset {:?} of object {:?}, {} bytes, at {}",
            e.kind,
            e.access,
            e.offset,
            e.object,
            e.width,
            p.location.text()
        ),
        _ => p.outcome(),
    };
    outcome
}

/// Every path of `r` that a limit did not stop replays under `heap` to the
/// outcome it has.
fn replays(module: &Module, entry: &str, r: &Report, heap: &HeapOptions, what: &str) {
    let options = ReplayOptions {
        max_instructions: Some(corpus::HEAP_MAX_INSTRUCTIONS),
        heap: heap.clone(),
        ..ReplayOptions::default()
    };
    for p in r.paths.iter().filter(|p| p.status != Status::Limit) {
        let replayed = replay_traced(module, entry, &p.inputs, &options)
            .unwrap_or_else(|e| panic!("{what}: replay: {e}"))
            .path;
        assert_eq!(ending(&replayed), ending(p), "{what}: {:?}", p.inputs);
        assert!(
            replayed.same_results(p),
            "{what}: {:?}: {} replays to {}",
            p.inputs,
            p.results_text(),
            replayed.results_text()
        );
    }
}

/// Explores `entry` under every combination and size mode, and checks each
/// against the defaults of its size mode; returns how many compared.
fn check_entry(module: &Module, entry: &str, base: &Options, what: &str) -> usize {
    let mut compared = 0;
    for size_mode in SizeMode::ALL {
        let mut defaults = base.clone();
        defaults.heap.size_mode = size_mode;
        let Ok(expected) = explore(module, entry, &defaults) else {
            return 0;
        };
        if expected.stop_reason != "completed" {
            continue;
        }
        let expected_bugs = bugs(&expected);
        for (name, heap) in combinations() {
            let mut options = base.clone();
            options.heap = HeapOptions { size_mode, ..heap };
            let r = explore(module, entry, &options)
                .unwrap_or_else(|e| panic!("{what}, {name}, {size_mode}: {e}"));
            if r.stop_reason != "completed" {
                // More paths (splitting forks) may meet a limit first.
                continue;
            }
            let what = format!("{what}, {name}, size mode {size_mode}");
            assert_eq!(bugs(&r), expected_bugs, "{what}");
            let contradicted = r.stats.address_aware.map_or(0, |aa| aa.disagreements);
            assert_eq!(
                contradicted, 0,
                "{what}: cached answers the solver contradicted"
            );
            replays(module, entry, &r, &defaults.heap, &what);
            compared += 1;
        }
    }
    compared
}

/// [`check_entry`] of every exported function of the modules `paths`:
/// each function's name and how many explorations it compared.
fn check_exports(paths: &[std::path::PathBuf], options: &Options) -> Vec<(String, usize)> {
    let mut checked = Vec::new();
    for path in paths {
        let module = symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap();
        for export in module.exports.iter().filter(|e| e.kind == ExportKind::Func) {
            let what = format!("{} {}", path.display(), export.name);
            let compared = check_entry(&module, &export.name, options, &what);
            checked.push((export.name.clone(), compared));
        }
    }
    checked
}

#[test]
fn every_memory_option_finds_the_heap_corpus_outcomes_of_the_defaults() {
    let dir = corpus::heap_dir();
    let mut compared = 0;
    for case in &corpus::heap_cases().unwrap() {
        let what = format!("{} {}", case.file, case.entry);
        let wasm = std::fs::read(dir.join(&case.file)).unwrap();
        let module = symplay_wasm::load(&wasm).unwrap();
        compared += check_entry(&module, &case.entry, &corpus::heap_options(), &what);
    }
    println!("{compared} explorations compared with the defaults");
    assert!(compared >= 40 * 3 * combinations().len() / 2, "{compared}");
}

#[test]
fn every_memory_option_finds_the_examples_outcomes_of_the_defaults() {
    let options = Options {
        max_paths: Some(200),
        max_depth: Some(64),
        ..corpus::heap_options()
    };
    let checked = check_exports(&corpus::example_and_test_modules().unwrap(), &options);
    let compared: usize = checked.iter().map(|(_, n)| n).sum();
    println!("{compared} explorations compared with the defaults");
    assert!(compared >= 40 * 3 * combinations().len() / 2, "{compared}");
}

/// The benchmark set of relocatable addressing (`tests/data/pointers`):
/// string functions, lists, a parser, sorts, a hash table, Rust's `Vec`
/// and `HashMap`, some with a bug each.
#[test]
fn every_memory_option_finds_the_pointer_programs_outcomes_of_the_defaults() {
    let checked = check_exports(
        &corpus::pointer_programs().unwrap(),
        &corpus::heap_options(),
    );
    let compared: usize = checked.iter().map(|(_, n)| n).sum();
    // A reactor's `_initialize` is no program of the set.
    let entries = checked
        .iter()
        .filter(|(name, n)| name != "_initialize" && *n > 0)
        .count();
    println!("{compared} explorations of {entries} programs compared with the defaults");
    assert!(entries >= 20, "{entries}");
}
