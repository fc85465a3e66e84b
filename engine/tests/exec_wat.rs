//! Small WAT modules exercising forks, traps, symbolic memory, the
//! symbolic-input API, limits and determinism.

use symplay_engine::exec::{explore, replay, Options};
use symplay_engine::report::{DropCause, Report, Status, Timing, Trap};

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

const BR_TABLE: &str = r#"(module (func (export "f") (param i32) (result i32)
  (block (block (block (br_table 0 1 2 1 (local.get 0))) (return (i32.const 10)))
    (return (i32.const 11)))
  (i32.const 12)))"#;

#[test]
fn br_table_forks_once_per_distinct_target() {
    let r = run(BR_TABLE, "f", &Options::default());
    let mut returns: Vec<_> = r.paths.iter().map(|p| format!("{:?}", p.returns)).collect();
    returns.sort();
    assert_eq!(returns.len(), 3, "{returns:?}");
    assert_eq!(r.tree[0].children.len(), 3);
}

const LOAD: &str = r#"(module
  (import "symplay" "assert" (func $assert (param i32)))
  (memory 1) (data (i32.const 16) "\00\01\02\00")
  (func (export "byte_is") (param i32 i32)
    (call $assert (i32.ne (i32.load8_u offset=16 (i32.and (local.get 0) (i32.const 3))) (local.get 1)))))"#;

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

const ASSUME: &str = r#"(module
  (import "symplay" "symbolic_i32" (func $sym (param i32) (result i32)))
  (import "symplay" "assume" (func $assume (param i32)))
  (import "symplay" "assert" (func $assert (param i32)))
  (memory 1) (data (i32.const 0) "x\00")
  (func (export "f") (local i32)
    (local.set 0 (call $sym (i32.const 0)))
    (call $assume (i32.lt_u (local.get 0) (i32.const 100)))
    (call $assert (i32.ne (local.get 0) (i32.const 99)))
    (call $assert (i32.ne (local.get 0) (i32.const 200)))
    (drop (call $sym (i32.const 0)))))"#;

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

const TWO_ASSUMPTIONS: &str = r#"(module
  (import "symplay" "assume" (func $assume (param i32)))
  (func (export "g") (param i32) (result i32)
    (if (i32.gt_u (local.get 0) (i32.const 10))
      (then (call $assume (i32.lt_u (local.get 0) (i32.const 5)))))
    (if (i32.eq (local.get 0) (i32.const 7))
      (then (call $assume (i32.const 0))))
    (local.get 0)))"#;

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

const TRAPS: &str = r#"(module
  (type $t (func (result i32)))
  (table 3 funcref) (elem (i32.const 0) $one $two)
  (func $one (result i32) (i32.const 1))
  (func $two (result i32) (i32.const 2))
  (func (export "indirect") (param i32) (result i32) (call_indirect (type $t) (local.get 0)))
  (func $rec (export "rec") (param i32) (result i32) (call $rec (local.get 0)))
  (func (export "conv") (param i32) (result i32) (i32.trunc_f32_s (f32.const nan)))
  (func (export "unreach") (param i32) (result i32)
    (if (i32.eq (local.get 0) (i32.const 7)) (then unreachable)) (i32.const 0)))"#;

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
    let r = run(TRAPS, "rec", &Options::default());
    assert_eq!(r.paths[0].trap, Some(Trap::StackExhausted));
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

const CONVERSIONS: &str = r#"(module (func (export "f") (param i32) (result i32)
  (if (i32.eqz (local.get 0)) (then (return (i32.trunc_f32_s (f32.const nan)))))
  (if (i32.eq (local.get 0) (i32.const 1)) (then (drop (i64.trunc_f32_u (f32.const -inf))) (return (i32.const 0))))
  (i32.trunc_f64_u (f64.const 5e9))))"#;

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

const CONCRETE_LOOP: &str = r#"(module (memory 1) (func (export "f") (result i32) (local i32 i32)
  (loop
    (i32.store (local.get 0) (local.get 0))
    (local.set 1 (i32.add (local.get 1) (i32.load8_u (local.get 0))))
    (br_if 0 (i32.lt_u (local.tee 0 (i32.add (local.get 0) (i32.const 4))) (i32.const 40))))
  (local.get 1)))"#;

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

const LOOP: &str = r#"(module (func (export "f") (param i32) (result i32) (local i32)
  (block (loop (br_if 1 (i32.eqz (local.get 0)))
    (local.set 0 (i32.sub (local.get 0) (i32.const 1)))
    (local.set 1 (i32.add (local.get 1) (i32.const 1))) (br 0)))
  (local.get 1)))"#;

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
    assert_eq!(r.stop_reason, "completed");
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
    assert!(zero.unwrap_err().0.contains("--max-paths"));
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
fn unknown_imports_are_rejected_by_name() {
    let wat = r#"(module (import "env" "foo" (func (param i32))) (func (export "f")))"#;
    let module = symplay_wasm::load(wat.as_bytes()).unwrap();
    let e = explore(&module, "f", &Options::default()).unwrap_err();
    assert!(e.0.contains("env.foo"), "{e}");
}

const BULK: &str = r#"(module (memory 1) (data (i32.const 0) "\01\02\03\04")
  (func (export "f") (param i32) (result i32)
    (memory.fill (i32.const 8) (local.get 0) (i32.const 4))
    (memory.copy (i32.const 1) (i32.const 0) (i32.const 4))
    (memory.copy (i32.const 16) (i32.const 8) (i32.const 4))
    (i32.add (i32.load (i32.const 0)) (i32.load (i32.const 16)))))"#;

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

const IMPLIED: &str = r#"(module (func (export "f") (param i32) (result i32)
  (if (i32.gt_s (local.get 0) (i32.const 10))
    (then (if (i32.gt_s (local.get 0) (i32.const 5)) (then (return (i32.const 1))))))
  (i32.const 0)))"#;

#[test]
fn a_branch_the_path_implies_adds_no_constraint() {
    let r = run(IMPLIED, "f", &Options::default());
    assert_eq!(r.paths.len(), 2);
    for p in &r.paths {
        // Only the outer branch's condition: `x > 5` follows from `x > 10`.
        assert_eq!(p.path_condition.matches("(assert").count(), 1, "{p:?}");
    }
}

const ACTIVE_SEGMENTS: &str = r#"(module (memory 1) (data (i32.const 0) "ab")
  (func (export "f") (result i32) (memory.init 0 (i32.const 4) (i32.const 0) (i32.const 1)) (i32.const 0)))"#;

#[test]
fn active_segments_are_dropped_after_instantiation() {
    let r = run(ACTIVE_SEGMENTS, "f", &Options::default());
    assert_eq!(r.paths.len(), 1);
    assert_eq!(r.paths[0].trap, Some(Trap::OutOfBounds));
}
