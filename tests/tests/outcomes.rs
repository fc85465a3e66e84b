//! Every outcome of optimised code shows. The functions of
//! `tests/data/outcomes/outcomes.c` compute most of their branches as
//! values once clang optimises them (selects, lookup tables, comparisons'
//! results). Each runs natively (compiled by the machine's C compiler) over
//! a grid of inputs, which gives the outcomes the C program can produce;
//! exploring each of its Wasm builds (`-O0`, `-O1`, `-O2`) with the default
//! options must report every one of them, each on a path whose test input
//! replays to it, and natively gives it too.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use symplay_engine::exec::{explore, replay, Options};
use symplay_engine::report::{Number, PathReport, Status};

/// The functions and how many `int` parameters each takes.
const FUNCTIONS: [(&str, usize); 17] = [
    ("classify", 2),
    ("clamp3", 1),
    ("sign", 1),
    ("min_max", 2),
    ("abs_bucket", 1),
    ("weekday_hours", 1),
    ("pi_digit", 1),
    ("bump", 1),
    ("square_root_of", 1),
    ("valid_port", 1),
    ("char_class", 1),
    ("positives", 2),
    ("argmax3", 3),
    ("grade", 1),
    ("parity_side", 1),
    ("leap_year", 1),
    ("is_number", 3),
];

const LEVELS: [&str; 3] = ["O0", "O1", "O2"];

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/outcomes")
}

/// Values each parameter takes in the grid: the edges of `int`, small
/// numbers, the characters the text functions test, the squares, the
/// years and the port range's ends.
fn values(arity: usize) -> Vec<i32> {
    let mut v: Vec<i32> = vec![
        i32::MIN,
        i32::MIN + 1,
        -65536,
        -1000,
        i32::MAX,
        i32::MAX - 1,
    ];
    v.extend([65534, 65535, 65536, 1900, 2000, 2024, 2023, 400, 100]);
    v.extend((0..10).map(|i| i * i));
    v.extend(['-', '0', '5', '9', 'a', 'Q', 'z', ' ', '/', ':'].map(|c| c as i32));
    let small = if arity == 1 { -300..=300 } else { -12..=24 };
    v.extend(small);
    v.sort_unstable();
    v.dedup();
    v
}

/// Every combination of `values` for `arity` parameters.
fn grid(arity: usize) -> Vec<Vec<i32>> {
    let values = values(arity);
    let mut calls = vec![Vec::new()];
    for _ in 0..arity {
        calls = calls
            .into_iter()
            .flat_map(|prefix: Vec<i32>| {
                values.iter().map(move |&x| {
                    let mut call = prefix.clone();
                    call.push(x);
                    call
                })
            })
            .collect();
    }
    calls
}

/// The native build of the functions, made once per test run.
fn native() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let out = std::env::temp_dir().join(format!("symplay-outcomes-{}", std::process::id()));
        let status = Command::new("cc")
            .arg("-O1")
            .arg(data().join("native_main.c"))
            .arg("-o")
            .arg(&out)
            .status()
            .expect("the machine's C compiler `cc` runs");
        assert!(status.success(), "cc could not build native_main.c");
        out
    })
}

/// `function`'s result for each call, run natively.
fn run_natively(function: &str, calls: &[Vec<i32>]) -> Vec<i32> {
    let mut child = Command::new(native())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the native build runs");
    let mut input = String::new();
    for call in calls {
        let mut args = call.clone();
        args.resize(3, 0);
        input.push_str(&format!("{function} {} {} {}\n", args[0], args[1], args[2]));
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "the native build failed on {function}"
    );
    let results: Vec<i32> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(results.len(), calls.len(), "{function}: a result per call");
    results
}

/// The single `i32` a path returned.
fn returned(p: &PathReport) -> Option<i32> {
    match (p.status, p.returns.as_slice()) {
        (Status::Returned, [Number::Int(v)]) => Some(*v as i32),
        _ => None,
    }
}

#[test]
fn every_outcome_of_every_optimisation_level_is_reported_with_a_replaying_test() {
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for level in LEVELS {
        let file = data().join(format!("outcomes-{level}.wasm"));
        let module = symplay_wasm::load(&std::fs::read(&file).unwrap()).unwrap();
        for (function, arity) in FUNCTIONS {
            let calls = grid(arity);
            let expected: BTreeSet<i32> = run_natively(function, &calls).into_iter().collect();
            let report = explore(&module, function, &Options::default())
                .unwrap_or_else(|e| panic!("{function} -{level}: {e}"));
            // Each path's outcome, and the input that gives it.
            let mut found: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
            for p in &report.paths {
                let Some(value) = returned(p) else {
                    failures.push(format!("{function} -{level}: path {} {:?}", p.id, p.status));
                    continue;
                };
                let input: Vec<i32> = p.inputs.args.iter().map(|&a| a as i32).collect();
                let again = replay(&module, function, &p.inputs).map(|r| returned(&r));
                if again != Ok(Some(value)) {
                    failures.push(format!(
                        "{function} -{level}: path {} returned {value}, its replay {again:?}",
                        p.id
                    ));
                }
                found.entry(value).or_insert(input);
            }
            let missing: Vec<&i32> = expected.iter().filter(|v| !found.contains_key(v)).collect();
            if !missing.is_empty() {
                failures.push(format!(
                    "{function} -{level}: outcomes {missing:?} of {expected:?} not reported (found {:?})",
                    found.keys().collect::<Vec<_>>()
                ));
            }
            // What the paths say their inputs give is what C gives them.
            let inputs: Vec<Vec<i32>> = found.values().cloned().collect();
            let native = run_natively(function, &inputs);
            for ((value, input), native) in found.iter().zip(native) {
                if *value != native {
                    failures.push(format!(
                        "{function} -{level}: input {input:?} reported as {value}, natively {native}"
                    ));
                }
            }
            assert_eq!(report.stop_reason, "completed", "{function} -{level}");
            summary.push(format!("{function} -{level}: {}", report.paths.len()));
        }
    }
    println!("paths per function and level: {}", summary.join(", "));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn with_selects_as_ite_values_and_no_result_split_outcomes_hide() {
    // The rules are what shows them: without both, -O1's clamp3 returns
    // one term on one path, and weekday_hours's lookup table one term for
    // the days in range.
    let module =
        symplay_wasm::load(&std::fs::read(data().join("outcomes-O1.wasm")).unwrap()).unwrap();
    let mut options = Options::default();
    options.outcomes.fork_selects = false;
    options.outcomes.result_values = 0;
    for (function, outcomes) in [("clamp3", 3), ("weekday_hours", 8)] {
        let distinct = |options: &Options| {
            let report = explore(&module, function, options).unwrap();
            assert_eq!(report.outcomes, options.outcomes);
            let values: BTreeSet<Option<i32>> = report.paths.iter().map(returned).collect();
            values.len()
        };
        assert!(distinct(&options) < outcomes, "{function}");
        assert_eq!(distinct(&Options::default()), outcomes, "{function}");
    }
}
