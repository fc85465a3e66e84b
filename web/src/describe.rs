//! How a path reads on the page: its input and its outcome, in words.

use symplay_engine::report::{InputValue, Number, PathReport, Status};

/// `arg0 = 5, packet = [1, 2]`
pub fn inputs(p: &PathReport) -> String {
    let mut parts: Vec<String> = p
        .inputs
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| format!("arg{i} = {a}"))
        .collect();
    parts.extend(p.inputs.named.iter().map(|n| match &n.value {
        InputValue::Int(v) => format!("{} = {v}", n.name),
        InputValue::Bytes(b) => format!("{} = {b:?}", n.name),
    }));
    parts.join(", ")
}

/// `returned [1]`, `trap: div_by_zero`, ...
pub fn outcome(p: &PathReport) -> String {
    match (p.status, p.trap) {
        (Status::Returned, _) => format!("returned [{}]", Number::list(&p.returns)),
        (Status::Trapped, Some(trap)) => format!("trap: {}", trap.name()),
        (Status::Trapped, None) => "trap".into(),
        (Status::AssertFailed, _) => "assertion failed".into(),
        (Status::MemoryError, _) => match &p.memory_error {
            Some(e) => format!("memory: {}", e.kind.name()),
            None => "memory error".into(),
        },
        (Status::Panicked, _) => match &p.panic {
            Some(panic) => format!("panicked: {}", panic.describe()),
            None => "panicked".into(),
        },
        (Status::Limit, _) => "depth limit".into(),
    }
}
