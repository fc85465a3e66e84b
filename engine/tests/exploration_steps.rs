//! An exploration run in steps (as the browser's worker runs it) gives the
//! same report as one run, shows partial results while it runs, and keeps
//! them when cancelled; its time limit and interrupt hold inside a solver
//! query too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use symplay_engine::exec::{explore, Exploration, Options};
use symplay_engine::report::Report;
use symplay_engine::search::SearchKind;
use symplay_engine::solver::Interrupt;

/// One fork per byte of an 8-byte symbolic buffer compared with a key: many
/// paths, each ending after a different prefix matches.
const PROGRAM: &str = include_str!("../../tests/data/wat/key_prefix.wat");

fn without_timing(mut r: Report) -> Report {
    r.stats.timing = Default::default();
    r
}

#[test]
fn small_steps_give_the_same_report_as_one_run() {
    let module = symplay_wasm::load(PROGRAM.as_bytes()).unwrap();
    for search in [SearchKind::Dfs, SearchKind::Bfs, SearchKind::RandomPath] {
        let options = Options {
            search,
            seed: 7,
            ..Options::default()
        };
        let whole = explore(&module, "f", &options).unwrap();
        assert_eq!(whole.paths.len(), 9);
        let mut stepped = Exploration::new(&module, "f", &options).unwrap();
        let mut steps = 0;
        while !stepped.advance(Duration::ZERO, &mut |_| true) {
            steps += 1;
            assert_eq!(stepped.snapshot().stop_reason, "running");
        }
        assert!(steps > 1, "{search:?} ran in one step");
        assert_eq!(
            without_timing(stepped.finish()),
            without_timing(whole),
            "{search:?}"
        );
    }
}

#[test]
fn snapshots_grow_and_a_cancelled_run_keeps_its_paths() {
    let module = symplay_wasm::load(PROGRAM.as_bytes()).unwrap();
    let mut exploration = Exploration::new(module, "f", &Options::default()).unwrap();
    let mut seen = Vec::new();
    while seen.last().is_none_or(|&n| n < 3) {
        assert!(!exploration.advance(Duration::ZERO, &mut |_| true));
        let snapshot = exploration.snapshot();
        assert_eq!(snapshot.paths.len(), exploration.progress().paths);
        seen.push(snapshot.paths.len());
    }
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    exploration.cancel();
    assert!(exploration.is_finished());
    assert!(exploration.advance(Duration::MAX, &mut |_| true));
    let report = exploration.finish();
    assert_eq!(report.stop_reason, "cancelled");
    assert_eq!(report.paths.len(), *seen.last().unwrap());
    assert!(report.stats.pending_states > 0);
}

#[test]
fn a_progress_hook_that_says_stop_cancels() {
    let module = symplay_wasm::load(PROGRAM.as_bytes()).unwrap();
    let mut exploration = Exploration::new(&module, "f", &Options::default()).unwrap();
    let mut calls = 0;
    let done = exploration.advance(Duration::MAX, &mut |p| {
        calls += 1;
        p.paths < 2
    });
    assert!(done);
    let report = exploration.finish();
    assert_eq!(report.stop_reason, "cancelled");
    assert_eq!(report.paths.len(), 2);
    assert!(calls >= 3);
}

/// One solver query of minutes (`tests/data/factor.wat`).
const FACTOR: &str = include_str!("../../tests/data/factor.wat");

/// Explores FACTOR; a bound far above the time it should take tells a run
/// that ignores its limit from a slow machine.
/// Every node's pending count is the states waiting at it plus its
/// children's counts; `at(v)` gives those waiting at `v` itself.
fn assert_pending_adds_up(report: &Report) {
    for node in &report.tree {
        let below: u32 = node.children.iter().map(|&c| report.tree[c].pending).sum();
        assert!(node.pending >= below, "node {}: {node:?}", node.id);
        assert!(node.pending - below <= 1, "node {}: {node:?}", node.id);
    }
}

#[test]
fn the_tree_counts_pending_states_and_reads_its_conditions() {
    let module = symplay_wasm::load(PROGRAM.as_bytes()).unwrap();
    let mut exploration = Exploration::new(&module, "f", &Options::default()).unwrap();
    // Mid-run: the root counts every state not yet run.
    while exploration.snapshot().tree.len() < 6 {
        assert!(!exploration.advance(Duration::ZERO, &mut |_| true));
    }
    let mid = exploration.snapshot();
    assert_eq!(
        u64::from(mid.tree[0].pending),
        mid.stats.pending_states,
        "{:?}",
        mid.tree
    );
    assert!(mid.tree[0].pending > 0);
    assert_pending_adds_up(&mid);
    while !exploration.advance(Duration::from_secs(1), &mut |_| true) {}
    let done = exploration.finish();
    assert_eq!(done.stop_reason, "completed");
    assert!(done.tree.iter().all(|n| n.pending == 0));
    // Conditions are printed from the terms: SMT-LIB, and readable with its
    // declarations; the page shows both and parses neither.
    for v in 1..done.tree.len() {
        let formula = done.branch_condition(v).unwrap();
        let (smtlib, readable) = (&formula.smtlib, &formula.readable);
        assert!(smtlib.starts_with('('), "{smtlib}");
        assert!(
            !readable.contains("bv") && !readable.contains("#x"),
            "{readable}"
        );
        assert!(readable.contains("key["), "{readable}");
        // The input buffer `key` is one array symbol.
        let declarations = done
            .formulas
            .declarations_of(&[done.tree[v].condition.unwrap()]);
        assert_eq!(
            declarations,
            ["(declare-fun key () (Array (_ BitVec 32) (_ BitVec 8)))"]
        );
    }
    for path in &done.paths {
        let script = done.path_condition(path);
        let readable = done.path_condition_readable(path);
        let leaf_conditions: Vec<&str> = script.matches("(assert").collect();
        let conjuncts = readable.split(" && ").count();
        assert_eq!(conjuncts, leaf_conditions.len().max(1), "{readable}");
        // The leaf's branch condition is the path's last formula.
        let leaf = &done.tree[path.node];
        assert_eq!(leaf.condition.as_ref(), path.condition.last(), "{readable}");
    }
}

fn explore_factor(options: Options) -> Report {
    let module = symplay_wasm::load(FACTOR.as_bytes()).unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        send.send(explore(&module, "factor", &options)).ok();
    });
    receive
        .recv_timeout(Duration::from_secs(60))
        .expect("the run did not stop")
        .unwrap()
}

/// Nothing is reported, dropped or forked: the state is left unexplored.
fn assert_left_unexplored(report: &Report) {
    assert!(report.stats.solver_unknown >= 1);
    assert!(report.paths.is_empty(), "{:?}", report.paths);
    assert_eq!(report.stats.dropped_paths, 0);
    assert_eq!(report.stats.pending_states, 1);
    assert_eq!(report.tree.len(), 1);
    assert!(!report.tree[0].dropped);
}

#[test]
fn an_interrupt_cuts_off_a_hard_query_and_the_run_is_cancelled() {
    static STOP: AtomicBool = AtomicBool::new(false);
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(300));
        STOP.store(true, Ordering::Relaxed);
    });
    let report = explore_factor(Options {
        interrupt: Some(Interrupt(&STOP)),
        ..Options::default()
    });
    assert_eq!(report.stop_reason, "cancelled");
    assert_left_unexplored(&report);
}

#[test]
fn the_time_limit_cuts_off_a_hard_query_and_leaves_its_state_unexplored() {
    let report = explore_factor(Options {
        max_time: Some(Duration::from_millis(300)),
        ..Options::default()
    });
    assert_eq!(report.stop_reason, "time limit");
    assert_left_unexplored(&report);
}
