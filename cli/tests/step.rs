//! `symplay step` end to end: each step's event and the state that runs
//! next, by branch and by instruction, its JSON, and errors for bad options.

mod common;

use common::{example, symplay};

#[test]
fn branch_steps_print_each_fork_and_each_path_with_the_state_that_runs_next() {
    let file = example("get_sign.wasm");
    let (code, stdout, stderr) = symplay(&["step", &file, "--search", "dfs"]);
    assert_eq!(code, 0, "{stderr}");
    let heads: Vec<&str> = stdout.lines().filter(|l| l.starts_with("step ")).collect();
    assert_eq!(heads.len(), 6, "{stdout}");
    assert!(heads[0].starts_with("step 0: get_sign is about to run"));
    assert!(
        heads[1].starts_with("step 1: node #0 forked at get_sign+0x")
            && heads[1].contains("(get_sign.c:3) into #1 and #2"),
        "{}",
        heads[1]
    );
    let ended: Vec<&&str> = heads
        .iter()
        .filter(|h| h.contains("ended at #") && h.contains(": returned"))
        .collect();
    assert_eq!(ended.len(), 3, "{stdout}");
    assert!(
        stdout.contains("returned [-1], input {\"args\":[-"),
        "{stdout}"
    );
    // The state after the first fork: on one side, with its condition.
    let after_first = stdout.split("step 1:").nth(1).unwrap();
    let after_first = after_first.split("step 2:").next().unwrap();
    assert!(
        after_first.contains("depth 1, 1 other state waits"),
        "{after_first}"
    );
    assert!(
        after_first.contains("path condition: x == 0\n"),
        "{after_first}"
    );
    // The last step leaves no state to show.
    let last = stdout.split("step 5:").nth(1).unwrap();
    assert!(!last.contains("next:"), "{last}");
}

/// A side that ends at its fork (here the failed heap check) is told by the
/// step that forked, under the fork's line.
#[test]
fn a_path_that_ends_at_its_fork_is_told_by_that_step() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/heap/heap_overflow_write.O1.wasm"
    );
    let (code, stdout, stderr) = symplay(&["step", file, "--exit-zero"]);
    assert_eq!(code, 0, "{stderr}");
    let fork = stdout.split("step 1: ").nth(1).unwrap();
    let mut lines = fork.lines();
    assert!(
        lines.next().unwrap().contains(" into #1 and #2 ("),
        "{stdout}"
    );
    let then = lines.next().unwrap();
    assert!(
        then.starts_with("  then path 0 ended at #1: heap_overflow (write of 1 byte at offset 8")
            && then.contains("input {\"args\":[],\"named\":[{\"name\":\"k\",\"value\":"),
        "{then}"
    );
    assert!(
        stdout.contains("step 2: path 1 ended at #2: returned [0]"),
        "{stdout}"
    );
}

#[test]
fn instruction_steps_stop_after_the_count_asked_and_write_their_json() {
    let json = std::env::temp_dir().join(format!("symplay-step-{}.json", std::process::id()));
    let json_arg = json.to_string_lossy().into_owned();
    let file = example("heap_overflow.wasm");
    let (code, stdout, stderr) = symplay(&[
        "step",
        &file,
        "--by",
        "instruction",
        "--steps",
        "40",
        "--json",
        &json_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let heads = stdout.lines().filter(|l| l.starts_with("step ")).count();
    assert_eq!(heads, 41, "{stdout}");
    let steps: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).ok();
    let steps = steps.as_array().unwrap();
    assert_eq!(steps.len(), 41);
    assert_eq!(steps[0]["events"][0]["kind"], "started");
    assert!(
        steps[1..].iter().all(|s| s["instructions"] == 1),
        "{steps:?}"
    );
    let frame = &steps[40]["next"]["frames"][0];
    assert_eq!(frame["location"]["function"], "copy_name");
    assert!(frame["locals"].as_array().is_some_and(|l| !l.is_empty()));
}

#[test]
fn nonsense_step_options_are_named() {
    let file = example("get_sign.wasm");
    let (code, _, stderr) = symplay(&["step", &file, "--by", "line"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--by takes branch or instruction, not `line`"),
        "{stderr}"
    );
    let (code, _, stderr) = symplay(&["step", &file, "--steps", "0"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--steps must be greater than zero"),
        "{stderr}"
    );
}

/// Under PAT, memspn over "a" merges two partitions at its loop's exit:
/// a step each, the first saying the second comes next.
#[test]
fn the_merges_at_a_loops_exit_are_a_step_each() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/heap/size/memspn_a.wat"
    );
    let (code, stdout, stderr) = symplay(&[
        "step",
        file,
        "--entry",
        "memspn",
        "--size-mode",
        "fork-lazy",
        "--merge",
        "pat",
        "--search",
        "dfs",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let steps: Vec<&str> = stdout.split("\nstep ").collect();
    let merging: Vec<&&str> = steps
        .iter()
        .filter(|s| s.contains(" merged into #"))
        .collect();
    let [first, second] = merging[..] else {
        panic!("{stdout}")
    };
    assert!(first.contains("waits at the exit for the loop's other states\n  then the states of #"));
    let next = first
        .split("  next: the merge of the states of ")
        .nth(1)
        .unwrap();
    let (nodes, rest) = next
        .split_once(" at the exit of the loop at memspn+0x")
        .unwrap();
    assert!(
        rest.contains(", then 1 more state at the loop's exit"),
        "{first}"
    );
    // The next step makes that merge and nothing else.
    let number = |s: &str| -> u64 { s.split(':').next().unwrap().parse().unwrap() };
    assert_eq!(number(second), number(first) + 1, "{stdout}");
    let (made, _) = second.split_once(" merged into #").unwrap();
    assert_eq!(nodes_in(made), nodes_in(nodes), "{second}");
    assert!(made.contains(": the states of #"), "{second}");
}

/// The node numbers (`#N`) in `text`, in order.
fn nodes_in(text: &str) -> Vec<u64> {
    (text.split('#').skip(1))
        .map(|t| {
            t.split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect()
}
