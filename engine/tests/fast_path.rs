//! The concrete fast path and its fused ops against `step` alone: a traced
//! replay runs every instruction through `step`, so it is the reference for
//! results, trap locations and instruction counts.

use symplay_engine::exec::{explore, replay_traced, Options, ReplayOptions};
use symplay_engine::report::{Number, PathReport, Report, Status, Trap};

/// Every fused pattern with concrete operands: immediate and local
/// operands, `local.set`/`local.tee` results, loads (sign-extending too) and
/// stores through locals, an i64 comparison feeding i32 arithmetic,
/// compare-and-branch on stack operands, a branch that repairs the stack,
/// two operators on two locals and an immediate (set and pushed), and a
/// counter step with compare-and-branch at the loop end (i32 and i64).
const FUSED: &str = include_str!("../../tests/data/wat/fused.wat");

fn explore_one(module: &symplay_wasm::Module, entry: &str, options: &Options) -> Report {
    explore(module, entry, options).unwrap()
}

/// The path of a traced replay: `step` only.
fn stepped(
    module: &symplay_wasm::Module,
    entry: &str,
    path: &PathReport,
    max_instructions: Option<u64>,
) -> Option<PathReport> {
    let options = ReplayOptions {
        max_instructions,
        max_events: 1,
        heap: Default::default(),
        buffer_args: Vec::new(),
        max_depth: None,
        max_call_depth: None,
        havoc_imports: false,
    };
    replay_traced(module, entry, &path.inputs, &options)
        .ok()
        .map(|r| r.path)
}

/// Runs `entry` with the fast path and checks it against `step` alone:
/// outcome, location, instruction count, and that every instruction limit
/// stops it exactly there.
fn check_against_step(entry: &str) -> Report {
    let module = symplay_wasm::load(FUSED.as_bytes()).unwrap();
    let report = explore_one(&module, entry, &Options::default());
    let [path] = &report.paths[..] else {
        panic!("one path expected: {:?}", report.paths);
    };
    let n = report.stats.instructions;
    let reference = stepped(&module, entry, path, Some(n)).expect("step needs no more");
    assert_eq!(
        (reference.status, reference.trap, &reference.returns),
        (path.status, path.trap, &path.returns)
    );
    assert_eq!(reference.location, path.location);
    assert!(
        stepped(&module, entry, path, Some(n - 1)).is_none(),
        "step needs all {n} instructions"
    );
    for limit in 1..n {
        let limited = explore_one(
            &module,
            entry,
            &Options {
                max_instructions: Some(limit),
                ..Options::default()
            },
        );
        assert_eq!(limited.stats.instructions, limit);
        assert_eq!(limited.stop_reason, "instruction limit");
    }
    report
}

#[test]
fn fused_ops_give_the_results_and_counts_of_step() {
    let r = check_against_step("mix");
    assert_eq!(r.paths[0].status, Status::Returned);
    assert!(matches!(r.paths[0].returns[..], [Number::Int(_)]));
    let r = check_against_step("wide");
    // 0 + 3 + ... + 39
    assert!(matches!(r.paths[0].returns[..], [Number::Int(273)]));
}

#[test]
fn a_fused_loop_counts_and_covers_every_instruction() {
    const LOOP: &str = include_str!("../../tests/data/wat/fused_loop.wat");
    let module = symplay_wasm::load(LOOP.as_bytes()).unwrap();
    let r = explore_one(&module, "f", &Options::default());
    assert_eq!(
        r.coverage.covered_instructions,
        r.coverage.total_instructions
    );
    // 19 instructions per iteration, 8 iterations, then `local.get` and `return`.
    assert_eq!(r.stats.instructions, 8 * 19 + 2);
}

#[test]
fn a_trap_inside_a_fused_sequence_is_left_to_step() {
    let r = check_against_step("div");
    assert_eq!(r.paths[0].trap, Some(Trap::DivByZero));
    let r = check_against_step("oob");
    assert_eq!(r.paths[0].trap, Some(Trap::OutOfBounds));
}

/// Symbolic operands in every position of the fused ops of a counting loop
/// and its guard.
const SYMBOLIC: &str = include_str!("../../tests/data/wat/fused_symbolic.wat");

#[test]
fn a_symbolic_operand_leaves_the_fast_path() {
    let module = symplay_wasm::load(SYMBOLIC.as_bytes()).unwrap();
    let r = explore_one(&module, "count", &Options::default());
    let mut returns: Vec<_> = r
        .paths
        .iter()
        .map(|p| match p.returns[..] {
            [Number::Int(v)] => v,
            _ => panic!("unexpected result {:?}", p.returns),
        })
        .collect();
    returns.sort_unstable();
    assert_eq!(returns, [0, 1, 2, 3, 4, 5]);
    for p in &r.paths {
        let again = stepped(&module, "count", p, None).unwrap();
        assert_eq!((again.status, &again.returns), (p.status, &p.returns));
        assert_eq!(again.location, p.location);
    }
}

#[test]
fn a_symbolic_counter_leaves_the_fused_loop_end() {
    let module = symplay_wasm::load(SYMBOLIC.as_bytes()).unwrap();
    let r = explore_one(&module, "step", &Options::default());
    // One path per start of the counter, 0 to 3.
    assert_eq!(r.paths.len(), 4);
    for p in &r.paths {
        assert_eq!(p.status, Status::Returned);
        let again = stepped(&module, "step", p, None).unwrap();
        assert_eq!((again.status, &again.returns), (p.status, &p.returns));
        assert_eq!(again.location, p.location);
    }
}

#[test]
fn a_concrete_i64_comparison_is_an_i32() {
    // Added to a symbolic i32, the comparison's width shows in the term.
    const CMP64: &str = r#"(module (func (export "f") (param $p i32) (result i32)
      (i32.add (local.get $p) (i64.lt_u (i64.const 1) (i64.const 2)))))"#;
    let module = symplay_wasm::load(CMP64.as_bytes()).unwrap();
    let r = explore_one(&module, "f", &Options::default());
    let [path] = &r.paths[..] else {
        panic!("one path expected: {:?}", r.paths);
    };
    assert_eq!(path.status, Status::Returned);
    let again = stepped(&module, "f", path, None).unwrap();
    assert_eq!(again.returns, path.returns);
}
