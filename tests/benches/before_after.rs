//! Before and after a change: builds `symplay` at a base commit (the
//! previous one, or `SYMPLAY_BENCH_BASE`) in a git worktree of its own and
//! at the working tree, explores every integer entry of every C example
//! with each (default options, the same for both), and prints the
//! exploration time (the report's `total_ms`, median of the runs) and peak
//! memory (the report's, measured by the allocator) side by side with their
//! ratios. An entry whose path count changed is listed, not timed (a
//! change of behaviour, to be on purpose). An entry more than 10% slower
//! after than before (of those taking at least a millisecond, where timing
//! is not noise) fails the bench.
//!
//! Run with `cargo bench -p symplay-tests --bench before_after`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per entry and binary (default 5).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use symplay_tests::corpus::{c_examples, integer_entries};

const DEFAULT_RUNS: usize = 5;
/// Slower than this ratio after / before fails.
const SLOWER: f64 = 1.10;
/// Entries quicker than this (in both) are shown but not judged.
const MIN_JUDGED_MS: f64 = 1.0;

fn main() -> ExitCode {
    symplay_tests::bench_exit(run())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `command`, failing with its output when it fails.
fn checked(command: &mut Command) -> Result<Vec<u8>, String> {
    let out = command.output().map_err(|e| format!("{command:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{command:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out.stdout)
}

/// Builds the release CLI of the workspace at `dir` into `target`.
fn build(dir: &Path, target: &Path) -> Result<PathBuf, String> {
    checked(
        Command::new(env!("CARGO"))
            .current_dir(dir)
            .args(["build", "--quiet", "--release", "-p", "symplay-cli"])
            .arg("--target-dir")
            .arg(target),
    )?;
    Ok(target.join("release/symplay"))
}

/// The base commit's CLI, built in a worktree under `target/bench-base`.
fn build_base(base: &str) -> Result<(String, PathBuf), String> {
    let root = root();
    let commit =
        checked(
            Command::new("git")
                .current_dir(&root)
                .args(["rev-parse", "--short", base]),
        )?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    let place = root.join("target/bench-base");
    let tree = place.join("tree");
    if tree.exists() {
        checked(
            Command::new("git")
                .current_dir(&tree)
                .args(["checkout", "--quiet", "--detach", &commit]),
        )?;
    } else {
        checked(
            Command::new("git")
                .current_dir(&root)
                .args(["worktree", "add", "--quiet", "--detach"])
                .arg(&tree)
                .arg(&commit),
        )?;
    }
    let binary = build(&tree, &place.join("target"))?;
    Ok((commit, binary))
}

/// One exploration's time (ms), peak memory (bytes) and paths.
struct Measure {
    ms: f64,
    peak: u64,
    paths: u64,
}

fn explore(binary: &Path, module: &Path, entry: &str, out: &Path) -> Result<Measure, String> {
    checked(
        Command::new(binary)
            .arg("explore")
            .arg(module)
            .args(["--entry", entry, "--json"])
            .arg(out),
    )?;
    let text = std::fs::read_to_string(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let report: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let stats = &report["stats"];
    let number = |v: &Value, what: &str| {
        v.as_f64()
            .ok_or_else(|| format!("{}: no {what} in the report", module.display()))
    };
    Ok(Measure {
        ms: number(&stats["timing"]["total_ms"], "total_ms")?,
        peak: number(&stats["peak_memory_bytes"], "peak_memory_bytes")? as u64,
        paths: number(&stats["paths"], "paths")? as u64,
    })
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Median time and peak of `runs` explorations, and the paths found.
fn measure(
    binary: &Path,
    module: &Path,
    entry: &str,
    runs: usize,
    out: &Path,
) -> Result<(f64, f64, u64), String> {
    let mut times = Vec::new();
    let mut peaks = Vec::new();
    let mut paths = 0;
    for _ in 0..runs {
        let m = explore(binary, module, entry, out)?;
        times.push(m.ms);
        peaks.push(m.peak as f64);
        paths = m.paths;
    }
    Ok((median(times), median(peaks), paths))
}

fn run() -> Result<bool, String> {
    let runs: usize =
        match std::env::var("SYMPLAY_BENCH_RUNS") {
            Ok(v) => v.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                format!("SYMPLAY_BENCH_RUNS must be a positive number, not {v:?}")
            })?,
            Err(_) => DEFAULT_RUNS,
        };
    let base = std::env::var("SYMPLAY_BENCH_BASE").unwrap_or_else(|_| "HEAD~1".into());
    eprintln!("building {base} and the working tree (release)...");
    let (commit, before) = build_base(&base)?;
    let after = build(&root(), &root().join("target"))?;
    let out = std::env::temp_dir().join(format!("symplay-bench-{}.json", std::process::id()));
    let mib = |b: f64| b / (1024.0 * 1024.0);

    println!("before: {commit}, after: the working tree; median of {runs} runs, default options");
    println!(
        "{:<34} {:>6} {:>10} {:>10} {:>6} {:>9} {:>9} {:>6}",
        "entry", "paths", "before ms", "after ms", "ratio", "before MiB", "after MiB", "ratio"
    );
    let mut slower = Vec::new();
    let mut changed = Vec::new();
    for example in c_examples()? {
        let module = root().join("static/examples/c").join(&example.name);
        for entry in integer_entries(&example.module) {
            let name = format!("{}:{entry}", example.name);
            // An example newer than the base may use what it lacks.
            let Ok((t0, m0, p0)) = measure(&before, &module, &entry, runs, &out) else {
                println!("{name:<34} (the base cannot run it)");
                continue;
            };
            let (t1, m1, p1) = measure(&after, &module, &entry, runs, &out)?;
            // A change of behaviour is shown, not timed against the old one.
            if p0 != p1 {
                println!("{name:<34} {p0:>3} -> {p1} paths: not compared");
                changed.push(name);
                continue;
            }
            let ratio = t1 / t0.max(f64::MIN_POSITIVE);
            let judged = t0.max(t1) >= MIN_JUDGED_MS;
            let mark = if judged && ratio > SLOWER {
                " slower"
            } else {
                ""
            };
            if !mark.is_empty() {
                slower.push(name.clone());
            }
            println!(
                "{name:<34} {p1:>6} {t0:>10.2} {t1:>10.2} {ratio:>6.2} {:>9.1} {:>9.1} {:>6.2}{mark}",
                mib(m0),
                mib(m1),
                m1 / m0.max(1.0)
            );
        }
    }
    let _ = std::fs::remove_file(&out);
    if !changed.is_empty() {
        println!("paths changed (on purpose?): {}", changed.join(", "));
    }
    if slower.is_empty() {
        println!("no entry more than 10% slower");
        Ok(true)
    } else {
        println!("more than 10% slower: {}", slower.join(", "));
        Ok(false)
    }
}
