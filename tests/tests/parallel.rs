//! Parallel exploration: a waiting state handed to another exploration,
//! which follows its test down to it and explores the subtree below, and
//! the parts' reports joined, hold the paths of one whole run, numbered
//! alike; so do the jobs of `explore_parallel` on threads. Every example
//! is explored in parts (a state handed over after every slice) and
//! checked against one run; `replay_vs_wasmi` replays their tests.

use symplay_engine::exec::{explore, explore_parallel, Options};
use symplay_engine::memory::{HeapOptions, SizeMode};
use symplay_engine::report::join::join;
use symplay_engine::report::BufferArg;
use symplay_engine::search::SearchKind;
use symplay_tests::corpus::{bits_wat, examples_and_pointer_programs, integer_entries, STRLEN_WAT};
use symplay_tests::parts::{explored_in_parts, parts_of, paths_differ};

/// One fork per byte of a symbolic buffer compared with a key.
const KEY_PREFIX: &str = include_str!("../data/wat/key_prefix.wat");

#[test]
fn subtrees_handed_over_give_the_paths_of_one_run() {
    for (wat, every) in [
        (bits_wat(6), 1),
        (bits_wat(6), 3),
        (KEY_PREFIX.to_string(), 2),
    ] {
        let module = symplay_wasm::load(wat.as_bytes()).unwrap();
        for search in [SearchKind::Dfs, SearchKind::Bfs, SearchKind::RandomPath] {
            let options = Options {
                search,
                ..Options::default()
            };
            let whole = explore(&module, "f", &options).unwrap();
            let (joined, handed) = explored_in_parts(&module, "f", &options, every).unwrap();
            assert!(handed > 1, "{search:?}: {handed} states handed over");
            assert_eq!(joined.stop_reason, "completed");
            assert!(joined.tree.iter().all(|n| !n.handed_over));
            assert_eq!(joined.stats.pending_states, 0);
            assert_eq!(joined.coverage, whole.coverage);
            if let Some(why) = paths_differ(&joined, &whole) {
                panic!("{search:?}, a state handed over every {every} slices: {why}");
            }
        }
    }
}

/// A buffer of symbolic length under fork-eager sizes: the start forks
/// over the lengths, so the states handed over first are start states.
#[test]
fn start_states_handed_over_give_the_paths_of_one_run() {
    let module = symplay_wasm::load(STRLEN_WAT.as_bytes()).unwrap();
    let options = Options {
        buffer_args: vec![BufferArg {
            param: 0,
            capacity: 6,
            length_param: None,
        }],
        heap: HeapOptions {
            size_mode: SizeMode::ForkEager,
            ..HeapOptions::default()
        },
        ..Options::default()
    };
    let whole = explore(&module, "f", &options).unwrap();
    assert!(
        whole.tree[0].children.len() > 2,
        "the start forks over lengths"
    );
    let (joined, handed) = explored_in_parts(&module, "f", &options, 1).unwrap();
    assert!(handed > 2, "{handed} states handed over");
    assert_eq!(joined.stop_reason, "completed");
    assert!(joined.warnings.is_empty(), "{:?}", joined.warnings);
    if let Some(why) = paths_differ(&joined, &whole) {
        panic!("start states handed over: {why}");
    }
}

/// Without the whole run's part, the parts below it still join: the
/// nodes on their way that no part holds stand as bare places, and the
/// paths are those of the parts there are.
#[test]
fn parts_join_without_the_part_above_them() {
    let module = symplay_wasm::load(bits_wat(5).as_bytes()).unwrap();
    let (mut parts, handed) = parts_of(&module, "f", &Options::default(), 1).unwrap();
    assert!(handed > 1);
    let root = parts.remove(0);
    let found: usize = parts.iter().map(|p| p.report.paths.len()).sum();
    let joined = join(&parts);
    assert_eq!(joined.paths.len(), found);
    assert!(found < 32 && found + root.report.paths.len() == 32);
    assert!(joined.tree[0].fork.is_none(), "no part holds the root");
    assert_eq!(joined.stats.pending_states, 0);
}

#[test]
fn two_jobs_on_threads_give_the_paths_of_one() {
    let module = symplay_wasm::load(bits_wat(9).as_bytes()).unwrap();
    let options = Options::default();
    let one = explore(&module, "f", &options).unwrap();
    let two = explore_parallel(&module, "f", &options, 2, &mut |_| true).unwrap();
    assert_eq!(two.stop_reason, "completed");
    assert_eq!(two.paths.len(), 512);
    if let Some(why) = paths_differ(&two, &one) {
        panic!("two jobs: {why}");
    }
}

#[test]
fn a_path_limit_holds_over_every_job() {
    let module = symplay_wasm::load(bits_wat(10).as_bytes()).unwrap();
    let options = Options {
        max_paths: Some(100),
        ..Options::default()
    };
    let two = explore_parallel(&module, "f", &options, 2, &mut |_| true).unwrap();
    assert_eq!(two.stop_reason, "path limit");
    assert!(
        (100..=110).contains(&two.paths.len()),
        "{} paths under a limit of 100",
        two.paths.len()
    );
    assert!(two.stats.pending_states > 0);
}

#[test]
fn a_stop_ends_every_job_with_what_they_found() {
    let module = symplay_wasm::load(bits_wat(14).as_bytes()).unwrap();
    let mut calls = 0;
    let report = explore_parallel(&module, "f", &Options::default(), 2, &mut |p| {
        calls += 1;
        p.paths < 200
    })
    .unwrap();
    assert_eq!(report.stop_reason, "cancelled");
    assert!(calls > 0);
    assert!(report.paths.len() >= 200 && report.paths.len() < 16384);
    assert_eq!(
        report.tree[0].pending as u64, report.stats.pending_states,
        "the states left are pending in the tree"
    );
    assert!(report.stats.pending_states > 0);
}

/// Every C example's and pointer program's entries, explored in parts with
/// a state handed over after every slice, give one run's paths.
#[test]
fn every_example_explored_in_parts_gives_one_runs_paths() {
    let modules = examples_and_pointer_programs().unwrap();
    let (mut compared, mut handed_in_all) = (0, 0);
    for (name, wasm) in &modules {
        let module = symplay_wasm::load(wasm).unwrap();
        for entry in integer_entries(&module) {
            let options = Options::default();
            let whole = explore(&module, &entry, &options).unwrap();
            let (joined, handed) = explored_in_parts(&module, &entry, &options, 1).unwrap();
            assert_eq!(joined.stop_reason, whole.stop_reason, "{name} {entry}");
            handed_in_all += handed;
            // Values made concrete come from models, which differ.
            if whole.concretised.is_empty() {
                if let Some(why) = paths_differ(&joined, &whole) {
                    panic!("{name} {entry}: {why}");
                }
                compared += 1;
            }
        }
    }
    assert!(compared >= 20, "only {compared} entries compared");
    assert!(
        handed_in_all >= 50,
        "only {handed_in_all} states handed over"
    );
}
