//! `symplay explore` end to end: the summary, the JSON report, and errors for
//! bad modules, entries and options.

mod common;

use common::{example, symplay};
use std::process::Command;

#[test]
fn the_report_names_the_failed_assertion_and_its_input() {
    let json = std::env::temp_dir().join(format!("symplay-explore-{}.json", std::process::id()));
    let json_arg = json.to_string_lossy().into_owned();
    let file = example("checksum.wasm");
    let (code, stdout, stderr) = symplay(&[
        "explore",
        &file,
        "--entry",
        "check_packet",
        "--json",
        &json_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("1 assertion failures"), "{stdout}");
    let report = std::fs::read_to_string(&json).expect("report written");
    std::fs::remove_file(&json).ok();
    let report: serde_json::Value = serde_json::from_str(&report).expect("valid JSON");
    assert_eq!(report["schema_version"], 1);
    let failed: Vec<&serde_json::Value> = report["paths"]
        .as_array()
        .expect("paths")
        .iter()
        .filter(|p| p["status"] == "assert_failed")
        .collect();
    assert_eq!(failed.len(), 1, "{report}");
    assert_eq!(failed[0]["inputs"]["named"][0]["name"], "packet");
    assert_eq!(failed[0]["location"]["function"], "check_packet");
}

#[test]
fn traps_are_listed_as_bugs_with_inputs() {
    let file = example("divide.wasm");
    let (code, stdout, _) = symplay(&["explore", &file, "--entry", "divide", "--search", "bfs"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("div_by_zero"), "{stdout}");
    assert!(
        stdout.contains("int_overflow") && stdout.contains("-2147483648"),
        "{stdout}"
    );
    // The example carries DWARF line tables: each bug names its C line.
    assert!(
        stdout.contains("trap div_by_zero at divide+0x52 (divide.c:2)"),
        "{stdout}"
    );
}

#[test]
fn bad_modules_entries_and_options_exit_with_one() {
    let file = example("get_sign.wasm");
    let (code, _, stderr) = symplay(&["explore", &file, "--entry", "nope"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("nope") && stderr.contains("get_sign"),
        "{stderr}"
    );
    let (code, _, stderr) = symplay(&["explore", &file, "--entry", "get_sign", "--max-paths", "0"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("--max-paths"), "{stderr}");
    let (code, _, stderr) = symplay(&["explore", &file, "--entry", "get_sign", "--search", "best"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("best"), "{stderr}");
    // The C source is not a module.
    let source = example("get_sign.c");
    let (code, _, stderr) = symplay(&["explore", &source, "--entry", "get_sign"]);
    assert_eq!(code, 1);
    assert!(stderr.starts_with("error:"), "{stderr}");
    let truncated = std::env::temp_dir().join(format!("symplay-trunc-{}.wasm", std::process::id()));
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, stderr) = symplay(&[
        "explore",
        &truncated.to_string_lossy(),
        "--entry",
        "get_sign",
    ]);
    std::fs::remove_file(&truncated).ok();
    assert_eq!(code, 1);
    assert!(stderr.starts_with("error:"), "{stderr}");
}

#[test]
fn unsupported_imports_are_named() {
    let wat = std::env::temp_dir().join(format!("symplay-import-{}.wat", std::process::id()));
    std::fs::write(
        &wat,
        r#"(module (import "env" "foo" (func)) (func (export "f")))"#,
    )
    .unwrap();
    let (code, _, stderr) = symplay(&["explore", &wat.to_string_lossy(), "--entry", "f"]);
    std::fs::remove_file(&wat).ok();
    assert_eq!(code, 1);
    assert!(stderr.contains("env.foo"), "{stderr}");
}

#[test]
fn invalid_wat_is_an_error_with_its_location() {
    let cases = [
        ("syntax", "(module (func (export \"f\")", "expected"),
        (
            "types",
            "(module (func (export \"f\") (result i32) (i32.add (i32.const 1))))",
            "type mismatch",
        ),
    ];
    for (name, text, message) in cases {
        let wat = std::env::temp_dir().join(format!("symplay-{name}-{}.wat", std::process::id()));
        std::fs::write(&wat, text).unwrap();
        let (code, stdout, stderr) = symplay(&["explore", &wat.to_string_lossy(), "--entry", "f"]);
        std::fs::remove_file(&wat).ok();
        assert_eq!(code, 1, "{name}");
        assert!(stdout.is_empty(), "{name}: {stdout}");
        assert!(stderr.starts_with("error: "), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr}");
    }
}

#[test]
fn concrete_parameters_are_taken_and_bad_ones_named() {
    let divide = example("divide.wasm");
    let (code, stdout, stderr) = symplay(&[
        "explore",
        &divide,
        "--entry",
        "divide",
        "--concrete",
        "0=10",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(": 2 paths (1 returned, 1 trapped"),
        "{stdout}"
    );
    assert!(!stdout.contains("int_overflow"), "{stdout}");
    assert!(
        stdout.contains("concrete parameters: arg0 = 10\n"),
        "{stdout}"
    );
    for (arg, message) in [
        ("10", "--concrete takes INDEX=VALUE, as in 0=10, not `10`"),
        ("a=1", "not `a=1`"),
        ("5000=1", "no function has 5001 parameters"),
        (
            "2=1",
            "a value is given for parameter 2, but the entry has 2 parameters",
        ),
    ] {
        let (code, _, stderr) =
            symplay(&["explore", &divide, "--entry", "divide", "--concrete", arg]);
        assert_eq!(code, 1, "{arg}");
        assert!(stderr.contains(message), "{arg}: {stderr}");
    }
    let (code, _, stderr) = symplay(&[
        "explore",
        &divide,
        "--entry",
        "divide",
        "--concrete",
        "0=1",
        "--concrete",
        "0=2",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("parameter 0 is given twice"), "{stderr}");
}

#[test]
fn ctrl_c_stops_the_run_with_partial_results() {
    let dir = std::env::temp_dir();
    let wat = dir.join(format!("symplay-forever-{}.wat", std::process::id()));
    let json = dir.join(format!("symplay-forever-{}.json", std::process::id()));
    // Every iteration forks on a fresh comparison: the run never completes.
    std::fs::write(
        &wat,
        r#"(module (func (export "f") (param i32) (local i32)
             (loop (br_if 0 (i32.ne (local.get 0) (local.tee 1 (i32.add (local.get 1) (i32.const 1))))))))"#,
    )
    .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_symplay"))
        .args([
            "explore",
            &wat.to_string_lossy(),
            "--entry",
            "f",
            "--search",
            "bfs",
        ])
        .args(["--json", &json.to_string_lossy()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    std::fs::remove_file(&wat).ok();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("stopped early: cancelled"), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).ok();
    assert_eq!(report["stop_reason"], "cancelled");
    assert!(!report["paths"].as_array().unwrap().is_empty());
}

#[test]
fn ctrl_c_inside_a_long_solver_query_stops_the_run_at_once() {
    // One solver query of minutes.
    let wat = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/factor.wat");
    let child = Command::new(env!("CARGO_BIN_EXE_symplay"))
        .args(["explore", wat, "--entry", "factor"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    // A bound far above what it takes: a run that ignores Ctrl-C is killed.
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(child.wait_with_output()));
    let out = receive.recv_timeout(std::time::Duration::from_secs(60));
    if out.is_err() {
        Command::new("kill").args(["-KILL", &pid]).status().ok();
    }
    let out = out.expect("Ctrl-C did not stop the run").unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("stopped early: cancelled (1 states left)"),
        "{stdout}"
    );
}

fn test_data(name: &str) -> String {
    format!("{}/../tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn without_entry_the_first_function_of_the_program_is_explored() {
    // clang's --export-all puts __wasm_call_ctors first.
    let (code, stdout, stderr) = symplay(&["explore", &test_data("clamp.wasm")]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.trim(),
        "exploring `clamp`, the first exported function of the program \
         (also exported: __wasm_call_ctors; --entry NAME explores another)"
    );
    assert!(
        stdout.starts_with("explored clamp with dfs: 3 paths (3 returned"),
        "{stdout}"
    );
    // One function and nothing else: no list of others.
    let (code, _, stderr) = symplay(&["explore", &example("get_sign.wasm")]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.trim(),
        "exploring `get_sign`, the first exported function of the program"
    );
    // Only helpers: an error that lists them and says what to do.
    let helpers = std::env::temp_dir().join(format!("symplay-helpers-{}.wat", std::process::id()));
    std::fs::write(
        &helpers,
        r#"(module (func (export "__wasm_call_ctors")) (func (export "_initialize")))"#,
    )
    .unwrap();
    let (code, stdout, stderr) = symplay(&["explore", &helpers.to_string_lossy()]);
    std::fs::remove_file(&helpers).ok();
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.ends_with(
            "the module exports only runtime helpers (__wasm_call_ctors, _initialize), \
             no function of the program; name the function to explore with --entry NAME\n"
        ),
        "{stderr}"
    );
}

#[test]
fn an_assumption_that_drops_every_path_is_named_in_the_summary_and_report() {
    let json = std::env::temp_dir().join(format!("symplay-drops-{}.json", std::process::id()));
    let json_arg = json.to_string_lossy().into_owned();
    let file = example("sum_to.wasm");
    let (code, stdout, stderr) =
        symplay(&["explore", &file, "--concrete", "0=-3", "--json", &json_arg]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).ok();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("explored sum_to with dfs: 0 paths"),
        "{stdout}"
    );
    assert_eq!(lines[1], "concrete parameters: arg0 = -3");
    let offset = report["drops"][0]["location"]["offset"].as_u64().unwrap();
    assert_eq!(
        lines[2],
        format!(
            "no path is left: every path was dropped \
             (1 path: 1 by the assumption at sum_to+{offset:#x} (sum_to.c:6))"
        )
    );
    assert_eq!(report["stats"]["dropped_paths"], 1);
    assert_eq!(report["drops"][0]["cause"], "assumption");
    assert_eq!(report["drops"][0]["paths"], 1);
    assert_eq!(report["drops"][0]["location"]["source"]["line"], 6);
    // With the bound symbolic, one side of `n >= 0` is dropped: said, and
    // the paths found are there too.
    let (_, stdout, _) = symplay(&["explore", &file]);
    assert!(
        stdout.starts_with("explored sum_to with dfs: 9 paths"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n1 path dropped: 1 by the assumption at sum_to+"),
        "{stdout}"
    );
}

/// The inline code spans of `text` that are `symplay explore` commands of
/// a file under `root`, white space folded (a span may wrap).
fn explore_commands(text: &str, root: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|span| span.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|span| {
            span.strip_prefix("symplay explore ")
                .and_then(|rest| rest.split(' ').next())
                .is_some_and(|file| std::path::Path::new(&format!("{root}/{file}")).is_file())
        })
        .collect()
}

/// The README's example commands work as written: every `symplay explore`
/// command in backticks that names a file of the repository is run from
/// the repository root and must succeed.
#[test]
fn the_readme_explore_commands_run_as_written() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let commands = explore_commands(&readme, root);
    // With and without --entry, and one whose assumption drops every path.
    assert!(commands.len() >= 3, "{commands:?}");
    assert!(commands.iter().any(|c| !c.contains("--entry")));
    assert!(commands.iter().any(|c| c.contains("--entry")));
    for command in &commands {
        let args: Vec<String> = command
            .split(' ')
            .skip(1)
            .map(|a| match a.starts_with("static/") {
                true => format!("{root}/{a}"),
                false => a.to_string(),
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = symplay(&args);
        assert_eq!(code, 0, "{command}: {stderr}");
        assert!(stdout.starts_with("explored "), "{command}: {stdout}");
        if command.contains("--concrete 0=-3") {
            assert!(stdout.contains("no path is left"), "{command}: {stdout}");
        }
    }
}
