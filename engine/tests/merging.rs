//! Merging contexts on small modules: a loop is watched from its first
//! fork with a side that leaves it, its states wait at its exits until
//! none is left inside (a path that ends inside counts out), and a run
//! whose states go on unmerged explores what a run without merging does;
//! CFG merging of the worked examples of `symbolic_size.md` §5, with the
//! merges the seed reports.

use std::collections::BTreeSet;
use std::time::Duration;
use symplay_engine::exec::{
    explore, replay_traced, Exploration, MergeMode, MergeOptions, Options, ReplayOptions,
};
use symplay_engine::memory::{HeapOptions, SizeMode};
use symplay_engine::report::{InputValue, MergeStats, Report, Status, Synthesis};
use symplay_engine::search::SearchKind;

fn size_example(name: &str) -> symplay_wasm::Module {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/heap/size/");
    let text = std::fs::read_to_string(format!("{dir}{name}.wat")).unwrap();
    symplay_wasm::load(text.as_bytes()).unwrap()
}

/// Depth first under the seed's model (ForkLazy, sizes past the capacity
/// left out), merging as `merge` says.
fn options(capacity: u32, merge: MergeOptions) -> Options {
    Options {
        search: SearchKind::Dfs,
        max_paths: Some(1000),
        heap: HeapOptions {
            size_mode: SizeMode::ForkLazy,
            capacity,
            past_capacity: false,
            ..HeapOptions::default()
        },
        merge,
        ..Options::default()
    }
}

/// States wait at loop exits and go on unmerged.
const WAITING: MergeOptions = MergeOptions {
    mode: MergeMode::Cfg,
    max_states: 1,
    validate: false,
};

/// [`options`] with states waiting at loop exits (`waiting`) or not.
fn run(m: &symplay_wasm::Module, entry: &str, capacity: u32, waiting: bool) -> Report {
    let merge = if waiting {
        WAITING
    } else {
        MergeOptions::default()
    };
    explore(m, entry, &options(capacity, merge)).unwrap()
}

fn endings(r: &Report) -> Vec<String> {
    let mut endings: Vec<String> = (r.paths.iter())
        .map(|p| format!("{} at {}", p.outcome(), p.location.text()))
        .collect();
    endings.sort();
    endings
}

fn stats(contexts: u64, waited: u64, ended_inside: u64) -> Option<MergeStats> {
    Some(MergeStats {
        contexts,
        waited,
        ended_inside,
        merges: 0,
        merged_states: 0,
        unmerged_groups: 0,
        validated: 0,
        violations: 0,
        over_k: 0,
        incremental: 0,
    })
}

/// [`options`] merging as CFG does; every path replays to its outcome.
fn merged(m: &symplay_wasm::Module, entry: &str, capacity: u32) -> Report {
    merged_as(MergeMode::Cfg, m, entry, capacity)
}

/// [`options`] merging as `mode` says; the solver proves every merge
/// right, and every path replays to its outcome.
fn merged_as(mode: MergeMode, m: &symplay_wasm::Module, entry: &str, capacity: u32) -> Report {
    let merge = MergeOptions {
        mode,
        validate: true,
        ..MergeOptions::default()
    };
    let options = options(capacity, merge);
    let r = explore(m, entry, &options).unwrap();
    let merging = r.stats.merging.clone().unwrap();
    assert_eq!(merging.violations, 0, "{:?}", r.warnings);
    assert_eq!(merging.validated, merging.merges);
    for p in &r.paths {
        let heap = options.heap.clone();
        let replay = ReplayOptions {
            heap,
            ..ReplayOptions::default()
        };
        let again = replay_traced(m, entry, &p.inputs, &replay).unwrap().path;
        assert_eq!(
            (again.status, again.location.text()),
            (p.status, p.location.text())
        );
    }
    r
}

#[test]
fn e1_merges_its_five_states_at_the_one_exit_wasm_gives_break_and_loop_end() {
    // symbolic_size.md §5 E1: the paper's C has two exits (the break and
    // the loop test), so two groups; here both branch to one block, so
    // its five leaves merge into one state, and one path returns.
    let m = size_example("e1");
    let r = merged(&m, "e1", 3);
    let merging = r.stats.merging.clone().unwrap();
    assert_eq!((merging.merges, merging.merged_states), (1, 5));
    assert_eq!(r.paths.len(), 1);
    assert_eq!(r.paths[0].status, Status::Returned);
    let node = &r.tree[r.paths[0].node];
    assert_eq!(node.merged_from.len(), 5);
    assert_eq!(
        node.parent,
        Some(0),
        "a child of where the loop was watched"
    );
    for &leaf in &node.merged_from {
        assert_eq!(r.tree[leaf].merged_into, Some(node.id));
        assert!(r.tree[leaf].children.is_empty() && r.tree[leaf].path.is_none());
    }
}

#[test]
fn the_seeds_regression_loops_merge_as_it_reports() {
    // symbolic_size.md §5, the seed's suite: n <= 10, p[i] = 7 with
    // capacity 200 merges 11 states in one group; p[2i] with capacity 4
    // ends n = 2 to 4 inside the loop (overflows) and merges n = 0 and 1.
    let m = size_example("strided");
    let fill = merged(&m, "fill", 200);
    let merging = fill.stats.merging.clone().unwrap();
    assert_eq!((merging.merges, merging.merged_states), (1, 11));
    assert_eq!(fill.paths.len(), 1);
    let strided = merged(&m, "fill_strided", 4);
    let merging = strided.stats.merging.clone().unwrap();
    assert_eq!((merging.merges, merging.merged_states), (1, 2));
    assert_eq!(merging.ended_inside, 2);
    let statuses: Vec<Status> = strided.paths.iter().map(|p| p.status).collect();
    assert_eq!(
        statuses,
        [Status::MemoryError, Status::MemoryError, Status::Returned]
    );
}

#[test]
fn states_that_allocated_differently_go_on_unmerged() {
    // Each round allocates: the states leaving after 0, 1 or 2 rounds
    // hold different objects, so they cannot merge.
    let m = symplay_wasm::load(
        br#"
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (memory 1)
  (func (export "f") (param $n i32) (result i32) (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (drop (call $malloc (i32.const 8)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $i) (i32.const 2)))))
    (local.get $i)))
"#,
    )
    .unwrap();
    let r = merged(&m, "f", 4);
    let merging = r.stats.merging.clone().unwrap();
    assert_eq!(merging.merges, 0);
    assert_eq!(merging.unmerged_groups, 1);
    assert_eq!(r.paths.len(), 3);
}

#[test]
fn the_five_states_of_e1_wait_at_the_loop_exit() {
    // symbolic_size.md §5 E1: the first loop test forks on 0 < n and opens
    // the context; every leaf of its tree (n = 0, the break, 1 to 3
    // iterations) leaves the loop and waits.
    let m = size_example("e1");
    let plain = run(&m, "e1", 3, false);
    let waiting = run(&m, "e1", 3, true);
    assert_eq!(plain.stats.merging, None);
    assert_eq!(waiting.stats.merging, stats(1, 5, 0));
    assert_eq!(endings(&waiting), endings(&plain));
    assert_eq!(waiting.paths.len(), 5);
    assert_eq!(waiting.stats.forks, plain.stats.forks);
}

#[test]
fn a_path_that_ends_inside_the_loop_counts_out_of_its_context() {
    // p[2i] with capacity 4: n = 2 overflows at i = 1 and n = 3 or 4 at
    // i = 2, inside the loop; n = 0 and 1 leave it. The waiting states go
    // on only once the overflows ended, so their paths come last.
    let m = size_example("strided");
    let plain = run(&m, "fill_strided", 4, false);
    let waiting = run(&m, "fill_strided", 4, true);
    assert_eq!(waiting.stats.merging, stats(1, 2, 2));
    assert_eq!(endings(&waiting), endings(&plain));
    let statuses: Vec<Status> = waiting.paths.iter().map(|p| p.status).collect();
    assert_eq!(
        statuses,
        [
            Status::MemoryError,
            Status::MemoryError,
            Status::Returned,
            Status::Returned
        ]
    );
}

/// A callee whose loop over a symbolic bound `n` (at most 4) returns from
/// inside where `x` is found; the caller goes on after the call.
const RETURN_INSIDE: &str = r#"
(module
  (func $find (param $x i32) (param $n i32) (result i32) (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (if (i32.eq (local.get $x) (local.get $i)) (then (return (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $i) (i32.const 4)))))
    (i32.const -1))
  (func (export "f") (param $x i32) (param $n i32) (result i32)
    (i32.add (call $find (local.get $x) (local.get $n)) (i32.const 100))))
"#;

#[test]
fn a_state_that_returns_from_inside_the_loop_waits_in_its_caller() {
    let m = symplay_wasm::load(RETURN_INSIDE.as_bytes()).unwrap();
    let plain = run(&m, "f", 4, false);
    let waiting = run(&m, "f", 4, true);
    // The first test of n opens the context; x = 0 to 3 return from
    // inside the loop, and n = 0 to 4 leave it by its exits: 9 paths.
    assert_eq!(endings(&waiting), endings(&plain));
    assert_eq!(waiting.paths.len(), 9);
    assert_eq!(waiting.stats.merging, stats(1, 9, 0));
}

/// Two nested loops over symbolic bounds: the inner loop's states are in
/// the outer loop's context, which opened first.
const NESTED: &str = r#"
(module
  (func (export "f") (param $n i32) (param $m i32) (result i32)
    (local $i i32) (local $j i32) (local $sum i32)
    (block $outer_done
      (loop $outer
        (br_if $outer_done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $j (i32.const 0))
        (block $inner_done
          (loop $inner
            (br_if $inner_done (i32.ge_u (local.get $j) (local.get $m)))
            (local.set $sum (i32.add (local.get $sum) (i32.const 1)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br_if $inner (i32.lt_u (local.get $j) (i32.const 2)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $outer (i32.lt_u (local.get $i) (i32.const 2)))))
    (local.get $sum)))
"#;

#[test]
fn nested_loops_wait_at_the_exits_of_the_loop_first_watched() {
    let m = symplay_wasm::load(NESTED.as_bytes()).unwrap();
    let plain = run(&m, "f", 4, false);
    let waiting = run(&m, "f", 4, true);
    assert_eq!(endings(&waiting), endings(&plain));
    let merging = waiting.stats.merging.unwrap();
    // One context: the outer loop's first test opens it, and every path
    // leaves the outer loop once.
    assert_eq!(merging.contexts, 1);
    assert_eq!(merging.waited, waiting.paths.len() as u64);
}

#[test]
fn states_waiting_at_an_exit_count_against_the_path_limit() {
    let m = size_example("strided");
    let limited = |waiting| {
        let options = Options {
            search: SearchKind::Dfs,
            max_paths: Some(4),
            merge: if waiting {
                WAITING
            } else {
                MergeOptions::default()
            },
            ..Options::default()
        };
        explore(&m, "fill", &options).unwrap()
    };
    let (plain, waiting) = (limited(false), limited(true));
    assert_eq!(plain.paths.len(), 4);
    assert_eq!(waiting.paths.len(), 4);
    assert_eq!(waiting.stats.pending_states, 0);
}

#[test]
fn every_searcher_releases_the_waiting_states() {
    // Random path walks the tree by its pending counts, from which waiting
    // states are counted out; the others keep runnable states only.
    let m = symplay_wasm::load(NESTED.as_bytes()).unwrap();
    let expected = endings(&run(&m, "f", 4, false));
    for search in SearchKind::ALL {
        for seed in 0..3 {
            let options = Options {
                search,
                seed,
                merge: WAITING,
                ..Options::default()
            };
            let r = explore(&m, "f", &options).unwrap();
            assert_eq!(r.stop_reason, "completed", "{search:?}");
            assert_eq!(endings(&r), expected, "{search:?} seed {seed}");
            assert_eq!(r.stats.merging.unwrap().contexts, 1, "{search:?}");
        }
    }
}

#[test]
fn states_waiting_when_a_limit_stops_the_run_are_left_pending_at_their_leaves() {
    // n = 0 leaves the loop at once and waits; n != 0 runs the loop until
    // the instruction limit stops the run.
    let m = symplay_wasm::load(
        br#"
(module
  (func (export "f") (param $n i32) (result i32) (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $n)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $i) (i32.const 1000000)))))
    (local.get $i)))
"#,
    )
    .unwrap();
    let options = Options {
        max_instructions: Some(2000),
        merge: WAITING,
        ..Options::default()
    };
    let r = explore(&m, "f", &options).unwrap();
    assert_eq!(r.stop_reason, "instruction limit");
    assert!(r.paths.is_empty());
    assert_eq!(r.stats.merging.unwrap().waited, 1);
    assert_eq!(r.stats.pending_states, 2);
    let pending_leaves = (r.tree.iter())
        .filter(|n| n.children.is_empty() && n.pending == 1)
        .count();
    assert_eq!(pending_leaves, 2);
}

/// The readable condition of the node the first path ended at.
fn merged_condition(r: &Report) -> &str {
    let node = &r.tree[r.paths[0].node];
    let formula = node.condition.expect("a merged node has a condition");
    &r.formulas.terms[formula as usize].readable
}

#[test]
fn sm_merges_a_loop_over_a_size_whole_under_the_condition_it_started_with() {
    // E1 under SM: the loop test reads n, the allocation's size; its five
    // states are every state the loop had, so the merged state's
    // condition is the prefix's alone (the seed's complete merge), where
    // CFG adds the disjunction of the five suffixes.
    let m = size_example("e1");
    let sm = merged_as(MergeMode::Sm, &m, "e1", 3);
    assert_eq!(sm.paths.len(), 1);
    assert_eq!(merged_condition(&sm), "true");
    let cfg = merged(&m, "e1", 3);
    assert!(
        merged_condition(&cfg).contains("||"),
        "{}",
        merged_condition(&cfg)
    );
    // fill_strided's overflows end inside the loop: not every state
    // merges, so the disjunction stays.
    let strided = merged_as(MergeMode::Sm, &size_example("strided"), "fill_strided", 4);
    let merging = strided.stats.merging.clone().unwrap();
    assert_eq!((merging.merges, merging.merged_states), (1, 2));
    let returned = (strided.paths.iter())
        .position(|p| p.status == Status::Returned)
        .unwrap();
    let node = &strided.tree[strided.paths[returned].node];
    let readable = &strided.formulas.terms[node.condition.unwrap() as usize].readable;
    assert_ne!(readable, "true");
}

#[test]
fn sm_watches_only_loops_whose_leaving_fork_reads_a_symbolic_size() {
    // The nested loops run over parameters, not sizes: CFG watches the
    // outer one, SM none.
    let m = symplay_wasm::load(NESTED.as_bytes()).unwrap();
    let cfg = merged_as(MergeMode::Cfg, &m, "f", 4);
    let sm = merged_as(MergeMode::Sm, &m, "f", 4);
    assert_eq!(cfg.stats.merging.unwrap().contexts, 1);
    assert_eq!(sm.stats.merging.as_ref().unwrap().contexts, 0);
    assert_eq!(endings(&sm), endings(&run(&m, "f", 4, false)));
}

#[test]
fn smopt_folds_e1s_forks_into_the_seeds_formulas_without_a_query() {
    // SMOpt builds the merged condition over the forks: every side of
    // every fork in E1's loop merged at its one exit, so the condition
    // past the prefix is true with no query (SM asks one), and the merged
    // values are chosen by the fork conditions on n alone.
    let m = size_example("e1");
    let smopt = merged_as(MergeMode::SmOpt, &m, "e1", 3);
    let sm = merged_as(MergeMode::Sm, &m, "e1", 3);
    assert_eq!(merged_condition(&smopt), "true");
    assert_eq!(endings(&smopt), endings(&sm));
    assert_eq!(smopt.stats.forks, sm.stats.forks);
    assert!(
        smopt.stats.queries < sm.stats.queries,
        "{} against {}",
        smopt.stats.queries,
        sm.stats.queries
    );
}

#[test]
fn sm_and_smopt_explore_the_same_paths_and_merge_the_same_states() {
    // symbolic_size.md §3: SMOpt changes the formulas, not the states.
    for (name, entry, capacity) in [
        ("e1", "e1", 3),
        ("strided", "fill", 200),
        ("strided", "fill_strided", 4),
        ("headers", "headers", 6),
    ] {
        let m = size_example(name);
        let sm = merged_as(MergeMode::Sm, &m, entry, capacity);
        let smopt = merged_as(MergeMode::SmOpt, &m, entry, capacity);
        assert_eq!(endings(&smopt), endings(&sm), "{entry}");
        let (a, b) = (sm.stats.merging.unwrap(), smopt.stats.merging.unwrap());
        assert_eq!(
            (a.contexts, a.merges, a.merged_states),
            (b.contexts, b.merges, b.merged_states),
            "{entry}"
        );
    }
}

#[test]
fn a_merged_state_yields_a_test_for_each_value_it_returns() {
    // E1 counting its iterations: the five states merge into one whose i
    // is an ite over them; the returned value splits into the values it
    // can take, a path and a test each, and every test replays to its
    // value, the values of a run without merging.
    let m = size_example("e1");
    let returned = |r: &Report| {
        let mut values: Vec<String> = (r.paths.iter())
            .map(|p| format!("{:?}", p.returns))
            .collect();
        values.sort();
        values.dedup();
        values
    };
    let plain = run(&m, "e1_count", 3, false);
    for mode in [MergeMode::Cfg, MergeMode::Sm, MergeMode::SmOpt] {
        let r = merged_as(mode, &m, "e1_count", 3);
        assert_eq!(r.stats.merging.as_ref().unwrap().merges, 1, "{mode}");
        assert_eq!(returned(&r), returned(&plain), "{mode}");
        // 0 (n = 0 or the break), 1, 2, 3: one path each.
        assert_eq!(r.paths.len(), 4, "{mode}");
        let options = options(3, MergeOptions::default());
        for p in &r.paths {
            let replay = ReplayOptions {
                heap: options.heap.clone(),
                ..ReplayOptions::default()
            };
            let again = replay_traced(&m, "e1_count", &p.inputs, &replay).unwrap();
            assert_eq!(again.path.returns, p.returns, "{mode}");
        }
    }
}

#[test]
fn e2_merges_the_four_states_at_the_loop_test_and_leaves_the_break_apart() {
    // symbolic_size.md §5 E2: five paths under fork-lazy (k = 0 to 3
    // iterations, and the break); with its own exit the break waits in a
    // group of its own, so two states go on under every merge mode. SMOpt's
    // condition is the seed's (n ≤ 0) ∨ (n > 0 ∧ z ≠ 0); CFG's and SM's
    // name each state's suffix, four disjuncts.
    let m = size_example("e1");
    let plain = run(&m, "e2", 3, false);
    assert_eq!((plain.paths.len(), plain.stats.forks), (5, 4));
    for mode in [MergeMode::Cfg, MergeMode::Sm, MergeMode::SmOpt] {
        let r = merged_as(mode, &m, "e2", 3);
        let merging = r.stats.merging.clone().unwrap();
        assert_eq!(
            (
                merging.contexts,
                merging.waited,
                merging.merges,
                merging.merged_states
            ),
            (1, 5, 1, 4),
            "{mode}"
        );
        assert_eq!((r.paths.len(), r.stats.forks), (2, 4), "{mode}");
        let merge = &r.merges[0];
        let condition = &r.formulas.terms[merge.condition as usize].readable;
        let disjunction = &r.formulas.terms[merge.disjunction as usize].readable;
        assert_eq!(
            disjunction.matches("||").count(),
            3,
            "{mode}: {disjunction}"
        );
        match mode {
            MergeMode::SmOpt => {
                assert_eq!(condition, "(n != 0 && z != 0 || n == 0)");
                assert!(merge.condition_size.nodes < merge.disjunction_size.nodes);
            }
            _ => assert_eq!(condition, disjunction, "{mode}"),
        }
        assert!(!merge.whole && merge.validated, "{mode}");
    }
}

#[test]
fn e5s_merged_formulas_grow_with_each_search_and_with_the_capacity() {
    // symbolic_size.md §5 E5: the second search's merges embed the merged
    // state of the first, so its formulas are larger; a wider string makes
    // every one larger. SMOpt's are no larger than SM's, and both return
    // what a run without merging does.
    let m = size_example("e5");
    let size = |r: &Report| -> u64 {
        (r.merges.iter())
            .map(|m| m.condition_size.nodes + m.values_size.nodes)
            .sum()
    };
    let returned = |r: &Report| {
        let mut values: Vec<String> = r.paths.iter().map(|p| format!("{:?}", p.returns)).collect();
        values.sort();
        values.dedup();
        values
    };
    for mode in [MergeMode::Sm, MergeMode::SmOpt] {
        let one = merged_as(mode, &m, "one_call", 4);
        let two = merged_as(mode, &m, "two_calls", 4);
        let wider = merged_as(mode, &m, "two_calls_wider", 4);
        assert_eq!((one.merges.len(), two.merges.len()), (2, 4), "{mode}");
        // The second search's merged conditions against the first's.
        let condition = |r: &Report, k: usize| r.merges[k].condition_size.nodes;
        assert!(condition(&two, 2) > condition(&two, 0), "{mode}");
        assert!(
            size(&two) > size(&one) && size(&wider) > size(&two),
            "{mode}"
        );
        for (r, entry) in [
            (&one, "one_call"),
            (&two, "two_calls"),
            (&wider, "two_calls_wider"),
        ] {
            assert_eq!(
                returned(r),
                returned(&run(&m, entry, 4, false)),
                "{mode} {entry}"
            );
        }
    }
    let sm = merged_as(MergeMode::Sm, &m, "two_calls_wider", 4);
    let smopt = merged_as(MergeMode::SmOpt, &m, "two_calls_wider", 4);
    assert!(
        size(&smopt) < size(&sm),
        "{} against {}",
        size(&smopt),
        size(&sm)
    );
}

/// `returned value (n = value)` of each path, sorted.
fn returns_by_n(r: &Report) -> Vec<String> {
    let mut out: Vec<String> = (r.paths.iter())
        .map(|p| {
            let n = p.inputs.named.iter().find(|i| i.name == "n");
            let n = match n.map(|i| &i.value) {
                Some(InputValue::Int(v)) => v.to_string(),
                other => format!("{other:?}"),
            };
            let returned: Vec<String> = p.returns.iter().map(|v| v.to_string()).collect();
            format!("{} (n = {n})", returned.join(", "))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn e3_and_e4_have_no_loop_so_every_merge_mode_explores_their_paths_alone() {
    // symbolic_size.md §5 E3: q lies past p's capacity whatever n is; E4:
    // the read of p[0] over the write at n - 1 is an ite over that one
    // write (the seed's encoding keeps a store per cell up to the
    // capacity). No loop: no merge mode watches anything.
    let m = size_example("e3");
    for (size_mode, e3_paths, e4_expected) in [
        (
            SizeMode::ForkLazy,
            1,
            &["0 (n = 0)", "1 (n = 2)", "2 (n = 1)"][..],
        ),
        (
            SizeMode::ForkEager,
            4,
            &["0 (n = 0)", "0 (n = 3)", "1 (n = 2)", "2 (n = 1)"][..],
        ),
        (SizeMode::Base, 1, &["0 (n = 3)"][..]),
    ] {
        for mode in MergeMode::ALL {
            let options = Options {
                heap: HeapOptions {
                    size_mode,
                    ..options(3, MergeOptions::default()).heap
                },
                merge: MergeOptions {
                    mode,
                    ..MergeOptions::default()
                },
                ..options(3, MergeOptions::default())
            };
            let what = format!("{size_mode:?}, {mode}");
            let e3 = explore(&m, "e3", &options).unwrap();
            assert_eq!(e3.paths.len(), e3_paths, "{what}");
            let gaps: BTreeSet<String> = e3
                .paths
                .iter()
                .map(|p| format!("{:?}", p.returns))
                .collect();
            assert_eq!(gaps.len(), 1, "{what}: {gaps:?}");
            let e4 = explore(&m, "e4", &options).unwrap();
            let e4_returns: Vec<String> = returns_by_n(&e4);
            let expected: Vec<String> = e4_expected.iter().map(|s| s.to_string()).collect();
            assert_eq!(e4_returns, expected, "{what}");
            for r in [&e3, &e4] {
                assert_eq!(
                    r.stats.merging.as_ref().map_or(0, |s| s.contexts),
                    0,
                    "{what}"
                );
            }
        }
    }
    let lazy = explore(&m, "e4", &options(3, MergeOptions::default())).unwrap();
    let read = (lazy.formulas.terms.iter())
        .find(|f| f.readable.contains("17"))
        .map(|f| f.readable.as_str());
    assert_eq!(read, Some("(n == 1 ? 17 : '\\0') != '\\0'"));
}

#[test]
fn a_fork_whose_third_side_ends_inside_the_loop_folds_nothing_away() {
    // The switch's two sides that go on merge at the loop's exit; its
    // third traps inside the loop. SMOpt's merged condition must keep the
    // switch's sides (the trap's case is not covered), which validation
    // proves; the trap stays a path of its own.
    let m = size_example("three_way");
    let plain = run(&m, "three_way", 2, false);
    for mode in [MergeMode::Cfg, MergeMode::Sm, MergeMode::SmOpt] {
        let r = merged_as(mode, &m, "three_way", 2);
        // (x is any value where n = 0: the merged path returns it as a term.)
        let kinds = |r: &Report| -> BTreeSet<String> {
            (r.paths.iter())
                .map(|p| format!("{:?} at {}", p.status, p.location.text()))
                .collect()
        };
        assert_eq!(kinds(&r), kinds(&plain), "{mode}");
        let traps = |r: &Report| {
            r.paths
                .iter()
                .filter(|p| p.status == Status::Trapped)
                .count()
        };
        assert!(traps(&r) >= 1, "{mode}");
        let merging = r.stats.merging.clone().unwrap();
        assert!(merging.merges >= 1, "{mode}: {merging:?}");
        for merge in &r.merges {
            assert!(!merge.whole, "{mode}: {merge:?}");
        }
    }
}

/// A loop over a symbolic `n` of at most `max` that writes `i + 1` at
/// `1024 + i`: `max + 1` states wait at its exit, differing in up to
/// `max` bytes, and a path for `n > max` returns at once.
fn writes_up_to(max: u32) -> symplay_wasm::Module {
    let text = format!(
        r#"
(module
  (memory 1)
  (func (export "f") (param $n i32) (result i32) (local $i i32)
    (if (i32.gt_u (local.get $n) (i32.const {max})) (then (return (i32.const 0))))
    (block $exit
      (loop $loop
        (br_if $exit (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store8 (i32.add (i32.const 1024) (local.get $i)) (i32.add (local.get $i) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $loop)))
    (i32.load8_u (i32.const 1030))))
"#
    );
    symplay_wasm::load(text.as_bytes()).unwrap()
}

/// CFG, every merge validated.
fn validated_cfg() -> Options {
    Options {
        merge: MergeOptions {
            mode: MergeMode::Cfg,
            validate: true,
            ..MergeOptions::default()
        },
        ..Options::default()
    }
}

/// Leaves of `r`'s tree where a state waits.
fn pending_leaves(r: &Report) -> usize {
    (r.tree.iter())
        .filter(|n| n.children.is_empty() && n.pending == 1)
        .count()
}

#[test]
fn a_merge_runs_in_steps_that_change_nothing_it_finds() {
    let m = writes_up_to(40);
    let options = validated_cfg();
    // Run a step at a time (a slice of a state, or a step of a merge).
    let mut stepped = Exploration::new(&m, "f", &options).unwrap();
    let mut merge_steps = 0;
    while !stepped.advance(Duration::ZERO, &mut |_| true) {
        if stepped.progress().merging > 0 {
            assert_eq!(stepped.progress().merging, 41);
            merge_steps += 1;
        }
    }
    let stepped = stepped.finish();
    // Validation asks a query per state, each in a step of its own.
    assert!(merge_steps > 41, "{merge_steps} steps");
    let at_once = explore(&m, "f", &options).unwrap();
    assert_eq!(stepped.merges, at_once.merges);
    assert_eq!(stepped.stats.merging, at_once.stats.merging);
    let merging = stepped.stats.merging.as_ref().unwrap();
    assert_eq!((merging.merges, merging.merged_states), (1, 41));
    assert_eq!((merging.validated, merging.violations), (1, 0));
    assert_eq!(endings(&stepped), endings(&at_once));
}

#[test]
fn a_stop_in_the_middle_of_a_merge_leaves_its_states_pending_unmerged() {
    let m = writes_up_to(40);
    let options = validated_cfg();
    let mut run = Exploration::new(&m, "f", &options).unwrap();
    while run.progress().merging == 0 {
        assert!(!run.advance(Duration::ZERO, &mut |_| true));
    }
    for _ in 0..10 {
        assert!(!run.advance(Duration::ZERO, &mut |_| true));
    }
    assert_eq!(run.progress().merging, 41);
    // The page's Stop.
    run.cancel();
    let r = run.finish();
    assert_eq!(r.stop_reason, "cancelled");
    assert_eq!(r.stats.merging.as_ref().unwrap().merges, 0);
    assert_eq!(r.paths.len(), 1, "n > 40 returns before the loop");
    assert_eq!(r.stats.pending_states, 41);
    assert_eq!(pending_leaves(&r), 41);

    // The command line's Ctrl-C: the progress callback is asked before
    // each step of the merge too.
    let mut run = Exploration::new(&m, "f", &options).unwrap();
    let mut merge_checks = 0;
    let over = run.advance(Duration::MAX, &mut |p| {
        merge_checks += usize::from(p.merging > 0);
        merge_checks < 10
    });
    assert!(over);
    let r = run.finish();
    assert_eq!(r.stop_reason, "cancelled");
    assert_eq!(r.stats.merging.as_ref().unwrap().merges, 0);
    assert_eq!(r.stats.pending_states, 41);
    assert_eq!(pending_leaves(&r), 41);
}

#[test]
fn get_signs_tree_gives_t1s_conditions_between_nodes() {
    // quantified_merging.md §7 T1: root → x = 0 (a leaf) and n3: x != 0,
    // n3 → n4: x < 0 and n5: x >= 0. A path's condition is its way's
    // edge conditions from the root, so the condition from n3 down to n5
    // is n3's own edge's and n5's (tpc(n3, n5) = x != 0 ∧ x >= 0), and
    // below n3 only n5's (tpc‾(n3, n5) = x >= 0): what an incremental
    // merge assumes of each way below where the two ways parted.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../static/examples/c/get_sign.wasm"
    );
    let m = symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap();
    let r = explore(&m, "get_sign", &Options::default()).unwrap();
    let readable = |f: u32| r.formulas.terms[f as usize].readable.as_str();
    let edge = |v: usize| readable(r.tree[v].condition.unwrap());
    let way = |mut v: usize| {
        let mut nodes = vec![v];
        while let Some(p) = r.tree[v].parent {
            nodes.push(p);
            v = p;
        }
        nodes.reverse();
        nodes
    };
    let root = &r.tree[0];
    assert_eq!(root.children.len(), 2);
    let (leaf, n3) = (root.children[0], root.children[1]);
    assert_eq!((edge(leaf), edge(n3)), ("x == 0", "x != 0"));
    assert!(r.tree[leaf].path.is_some());
    let [n4, n5] = r.tree[n3].children[..] else {
        panic!("n3 has two children: {:?}", r.tree[n3]);
    };
    assert_eq!((edge(n4), edge(n5)), ("x < 0", "x >= 0"));
    for v in [leaf, n4, n5] {
        let p = &r.paths[r.tree[v].path.unwrap()];
        let conditions: Vec<&str> = p.condition.iter().map(|&c| readable(c)).collect();
        let edges: Vec<&str> = way(v)[1..].iter().map(|&u| edge(u)).collect();
        assert_eq!(conditions, edges, "path at node {v}");
    }
    // n5's condition from n3's edge on, and past it.
    let n5s = &r.paths[r.tree[n5].path.unwrap()].condition;
    let depth = way(n3).len() - 1;
    let tpc: Vec<&str> = n5s[depth - 1..].iter().map(|&c| readable(c)).collect();
    assert_eq!(tpc, ["x != 0", "x >= 0"]);
    assert_eq!(tpc[1..], ["x >= 0"]);
}

#[test]
fn memspns_states_fall_into_two_regular_partitions_of_their_words() {
    // quantified_merging.md §2.2: seven states leave memspn's loop; each
    // word is a letter per branch in the loop, the size check of s[count]
    // (one feasible side) included. The first iteration's conditions are
    // simplified to other shapes (n != 0 where later ones read n > c), so
    // the patterns start after it: a unit of three letters (s[count] =
    // 'a', count < n, the size check), then count >= n, or s[count] !=
    // 'a', each for k = 0, 1, 2; the state that never entered the loop
    // (n = 0) is alone.
    let m = size_example("memspn_a");
    let r = merged(&m, "memspn", 3);
    let [merge] = &r.merges[..] else {
        panic!("{:?}", r.merges)
    };
    let patterns = &merge.patterns;
    assert_eq!(patterns.words.len(), 7);
    let [a, b] = &patterns.partitions[..] else {
        panic!("{patterns:?}")
    };
    for p in [a, b] {
        assert_eq!((p.prefix.len(), p.unit.len()), (2, 3), "{p:?}");
        let mut ks: Vec<u32> = p.members.iter().map(|&(_, k)| k).collect();
        ks.sort_unstable();
        assert_eq!(ks, [0, 1, 2]);
        for &(w, k) in &p.members {
            let word = &patterns.words[w];
            assert_eq!(word.len(), 2 + 3 * k as usize + p.suffix.len());
        }
    }
    assert_eq!(
        (a.prefix.clone(), a.unit.clone()),
        (b.prefix.clone(), b.unit.clone())
    );
    assert_ne!(a.suffix, b.suffix);
    let [alone] = patterns.alone[..] else {
        panic!("{patterns:?}")
    };
    assert_eq!(patterns.words[alone].len(), 1);
    let letter = |l: u32| &r.formulas.terms[patterns.letters[l as usize] as usize].readable;
    assert_eq!(letter(patterns.words[alone][0]), "s.len == 0");
    let unit: Vec<&String> = a.unit.iter().map(|&l| letter(l)).collect();
    assert_eq!(unit[0], "s[0] == 'a'", "{unit:?}");
}

#[test]
fn memspns_partitions_have_the_seeds_formula_patterns() {
    // quantified_merging.md T4 and T5 as this engine has them: an
    // iteration's conditions vary in one constant, 0 and 1 at i = 1 and 2
    // (s[i - 1] = 'a': a = 1, b = -1), and the others with it; count is k
    // where the loop ended at s[k] != 'a', and k + 1 where it ended at
    // count >= n after a match (the prefix's iteration counted once more).
    let m = size_example("memspn_a");
    let r = merged(&m, "memspn", 3);
    let patterns = &r.merges[0].patterns;
    let readable = |f: u32| r.formulas.terms[f as usize].readable.clone();
    let mut counts = Vec::new();
    for p in &patterns.partitions {
        let Synthesis::Pattern(fp) = &p.synthesis else {
            panic!("{:?}", p.synthesis)
        };
        let x = &fp.variable;
        let index = (fp.repeated_holes.iter())
            .find(|h| h.width == 32 && h.values == [0, 1])
            .expect("s[i - 1]'s index");
        assert_eq!(
            (index.at.clone(), index.formula(x)),
            (vec![1, 2], format!("{x} - 1"))
        );
        assert!(readable(fp.repeated).contains(&format!("s[{x} - 1] == 'a'")));
        // Every hole's fit gives its constants at every x.
        for h in fp.repeated_holes.iter().chain(&fp.last_holes) {
            let mask = u64::MAX >> (64 - h.width);
            for (&at, &value) in h.at.iter().zip(&h.values) {
                let fitted = h.a.wrapping_mul(u64::from(at)).wrapping_add(h.b) & mask;
                assert_eq!(fitted, value, "{h:?}");
            }
        }
        let [count] = &fp.values[..] else {
            panic!("{:?}", fp.values)
        };
        assert_eq!(count.place, "local 2 of frame 0");
        let term = readable(count.term.expect("count as a term of k"));
        counts.push((
            readable(fp.last).replace(x.as_str(), "k"),
            term.replace(x.as_str(), "k"),
        ));
    }
    counts.sort();
    assert_eq!(
        counts,
        [
            ("(s[k] == 'a' && s.len <=u k + 1)".into(), "k + 1".into()),
            ("s[k] != 'a'".into(), "k".into())
        ]
    );
}

#[test]
fn pat_merges_each_of_memspns_partitions_over_a_k() {
    // quantified_merging.md T5 and T6 as Wasm has them. The loop is
    // rotated (its size check comes first), so a unit is an iteration
    // that matched 'a' and went on, and a state's k counts those; the
    // state that left at s[k] != 'a' returns count = k (T5), the one
    // that ran out of bytes after a match count = k + 1 (T6's count = k,
    // its last match being in its suffix here). Each partition merges
    // into one state whose condition bounds k by 2 and says an
    // iteration's conditions once, under a forall; the state that never
    // entered the loop goes on alone. Validation (T7) proves both. A
    // merged count, a term of k, splits into a path per value, as an ite
    // does: every count has its test, as without merging.
    let m = size_example("memspn_a");
    let plain = run(&m, "memspn", 3, false);
    let r = merged_as(MergeMode::Pat, &m, "memspn", 3);
    let stats = r.stats.merging.clone().unwrap();
    assert_eq!((stats.merges, stats.merged_states, stats.over_k), (2, 6, 2));
    assert_eq!(endings(&r), endings(&plain));
    let readable = |f: u32| r.formulas.terms[f as usize].readable.clone();
    let mut counts = Vec::new();
    for merge in &r.merges {
        assert_eq!(merge.mode, MergeMode::Pat);
        let k = merge.k.clone().expect("a merge over a k");
        let condition = readable(merge.condition);
        assert!(condition.contains(&format!("{k} <=u 2")), "{condition}");
        assert!(
            condition.contains(&format!("∀i ∈ [1, {k}]: (s[i - 1] == 'a'")),
            "{condition}"
        );
        // One formula for the three states, no disjunction; theirs has two.
        assert_eq!(
            (merge.condition_size.ors, merge.disjunction_size.ors),
            (0, 2)
        );
        let [p] = &merge.patterns.partitions[..] else {
            panic!("{:?}", merge.patterns)
        };
        let mut ks: Vec<u32> = p.members.iter().map(|&(_, k)| k).collect();
        ks.sort_unstable();
        assert_eq!(ks, [0, 1, 2]);
        let Synthesis::Pattern(fp) = &p.synthesis else {
            panic!("{:?}", p.synthesis)
        };
        assert_eq!(fp.variable, k);
        let [count] = &fp.values[..] else {
            panic!("{:?}", fp.values)
        };
        // The merged state's paths: a count each, from models of the
        // quantified condition, each replaying to its count.
        let below: Vec<_> = (r.paths.iter())
            .filter(|p| r.tree[p.node].parent == Some(merge.node))
            .collect();
        let mut returned: Vec<String> = below.iter().map(|p| format!("{:?}", p.returns)).collect();
        returned.sort();
        counts.push((readable(count.term.unwrap()).replace(&k, "k"), returned));
        for path in below {
            let again = replay_traced(&m, "memspn", &path.inputs, &ReplayOptions::default())
                .unwrap()
                .path;
            assert_eq!(again.returns, path.returns);
        }
    }
    counts.sort();
    let values = |v: [i32; 3]| v.map(|n| format!("[Int({n})]")).to_vec();
    assert_eq!(
        counts,
        [
            ("k".to_string(), values([0, 1, 2])),
            ("k + 1".to_string(), values([1, 2, 3]))
        ]
    );
}

#[test]
fn pat_merges_nest_the_second_strchr_over_the_firsts_k() {
    // quantified_merging.md §3.4 (T8): the first call's matches merge
    // into one state returning k1 (an operand, at the call's return); the
    // second call runs once from k1 + 1, its conditions reading s[i + k1],
    // and its matches merge over k2 into one state returning k1 + k2 + 1.
    let m = size_example("strchr2");
    let plain = run(&m, "strchr2", 4, false);
    let r = merged_as(MergeMode::Pat, &m, "strchr2", 4);
    let set = |r: &Report| -> BTreeSet<String> {
        (r.paths.iter())
            .map(|p| format!("{:?} at {}", p.status, p.location.text()))
            .collect()
    };
    assert_eq!(set(&r), set(&plain));
    assert!(r.paths.len() < plain.paths.len());
    let readable = |f: u32| r.formulas.terms[f as usize].readable.clone();
    // Each merge over a k, with the term of k its operand 0 became.
    let returned: Vec<(String, String, String)> = (r.merges.iter())
        .filter_map(|merge| {
            let k = merge.k.clone()?;
            let Synthesis::Pattern(fp) = &merge.patterns.partitions[0].synthesis else {
                panic!("{:?}", merge.patterns)
            };
            let operand = fp.values.iter().find(|v| v.place == "operand 0")?;
            Some((k, readable(operand.term?), readable(merge.condition)))
        })
        .collect();
    let [(k1, first, _), (k2, second, condition)] = &returned[..] else {
        panic!("{returned:?}")
    };
    assert_eq!(first, k1);
    assert_eq!(second, &format!("({k2} + 1) + {k1}"));
    assert!(condition.contains(&format!("{k2} <=u 2")), "{condition}");
    assert!(
        condition.contains(&format!("∀i ∈ [1, {k2}]: ")),
        "{condition}"
    );
    assert!(
        condition.contains(&format!("s[i + {k1}] != 'a'")),
        "{condition}"
    );
}

#[test]
fn pat_merges_a_rotated_loops_two_ways_where_the_matchs_block_starts() {
    // memspn over "ab" with its loop rotated: the states meet at the start
    // of the match's block (a fork's side), not at the head. Every
    // searcher merges each iteration's two ways there, the paths are
    // those of a run without merging, and each replays.
    let m = size_example("memspn_ab_rotated");
    let plain = run(&m, "memspn", 3, false);
    let returns = |r: &Report| -> BTreeSet<String> {
        r.paths.iter().map(|p| format!("{:?}", p.returns)).collect()
    };
    for search in [SearchKind::Dfs, SearchKind::Bfs, SearchKind::default()] {
        let r = explore(&m, "memspn", &pat_options(search)).unwrap();
        assert_eq!(returns(&r), returns(&plain), "{search:?}");
        let stats = r.stats.merging.clone().unwrap();
        assert_eq!((stats.violations, stats.validated), (0, stats.merges));
        assert!(stats.incremental >= 3, "{search:?}: {stats:?}");
        for merge in r.merges.iter().filter(|m| m.incremental) {
            // Not the loop's head: where the match's block starts.
            let point = merge.point.clone().unwrap();
            assert_ne!(point, merge.loop_at);
            assert_eq!(point.function, "memspn");
        }
        for p in &r.paths {
            let replay = ReplayOptions {
                heap: pat_options(search).heap,
                ..ReplayOptions::default()
            };
            let again = replay_traced(&m, "memspn", &p.inputs, &replay).unwrap();
            assert_eq!(again.path.returns, p.returns);
        }
    }
}

/// [`options`] under PAT, merges validated, searching as `search` says.
fn pat_options(search: SearchKind) -> Options {
    let merge = MergeOptions {
        mode: MergeMode::Pat,
        validate: true,
        ..MergeOptions::default()
    };
    Options {
        search,
        ..options(3, merge)
    }
}

#[test]
fn pat_merges_memspn_over_ab_incrementally_into_memspn_over_as_partitions() {
    // quantified_merging.md §5 (T9): over "ab" each iteration comes back
    // to the loop's head with count + 1 two ways, s[c] = 'a', or s[c] !=
    // 'a' then s[c] = 'b'; the second to come merges with the first
    // below the fork on s[c] = 'a', one edge whose condition is the
    // disjunction of the two ways, its states the snapshot's subtree
    // superseded. Then the exit's states fall into two regular
    // partitions, as over "a" (T3), each merged over its k: count = k + 1
    // after a match and count = k after a byte that is neither. Every
    // searcher merges so, the paths are those of a run without merging,
    // and each replays.
    let m = size_example("memspn_ab");
    let plain = run(&m, "memspn", 3, false);
    for search in [SearchKind::Dfs, SearchKind::Bfs, SearchKind::default()] {
        let options = pat_options(search);
        let r = explore(&m, "memspn", &options).unwrap();
        let returns = |r: &Report| -> BTreeSet<String> {
            r.paths.iter().map(|p| format!("{:?}", p.returns)).collect()
        };
        assert_eq!(returns(&r), returns(&plain), "{search:?}");
        for p in &r.paths {
            let replay = ReplayOptions {
                heap: options.heap.clone(),
                ..ReplayOptions::default()
            };
            let again = replay_traced(&m, "memspn", &p.inputs, &replay).unwrap();
            assert_eq!(again.path.returns, p.returns);
        }
        let stats = r.stats.merging.clone().unwrap();
        assert!(stats.incremental >= 3, "{search:?}: {stats:?}");
        assert_eq!(stats.over_k, 2, "{search:?}");
        let readable = |f: u32| r.formulas.terms[f as usize].readable.clone();
        for merge in r.merges.iter().filter(|m| m.incremental) {
            // Two states, one below the fork where their ways parted.
            let node = &r.tree[merge.node];
            assert_eq!(node.parent, Some(merge.root));
            assert_eq!(node.merged_from.len(), 2);
            let parent = |v: usize| r.tree[v].parent.unwrap();
            assert!(node.merged_from.iter().any(|&v| parent(v) == merge.root));
            let c = readable(merge.condition);
            let i = &c[3..4];
            assert_eq!(
                c,
                format!("(s[{i}] == 'a' || s[{i}] != 'a' && s[{i}] == 'b')"),
            );
            // Nothing below the snapshot's node is explored any more.
            for &v in &node.merged_from {
                let mut below = r.tree[v].children.clone();
                while let Some(u) = below.pop() {
                    assert!(r.tree[u].superseded && r.tree[u].path.is_none());
                    below.extend(&r.tree[u].children);
                }
            }
        }
        // The first iteration's merge, below the first fork on s[0].
        let first = r
            .merges
            .iter()
            .find(|m| m.incremental && readable(m.condition).contains("s[0]"));
        assert!(first.is_some(), "{search:?}");
        let mut counts: Vec<(String, Vec<u32>)> = (r.merges.iter())
            .filter_map(|merge| {
                let k = merge.k.clone()?;
                let p = &merge.patterns.partitions[0];
                let Synthesis::Pattern(fp) = &p.synthesis else {
                    panic!("{:?}", p.synthesis)
                };
                let mut ks: Vec<u32> = p.members.iter().map(|&(_, k)| k).collect();
                ks.sort_unstable();
                let count = fp.values.iter().find(|v| v.place.starts_with("local"))?;
                Some((readable(count.term?).replace(&k, "k"), ks))
            })
            .collect();
        counts.sort();
        assert_eq!(
            counts,
            [("k".into(), vec![1, 2]), ("k + 1".into(), vec![0, 1, 2])],
            "{search:?}"
        );
    }
}
