//! `symplay explore` end to end: the summary, the JSON report, and errors for
//! bad modules, entries and options.

mod common;

use common::{example, symplay};
use std::process::Command;
use symplay_engine::report::Report;

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
    assert_eq!(code, 13, "a bug found: {stderr}");
    assert!(stdout.contains("1 assertion failure,"), "{stdout}");
    let report = std::fs::read_to_string(&json).expect("report written");
    std::fs::remove_file(&json).ok();
    let report: serde_json::Value = serde_json::from_str(&report).expect("valid JSON");
    assert_eq!(report["schema_version"], 2);
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
    assert_eq!(code, 13);
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
fn bad_modules_exit_with_one_and_bad_entries_and_options_with_two() {
    let file = example("get_sign.wasm");
    let (code, _, stderr) = symplay(&["explore", &file, "--entry", "nope"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("nope") && stderr.contains("get_sign"),
        "{stderr}"
    );
    let (code, _, stderr) = symplay(&["explore", &file, "--entry", "get_sign", "--max-paths", "0"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--max-paths"), "{stderr}");
    let (code, _, stderr) = symplay(&["explore", &file, "--entry", "get_sign", "--search", "best"]);
    assert_eq!(code, 2);
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
    assert!(
        stderr.contains(&format!(
            "the module is cut short: its {} bytes end in the middle of a section",
            bytes.len() / 2
        )),
        "{stderr}"
    );
}

#[test]
fn unsupported_imports_are_named() {
    let wat = std::env::temp_dir().join(format!("symplay-import-{}.wat", std::process::id()));
    std::fs::write(
        &wat,
        r#"(module (import "env" "g" (global i32)) (func (export "f")))"#,
    )
    .unwrap();
    let (code, _, stderr) = symplay(&["explore", &wat.to_string_lossy(), "--entry", "f"]);
    std::fs::remove_file(&wat).ok();
    assert_eq!(code, 1);
    assert!(stderr.contains("unsupported import env.g"), "{stderr}");
}

#[test]
fn a_function_the_engine_does_not_provide_ends_only_the_paths_that_call_it() {
    let file = test_data("imports/sensor.wat");
    let (code, stdout, stderr) = symplay(&["explore", &file]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("2 paths (1 returned, 0 trapped, 0 assertion failures, 0 at the depth limit, 1 calling an import not provided)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("not explored to the end: 1 path calls an import that is not provided (env.sensor (i32) -> i32; --havoc-imports gives it fresh results)"),
        "{stdout}"
    );
    let (code, stdout, stderr) = symplay(&["explore", &file, "--havoc-imports"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains(": 3 paths (3 returned"), "{stdout}");
    assert!(
        stdout.contains("imports not provided: each call returns fresh symbolic values (havoc)"),
        "{stdout}"
    );
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
    assert_eq!(code, 13, "a division by zero: {stderr}");
    // 10 / b is arithmetic on an input: one path returns it as a term.
    assert!(
        stdout.contains(": 2 paths (1 returned, 1 trapped"),
        "{stdout}"
    );
    assert!(!stdout.contains("int_overflow"), "{stdout}");
    assert!(stdout.contains("concrete parameters: a = 10\n"), "{stdout}");
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
        assert_eq!(code, 2, "{arg}");
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
    assert_eq!(code, 2);
    assert!(stderr.contains("parameter 0 is given twice"), "{stderr}");
}

#[test]
fn ctrl_c_stops_the_run_with_partial_results() {
    let (wat, json) = forever("one-job");
    let (wat_arg, json_arg) = (wat.to_string_lossy(), json.to_string_lossy());
    let args = [
        "explore", &wat_arg, "--entry", "f", "--search", "bfs", "--json", &json_arg,
    ];
    let (_, out) = interrupted(&args, 1500);
    let stdout = String::from_utf8_lossy(&out.stdout);
    std::fs::remove_file(&wat).ok();
    assert_eq!(out.status.code(), Some(130), "{stdout}");
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
    let (_, out) = interrupted(&["explore", wat, "--entry", "factor"], 1000);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("stopped early: cancelled (1 state left)"),
        "{stdout}"
    );
}

#[test]
fn jobs_find_one_jobs_paths_and_ctrl_c_stops_every_job() {
    let file = example("divide.wasm");
    let first_line = |jobs: &str| {
        let (code, stdout, stderr) =
            symplay(&["explore", &file, "--entry", "divide", "--jobs", jobs]);
        assert_eq!(code, 13, "{stderr}");
        stdout.lines().next().unwrap_or_default().to_string()
    };
    let one = first_line("1");
    assert!(one.contains("paths ("), "{one}");
    assert_eq!(first_line("2"), one);
    let (code, _, stderr) = symplay(&["explore", &file, "--entry", "divide", "--jobs", "0"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--jobs must be at least 1"), "{stderr}");

    let (wat, json) = forever("jobs");
    let (wat_arg, json_arg) = (wat.to_string_lossy(), json.to_string_lossy());
    let args = [
        "explore", &wat_arg, "--entry", "f", "--jobs", "2", "--json", &json_arg,
    ];
    let (after, out) = interrupted(&args, 1500);
    let stdout = String::from_utf8_lossy(&out.stdout);
    std::fs::remove_file(&wat).ok();
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("stopped early: cancelled"), "{stdout}");
    assert!(
        after.as_millis() < 1000,
        "every job stopped after {after:?}"
    );
    let report: Report = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).ok();
    assert_eq!(report.stop_reason, "cancelled");
    assert!(!report.paths.is_empty());
    assert_eq!(
        u64::from(report.tree[0].pending),
        report.stats.pending_states
    );
}

/// A module whose every loop iteration forks on a fresh comparison, so
/// that its run never completes, written to a file named after `what`;
/// and where its report goes.
fn forever(what: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir();
    let name = format!("symplay-forever-{what}-{}", std::process::id());
    let (wat, json) = (
        dir.join(format!("{name}.wat")),
        dir.join(format!("{name}.json")),
    );
    std::fs::write(
        &wat,
        r#"(module (func (export "f") (param i32) (local i32)
             (loop (br_if 0 (i32.ne (local.get 0) (local.tee 1 (i32.add (local.get 1) (i32.const 1))))))))"#,
    )
    .unwrap();
    (wat, json)
}

/// Runs `symplay ARGS`, sends it Ctrl-C after `after_ms`, and gives how long
/// it took to end after that, and its output. A run that ignores Ctrl-C is
/// killed after a minute, and the test fails.
fn interrupted(args: &[&str], after_ms: u64) -> (std::time::Duration, std::process::Output) {
    let child = Command::new(env!("CARGO_BIN_EXE_symplay"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    std::thread::sleep(std::time::Duration::from_millis(after_ms));
    let signalled = std::time::Instant::now();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(child.wait_with_output()));
    let out = receive.recv_timeout(std::time::Duration::from_secs(60));
    if out.is_err() {
        Command::new("kill").args(["-KILL", &pid]).status().ok();
    }
    let out = out.expect("Ctrl-C did not stop the run").unwrap();
    (signalled.elapsed(), out)
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
        stdout.starts_with("explored clamp with random-path+coverage-new: 3 paths (3 returned"),
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
    assert_eq!((code, stdout.as_str()), (2, ""));
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
        lines[0].starts_with("explored sum_to with random-path+coverage-new: 0 paths"),
        "{stdout}"
    );
    assert_eq!(lines[1], "concrete parameters: n = -3");
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
        stdout.starts_with("explored sum_to with random-path+coverage-new: 9 paths"),
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

/// The docs' example commands work as written: every `symplay explore`
/// command in backticks in the README or a page of `docs/` that names a
/// file of the repository is run from the repository root and must
/// succeed.
#[test]
fn the_docs_explore_commands_run_as_written() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut pages = vec![format!("{root}/README.md")];
    for entry in std::fs::read_dir(format!("{root}/docs")).unwrap().flatten() {
        pages.push(entry.path().to_string_lossy().into_owned());
    }
    let commands: Vec<String> = pages
        .iter()
        .filter(|page| page.ends_with(".md"))
        .flat_map(|page| explore_commands(&std::fs::read_to_string(page).unwrap(), root))
        .collect();
    // With and without --entry, and one whose assumption drops every path.
    assert!(commands.len() >= 3, "{commands:?}");
    assert!(commands.iter().any(|c| !c.contains("--entry")));
    assert!(commands.iter().any(|c| c.contains("--entry")));
    for command in &commands {
        let args: Vec<String> = command
            .split(' ')
            .skip(1)
            .map(
                |a| match a.starts_with("static/") || a.starts_with("tests/") {
                    true => format!("{root}/{a}"),
                    false => a.to_string(),
                },
            )
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = symplay(&args);
        // With `--json -` the report is standard output, the summary
        // standard error.
        let (report, summary) = if args.windows(2).any(|w| w == ["--json", "-"]) {
            (Some(stdout.clone()), stderr.clone())
        } else {
            (None, stdout.clone())
        };
        let bug = if summary.contains("\nbug: ") { 13 } else { 0 };
        assert_eq!(code, bug, "{command}: {stderr}");
        if let Some(report) = report {
            let report: serde_json::Value = serde_json::from_str(&report).expect("a report");
            assert!(report["paths"].is_array(), "{command}");
            continue;
        }
        assert!(stdout.starts_with("explored "), "{command}: {stdout}");
        if command.contains("--concrete 0=-3") {
            assert!(stdout.contains("no path is left"), "{command}: {stdout}");
        }
        if command.contains("--show-memory") && command.contains("heap_overflow_write") {
            assert!(
                stdout.contains("bug: path 0: heap_overflow (write of 1 byte at offset 8"),
                "{command}: {stdout}"
            );
            assert!(
                stdout.contains("^ write of 1 byte at offset 8"),
                "{command}: {stdout}"
            );
        }
        if command.contains("--show-memory") && command.contains("use_after_return") {
            assert!(
                stdout.contains(
                    ": use_after_return (read of 1 byte at offset 0 of the local text of 4 bytes in parse's frame"
                ),
                "{command}: {stdout}"
            );
            assert!(
                stdout.contains("^ read of 1 byte at offset 0"),
                "{command}: {stdout}"
            );
        }
    }
}

/// The most resident memory of process `pid` so far, in bytes (Linux).
fn peak_resident(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    symplay_cli::procfs::kib_field(&status, "VmHWM")
}

/// `symplay explore FILE ARGS --json OUT`: the wall time it took, the most
/// resident memory it had (read while it runs), its summary and report.
fn explore_watched(
    file: &str,
    args: &[&str],
) -> (std::time::Duration, u64, String, serde_json::Value) {
    let json = std::env::temp_dir().join(format!(
        "symplay-watched-{}-{}.json",
        std::process::id(),
        file.len() + args.len()
    ));
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_symplay"))
        .args(["explore", file])
        .args(args)
        .args(["--json", &json.to_string_lossy()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut peak = 0;
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(peak_resident(child.id()).unwrap_or(0));
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().ok();
            panic!("{file}: still running after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let took = started.elapsed();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{file}");
    let report = std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{file}: {e}"));
    std::fs::remove_file(&json).ok();
    (
        took,
        peak,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        serde_json::from_str(&report).unwrap(),
    )
}

/// A `br_table` over 40,000 distinct targets of a symbolic index: one fork
/// of 40,001 alternatives, each a solver query (a few seconds of them).
fn wide_br_table() -> String {
    let n = 40_000;
    let mut wat = String::from("(module (func (export \"sw\") (param i32) (result i32)\n");
    wat.push_str(&"block\n".repeat(n));
    let targets: Vec<String> = (0..n).map(|k| k.to_string()).collect();
    wat.push_str(&format!("local.get 0 br_table {} 0\n", targets.join(" ")));
    for k in 0..n {
        wat.push_str(&format!("end i32.const {k} return\n"));
    }
    wat.push_str("unreachable))");
    wat
}

#[test]
#[cfg(target_os = "linux")]
fn limits_hold_in_bit_blasting_in_host_calls_and_on_wide_branches() {
    let wide = std::env::temp_dir().join(format!("symplay-wide-{}.wat", std::process::id()));
    std::fs::write(&wide, wide_br_table()).unwrap();
    // The memory cases get time enough to reach their limit however busy
    // the machine (within the 60 s after which `explore_watched` stops a
    // run).
    let cases = [
        (test_data("limits/polynomial.wat"), "memory limit", "40"),
        (test_data("limits/big_buffer.wat"), "memory limit", "40"),
        (wide.to_string_lossy().into_owned(), "time limit", "1"),
    ];
    for (file, limit, seconds) in &cases {
        let (took, peak, stdout, report) =
            explore_watched(file, &["--max-time", seconds, "--max-memory", "256"]);
        let name = file.rsplit('/').next().unwrap();
        // The run ends (`explore_watched` stops one that hangs); how soon
        // after its time limit is the `limits` benchmark's measure.
        assert!(
            peak > 0 && peak < 512 << 20,
            "{name}: {} MiB resident",
            peak >> 20
        );
        assert_eq!(report["stop_reason"], *limit, "{name}");
        assert!(
            stdout.contains(&format!("stopped early: {limit} (1 state left)")),
            "{stdout}"
        );
        // The reported peak is measured, not estimated.
        let measured = report["stats"]["peak_memory_bytes"].as_u64().unwrap();
        assert!(
            measured > 1 << 20 && measured < 512 << 20,
            "{name}: {measured}"
        );
        assert_eq!(report["limits"]["max_memory_bytes"], 256u64 << 20);
        let seconds: u64 = seconds.parse().unwrap();
        assert_eq!(report["limits"]["max_time_ms"], seconds * 1000);
        println!(
            "{name}: {limit} after {took:?}, {} MiB resident",
            peak >> 20
        );
    }
    std::fs::remove_file(&wide).ok();
}

/// Memory at its extremes: the largest memory a module may declare, a
/// grow by 60,000 pages, a fill of a symbolic length up to 4 GiB, a loop
/// writing a symbolic byte to every byte of 16 pages. Each ends with a
/// clear result, within its limits.
#[test]
#[cfg(target_os = "linux")]
fn memory_at_its_extremes_ends_clearly_within_the_limits() {
    let limits = ["--entry", "f", "--max-time", "40", "--max-memory", "256"];
    let run = |name: &str| explore_watched(&test_data(&format!("limits/{name}.wat")), &limits);
    let measured =
        |report: &serde_json::Value| report["stats"]["peak_memory_bytes"].as_u64().unwrap();

    // Blank pages take no room: 4 GiB declared costs what was written.
    let (_, _, stdout, report) = run("huge_memory");
    assert_eq!(report["stop_reason"], "completed", "{stdout}");
    let paths = report["paths"].as_array().unwrap();
    assert!(paths.len() >= 2, "{stdout}");
    assert!(paths.iter().all(|p| p["status"] == "returned"), "{stdout}");
    assert!(measured(&report) < 4 << 20, "{} bytes", measured(&report));

    let (_, _, stdout, report) = run("grow_60000_pages");
    assert_eq!(report["stop_reason"], "completed", "{stdout}");
    assert!(measured(&report) < 4 << 20, "{} bytes", measured(&report));
    for path in report["paths"].as_array().unwrap() {
        let size = path["returns"][0].as_u64().unwrap();
        assert!((60_001..60_001 + 256).contains(&size), "{stdout}");
    }

    // The length is made concrete, and the summary says so.
    let (_, _, stdout, report) = run("fill_symbolic_length");
    assert!(
        stdout.contains("values were made concrete (the memory.fill size"),
        "{stdout}"
    );
    assert!(!report["concretised"].as_array().unwrap().is_empty());

    // A million byte terms outgrow 256 MiB: the run stops at its limit,
    // with the measured peak under it.
    let (_, peak, stdout, report) = run("write_16_pages");
    assert_eq!(report["stop_reason"], "memory limit", "{stdout}");
    assert!(stdout.contains("stopped early: memory limit"), "{stdout}");
    assert!(
        measured(&report) <= 256 << 20,
        "{} bytes",
        measured(&report)
    );
    assert!(peak < 512 << 20, "{} MiB resident", peak >> 20);
}

#[test]
fn ctrl_c_inside_bit_blasting_stops_the_run_within_a_second() {
    // The 42,000 instructions take milliseconds; the circuit seconds.
    let poly = test_data("limits/polynomial.wat");
    let (took, out) = interrupted(&["explore", &poly], 400);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(took.as_secs_f64() < 1.0, "stopped {took:?} after Ctrl-C");
    assert!(
        stdout.contains("stopped early: cancelled (1 state left)"),
        "{stdout}"
    );
}

#[test]
fn nonsense_limits_are_refused_and_the_default_ones_reported() {
    let file = example("get_sign.wasm");
    let refused = [
        (&["--max-time", "1e19"][..], "--max-time must be a number of seconds above 0 and at most 1e9, not 10000000000000000000"),
        (&["--max-time", "NaN"], "not NaN"),
        (&["--max-time", "0"], "not 0"),
        (&["--max-time", "-2"], "not -2"),
        (&["--max-memory", "0"], "--max-memory must be above 0 MiB"),
        (&["--max-memory", "-5"], "invalid value '-5' for '--max-memory <MIB>'"),
    ];
    for (args, message) in refused {
        let mut all = vec!["explore", file.as_str()];
        all.extend_from_slice(args);
        let (code, stdout, stderr) = symplay(&all);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    #[cfg(target_os = "linux")]
    {
        let (code, _, stderr) = symplay(&["explore", &file, "--max-memory", "100000000"]);
        assert_eq!(code, 2);
        assert!(
            stderr.contains("--max-memory 100000000 MiB is more than this machine's"),
            "{stderr}"
        );
    }
    let (code, stdout, _) = symplay(&["explore", &file]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\nlimits: memory 2048 MiB\n"), "{stdout}");
}

#[test]
fn a_run_with_concretised_values_says_it_is_not_complete() {
    let file = test_data("wat/float_parameter.wat");
    let (code, stdout, _) = symplay(&["explore", &file, "--entry", "half"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("explored half with random-path+coverage-new: 1 path ("),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(
            "not every path was explored: values were made concrete (the float parameter arg0 at half+0x"
        ),
        "{stdout}"
    );
}

#[test]
fn heap_options_that_make_no_sense_are_errors() {
    let file = example("heap.wasm");
    for (args, error) in [
        (
            vec!["--size-mode", "lazy"],
            "unknown size mode `lazy` (known: base, fork-eager, fork-lazy)",
        ),
        (
            vec!["--capacity", "0"],
            "--capacity must be greater than zero",
        ),
        (
            vec!["--capacity", "4000000000"],
            "--capacity 4000000000 is more than linear memory can hold",
        ),
        (
            vec!["--split-piece", "0"],
            "--split-piece must be greater than zero",
        ),
        (
            vec!["--split-threshold", "3000000000"],
            "--split-threshold 3000000000 is more than linear memory can hold",
        ),
        (
            vec!["--split-threshold", "5000000000"],
            "invalid value '5000000000' for '--split-threshold <BYTES>'",
        ),
        (
            vec!["--split", "--contents", "whole"],
            "--split needs --contents per-object",
        ),
        (
            vec!["--bases", "moving"],
            "unknown bases `moving` (known: concrete, symbolic)",
        ),
        (
            vec!["--bases", "symbolic", "--keep-allocator"],
            "--bases symbolic needs memory objects",
        ),
        (
            vec!["--resolve", "merge"],
            "unknown resolution `merge` (known: fork, segment)",
        ),
        (
            vec!["--merge", "quantified"],
            "unknown merge mode `quantified` (none, cfg, sm, smopt or pat)",
        ),
        (
            vec!["--validate-merge"],
            "--validate-merge checks merges, and --merge none makes none: choose cfg, sm, smopt or pat",
        ),
        (
            vec!["--resolve", "segment", "--bases", "concrete"],
            "--resolve segment moves heap blocks, which needs --bases symbolic",
        ),
        (
            vec!["--resolve", "fork", "--segment-cap", "64"],
            "--segment-cap needs --resolve segment, not fork",
        ),
        (
            vec!["--segment-cap", "0"],
            "--segment-cap must be greater than zero",
        ),
        (
            vec!["--segment-cap", "3000000000"],
            "--segment-cap 3000000000 is more than linear memory can hold",
        ),
        (
            vec!["--segment-context", "deep"],
            "--segment-context takes a number of callers or `off`, not `deep`",
        ),
        (
            vec!["--segment-context", "99"],
            "--segment-context 99 names more callers than a context keeps (16 at most)",
        ),
        (
            vec!["--resolve", "fork", "--segment-context", "2"],
            "--segment-context needs --resolve segment, not fork",
        ),
        (
            vec!["--aa-cache", "always"],
            "unknown address-aware cache mode `always` (known: off, on, check)",
        ),
        (
            vec!["--aa-cache", "--bases", "concrete"],
            "--aa-cache needs --bases symbolic",
        ),
    ] {
        let mut all = vec!["explore", file.as_str()];
        all.extend(args);
        let (code, stdout, stderr) = symplay(&all);
        assert_eq!(code, 2, "{all:?}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(error), "{all:?}: {stderr}");
    }
}

/// What `explore` prints for E1's `blocks` (two 256-byte blocks behind a
/// symbolic pointer) depth first, with `extra` arguments.
fn explored_blocks(extra: &[&str]) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/tests/data/relocatable/examples.wasm");
    let mut args = vec!["explore", &file, "--entry", "blocks", "--search", "dfs"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = symplay(&args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

#[test]
fn split_objects_fork_over_their_pieces_and_the_summary_says_so() {
    let run = explored_blocks;
    let whole = run(&[]);
    assert!(
        whole.starts_with("explored blocks with dfs: 2 paths"),
        "{whole}"
    );
    assert!(
        whole.contains("\narrays: 256 B at most in one symbolic access\n"),
        "{whole}"
    );
    assert!(!whole.contains("\nsplit:"), "{whole}");
    let split = run(&["--split-threshold", "200", "--split-piece", "64"]);
    assert!(
        split.starts_with("explored blocks with dfs: 4 paths"),
        "{split}"
    );
    assert!(
        split.contains("\nsplit: objects and regions over 200 bytes, in pieces of 64 bytes\n"),
        "{split}"
    );
    assert!(
        split.contains(
            "\narrays: 64 B at most in one symbolic access; 2 accesses split into pieces\n"
        ),
        "{split}"
    );
    // The defaults: 256-byte blocks are under the 300-byte threshold.
    assert!(run(&["--split"]).starts_with("explored blocks with dfs: 2 paths"));
}

#[test]
fn the_address_aware_cache_answers_the_second_sides_queries_and_stats_show_each_layer() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/tests/data/relocatable/examples.wasm");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "explore",
            &file,
            "--entry",
            "divergent_buffer",
            "--search",
            "dfs",
            "--exit-zero",
        ];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = symplay(&args);
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    // --aa-cache implies symbolic bases.
    let aa = run(&["--aa-cache", "--stats"]);
    assert!(aa.contains(", pointers over symbolic bases\n"), "{aa}");
    assert!(
        aa.contains(
            "\naddress-aware cache: a branch's query is also known by its form over base symbols\n"
        ),
        "{aa}"
    );
    assert!(aa.contains(": 1 from the address-aware cache, "), "{aa}");
    let table = aa
        .split("solver layers:\n")
        .nth(1)
        .expect("the layers' table");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .take(6)
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .collect()
        })
        .collect();
    // In front of SAT: what the exact caches leave to SAT reaches it.
    assert_eq!(rows[0][0], "simplification");
    assert_eq!(
        rows[4][..3],
        ["address-aware cache", "3 reached", "1 answered"]
    );
    assert_eq!(rows[5][..3], ["SAT", "15 reached", "15 answered"]);
    assert!(
        table.contains("address-aware cache: 3 answers held ("),
        "{table}"
    );
    // Without --stats no table; without the cache no such layer.
    let plain = run(&["--bases", "symbolic", "--stats"]);
    assert!(!run(&["--aa-cache"]).contains("solver layers:"));
    assert!(
        plain.contains("solver layers:\n  simplification "),
        "{plain}"
    );
    assert!(!plain.contains("address-aware"), "{plain}");
    let checked = run(&["--aa-cache", "check", "--stats"]);
    assert!(
        checked.contains("; every answer it gives is asked of the solver again\n"),
        "{checked}"
    );
    assert!(!checked.contains("contradicted"), "{checked}");
}

#[test]
fn segments_merge_the_blocks_a_pointer_may_point_into_and_the_summary_says_so() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let run = explored_blocks;
    // --resolve segment implies symbolic bases.
    let merged = run(&["--resolve", "segment"]);
    assert!(
        merged.starts_with("explored blocks with dfs: 1 path"),
        "{merged}"
    );
    assert!(
        merged.contains(", pointers over symbolic bases\n"),
        "{merged}"
    );
    assert!(
        merged.contains("\nsegments: the blocks a pointer may point into are moved into one, of at most 2048 bytes; an access first takes the blocks of the allocation contexts it met (4 callers)\n"),
        "{merged}"
    );
    assert!(
        merged.contains(
            "\narrays: 544 B at most in one symbolic access; 1 segment of blocks, 544 B at most, 1 access placed by allocation context\n"
        ),
        "{merged}"
    );
    // Each block of a bug's path says which segment it is in, and the
    // segment has a line of its own.
    let pointers = format!("{root}/static/examples/c/pointer_array.wasm");
    let (_, shown, _) = symplay(&[
        "explore",
        &pointers,
        "--resolve",
        "segment",
        "--show-memory",
    ]);
    assert!(shown.contains("\n  #3 heap block &obj3 = 0x"), "{shown}");
    assert!(
        shown.contains(" live, in segment 0, allocated at store+0x"),
        "{shown}"
    );
    assert!(
        shown.contains("\n  segment 0: blocks #0, #1, #2 and #3 moved next to each other at 0x"),
        "{shown}"
    );
    // Under the cap, the read forks per block as without segments.
    let capped = run(&["--segment-cap", "512"]);
    assert!(
        capped.starts_with("explored blocks with dfs: 2 paths"),
        "{capped}"
    );
    assert!(!capped.contains("segment of blocks"), "{capped}");
}

#[test]
fn under_symbolic_bases_blocks_show_their_base_symbols_and_the_same_bug() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/tests/data/heap/heap_overflow_write.O1.wasm");
    let run = |extra: &[&str]| {
        let mut args = vec!["explore", &file, "--show-memory"];
        args.extend_from_slice(extra);
        let (code, stdout, _) = symplay(&args);
        (code, stdout)
    };
    let ((code, concrete), (symbolic_code, symbolic)) = (run(&[]), run(&["--bases", "symbolic"]));
    assert_eq!(symbolic_code, code);
    assert!(
        symbolic.contains(", pointers over symbolic bases\n"),
        "{symbolic}"
    );
    assert!(!concrete.contains("symbolic bases"), "{concrete}");
    // The same block, error and drawing, the block named by its symbol.
    let block = |text: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with("#0 heap block"))
            .unwrap_or_else(|| panic!("a block: {text}"))
            .to_string()
    };
    // Its hidden address lies in the arena.
    let (c, s) = (block(&concrete), block(&symbolic));
    assert!(c.contains("#0 heap block 0x10610:"), "{c}");
    assert_eq!(
        s,
        c.replace("heap block 0x10610", "heap block &obj0 = 0x40000010")
    );
    let errors = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("bug:") || l.contains("^ write"))
            .map(String::from)
            .collect()
    };
    assert!(!errors(&concrete).is_empty(), "{concrete}");
    assert_eq!(errors(&symbolic), errors(&concrete));
}

#[test]
fn a_leak_is_a_warning_that_can_be_turned_off() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/tests/data/heap/leak.O1.wasm");
    let (code, stdout, stderr) = symplay(&["explore", &file]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("warning: 1 path ends with heap blocks still allocated (path"),
        "{stdout}"
    );
    assert!(stdout.contains("allocated at leak+0x"), "{stdout}");
    let (code, stdout, _) = symplay(&["explore", &file, "--no-leaks"]);
    assert_eq!(code, 0);
    assert!(!stdout.contains("still allocated"), "{stdout}");
}

#[test]
fn selects_fork_and_few_valued_results_split_unless_told_otherwise() {
    let module = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/outcomes/outcomes-O1.wasm"
    );
    let explore = |extra: &[&str]| {
        let mut args = vec!["explore", module, "--entry", "clamp3"];
        args.extend_from_slice(extra);
        symplay(&args)
    };
    let (code, stdout, stderr) = explore(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("clamp3 with random-path+coverage-new: 3 paths (3 returned"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\noutcomes: a symbolic select forks; a symbolic result of at most 16 values splits into them\n"),
        "{stdout}"
    );
    // Selects as values: the result, a term of three values, splits.
    let (_, stdout, _) = explore(&["--select-as-ite"]);
    assert!(stdout.contains(": 3 paths (3 returned"), "{stdout}");
    assert!(
        stdout.contains("\noutcomes: a symbolic select is one ite value;"),
        "{stdout}"
    );
    // Neither: one path, whose test shows one of the three outcomes.
    let (_, stdout, _) = explore(&["--select-as-ite", "--result-values", "0"]);
    assert!(stdout.contains(": 1 path (1 returned"), "{stdout}");
    assert!(
        stdout.contains("a symbolic result stays a term\n"),
        "{stdout}"
    );
    let (code, stdout, stderr) = explore(&["--result-values", "5000"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("--result-values is 5000; at most 1024"),
        "{stderr}"
    );
}

#[test]
fn json_dash_writes_the_report_on_stdout_and_the_summary_on_stderr() {
    let file = example("divide.wasm");
    let (code, stdout, stderr) = symplay(&["explore", &file, "--entry", "divide", "--json", "-"]);
    assert_eq!(code, 13, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("stdout is the report");
    assert_eq!(report["entry"], "divide");
    assert!(stderr.starts_with("explored divide with "), "{stderr}");
    assert!(!std::path::Path::new("-").exists(), "no file named `-`");
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_run() {
    let file = example("get_sign.wasm");
    let (code, stdout, stderr) = symplay(&["explore", &file, "--json", "/no/such/dir/x.json"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.starts_with("error: cannot write /no/such/dir/x.json: "),
        "{stderr}"
    );
    // Refused before the module was even read: no entry was chosen.
    assert!(!stderr.contains("exploring"), "{stderr}");
    // A run that fails leaves an earlier file as it was, and makes none.
    let dir = std::env::temp_dir();
    let kept = dir.join(format!("symplay-kept-{}.json", std::process::id()));
    std::fs::write(&kept, "earlier").unwrap();
    let fresh = dir.join(format!("symplay-fresh-{}.json", std::process::id()));
    for out in [&kept, &fresh] {
        let (code, _, _) = symplay(&[
            "explore",
            &file,
            "--entry",
            "nope",
            "--json",
            &out.to_string_lossy(),
        ]);
        assert_eq!(code, 2);
    }
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "earlier");
    assert!(!fresh.exists());
    std::fs::remove_file(&kept).ok();
}

#[test]
fn a_file_that_is_not_wasm_is_named_with_its_first_bytes() {
    let elf = std::env::temp_dir().join(format!("symplay-elf-{}.wasm", std::process::id()));
    std::fs::write(&elf, b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00").unwrap();
    let (code, _, stderr) = symplay(&["explore", &elf.to_string_lossy()]);
    std::fs::remove_file(&elf).ok();
    assert_eq!(code, 1);
    assert!(
        stderr.contains(
            r#"not a Wasm module: it starts with 7f 45 4c 46 02 01 01 00 ("\x7fELF\x02\x01\x01\x00"), where a binary module starts with 00 61 73 6d"#
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("WAT: expected"), "{stderr}");
}

#[test]
fn a_value_out_of_a_parameter_s_range_is_refused_with_the_range() {
    let divide = example("divide.wasm");
    let (code, stdout, stderr) = symplay(&[
        "explore",
        &divide,
        "--entry",
        "divide",
        "--concrete",
        "0=4294967295",
    ]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains(
            "parameter 0 is an i32 (-2147483648 to 2147483647): 4294967295 is out of range (the same bits are -1)"
        ),
        "{stderr}"
    );
}

#[test]
fn the_exit_status_says_whether_a_bug_was_found() {
    let divide = example("divide.wasm");
    let sign = example("get_sign.wasm");
    let status = |args: &[&str]| symplay(args).0;
    assert_eq!(status(&["explore", &divide, "--entry", "divide"]), 13);
    assert_eq!(
        status(&["explore", &divide, "--entry", "divide", "--exit-zero"]),
        0
    );
    assert_eq!(status(&["explore", &sign, "--entry", "get_sign"]), 0);
    assert_eq!(status(&["explore", &sign, "--no-such-option"]), 2);
    assert_eq!(status(&["explore", "/no/such/module.wasm"]), 1);
    // The statuses are in the help.
    let (_, help, _) = symplay(&["--help"]);
    assert!(
        help.contains("13  a bug was found") && help.contains("130 interrupted"),
        "{help}"
    );
}

#[test]
fn every_option_in_the_help_says_what_it_does() {
    for command in ["explore", "replay", "step", "compare"] {
        let (code, help, _) = symplay(&[command, "--help"]);
        assert_eq!(code, 0);
        let lines: Vec<&str> = help.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let option = line.trim_start();
            if !(line.starts_with("  -") || line.starts_with("      --")) {
                continue;
            }
            // The description follows on the line, or on the next one.
            let next = lines.get(i + 1).copied().unwrap_or("");
            let described = option
                .split_once("  ")
                .is_some_and(|(_, d)| !d.trim().is_empty())
                || (next.starts_with("          ") && !next.trim().is_empty());
            assert!(described, "{command}: {option} has no description");
        }
    }
    let (_, help, _) = symplay(&["explore", "--help"]);
    for option in ["--max-depth", "--max-instructions", "--max-paths"] {
        let text = help.split(option).nth(1).unwrap_or("");
        let description = text.split("\n      --").next().unwrap_or("");
        assert!(
            description.contains("None unless given"),
            "{option}: {description}"
        );
    }
}

#[test]
fn an_exit_is_an_outcome_of_its_own_with_its_code() {
    let wat = std::env::temp_dir().join(format!("symplay-exit-{}.wat", std::process::id()));
    std::fs::write(
        &wat,
        r#"(module
          (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
          (memory (export "memory") 1)
          (func (export "f") (param i32) (result i32)
            (if (i32.gt_s (local.get 0) (i32.const 10))
              (then (call $exit (i32.const 7))))
            (i32.const 0)))"#,
    )
    .unwrap();
    let (code, stdout, stderr) = symplay(&["explore", &wat.to_string_lossy(), "--entry", "f"]);
    std::fs::remove_file(&wat).ok();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with(
            "explored f with random-path+coverage-new: 2 paths (1 returned, 1 exited, 0 trapped"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("\nexit codes: 7\n"), "{stdout}");
}

#[test]
fn a_stack_that_runs_through_address_zero_is_a_stack_overflow() {
    // No data segment: the stack's bottom is the null page's end, and the
    // pointer that lands on it and then wraps past 0 is caught.
    let file = test_data("heap/deep_stack.O0.wasm");
    let (code, stdout, stderr) = symplay(&["explore", &file, "--concrete", "0=100"]);
    assert_eq!(code, 13, "{stderr}");
    assert!(
        stdout.contains("bug: path 0: stack_overflow (stack pointer set to 0xfffffff0) at step+"),
        "{stdout}"
    );
}

#[test]
fn the_allocator_exported_beside_the_program_is_not_the_default_and_runs_as_code() {
    let file = test_data("heap/libc_exports.O1.wasm");
    let (code, stdout, stderr) = symplay(&["explore", &file]);
    assert_eq!(code, 13, "{stderr}");
    assert!(
        stderr.contains("exploring `large_block`, the first exported function of the program"),
        "{stderr}"
    );
    assert!(stdout.starts_with("explored large_block "), "{stdout}");
    // malloc itself, explored by name: dlmalloc's own code, no false alarm.
    let (code, stdout, stderr) =
        symplay(&["explore", &file, "--entry", "malloc", "--max-paths", "50"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!stdout.contains("memory error"), "{stdout}");
    assert!(
        stdout.contains(
            "warning: the entry malloc is the allocator: it runs as the module's own code"
        ),
        "{stdout}"
    );
}

#[test]
fn the_ways_queries_were_answered_add_up_to_the_queries() {
    for (file, entry) in [
        ("get_sign.wasm", "get_sign"),
        ("heap_overflow.wasm", "copy_name"),
        ("checksum.wasm", "check_packet"),
        ("divide.wasm", "divide"),
    ] {
        let (_, stdout, _) = symplay(&["explore", &example(file), "--entry", entry]);
        let stats = stdout
            .lines()
            .find_map(|l| l.strip_prefix("stats: "))
            .unwrap();
        // `N queries: a simplified away, b by SAT (c SAT calls); ...`
        let counts = stats.split("; ").next().unwrap();
        let (before, parts) = counts.split_once(" queries: ").unwrap();
        let total = before.rsplit(", ").next().unwrap();
        let parts = parts.split(" (").next().unwrap();
        let sum: u64 = parts
            .split(", ")
            .map(|p| p.split(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, total.parse::<u64>().unwrap(), "{file}: {stats}");
        assert!(parts.contains("by SAT"), "{file}: {stats}");
    }
}

/// What `entry` of `memory/input_index.wat` returns on each path and its
/// readable path conditions, under `--contents contents`.
fn input_index_paths(entry: &str, contents: &str) -> (Vec<String>, Vec<String>) {
    let file = test_data("memory/input_index.wat");
    let args = [
        "explore",
        &file,
        "--entry",
        entry,
        "--contents",
        contents,
        "--json",
        "-",
    ];
    let (code, stdout, stderr) = symplay(&args);
    assert_eq!(code, 0, "{stderr}");
    let report: Report = serde_json::from_str(&stdout).unwrap();
    let returns: Vec<String> = report
        .paths
        .iter()
        .map(|p| serde_json::to_string(&p.returns).unwrap())
        .collect();
    let readable: Vec<String> = report
        .paths
        .iter()
        .map(|p| report.path_condition_readable(p))
        .collect();
    (returns, readable)
}

/// A symbolic read of an input buffer reads the input's array at the
/// offset (`text[i - 1]`); with arrays of all of memory it is a read of
/// memory at the address. Both find the same paths.
#[test]
fn a_symbolic_read_of_an_input_reads_its_array_at_the_offset() {
    let (returns, readable) = input_index_paths("before", "per-object");
    assert_eq!(returns, ["[-1]", "[1]", "[0]"]);
    assert!(
        readable[1].ends_with("&& text[i - 1] == ':'"),
        "{}",
        readable[1]
    );
    assert!(
        readable[2].ends_with("&& text[i - 1] != ':'"),
        "{}",
        readable[2]
    );
    let (whole_returns, whole) = input_index_paths("before", "whole");
    assert_eq!(whole_returns, returns);
    assert!(whole[1].ends_with("&& mem[i + 255] == ':'"), "{}", whole[1]);
}

/// length_read's header bytes, read at constant offsets after a write at
/// its symbolic length, read as the header's bytes (`headers[1]`), never
/// as memory at their address, under every size mode.
#[test]
fn bytes_read_over_a_write_at_a_symbolic_offset_read_as_the_inputs() {
    let file = example("length_read.wasm");
    for mode in ["fork-lazy", "base"] {
        let args = ["explore", &file, "--size-mode", mode, "--json", "-"];
        // Fork-lazy finds a memory error: the exit code says so.
        let (_, stdout, stderr) = symplay(&args);
        assert!(stdout.starts_with('{'), "{stderr}");
        let report: Report = serde_json::from_str(&stdout).unwrap();
        let readable: Vec<String> = report
            .paths
            .iter()
            .map(|p| report.path_condition_readable(p))
            .collect();
        assert!(
            readable.iter().any(|c| c.contains("headers[1]")),
            "{mode}: {readable:?}"
        );
        assert!(
            readable.iter().all(|c| !c.contains("mem[")),
            "{mode}: {readable:?}"
        );
    }
}

/// A write at a symbolic offset into an input buffer is one store over
/// the input's array: the read after it is the input's byte unless the
/// two offsets meet, and the runs under both contents find the same paths.
#[test]
fn a_read_after_a_write_at_a_symbolic_offset_reads_the_inputs_array_with_that_store() {
    let (returns, readable) = input_index_paths("after_write", "per-object");
    assert_eq!(returns, ["[-1]", "[-2]", "[1]", "[0]"]);
    assert!(
        readable[3].ends_with(r"&& (i - 1 == j - 1 ? '\0' : text[i - 1]) != ':'"),
        "{}",
        readable[3]
    );
    assert_eq!(input_index_paths("after_write", "whole").0, returns);
}

/// What `explore` prints for `entry` of the seed's E1 module (fork-lazy,
/// capacity 3, sizes past it left out, depth first) under SMOpt, with
/// `extra` arguments.
fn explored_e1_merging(entry: &str, extra: &[&str]) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/tests/data/heap/size/e1.wat");
    let mut args = vec![
        "explore",
        &file,
        "--entry",
        entry,
        "--size-mode",
        "fork-lazy",
    ];
    args.extend(["--capacity", "3", "--no-past-capacity", "--search", "dfs"]);
    args.extend(["--merge", "smopt"]);
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = symplay(&args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

#[test]
fn validated_smopt_merging_says_what_merged_and_that_the_solver_proved_it() {
    let text = explored_e1_merging("e1_count", &["--validate-merge"]);
    assert!(
        text.contains("\nmerging (smopt): 1 loop watched, 5 states waited at their exits (0 ended inside), 1 merge (5 states merged)\nmerge validation: 1 of 1 merge proved right, 0 wrong\n"),
        "{text}"
    );
}

#[test]
fn show_merges_prints_each_merged_condition_beside_the_states_disjunction() {
    let text = explored_e1_merging("e2", &["--show-merges"]);
    let merge = text
        .split_once("\nmerge 1 at node ")
        .map(|(_, m)| m)
        .expect(&text);
    let lines: Vec<&str> = merge.lines().collect();
    assert!(
        lines[0].contains(": 4 states (leaves ") && lines[0].ends_with(", smopt"),
        "{merge}"
    );
    assert_eq!(
        lines[1],
        "  merged condition past the loop's start: (n != 0 && z != 0 || n == 0)"
    );
    assert!(
        lines[2].starts_with("    9 DAG nodes, 1 or, 0 ite, CNF "),
        "{merge}"
    );
    assert!(
        lines[3].starts_with("  the states' disjunction: ((((("),
        "{merge}"
    );
    assert!(
        lines[4].starts_with("    21 DAG nodes, 3 or, 0 ite, CNF "),
        "{merge}"
    );
    assert!(
        lines[5].starts_with("  values: 3 differed, now "),
        "{merge}"
    );
}

/// `--show-merges` of memspn "a" (`quantified_merging.md` §2.2) merged
/// under `mode`.
fn memspn_a_merges(mode: &str) -> String {
    memspn_merges("memspn_a", mode)
}

/// `--show-merges` of memspn (`tests/data/heap/size/{name}.wat`) merged
/// as `mode` says.
fn memspn_merges(name: &str, mode: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/tests/data/heap/size/{name}.wat");
    let (code, stdout, stderr) = symplay(&[
        "explore",
        &file,
        "--entry",
        "memspn",
        "--size-mode",
        "fork-lazy",
        "--merge",
        mode,
        "--show-merges",
    ]);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

#[test]
fn show_merges_prints_the_regular_partitions_of_the_states_words() {
    let stdout = memspn_a_merges("cfg");
    let patterns = stdout
        .split_once("\n  regular patterns: ")
        .map(|(_, p)| p)
        .expect(&stdout);
    let lines: Vec<&str> = patterns.lines().collect();
    assert_eq!(lines[0], "7 words, 8 letters, 2 partitions");
    // The partitions, the words in none and the letters, four spaces in;
    // each partition's formula pattern below it, six.
    let outer: Vec<&str> = (lines.iter().copied())
        .filter(|l| l.starts_with("    ") && !l.starts_with("      "))
        .collect();
    // The first iteration's letters, then its unit k times, then how the
    // loop was left; each letter's condition below.
    assert_eq!(outer[0], "    BC (DFG)^k H: 3 states, k = 0 to 2");
    assert_eq!(outer[1], "    BC (DFG)^k DE: 3 states, k = 0 to 2");
    assert_eq!(outer[2], "    in no partition: A");
    assert_eq!(outer[3], "    A: s.len == 0");
    assert_eq!(outer[6], "    D: s[0] == 'a'");
    assert_eq!(outer[10], "    H: s[1] != 'a'");
    // φ2 over x, s[x - 1] = 'a' from the constants 0 and 1 at i = 1 and 2
    // (T4), and count as a term of x in each partition (T5).
    assert_eq!(lines[2], "      φ1 = (s.len != 0 && s.len >=u 1)");
    let x = (lines[3]
        .strip_prefix("      φ2(")
        .and_then(|l| l.split_once(')')))
    .map(|(x, _)| x)
    .expect(lines[3]);
    assert!(
        lines[3].contains(&format!("s[{x} - 1] == 'a'")),
        "{}",
        lines[3]
    );
    assert_eq!(lines[4], format!("      φ3({x}) = s[{x}] != 'a'"));
    let fit = format!("      φ2's constants 0, 1 (32 bits) at {x} = 1, 2: {x} - 1");
    assert_eq!(lines.iter().filter(|&&l| l == fit).count(), 2, "{patterns}");
    let counts: Vec<&str> = (lines.iter().copied())
        .filter(|l| l.starts_with("      local 2 of frame 0 = "))
        .collect();
    assert_eq!(
        counts,
        [
            format!("      local 2 of frame 0 = {x}"),
            format!("      local 2 of frame 0 = {x} + 1")
        ]
    );
}

#[test]
fn pat_merges_memspn_over_ab_incrementally_and_shows_where() {
    // Each of the three iterations merges its two ways at the loop's
    // head, below the node where they parted; the exit's states then
    // merge over two k's as over "a".
    let stdout = memspn_merges("memspn_ab", "pat");
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("merging (pat)"))
        .unwrap();
    assert!(
        summary.ends_with("; 2 over a k, 3 incremental)"),
        "{summary}"
    );
    let incremental: Vec<&str> = (stdout.lines())
        .filter(|l| l.contains(", incrementally below node "))
        .collect();
    assert_eq!(incremental.len(), 3, "{stdout}");
    for (i, line) in incremental.iter().enumerate() {
        assert!(line.contains(": 2 states (nodes "), "{line}");
        assert!(line.contains(" in the loop at memspn+0x"), "{line}");
        let condition = stdout.split(*line).nth(1).unwrap().lines().nth(1).unwrap();
        assert_eq!(
            condition,
            format!("  merged condition past the loop's start: (s[{i}] == 'a' || s[{i}] != 'a' && s[{i}] == 'b')")
        );
    }
    // A query over k answered by duplication names the cell it copied.
    let duplicated = stdout
        .lines()
        .find(|l| l.starts_with("    sat at duplicate, "));
    assert!(
        duplicated.unwrap().ends_with(" (duplicated s[1])"),
        "{stdout}"
    );
}

#[test]
fn pat_merges_memspns_partitions_over_a_k_and_shows_their_quantified_queries() {
    let stdout = memspn_a_merges("pat");
    assert!(
        stdout.contains("2 merges (6 states merged; 2 over a k, 0 incremental)"),
        "{stdout}"
    );
    // Each merge's k, the leaf of each k, and the queries over k: the
    // merged path's test asks for a model of the quantified condition.
    let overs: Vec<&str> = (stdout.lines())
        .filter(|l| l.starts_with("  over k"))
        .collect();
    assert_eq!(overs.len(), 2, "{stdout}");
    for over in overs {
        let (k, leaves) = over["  over ".len()..].split_once(": ").unwrap();
        let ks: Vec<&str> = leaves
            .split(", ")
            .map(|l| l.split(':').next().unwrap())
            .collect();
        assert_eq!(ks, [0, 1, 2].map(|j| format!("{k} = {j}")), "{over}");
        let queries = format!("  quantified queries over {k}: ");
        let line = stdout.lines().find(|l| l.starts_with(&queries)).unwrap();
        let asked: usize = line[queries.len()..].parse().unwrap();
        assert!(asked >= 1, "{line}");
        let next = stdout.split(line).nth(1).unwrap().lines().nth(1).unwrap();
        assert!(next.starts_with("    sat at "), "{next}");
        assert!(next.contains(&format!("{k} = ")), "{next}");
    }
}
