//! `symplay replay` end to end: a path of a report, a hand-written test, the
//! check against the recorded outcome, and errors for bad test files.

mod common;

use common::{example, symplay};

/// A file in the temporary directory, unique to this test process.
fn temp(name: &str, contents: &str) -> String {
    let path = std::env::temp_dir().join(format!("symplay-replay-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

/// A report of depth-first exploration, whose path order the tests know.
fn explore_report(file: &str, entry: &str, name: &str) -> String {
    let json = temp(name, "");
    let args = [
        "explore", file, "--entry", entry, "--search", "dfs", "--json", &json,
    ];
    let (code, _, stderr) = symplay(&args);
    assert!(code == 0 || code == 13, "{stderr}");
    json
}

/// The id of the first path of `report` that ends with a memory error.
fn first_memory_error(report: &serde_json::Value) -> String {
    let paths = report["paths"].as_array().expect("the report's paths");
    let bug = paths.iter().find(|p| p["status"] == "memory_error");
    bug.expect("a memory error")["id"].to_string()
}

#[test]
fn a_bug_of_the_report_replays_with_its_trace() {
    let file = example("checksum.wasm");
    let report = explore_report(&file, "check_packet", "checksum.json");
    let (code, stdout, stderr) = symplay(&["replay", &file, "--test", &report]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the report has 3 paths: choose one with --path ID (bugs: 0)"),
        "{stderr}"
    );
    assert!(stdout.is_empty());

    let out = temp("checksum-replay.json", "");
    let (code, stdout, stderr) = symplay(&[
        "replay", &file, "--test", &report, "--path", "0", "--json", &out,
    ]);
    assert_eq!(code, 13, "the bug replays: {stderr}");
    assert!(
        stdout
            .starts_with("replay of check_packet()\ninput packet = [127,85,104,0,201,250,209,6]\n"),
        "{stdout}"
    );
    assert!(stdout.contains("call symplay_symbolic_buffer("), "{stdout}");
    assert!(stdout.contains("br_if: taken"), "{stdout}");
    assert!(
        stdout.contains("outcome: assertion failed at check_packet+0x"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("matches the recorded outcome\n"),
        "{stdout}"
    );
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written["path"]["status"], "assert_failed");
    let events = written["trace"].as_array().unwrap();
    assert!(
        events.iter().any(|e| e["event"] == "host_call"),
        "{events:?}"
    );
    assert!(events.iter().any(|e| e["event"] == "branch"), "{events:?}");
}

#[test]
fn a_hand_written_test_needs_no_report() {
    let file = example("divide.wasm");
    let test = temp("divide-test.json", r#"{"args": [-2147483648, -1]}"#);
    let (code, stdout, stderr) = symplay(&["replay", &file, "--entry", "divide", "--test", &test]);
    assert_eq!(code, 13, "the test traps: {stderr}");
    assert!(
        stdout.starts_with("replay of divide(-2147483648, -1)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("outcome: trapped (int_overflow) at divide+0x"),
        "{stdout}"
    );
    assert!(!stdout.contains("recorded"), "{stdout}");

    let fine = temp("divide-fine.json", r#"{"args": [7, 2]}"#);
    let (code, stdout, _) = symplay(&["replay", &file, "--entry", "divide", "--test", &fine]);
    assert_eq!(code, 0);
    assert!(stdout.contains("outcome: returned [3]"), "{stdout}");
}

#[test]
fn an_outcome_other_than_the_recorded_one_fails() {
    let file = example("get_sign.wasm");
    let report = explore_report(&file, "get_sign", "sign.json");
    let mut report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let mut path = report["paths"][0].take();
    let recorded = path["returns"][0].as_i64().unwrap();
    path["returns"][0] = serde_json::json!(recorded + 5);
    let tampered = temp("sign-path.json", &path.to_string());
    let (code, stdout, stderr) =
        symplay(&["replay", &file, "--entry", "get_sign", "--test", &tampered]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stdout.contains(&format!(
            "differs from the recorded outcome: returned [{}]",
            recorded + 5
        )),
        "{stdout}"
    );
}

#[test]
fn bad_test_files_and_options_are_errors() {
    let file = example("divide.wasm");
    let bare = temp("bare.json", r#"{"args": [1, 1]}"#);
    let garbage = temp("garbage.json", "{not json");
    let wrong = temp("wrong.json", r#"{"argz": [1]}"#);
    let spin = temp(
        "spin.wat",
        r#"(module (func (export "spin") (loop (br 0))))"#,
    );
    let empty = temp("empty.json", "{}");
    // A report of the schema before conditions became formula indices.
    let old = temp(
        "old.json",
        r#"{"schema_version": 1, "entry": "divide", "paths": [{"path_condition": ""}]}"#,
    );
    // A test or option that does not fit exits with 2; a replay that
    // cannot end, with 1.
    let cases: [(&[&str], &str, i32); 7] = [
        (
            &["replay", &file, "--test", &old],
            "a report of schema version 1; this Symplay reads version 2",
            2,
        ),
        (&["replay", &file, "--test", &bare], "--entry is needed", 2),
        (
            &["replay", &file, "--entry", "divide", "--test", &garbage],
            "not JSON",
            2,
        ),
        (
            &["replay", &file, "--entry", "divide", "--test", &wrong],
            "expected a report, a path, or a test input",
            2,
        ),
        (
            &[
                "replay", &file, "--entry", "divide", "--test", &bare, "--path", "2",
            ],
            "--path needs a report",
            2,
        ),
        (
            &["replay", &file, "--entry", "nope", "--test", &bare],
            "nope",
            2,
        ),
        (
            &[
                "replay",
                &spin,
                "--entry",
                "spin",
                "--test",
                &empty,
                "--max-instructions",
                "5000",
            ],
            "replay stopped by the instruction limit",
            1,
        ),
    ];
    for (args, message, status) in cases {
        let (code, _, stderr) = symplay(args);
        assert_eq!(code, status, "{args:?}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let (code, _, stderr) = symplay(&[
        "replay",
        &file,
        "--entry",
        "divide",
        "--test",
        &bare,
        "--max-instructions",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("must be greater than zero"), "{stderr}");
}

#[test]
fn a_memory_error_replays_under_the_report_s_heap_model() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/tests/data/heap/use_after_free_read.O1.wasm");
    let json = temp("uaf.json", "");
    let args = [
        "explore",
        &file,
        "--search",
        "dfs",
        "--size-mode",
        "fork-eager",
        "--json",
        &json,
    ];
    let (code, _, stderr) = symplay(&args);
    assert_eq!(code, 13, "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["heap"]["size_mode"], "fork-eager");
    let id = first_memory_error(&report);
    let (code, stdout, stderr) = symplay(&[
        "replay",
        &file,
        "--test",
        &json,
        "--path",
        &id,
        "--show-memory",
    ]);
    assert_eq!(code, 13, "{stderr}");
    assert!(
        stdout.contains(
            "outcome: use_after_free (read of 4 bytes at offset 8 of the heap block of 16 bytes"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("freed at use_after_free_read+0x"),
        "{stdout}"
    );
    assert!(stdout.contains("^ read of 4 bytes at offset 8"), "{stdout}");
    assert!(
        stdout.ends_with("matches the recorded outcome\n"),
        "{stdout}"
    );
    // The module's own allocator sees no error: the outcome differs.
    let (code, stdout, _) = symplay(&[
        "replay",
        &file,
        "--test",
        &json,
        "--path",
        &id,
        "--keep-allocator",
    ]);
    assert_eq!(code, 3);
    assert!(
        stdout.contains("differs from the recorded outcome"),
        "{stdout}"
    );
}

#[test]
fn a_buffer_parameter_is_explored_and_its_bug_replays() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/tests/data/heap/params/header.wat");
    let json = temp("header.json", "");
    let args = [
        "explore", &file, "--entry", "header", "--search", "dfs", "--buffer", "0:8:1", "--json",
        &json,
    ];
    let (code, stdout, stderr) = symplay(&args);
    assert_eq!(code, 13, "{stderr}");
    assert!(
        stdout.contains("buffer_overflow (read of 1 byte at offset 1 of the input buffer s_buf"),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        report["buffer_args"],
        serde_json::json!([{"param": 0, "capacity": 8, "length_param": 1}])
    );
    let id = first_memory_error(&report);
    // The report's buffers are made again: the error replays.
    let (code, stdout, stderr) = symplay(&["replay", &file, "--test", &json, "--path", &id]);
    assert_eq!(code, 13, "{stderr}");
    assert!(stdout.contains("outcome: buffer_overflow"), "{stdout}");
    assert!(
        stdout.ends_with("matches the recorded outcome\n"),
        "{stdout}"
    );
    // Bad specs are named.
    for (spec, message) in [
        (
            "0",
            "--buffer takes INDEX:CAPACITY or INDEX:CAPACITY:LENGTH, as in 0:16:1, not `0`",
        ),
        ("0:8:1:2", "not `0:8:1:2`"),
        ("0:x", "not `0:x`"),
        (
            "0:99999999999",
            "--buffer 0:99999999999: the capacity is too large",
        ),
        ("0:8:0", "parameter 0 has two roles"),
    ] {
        let (code, _, stderr) = symplay(&["explore", &file, "--entry", "header", "--buffer", spec]);
        assert_eq!(code, 2, "{spec}");
        assert!(stderr.contains(message), "{spec}: {stderr}");
    }
}

#[test]
fn a_test_that_does_not_fit_the_program_is_refused() {
    let divide = example("divide.wasm");
    let heap = example("heap_overflow.wasm");
    let cases = [
        (
            (&divide, "divide"),
            r#"{"args": [1, 2, 3]}"#,
            "the test gives 3 values for the entry's 2 parameters",
        ),
        (
            (&divide, "divide"),
            r#"{"args": [4294967295, 1]}"#,
            "parameter 0 (a) is an i32 (-2147483648 to 2147483647): 4294967295 is out of range",
        ),
        (
            (&heap, "copy_name"),
            r#"{"args": [], "named": [{"name": "record", "value": [1, 0, 0]}]}"#,
            "input `record` has 5 bytes, but the test gives 3",
        ),
        (
            (&heap, "copy_name"),
            r#"{"args": [], "named": [{"name": "recrd", "value": [1, 0, 0, 0, 0]}]}"#,
            "the test gives no value for input `record`; the test gives `recrd`, which the path never reads (its inputs: record)",
        ),
        (
            (&heap, "copy_name"),
            r#"{"args": [], "named": [{"name": "record", "value": 7}]}"#,
            "input `record` is a buffer of bytes, but the test gives it a number",
        ),
        (
            (&heap, "copy_name"),
            r#"{"args": [], "named": [{"name": "record", "value": [9, 0, 0, 0, 0]}]}"#,
            "the input breaks the assumption at copy_name+0xda (heap_overflow.c:13)",
        ),
    ];
    for (i, ((file, entry), test, message)) in cases.into_iter().enumerate() {
        let test = temp(&format!("misfit-{i}.json"), test);
        let (code, stdout, stderr) = symplay(&["replay", file, "--test", &test, "--entry", entry]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{test}: {stderr}");
        assert!(stderr.contains(message), "{message}: {stderr}");
    }
}

#[test]
fn the_trace_shows_the_values_of_the_run_it_replays() {
    // A C program with variables replays with symbols that follow the
    // test: every value in its trace is the test's, none a stand-in.
    let heap = example("heap_overflow.wasm");
    let test = temp(
        "values.json",
        r#"{"args": [], "named": [{"name": "record", "value": [2, 1, 0, 0, 0]}]}"#,
    );
    let (code, stdout, stderr) =
        symplay(&["replay", &heap, "--entry", "copy_name", "--test", &test]);
    assert_eq!(code, 0, "{stderr}");
    let events: Vec<&str> = stdout.lines().filter(|l| l.starts_with("  ")).collect();
    let calls: Vec<&str> = events
        .iter()
        .filter_map(|e| e.split_once("  call ").map(|(_, c)| c))
        .collect();
    assert_eq!(calls[1], "symplay_assume(1) -> []", "{stdout}");
    assert_eq!(calls[2], "malloc(2)", "{stdout}");
    // The loop copies one byte and stops at the NUL: taken, then not.
    let branches: Vec<&str> = events
        .iter()
        .filter(|e| e.contains("(heap_overflow.c:18)  br_if"))
        .map(|e| e.rsplit(": ").next().unwrap())
        .collect();
    assert_eq!(
        branches,
        ["not taken", "taken", "taken", "not taken"],
        "{stdout}"
    );
    assert!(events.last().unwrap().ends_with("return [1]"), "{stdout}");
    assert!(stdout.ends_with("outcome: returned [1]\n"), "{stdout}");
}

#[test]
fn a_path_cut_at_the_depth_limit_replays_with_that_limit() {
    let file = format!(
        "{}/../tests/data/outcomes/outcomes-O0.wasm",
        env!("CARGO_MANIFEST_DIR")
    );
    let json = temp("depth.json", "");
    let (code, stdout, _) = symplay(&[
        "explore",
        &file,
        "--entry",
        "classify",
        "--max-depth",
        "1",
        "--json",
        &json,
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("not explored to the end: 2 paths end at the depth limit (--max-depth 1)"),
        "{stdout}"
    );
    let (code, stdout, stderr) = symplay(&["replay", &file, "--test", &json, "--path", "0"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("outcome: stopped at the depth limit"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("matches the recorded outcome\n"),
        "{stdout}"
    );
    // Without the limit the same input runs to its end.
    let (code, stdout, _) = symplay(&[
        "replay",
        &file,
        "--test",
        &json,
        "--path",
        "0",
        "--max-depth",
        "100",
    ]);
    assert_eq!(code, 3);
    assert!(stdout.contains("outcome: returned"), "{stdout}");
}

/// A pointer result of a run that moved its block into a segment replays
/// without segments at another address, into the same place of the same
/// block: the replay matches, and both say where the pointer points.
#[test]
fn a_pointer_result_matches_by_its_block_where_a_replay_moves_nothing() {
    let file = format!(
        "{}/../tests/data/relocatable/examples.wasm",
        env!("CARGO_MANIFEST_DIR")
    );
    let report = temp("chosen-block.json", "");
    let (code, _, stderr) = symplay(&[
        "explore",
        &file,
        "--entry",
        "chosen_block",
        "--search",
        "dfs",
        "--resolve",
        "segment",
        "--no-leaks",
        "--json",
        &report,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = symplay(&[
        "replay",
        &file,
        "--test",
        &report,
        "--path",
        "0",
        "--resolve",
        "fork",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let number = recorded["paths"][0]["returns"][0].as_i64().unwrap();
    let outcome = stdout.lines().find(|l| l.starts_with("outcome:")).unwrap();
    let place = &recorded["paths"][0]["points_into"][0];
    let block = format!("(block {} + {})]", place["object"], place["offset"]);
    assert!(outcome.ends_with(&block), "{stdout}");
    assert!(!outcome.contains(&number.to_string()), "{stdout}");
    assert!(
        stdout.ends_with("matches the recorded outcome\n"),
        "{stdout}"
    );
}
