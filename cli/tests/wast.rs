//! `symplay wast` end to end: failing directives and the summary, exit
//! codes, symbolic mode, and errors for bad scripts and missing files.

use std::path::PathBuf;
use std::process::Command;

fn symplay(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_symplay"))
        .args(args)
        .output()
        .expect("symplay runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        out.status.code().expect("exits normally"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

/// Writes `text` to a fresh file named after the test.
fn script(name: &str, text: &str) -> String {
    let path: PathBuf =
        std::env::temp_dir().join(format!("symplay-wast-{}-{name}.wast", std::process::id()));
    std::fs::write(&path, text).expect("temp file written");
    path.to_string_lossy().into_owned()
}

const PASSING: &str = r#"
(module
  (memory 1)
  (global $n (mut i32) (i32.const 0))
  (func (export "count") (result i32)
    (global.set $n (i32.add (global.get $n) (i32.const 1))) (global.get $n))
  (func (export "div") (param i32 i32) (result i32) (i32.div_s (local.get 0) (local.get 1)))
  (func (export "two") (result i32 i32) (i32.const 1) (i32.const 2)))
(assert_return (invoke "count") (i32.const 1))
(assert_return (invoke "count") (i32.const 2))
(assert_return (invoke "div" (i32.const 7) (i32.const -2)) (i32.const -3))
(assert_trap (invoke "div" (i32.const 1) (i32.const 0)) "integer divide by zero")
(assert_return (invoke "two") (i32.const 1) (i32.const 2))
(assert_invalid (module (func (result i32) (i64.const 0))) "type mismatch")
"#;

#[test]
fn a_passing_script_prints_the_summary_and_exits_zero() {
    let file = script("pass", PASSING);
    for extra in [&[][..], &["--symbolic"][..]] {
        let mut args = vec!["wast", &file];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = symplay(&args);
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert_eq!(stdout, "7 directives: 7 passed, 0 failed, 0 skipped\n");
    }
}

#[test]
fn wasm_1_0_rejects_what_later_versions_allow() {
    let file = script("v1", PASSING);
    let (code, stdout, _) = symplay(&["wast", "--wasm", "1.0", &file]);
    assert_eq!(code, 1);
    // The module with a two-result function is invalid in 1.0, so the calls
    // after it have no module.
    assert!(
        stdout.contains(":2:2: module: the module does not load"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("7 directives: 1 passed, 6 failed, 0 skipped\n"),
        "{stdout}"
    );
}

#[test]
fn failing_directives_name_their_position_and_what_happened() {
    let file = script(
        "fail",
        r#"(module (func (export "one") (result i32) (i32.const 1)))
(assert_return (invoke "one") (i32.const 2))
(assert_trap (invoke "one") "unreachable")
(assert_return (invoke "missing") (i32.const 1))
(assert_return (invoke "one") (i32.const 1))
"#,
    );
    let (code, stdout, _) = symplay(&["wast", &file]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            format!("{file}:2:2: assert_return: expected (i32.const 2), got (i32.const 1)"),
            format!(
                "{file}:3:2: assert_trap: expected trap unreachable (\"unreachable\"), got (i32.const 1)"
            ),
            format!("{file}:4:2: assert_return: no exported function `missing`"),
            "5 directives: 2 passed, 3 failed, 0 skipped".to_string(),
        ]
    );
}

#[test]
fn bad_scripts_and_missing_files_are_errors() {
    let garbage = script(
        "garbage",
        "(module (func (export \"f\"))\n  (assert_bogus 1)\n",
    );
    let (code, stdout, stderr) = symplay(&["wast", &garbage]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.starts_with(&format!("error: {garbage}:2:4: ")),
        "{stderr}"
    );
    let binary = script("binary", "\0asm\x01\0\0\0");
    let (code, _, stderr) = symplay(&["wast", &binary]);
    assert_eq!(code, 1);
    assert!(stderr.starts_with("error: "), "{stderr}");
    let (code, _, stderr) = symplay(&["wast", "/nonexistent/script.wast"]);
    assert_eq!(code, 1);
    assert!(
        stderr.starts_with("error: cannot read /nonexistent/script.wast"),
        "{stderr}"
    );
}
