//! Small WAT modules exercising forks, traps, symbolic memory, the
//! symbolic-input API, limits and determinism.

use symplay_engine::exec::{explore, replay, replay_traced, Options, ReplayOptions};
use symplay_engine::report::{DropCause, Number, Report, Status, Timing, Trap};
use symplay_engine::search::SearchKind;

fn run(wat: &str, entry: &str, options: &Options) -> Report {
    let module = symplay_wasm::load(wat.as_bytes()).unwrap();
    let report = explore(&module, entry, options).unwrap();
    // A path stopped by the depth limit has no outcome to compare.
    for p in report.paths.iter().filter(|p| p.status != Status::Limit) {
        let again = replay(&module, entry, &p.inputs).unwrap();
        assert_eq!(
            (again.status, again.trap, &again.returns),
            (p.status, p.trap, &p.returns)
        );
    }
    report
}

const BR_TABLE: &str = include_str!("../../tests/data/wat/br_table.wat");

#[test]
fn br_table_forks_once_per_distinct_target() {
    let r = run(BR_TABLE, "f", &Options::default());
    let mut returns: Vec<_> = r.paths.iter().map(|p| format!("{:?}", p.returns)).collect();
    returns.sort();
    assert_eq!(returns.len(), 3, "{returns:?}");
    assert_eq!(r.tree[0].children.len(), 3);
}

const LOAD: &str = include_str!("../../tests/data/wat/symbolic_load.wat");

#[test]
fn symbolic_address_reads_the_data_segment() {
    let r = run(LOAD, "byte_is", &Options::default());
    let failed: Vec<_> = r
        .paths
        .iter()
        .filter(|p| p.status == Status::AssertFailed)
        .collect();
    assert_eq!(failed.len(), 1);
    let args = &failed[0].inputs.args;
    let data = [0, 1, 2, 0];
    assert_eq!(data[(args[0] & 3) as usize], args[1]);
    assert!(r.paths.iter().all(|p| p.trap.is_none()));
}

const ASSUME: &str = include_str!("../../tests/data/wat/assume_assert.wat");

#[test]
fn assume_limits_what_assert_can_find() {
    let r = run(ASSUME, "f", &Options::default());
    let failed: Vec<_> = r
        .paths
        .iter()
        .filter(|p| p.status == Status::AssertFailed)
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(
        failed[0].inputs.get("x"),
        Some(&symplay_engine::report::InputValue::Int(99))
    );
    let ok = r
        .paths
        .iter()
        .find(|p| p.status == Status::Returned)
        .unwrap();
    assert!(
        ok.inputs.get("x#2").is_some(),
        "repeated names get a suffix"
    );
}

/// An entry's parameters are inputs named as the module names them (`$n`),
/// else `arg{i}`: the conditions read `n < 0`, every path replays from its
/// positional `args`, and an input made later under a parameter's name is
/// renamed `n#2`.
#[test]
fn parameters_are_inputs_named_as_the_module_names_them() {
    let wat = r#"(module
      (import "symplay" "symbolic_i32" (func $sym (param i32) (result i32)))
      (memory 1) (data (i32.const 0) "n\00")
      (func (export "f") (param $n i32) (param i32) (result i32)
        (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (i32.const -1))))
        (i32.add (local.get 1) (call $sym (i32.const 0)))))"#;
    let r = run(wat, "f", &Options::default());
    assert_eq!(r.params, ["n", "arg1"]);
    let mut branches: Vec<_> = (0..r.tree.len())
        .filter_map(|v| r.branch_condition(v).map(|f| f.readable.clone()))
        .collect();
    branches.sort();
    assert_eq!(branches, ["n < 0", "n >= 0"]);
    let negative = r
        .paths
        .iter()
        .find(|p| p.returns == [Number::Int(-1)])
        .unwrap();
    assert_eq!(r.path_condition_readable(negative), "n < 0");
    let script = r.path_condition(negative);
    assert!(
        script.contains("(declare-fun n () (_ BitVec 32))"),
        "{script}"
    );
    let sum = r.paths.iter().find(|p| p.id != negative.id).unwrap();
    let named: Vec<&str> = sum.inputs.named.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(named, ["n#2"]);
}

const TWO_ASSUMPTIONS: &str = include_str!("../../tests/data/wat/two_assumptions.wat");

#[test]
fn dropped_paths_are_counted_by_the_assumption_that_dropped_them() {
    let r = run(TWO_ASSUMPTIONS, "g", &Options::default());
    assert_eq!(r.paths.len(), 1);
    let x = r.paths[0].inputs.args[0];
    assert!(x <= 10 && x != 7 && x >= 0, "{x}");
    // One symbolic assumption that cannot hold after its branch, one
    // constant false: each site counted once, with its own location.
    assert_eq!(r.stats.dropped_paths, 2);
    let mut sites: Vec<_> = r
        .drops
        .iter()
        .map(|d| {
            (
                d.cause,
                d.paths,
                d.location.function.clone(),
                d.location.offset,
            )
        })
        .collect();
    sites.sort_by_key(|s| s.3);
    assert_eq!(sites.len(), 2, "{sites:?}");
    assert!(sites
        .iter()
        .all(|s| (s.0, s.1, s.2.as_str()) == (DropCause::Assumption, 1, "g")));
    assert_ne!(sites[0].3, sites[1].3);
    assert_eq!(r.tree.iter().filter(|n| n.dropped).count(), 2);
    assert!(r
        .drops_summary()
        .unwrap()
        .starts_with("2 paths dropped: 1 by the assumption at g+0x"));
    // Nothing dropped, nothing said.
    assert_eq!(
        run(BR_TABLE, "f", &Options::default()).drops_summary(),
        None
    );
}

const FLOAT_PARAMETER: &str = include_str!("../../tests/data/wat/float_parameter.wat");

#[test]
fn a_run_that_made_values_concrete_says_it_is_not_complete() {
    // A float parameter is fixed to zero: the other side of the branch on
    // it is never explored, though the run "completes".
    let r = run(FLOAT_PARAMETER, "half", &Options::default());
    assert_eq!((r.stop_reason.as_str(), r.paths.len()), ("completed", 1));
    let [site] = &r.concretised[..] else {
        panic!("{:?}", r.concretised);
    };
    assert_eq!(
        (
            site.what.as_str(),
            site.location.function.as_str(),
            site.paths
        ),
        ("the float parameter arg0", "half", 1)
    );
    assert_eq!(
        r.paths[0].notes,
        ["concretised the float parameter arg0 to 0: floats are not symbolic"]
    );
    let summary = r.concretised_summary().unwrap();
    assert!(
        summary.starts_with(
            "not every path was explored: values were made concrete (the float parameter arg0 at half+0x"
        ) && summary.ends_with(", on 1 path)"),
        "{summary}"
    );
    // A symbolic integer made concrete for a float operation: counted once
    // per path, however often the path passes there.
    let r = run(FLOAT_PARAMETER, "scaled", &Options::default());
    assert_eq!(r.concretised.len(), 1);
    assert_eq!(r.concretised[0].what, "a float operand");
    // Nothing concretised, nothing said.
    assert_eq!(
        run(BR_TABLE, "f", &Options::default()).concretised_summary(),
        None
    );
}

const LOOP_THEN_BUG: &str = include_str!("../../tests/data/wat/loop_then_bug.wat");

#[test]
fn the_default_searcher_gets_past_a_loop_that_holds_depth_first() {
    let module = symplay_wasm::load(LOOP_THEN_BUG.as_bytes()).unwrap();
    let bugs = |search| {
        let options = Options {
            search,
            max_instructions: Some(5_000),
            ..Options::default()
        };
        let r = explore(&module, "after_loop", &options).unwrap();
        assert_eq!(r.stop_reason, "instruction limit");
        let trapped: Vec<_> = r.paths.iter().filter(|p| p.trap.is_some()).collect();
        (
            trapped.len(),
            trapped.first().map(|p| p.inputs.args.clone()),
        )
    };
    // Depth first follows the loop round after round and never leaves it.
    assert_eq!(bugs(SearchKind::Dfs), (0, None));
    // The default takes shallow states too: the bug, with its input.
    let default = SearchKind::default();
    assert_eq!(default, SearchKind::RandomPathCoverageNew);
    let (found, args) = bugs(default);
    assert!(found > 0);
    assert_eq!(args.unwrap()[1], 42);
    // The same seed gives the same run.
    assert_eq!(bugs(default), bugs(default));
}

const TRAPS: &str = include_str!("../../tests/data/wat/traps.wat");

#[test]
fn traps_are_paths_with_inputs() {
    let r = run(TRAPS, "indirect", &Options::default());
    assert_eq!(r.paths.len(), 3);
    let trap = r
        .paths
        .iter()
        .find(|p| p.trap == Some(Trap::IndirectCall))
        .unwrap();
    assert!(trap.inputs.args[0] >= 2 || trap.inputs.args[0] < 0);
    // Endless recursion meets the engine's call-depth limit, not a trap.
    let r = run(TRAPS, "rec", &Options::default());
    assert_eq!(
        (r.paths[0].status, r.paths[0].call_depth_limit),
        (Status::Limit, Some(1024))
    );
    let r = run(TRAPS, "conv", &Options::default());
    assert_eq!(r.paths[0].trap, Some(Trap::InvalidConversion));
    let r = run(TRAPS, "unreach", &Options::default());
    let trap = r
        .paths
        .iter()
        .find(|p| p.trap == Some(Trap::Unreachable))
        .unwrap();
    assert_eq!(trap.inputs.args, [7]);
}

const CONVERSIONS: &str = include_str!("../../tests/data/wat/conversions.wat");

#[test]
fn float_to_int_traps_tell_nan_from_overflow() {
    // As the spec tests (and wasmi) classify them: NaN is an invalid
    // conversion, a value out of range (infinities included) an overflow.
    let r = run(CONVERSIONS, "f", &Options::default());
    let mut traps: Vec<_> = r
        .paths
        .iter()
        .map(|p| (p.inputs.args[0] == 0, p.trap))
        .collect();
    traps.sort_by_key(|t| format!("{t:?}"));
    assert_eq!(
        traps,
        [
            (false, Some(Trap::IntOverflow)),
            (false, Some(Trap::IntOverflow)),
            (true, Some(Trap::InvalidConversion)),
        ]
    );
}

const CONCRETE_LOOP: &str = include_str!("../../tests/data/wat/concrete_loop.wat");

#[test]
fn concrete_code_counts_and_covers_every_instruction() {
    let r = run(CONCRETE_LOOP, "f", &Options::default());
    assert_eq!(format!("{:?}", r.paths[0].returns), "[Int(180)]");
    // 15 instructions per iteration, 10 iterations, then `local.get` and `return`.
    assert_eq!(r.stats.instructions, 152);
    assert_eq!(
        r.coverage.covered_instructions,
        r.coverage.total_instructions
    );
}

const LOOP: &str = include_str!("../../tests/data/wat/symbolic_loop.wat");

#[test]
fn limits_end_the_run_cleanly() {
    // Breadth first: depth first follows the loop forever and never ends a path.
    let r = run(
        LOOP,
        "f",
        &Options {
            search: symplay_engine::search::SearchKind::Bfs,
            max_paths: Some(5),
            ..Options::default()
        },
    );
    assert_eq!(r.stop_reason, "path limit");
    assert_eq!(r.paths.len(), 5);
    let r = run(
        LOOP,
        "f",
        &Options {
            max_depth: Some(4),
            ..Options::default()
        },
    );
    assert_eq!(r.stop_reason, "depth limit");
    assert!(r.paths.iter().any(|p| p.status == Status::Limit));
    let r = run(
        LOOP,
        "f",
        &Options {
            max_instructions: Some(200),
            ..Options::default()
        },
    );
    assert_eq!(r.stop_reason, "instruction limit");
    assert!(r.stats.instructions <= 200);
    let module = symplay_wasm::load(LOOP.as_bytes()).unwrap();
    let zero = explore(
        &module,
        "f",
        &Options {
            max_paths: Some(0),
            ..Options::default()
        },
    );
    assert!(zero.unwrap_err().message.contains("--max-paths"));
}

#[test]
fn every_searcher_is_deterministic() {
    use symplay_engine::search::SearchKind;
    for search in [
        SearchKind::Dfs,
        SearchKind::Bfs,
        SearchKind::RandomPath,
        SearchKind::CoverageNew,
    ] {
        let options = Options {
            search,
            seed: 7,
            max_paths: Some(6),
            // Depth first never ends a path of this loop: bound its work too.
            max_instructions: Some(5_000),
            ..Options::default()
        };
        let json = || {
            let mut r = run(LOOP, "f", &options);
            r.stats.timing = Timing::default();
            serde_json::to_string(&r).unwrap()
        };
        assert_eq!(json(), json(), "{search:?}");
    }
}

#[test]
fn an_unprovided_import_ends_the_paths_that_call_it_or_gives_fresh_values() {
    let wat = include_str!("../../tests/data/imports/sensor.wat");
    let r = run(wat, "read_sensor", &Options::default());
    let mut endings: Vec<String> = r.paths.iter().map(|p| p.ending()).collect();
    endings.sort();
    assert_eq!(endings, ["import not provided", "returned"]);
    let cut = r.paths.iter().find(|p| p.status == Status::Limit).unwrap();
    assert_eq!(cut.not_provided.as_deref(), Some("env.sensor (i32) -> i32"));
    assert!(!cut.is_bug());
    assert_eq!(r.stop_reason, "import not provided");
    // Havoc: each call's result is a fresh input, and every outcome shows.
    let havoc = Options {
        havoc_imports: true,
        ..Options::default()
    };
    let module = symplay_wasm::load(wat.as_bytes()).unwrap();
    let r = explore(&module, "read_sensor", &havoc).unwrap();
    let mut returns: Vec<i64> = r
        .paths
        .iter()
        .map(|p| match p.returns[..] {
            [Number::Int(v)] => v,
            _ => panic!("{:?}", p.returns),
        })
        .collect();
    returns.sort_unstable();
    assert_eq!(returns, [0, 1, 2]);
    assert!(r.havoc_imports);
    let one = r
        .paths
        .iter()
        .find(|p| p.returns == [Number::Int(1)])
        .unwrap();
    assert_eq!(
        one.inputs.get("env.sensor"),
        Some(&symplay_engine::report::InputValue::Int(42))
    );
    assert!(one
        .notes
        .iter()
        .any(|n| n.contains("env.sensor (i32) -> i32, not provided")));
    let options = ReplayOptions {
        havoc_imports: true,
        ..ReplayOptions::default()
    };
    let again = replay_traced(&module, "read_sensor", &one.inputs, &options).unwrap();
    assert_eq!(again.path.returns, one.returns);
}

#[test]
fn a_build_without_libc_gets_memset_and_memmove_from_the_host() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/imports/struct_copy.wasm"
    ))
    .unwrap();
    let module = symplay_wasm::load(&bytes).unwrap();
    let imported: Vec<String> = module
        .func_imports()
        .map(|(_, i)| i.name.to_string())
        .collect();
    assert_eq!(imported, ["env.memset", "env.memmove"]);
    let r = explore(&module, "keep", &Options::default()).unwrap();
    let mut returns: Vec<Vec<Number>> = r.paths.iter().map(|p| p.returns.clone()).collect();
    returns.sort_by_key(|r| format!("{r:?}"));
    // Out of range -1, a score over 100 -2 (read back after the copies),
    // else the id (a term).
    assert!(returns.contains(&vec![Number::Int(-1)]), "{returns:?}");
    assert!(returns.contains(&vec![Number::Int(-2)]), "{returns:?}");
    assert!(r.paths.iter().all(|p| p.status == Status::Returned));
}

const BULK: &str = include_str!("../../tests/data/wat/bulk_memory.wat");

#[test]
fn bulk_memory_fills_and_copies_with_overlap() {
    let r = run(BULK, "f", &Options::default());
    assert_eq!(r.paths.len(), 1);
    let p = &r.paths[0];
    // memmove: bytes 0..5 become 01 01 02 03 04.
    let low = i64::from(u32::from_le_bytes([1, 1, 2, 3]));
    let fill = (p.inputs.args[0] as u8) as u32;
    let high = i64::from(fill * 0x0101_0101);
    let expected = (low + high) as i32;
    assert_eq!(format!("{:?}", p.returns), format!("[Int({expected})]"));
}

const IMPLIED: &str = include_str!("../../tests/data/wat/implied_branch.wat");

#[test]
fn a_branch_the_path_implies_adds_no_constraint() {
    let r = run(IMPLIED, "f", &Options::default());
    assert_eq!(r.paths.len(), 2);
    for p in &r.paths {
        // Only the outer branch's condition: `x > 5` follows from `x > 10`.
        assert_eq!(p.condition.len(), 1, "{p:?}");
        assert_eq!(r.path_condition(p).matches("(assert").count(), 1);
    }
}

const ACTIVE_SEGMENTS: &str = include_str!("../../tests/data/wat/active_segments.wat");

#[test]
fn active_segments_are_dropped_after_instantiation() {
    let r = run(ACTIVE_SEGMENTS, "f", &Options::default());
    assert_eq!(r.paths.len(), 1);
    assert_eq!(r.paths[0].trap, Some(Trap::OutOfBounds));
}

/// A module whose `f` sets `$c` as `setup` says (to its parameter, or to
/// a byte of the input `text`), returns -1 unless `$c` is `fixed`, then
/// compares `$c` with a counter 200 times, adding the byte at address `$c`
/// each time.
fn fixed_then_compared(setup: &str, fixed: u32) -> String {
    format!(
        r#"(module
      (import "symplay" "symbolic_buffer" (func $symbolic_buffer (param i32 i32 i32)))
      (memory 1)
      (data (i32.const 16) "text\00")
      (func (export "f") (param $x i32) (result i32) (local $c i32) (local $i i32) (local $sum i32)
        {setup}
        (if (i32.ne (local.get $c) (i32.const {fixed})) (then (return (i32.const -1))))
        (loop $again
          (if (i32.lt_u (local.get $c) (local.get $i))
            (then (local.set $sum (i32.add (local.get $sum) (i32.const 1)))))
          (local.set $sum (i32.add (local.get $sum) (i32.load8_u (local.get $c))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $again (i32.lt_u (local.get $i) (i32.const 200))))
        (local.get $sum)))"#
    )
}

/// Once a branch fixes `$c`, the loop's 200 comparisons of it are decided
/// by the fact, not by the solver, and its loads from `$c`'s address are
/// concrete: `f` returns -1, or `sum`, on one fork.
fn assert_decided_by_the_fact(r: &Report, sum: i64) {
    let mut returns: Vec<_> = r.paths.iter().map(|p| format!("{:?}", p.returns)).collect();
    returns.sort();
    assert_eq!(returns, ["[Int(-1)]".to_string(), format!("[Int({sum})]")]);
    assert_eq!(r.stats.forks, 1);
    assert!(r.stats.queries <= 4, "{} queries", r.stats.queries);
    assert!(r.concretised.is_empty(), "{:?}", r.concretised);
}

#[test]
fn a_branch_that_fixes_an_input_decides_later_conditions_without_queries() {
    let wat = fixed_then_compared("(local.set $c (local.get $x))", 7);
    assert_decided_by_the_fact(&run(&wat, "f", &Options::default()), 192);
}

/// The same for a byte of an input buffer, a read of its array.
#[test]
fn a_branch_that_fixes_a_buffer_byte_decides_later_conditions_without_queries() {
    let wat = fixed_then_compared(
        "(call $symbolic_buffer (i32.const 64) (i32.const 2) (i32.const 16))
         (local.set $c (i32.load8_u (i32.const 64)))",
        u32::from(b'a'),
    );
    let r = run(&wat, "f", &Options::default());
    assert_decided_by_the_fact(&r, 102);
    let pinned = r
        .paths
        .iter()
        .find(|p| p.returns != [Number::Int(-1)])
        .unwrap();
    assert_eq!(r.path_condition_readable(pinned), "text[0] == 'a'");
}

/// References stay concrete: a `select` of references on a symbolic
/// condition forks, and a call through a second table that grew reaches
/// the function selected on each side, or traps on a null or missing entry.
#[test]
fn a_select_of_references_forks_and_calls_through_a_grown_table() {
    let wat = r#"(module
      (type $r (func (result i32)))
      (table $a 1 funcref)
      (table $b 0 funcref)
      (func $one (result i32) (i32.const 1))
      (func $two (result i32) (i32.const 2))
      (elem declare func $one $two)
      (func (export "f") (param $x i32) (result i32)
        (drop (table.grow $b (ref.null func) (i32.const 3)))
        (table.set $b (i32.const 2)
          (select (result funcref) (ref.func $one) (ref.func $two)
            (i32.lt_s (local.get $x) (i32.const 10))))
        (if (i32.eqz (ref.is_null (table.get $b (i32.const 0)))) (then unreachable))
        (call_indirect $b (type $r) (i32.and (local.get $x) (i32.const 3)))))"#;
    let r = run(wat, "f", &Options::default());
    let mut outcomes: Vec<_> = r
        .paths
        .iter()
        .map(|p| {
            let x = p.inputs.args[0];
            match p.status {
                Status::Returned => {
                    assert_eq!(x & 3, 2, "{x}");
                    assert_eq!(p.returns[0], Number::Int(if x < 10 { 1 } else { 2 }));
                    format!("{:?}", p.returns)
                }
                _ => {
                    assert_eq!(p.trap, Some(Trap::IndirectCall));
                    assert_ne!(x & 3, 2, "{x}");
                    "indirect_call".to_string()
                }
            }
        })
        .collect();
    outcomes.sort();
    assert_eq!(
        outcomes,
        ["[Int(1)]", "[Int(2)]", "indirect_call", "indirect_call"]
    );
    assert_eq!(r.tree[0].children.len(), 2, "the select forks first");
}

/// The path limit counts the states still pending: breadth first over a
/// loop that forks at every round stops splitting once the paths ended and
/// the states pending reach the limit, and each of those states follows
/// one side to its end, so the run ends with exactly that many paths and
/// nothing left pending, depth first as well.
#[test]
fn the_path_limit_counts_pending_states() {
    use symplay_engine::search::SearchKind;
    for search in [SearchKind::Bfs, SearchKind::Dfs, SearchKind::RandomPath] {
        let r = run(
            LOOP,
            "f",
            &Options {
                search,
                max_paths: Some(5),
                ..Options::default()
            },
        );
        assert_eq!(r.paths.len(), 5, "{search:?}");
        assert_eq!(r.stats.pending_states, 0, "{search:?}");
        assert_eq!(r.stop_reason, "path limit", "{search:?}");
        assert!(
            r.warnings
                .iter()
                .any(|w| w.starts_with("the path limit (5) left")),
            "{:?}",
            r.warnings
        );
    }
}

/// Past the path limit a state keeps the side of a fork that leaves the
/// loop it is in, whichever way the branch goes: a `br_table` with an
/// exit among its targets, and a forward `br_if` that skips inside the
/// loop (no exit: a model of the path chooses, and here it exits). Each
/// round forks on a fresh symbolic value whose first model goes round
/// again, so a state that did not leave would run to the instruction
/// limit.
#[test]
fn past_the_path_limit_a_state_takes_the_side_that_leaves_its_loop() {
    let wat = r#"(module
      (import "symplay" "symbolic_i32" (func $sym (param i32) (result i32)))
      (memory 1) (data (i32.const 0) "x\00")
      (func (export "table") (result i32) (local $i i32)
        (block $out
          (loop $again
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (block $skip
              (br_table $again $skip $out (call $sym (i32.const 0))))
            (br $again)))
        (local.get $i))
      (func (export "skip") (result i32) (local $i i32)
        (block $out
          (loop $again
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (block $skip
              (br_if $skip (call $sym (i32.const 0)))
              (br $out))
            (br $again)))
        (local.get $i)))"#;
    for entry in ["skip", "table"] {
        let options = Options {
            max_paths: Some(1),
            max_instructions: Some(2_000),
            ..Options::default()
        };
        let r = run(wat, entry, &options);
        assert_eq!(r.stop_reason, "path limit", "{entry}");
        let p = &r.paths[0];
        assert_eq!(
            (p.status, &p.returns),
            (Status::Returned, &vec![Number::Int(1)]),
            "{entry}"
        );
    }
}

/// A symbolic `table.get` index traps on the paths where it is past the
/// end, and is made concrete on the others.
#[test]
fn a_symbolic_table_index_past_the_end_traps() {
    let wat = r#"(module (table 3 externref)
      (func (export "f") (param $x i32) (result i32)
        (ref.is_null (table.get (local.get $x)))))"#;
    let r = run(wat, "f", &Options::default());
    let mut outcomes: Vec<_> = r
        .paths
        .iter()
        .map(|p| (p.inputs.args[0] as u32 >= 3, p.trap, p.returns.clone()))
        .collect();
    outcomes.sort_by_key(|o| o.0);
    assert_eq!(
        outcomes,
        [
            (false, None, vec![Number::Int(1)]),
            (true, Some(Trap::OutOfBounds), vec![])
        ]
    );
}

/// Bugs are grouped by how and where they end, the shortest input first.
#[test]
fn bugs_are_grouped_by_ending_and_place_shortest_input_first() {
    let wat = r#"(module
      (func (export "f") (param $x i32) (param $y i32) (result i32)
        (if (i32.and (local.get $y) (i32.const 1)) (then nop))
        (if (i32.and (local.get $y) (i32.const 2)) (then nop))
        (if (i32.gt_u (local.get $x) (i32.const 100)) (then unreachable))
        (i32.div_u (i32.const 10) (local.get $x))))"#;
    let r = run(wat, "f", &Options::default());
    assert_eq!(r.paths.len(), 12);
    let groups = r.bug_groups();
    let endings: Vec<_> = groups
        .iter()
        .map(|g| (g.ending.as_str(), g.paths.len()))
        .collect();
    let mut sorted = endings.clone();
    sorted.sort();
    assert_eq!(sorted, [("trap div_by_zero", 4), ("trap unreachable", 4)]);
    for g in &groups {
        let size = |id: usize| serde_json::to_string(&r.paths[id].inputs).unwrap().len();
        assert!(
            g.paths.windows(2).all(|w| size(w[0]) <= size(w[1])),
            "{g:?}"
        );
        assert!(g.paths.iter().all(|&id| r.paths[id].location == g.location));
    }
}

/// Recursion deeper than the engine's call-depth limit ends the path at
/// that limit (status `limit`, not the program's bug); a larger limit lets
/// it return. Spec scripts still see the trap a Wasm engine gives.
#[test]
fn the_call_depth_limit_is_the_engine_s_not_a_bug() {
    const DOWN: &str = r#"(module
      (func $down (export "down") (param i32) (result i32)
        (if (result i32) (i32.eqz (local.get 0))
          (then (i32.const 0))
          (else (i32.add (i32.const 1)
                  (call $down (i32.sub (local.get 0) (i32.const 1))))))))"#;
    let deep = |max_call_depth| Options {
        concrete_args: vec![Some(2000)],
        max_call_depth,
        ..Options::default()
    };
    let r = run(DOWN, "down", &deep(None));
    let p = &r.paths[0];
    assert_eq!(
        (p.status, p.trap, p.call_depth_limit),
        (Status::Limit, None, Some(1024))
    );
    assert!(!p.is_bug());
    assert!(
        p.outcome().starts_with(
            "stopped at the engine's call-depth limit (1024 frames, --max-call-depth)"
        ),
        "{}",
        p.outcome()
    );
    let module = symplay_wasm::load(DOWN.as_bytes()).unwrap();
    let r = explore(&module, "down", &deep(Some(3000))).unwrap();
    assert_eq!(r.paths[0].status, Status::Returned);
    assert_eq!(r.paths[0].call_depth_limit, None);
    assert_eq!(r.limits.max_call_depth, Some(3000));
    // Replay takes the run's limit: the path returns again.
    let options = ReplayOptions {
        max_call_depth: r.limits.max_call_depth,
        ..ReplayOptions::default()
    };
    let again = replay_traced(&module, "down", &r.paths[0].inputs, &options).unwrap();
    assert_eq!(again.path.returns, r.paths[0].returns);
    let too_deep = explore(&module, "down", &deep(Some(1_000_000))).unwrap_err();
    assert!(
        too_deep
            .message
            .contains("--max-call-depth is 1000000; at most 100000"),
        "{too_deep}"
    );
}

#[test]
fn sat_variables_count_what_bit_blasting_made() {
    let wat = r#"(module
      (func (export "is_square_of_37") (param $x i32) (result i32)
        (if (result i32) (i32.eq (i32.mul (local.get $x) (local.get $x)) (i32.const 1369))
          (then (i32.const 1)) (else (i32.const 0))))
      (func (export "double") (param $x i32) (result i32)
        (i32.add (local.get $x) (local.get $x))))"#;
    let blasted = run(wat, "is_square_of_37", &Options::default());
    assert_eq!(blasted.stats.paths, 2);
    assert!(blasted.stats.sat_calls > 0);
    // A 32-bit multiplier alone takes thousands of variables.
    assert!(
        blasted.stats.sat_variables > 1000,
        "{}",
        blasted.stats.sat_variables
    );
    let straight = run(wat, "double", &Options::default());
    assert_eq!(straight.stats.sat_calls, 0);
    assert_eq!(straight.stats.sat_variables, 0);
}
