//! The trace of a replay: calls (direct, indirect, host), branch decisions,
//! `br_table` indices and returns, in execution order, with the event cap.

use symplay_engine::exec::{replay_traced, ReplayOptions};
use symplay_engine::report::{Number, Status, TestInput, TraceEvent};

const PROGRAM: &str = include_str!("../../tests/data/wat/traced.wat");

fn trace(args: Vec<i64>, k: i64, max_events: usize) -> symplay_engine::exec::Replay {
    let module = symplay_wasm::load(PROGRAM.as_bytes()).unwrap();
    let test: TestInput = serde_json::from_value(
        serde_json::json!({"args": args, "named": [{"name": "k", "value": k}]}),
    )
    .unwrap();
    let options = ReplayOptions {
        max_instructions: None,
        max_events,
        heap: Default::default(),
        buffer_args: Vec::new(),
        max_depth: None,
        max_call_depth: None,
        havoc_imports: false,
    };
    replay_traced(&module, "f", &test, &options).unwrap()
}

/// Each event as a short word, for comparing whole traces.
fn shape(events: &[TraceEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            TraceEvent::Call {
                callee,
                args,
                table_slot,
                depth,
                ..
            } => format!("{depth}:call {callee} {args:?} {table_slot:?}"),
            TraceEvent::HostCall {
                callee,
                args,
                results,
                ..
            } => format!("host {callee} {args:?} {results:?}"),
            TraceEvent::Return { values, depth, .. } => format!("{depth}:return {values:?}"),
            TraceEvent::Branch {
                instruction, taken, ..
            } => format!("{instruction} {taken}"),
            TraceEvent::BrTable { index, .. } => format!("br_table {index}"),
        })
        .collect()
}

#[test]
fn the_trace_follows_calls_branches_and_returns() {
    let r = trace(vec![21], 1, 100);
    assert_eq!(r.path.status, Status::Returned);
    assert_eq!(r.path.returns, [Number::Int(42)]);
    assert_eq!(
        shape(&r.trace),
        [
            "host sym [Int(0)] [Int(1)]",
            "if false",
            "br_table 1",
            "1:call double [Int(21)] Some(1)",
            "2:return [Int(42)]",
            "1:return [Int(42)]",
        ]
    );
    let TraceEvent::Call { at, .. } = &r.trace[3] else {
        panic!("{:?}", r.trace[3]);
    };
    assert_eq!(at.function, "f");
}

#[test]
fn other_inputs_give_other_traces() {
    let negative = trace(vec![-3], 1, 100);
    assert_eq!(
        shape(&negative.trace),
        [
            "host sym [Int(0)] [Int(1)]",
            "if true",
            "1:return [Int(-1)]"
        ]
    );
    let first_target = trace(vec![3], 0, 100);
    assert_eq!(first_target.path.returns, [Number::Int(7)]);
    assert!(shape(&first_target.trace).contains(&"br_table 0".to_string()));
}

#[test]
fn events_past_the_cap_are_counted() {
    let r = trace(vec![21], 1, 2);
    assert_eq!(r.trace.len(), 2);
    assert_eq!(r.omitted_events, 4);
    let none = trace(vec![21], 1, 0);
    assert!(none.trace.is_empty());
    assert_eq!(none.path.returns, [Number::Int(42)]);
}

#[test]
fn a_run_past_the_instruction_cap_is_an_error() {
    let wat = r#"(module (func (export "spin") (loop (br 0))))"#;
    let module = symplay_wasm::load(wat.as_bytes()).unwrap();
    let options = ReplayOptions {
        max_instructions: Some(10_000),
        max_events: 10,
        heap: Default::default(),
        buffer_args: Vec::new(),
        max_depth: None,
        max_call_depth: None,
        havoc_imports: false,
    };
    let e = replay_traced(&module, "spin", &TestInput::default(), &options).unwrap_err();
    assert!(e.message.contains("instruction limit"), "{e}");
}

/// A guided replay (its inputs symbols, as with the run's `--max-depth`)
/// records a call through a symbolic table slot with its callee and the
/// slot the path took; before, the call was left out of the trace.
#[test]
fn a_call_through_a_symbolic_slot_is_traced_in_a_guided_replay() {
    let module = symplay_wasm::load(
        br#"(module
  (type $unary (func (param i32) (result i32)))
  (table 3 funcref) (elem (i32.const 0) $double $negate)
  (func $double (param i32) (result i32) (i32.add (local.get 0) (local.get 0)))
  (func $negate (param i32) (result i32) (i32.sub (i32.const 0) (local.get 0)))
  (func (export "f") (param i32 i32) (result i32)
    (call_indirect (type $unary) (local.get 0) (local.get 1))))"#,
    )
    .unwrap();
    for (slot, callee, result) in [(1, "negate", -5), (0, "double", 10)] {
        let test: TestInput =
            serde_json::from_value(serde_json::json!({"args": [5, slot], "named": []})).unwrap();
        let options = ReplayOptions {
            max_events: 100,
            max_depth: Some(64),
            ..ReplayOptions::default()
        };
        let r = replay_traced(&module, "f", &test, &options).unwrap();
        assert_eq!(r.path.returns, [Number::Int(result)]);
        assert_eq!(
            shape(&r.trace),
            [
                format!("1:call {callee} [Int(5)] Some({slot})"),
                format!("2:return [Int({result})]"),
                format!("1:return [Int({result})]"),
            ]
        );
    }
}
