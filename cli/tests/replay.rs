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
    assert_eq!(code, 0, "{stderr}");
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
    assert_eq!(code, 1);
    assert!(
        stderr.contains("the report has 3 paths: choose one with --path ID (bugs: 0)"),
        "{stderr}"
    );
    assert!(stdout.is_empty());

    let out = temp("checksum-replay.json", "");
    let (code, stdout, stderr) = symplay(&[
        "replay", &file, "--test", &report, "--path", "0", "--json", &out,
    ]);
    assert_eq!(code, 0, "{stderr}");
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
    assert_eq!(code, 0, "{stderr}");
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
    assert_eq!(code, 1, "{stderr}");
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
    let cases: [(&[&str], &str); 6] = [
        (&["replay", &file, "--test", &bare], "--entry is needed"),
        (
            &["replay", &file, "--entry", "divide", "--test", &garbage],
            "not JSON",
        ),
        (
            &["replay", &file, "--entry", "divide", "--test", &wrong],
            "expected a report, a path, or a test input",
        ),
        (
            &[
                "replay", &file, "--entry", "divide", "--test", &bare, "--path", "2",
            ],
            "--path needs a report",
        ),
        (
            &["replay", &file, "--entry", "nope", "--test", &bare],
            "nope",
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
        ),
    ];
    for (args, message) in cases {
        let (code, _, stderr) = symplay(args);
        assert_eq!(code, 1, "{args:?}");
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
    assert_eq!(code, 1);
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
    assert_eq!(code, 0, "{stderr}");
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
    assert_eq!(code, 0, "{stderr}");
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
    assert_eq!(code, 1);
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
    assert_eq!(code, 0, "{stderr}");
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
    assert_eq!(code, 0, "{stderr}");
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
        assert_eq!(code, 1, "{spec}");
        assert!(stderr.contains(message), "{spec}: {stderr}");
    }
}
