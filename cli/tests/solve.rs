//! `symplay solve` end to end: answers, models, values, budgets, and errors
//! for malformed scripts.

use std::io::Write;
use std::process::{Command, Stdio};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn symplay(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_symplay"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("symplay starts");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin is written");
    let out = child.wait_with_output().expect("symplay finishes");
    let run = Run {
        code: out.status.code().expect("symplay exits normally"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    };
    assert!(!run.stderr.contains("panicked"), "panic: {}", run.stderr);
    run
}

fn solve(script: &str) -> Run {
    symplay(&["solve", "-"], script)
}

fn solve_ok(script: &str) -> String {
    let run = solve(script);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    run.stdout
}

const SCRIPT: &str = "
(set-logic QF_ABV)
(declare-const x (_ BitVec 8))
(declare-const y (_ BitVec 8))
(declare-const flag Bool)
(declare-const mem (Array (_ BitVec 32) (_ BitVec 8)))
(assert (= (bvadd x y) #x10))
(assert (bvugt x #x03))
(assert (= flag (bvult y x)))
(assert (= (select mem #x00000004) (bvmul x #x02)))
";

#[test]
fn one_answer_line_per_check_sat() {
    let out = solve_ok(&format!(
        "{SCRIPT}
        (check-sat)
        (push 1)
        (assert (= x y))
        (assert (bvult x #x80))
        (assert (not (= x #x08)))
        (check-sat)
        (pop 1)
        (check-sat-assuming ((= x #x04)))
        (check-sat-assuming ((= x #x02)))"
    ));
    assert_eq!(out, "sat\nunsat\nsat\nunsat\n");
}

#[test]
fn the_model_is_smtlib_that_satisfies_the_assertions() {
    let out = solve_ok(&format!("{SCRIPT}(check-sat)(get-model)"));
    let model = out.strip_prefix("sat\n").expect("sat first");
    assert!(
        model.starts_with("(\n") && model.ends_with(")\n"),
        "{model}"
    );
    for name in ["x", "y", "flag", "mem"] {
        assert!(
            model.contains(&format!("(define-fun {name} () ")),
            "{model}"
        );
    }
    // The model's definitions replace the declarations: the assertions must
    // then hold, which the simplifier alone decides.
    let definitions = &model[1..model.len() - 2];
    let assertions: String = SCRIPT
        .lines()
        .filter(|l| l.starts_with("(assert"))
        .collect::<Vec<_>>()
        .join("\n");
    let replay = format!("{definitions}\n{assertions}\n(check-sat)\n");
    assert_eq!(solve_ok(&replay), "sat\n", "replayed:\n{replay}");
    if let Some(z3) = z3_answer(&replay) {
        assert_eq!(z3, "sat\n", "z3 reads the model back");
    }
}

#[test]
fn a_bounded_forall_is_answered_as_z3_answers_it() {
    // quantified_merging.md §6.4's query with k pinned: s[k - 1] = 8,
    // s[i - 1] != 0 for i in [1, k], and s[n] = 0 for an n past it or in it.
    let query = |k: u32, n: u32| {
        format!(
            "(set-logic ABV)\n(declare-fun s () (Array (_ BitVec 32) (_ BitVec 8)))\n\
             (assert (forall ((i (_ BitVec 32))) (=> (and (bvule #x00000001 i) (bvule i #x{k:08x})) \
             (not (= (select s (bvsub i #x00000001)) #x00)))))\n\
             (assert (= (select s #x{:08x}) #x08))\n(assert (= (select s #x{n:08x}) #x00))\n",
            k - 1
        )
    };
    for (k, n, answer) in [
        (7, 7, "sat"),
        (7, 3, "unsat"),
        (1, 1, "sat"),
        (10, 0, "unsat"),
    ] {
        let script = query(k, n);
        let model = if answer == "sat" { "(get-model)" } else { "" };
        let out = solve_ok(&format!("{script}(check-sat){model}"));
        assert!(
            out.starts_with(&format!("{answer}\n")),
            "k = {k}, n = {n}: {out}"
        );
        if let Some(z3) = z3_answer(&format!("{script}(check-sat)")) {
            assert_eq!(z3, format!("{answer}\n"), "z3, k = {k}, n = {n}");
        }
        // A model replays: its definitions in place of the declaration.
        if answer == "sat" {
            let model = out.strip_prefix("sat\n").expect("sat first");
            let definitions = &model[1..model.len() - 2];
            // (ABV has no constant arrays: z3 wants ALL for the model.)
            let replay = script
                .replace(
                    "(declare-fun s () (Array (_ BitVec 32) (_ BitVec 8)))",
                    definitions,
                )
                .replace("ABV", "ALL");
            assert_eq!(
                solve_ok(&format!("{replay}(check-sat)")),
                "sat\n",
                "{replay}"
            );
            if let Some(z3) = z3_answer(&format!("{replay}(check-sat)")) {
                assert_eq!(z3, "sat\n", "z3 reads the model back: {replay}");
            }
        }
    }
    // Over a symbolic bound (the procedure of §6): as z3 answers, and a
    // model replays with every symbol defined.
    let declarations = "(declare-fun s () (Array (_ BitVec 32) (_ BitVec 8)))\n\
        (declare-fun k () (_ BitVec 32))\n(declare-fun n () (_ BitVec 32))\n";
    let all = "(assert (forall ((i (_ BitVec 32))) (=> (and (bvule #x00000001 i) (bvule i k)) \
        (not (= (select s (bvsub i #x00000001)) #x00)))))\n\
        (assert (bvule #x00000001 k))(assert (bvule k #x0000000a))\n";
    for (extra, answer) in [
        (
            "(assert (= (select s n) #x00))(assert (= (select s (bvsub k #x00000001)) #x08))",
            "sat",
        ),
        ("(assert (= (select s #x00000000) #x00))", "unsat"),
        (
            "(assert (= (select s n) #x00))(assert (bvult n k))",
            "unsat",
        ),
    ] {
        let body = format!("{all}{extra}\n");
        let script = format!("(set-logic ALL)\n{declarations}{body}");
        let model = if answer == "sat" { "(get-model)" } else { "" };
        let out = solve_ok(&format!("{script}(check-sat){model}"));
        assert!(out.starts_with(&format!("{answer}\n")), "{extra}: {out}");
        if let Some(z3) = z3_answer(&format!("{script}(check-sat)")) {
            assert_eq!(z3, format!("{answer}\n"), "z3, {extra}");
        }
        if answer == "sat" {
            let model = out.strip_prefix("sat\n").expect("sat first");
            let definitions = &model[1..model.len() - 2];
            let replay = format!("(set-logic ALL)\n{definitions}\n{body}(check-sat)");
            assert_eq!(solve_ok(&replay), "sat\n", "{replay}");
            if let Some(z3) = z3_answer(&replay) {
                assert_eq!(z3, "sat\n", "z3 reads the model back: {replay}");
            }
        }
    }
    // A forall under a negation is outside what is solved: unknown, and why.
    let negated = format!(
        "(set-logic ALL)\n{declarations}(assert (not (forall ((i (_ BitVec 32))) \
         (=> (and (bvule #x00000001 i) (bvule i k)) (= (select s i) #x00)))))\n\
         (check-sat)(get-info :reason-unknown)"
    );
    let out = solve_ok(&negated);
    assert!(out.starts_with("unknown\n"), "{out}");
    assert!(out.contains("a forall under a negation"), "{out}");
}

/// z3's answer to `script`, when z3 is installed.
fn z3_answer(script: &str) -> Option<String> {
    let mut child = Command::new("z3")
        .arg("-in")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(script.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    String::from_utf8(out.stdout).ok()
}

#[test]
fn get_value_echoes_each_term() {
    let out = solve_ok(
        "(declare-const x (_ BitVec 8))
         (assert (= x #x05))
         (check-sat)
         (get-value (x (bvadd x #x01) (bvult x   #x03)))",
    );
    assert_eq!(
        out,
        "sat\n((x #x05)\n ((bvadd x #x01) #x06)\n ((bvult x   #x03) false))\n"
    );
}

#[test]
fn named_terms_let_and_definitions_in_a_script() {
    let out = solve_ok(
        "(declare-const a (_ BitVec 16))
         (define-fun double ((v (_ BitVec 16))) (_ BitVec 16) (bvshl v #x0001))
         (assert (! (= (double a) #x0010) :named doubled))
         (assert (let ((low ((_ extract 7 0) a)) (high ((_ extract 15 8) a)))
                   (and (bvuge low #x08) (= high #x00))))
         (check-sat)
         (get-value (a doubled))",
    );
    assert_eq!(out, "sat\n((a #x0008)\n (doubled true))\n");
}

#[test]
fn reads_files_as_well_as_standard_input() {
    let path = std::env::temp_dir().join(format!("symplay-cli-test-{}.smt2", std::process::id()));
    std::fs::write(
        &path,
        "(declare-const p Bool)(assert (and p (not p)))(check-sat)",
    )
    .unwrap();
    let run = symplay(&["solve", path.to_str().unwrap()], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!((run.code, run.stdout.as_str()), (0, "unsat\n"));
    let missing = symplay(&["solve", "/nonexistent/script.smt2"], "");
    assert_eq!(missing.code, 1);
    assert!(
        missing
            .stderr
            .starts_with("error: cannot read /nonexistent/script.smt2"),
        "{}",
        missing.stderr
    );
}

#[test]
fn missing_models_are_error_lines_and_exit_code_one() {
    let run = solve(
        "(declare-const p Bool)
         (get-model)
         (assert (and p (not p)))
         (check-sat)
         (get-value (p))
         (echo \"still running\")",
    );
    assert_eq!(
        run.stdout,
        "(error \"line 2 column 10: model is not available\")\n\
         unsat\n\
         (error \"line 5 column 10: model is not available\")\n\
         still running\n"
    );
    assert_eq!(run.code, 1);
}

#[test]
fn print_success_and_info() {
    let out = solve_ok(
        "(set-option :print-success true)
         (set-logic QF_BV)
         (declare-fun b () Bool)
         (get-info :name)
         (check-sat)
         (exit)",
    );
    assert_eq!(
        out,
        "success\nsuccess\nsuccess\n(:name \"Symplay\")\nsat\nsuccess\n"
    );
    let run = solve("(set-option :smt.arith.solver 2)(check-sat)");
    assert_eq!((run.code, run.stdout.as_str()), (0, "sat\n"));
    assert_eq!(
        run.stderr,
        "warning: 1:13: unsupported option ':smt.arith.solver', ignored\n"
    );
}

/// Factoring 4294967291 * 4294967279, a product of two 32-bit primes,
/// takes many conflicts.
const FACTORING: &str = "
(declare-const p (_ BitVec 64))
(declare-const q (_ BitVec 64))
(assert (bvult p #x0000000100000000))
(assert (bvult q #x0000000100000000))
(assert (bvugt p #x0000000000000001))
(assert (bvugt q #x0000000000000001))
(assert (= (bvmul p q) #xffffffea00000055))
(check-sat)
(get-info :reason-unknown)
";

#[test]
fn budgets_turn_hard_queries_into_unknown() {
    let run = symplay(&["solve", "--max-conflicts", "1", "-"], FACTORING);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("unknown\n(:reason-unknown \""),
        "{}",
        run.stdout
    );
    let run = symplay(&["solve", "--timeout-ms", "1", "-"], FACTORING);
    assert!(run.stdout.starts_with("unknown\n"), "{}", run.stdout);
    let run = solve(&format!("(set-option :timeout 1){FACTORING}"));
    assert!(run.stdout.starts_with("unknown\n"), "{}", run.stdout);
}

#[test]
fn stats_go_to_standard_error() {
    let run = symplay(
        &["solve", "--stats", "-"],
        "(declare-const x (_ BitVec 8))(assert (bvult x #x01))(check-sat)",
    );
    assert_eq!((run.code, run.stdout.as_str()), (0, "sat\n"));
    for part in [
        "queries: 1 (sat 1",
        "simplify",
        "independence",
        "query cache",
        "cex cache",
        "sat variables:",
    ] {
        assert!(
            run.stderr.contains(part),
            "{part} missing from {}",
            run.stderr
        );
    }
}

#[test]
fn malformed_scripts_fail_with_position_and_construct() {
    let cases: &[(&str, &str)] = &[
        (
            "(declare-const x (_ BitVec 8))\n(assert (= x #x00)",
            "error: 2:1: unbalanced parentheses: '(' opened here is never closed",
        ),
        (
            "(check-sat))",
            "error: 1:12: unbalanced parentheses: ')' has no matching '('",
        ),
        ("(declare-const r Real)", "error: 1:18: unknown sort 'Real'"),
        (
            "(declare-const a (_ BitVec 8))\n(declare-const b (_ BitVec 16))\n(assert (= (bvadd a b) a))",
            "error: 3:12: bvadd expects operands of one width, got (_ BitVec 8) and (_ BitVec 16)",
        ),
        (
            "(declare-const x Bool)\n(assert (or x y))",
            "error: 2:15: undeclared symbol 'y'",
        ),
        (
            "(declare-const w (_ BitVec 65))",
            "error: 1:18: bit-vector width 65 is not supported: widths are 1 to 64",
        ),
        (
            "(declare-const a (Array (_ BitVec 32) (_ BitVec 32)))",
            "error: 1:18: array sort '(Array (_ BitVec 32) (_ BitVec 32))' is not supported",
        ),
        ("(check-sat)\n(solve-everything)", "error: 2:2: unknown command 'solve-everything'"),
        (
            "(declare-fun f ((_ BitVec 8)) Bool)",
            "error: 1:1: declare-fun 'f' has arguments: uninterpreted functions are not supported",
        ),
        ("(assert (= #b102 #b101))", "error: 1:12: bad literal '#b102'"),
        ("(set-logic QF_NRA)", "error: 1:12: unsupported logic 'QF_NRA'"),
        ("(assert (bvadd #x1))", "error: 1:9: bvadd expects at least 2 arguments, got 1"),
        ("(echo \"unterminated)", "error: 1:7: unterminated string literal"),
    ];
    for (script, expected) in cases {
        let run = solve(script);
        assert_eq!(run.code, 1, "script {script:?}: stdout {}", run.stdout);
        assert!(
            run.stderr.starts_with(expected),
            "script {script:?}: stderr {:?}, expected {expected:?}",
            run.stderr
        );
    }
}

#[test]
fn output_before_an_error_is_kept() {
    let run = solve("(check-sat)\n(assert (bvneg #x01))");
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "sat\n");
    assert_eq!(
        run.stderr,
        "error: 2:9: assert expects a Bool term, got (_ BitVec 8)\n"
    );
}

#[test]
fn deeply_nested_input_does_not_overflow_the_stack() {
    let depth = 200_000;
    let run = solve(&format!(
        "(assert {}true{})(check-sat)",
        "(not ".repeat(depth),
        ")".repeat(depth)
    ));
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "sat\n"),
        "{}",
        run.stderr
    );
    let run = solve(&"(".repeat(depth));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "error: 1:1: unbalanced parentheses: '(' opened here is never closed\n"
    );
}

#[test]
fn bad_command_lines_exit_with_two_and_unreadable_files_with_one() {
    let run = symplay(&["solve", "--max-conflicts", "many", "-"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("'many'"), "{}", run.stderr);
    let run = symplay(&["prove", "x.smt2"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("'prove'"), "{}", run.stderr);
    let run = symplay(&["solve", "/no/such/file.smt2"], "");
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .starts_with("error: cannot read /no/such/file.smt2"),
        "{}",
        run.stderr
    );
    let run = symplay(&["--help"], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("solve"), "{}", run.stdout);
}

#[test]
fn input_that_is_not_text_is_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_symplay"))
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("symplay starts");
    let bytes: Vec<u8> = (0..=255u8).rev().collect();
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(&bytes)
        .expect("written");
    let out = child.wait_with_output().expect("symplay finishes");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("UTF-8") && !stderr.contains("panicked"),
        "{stderr}"
    );
}
