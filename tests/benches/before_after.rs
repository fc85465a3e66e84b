//! Before and after a change: builds `symplay` at a base commit (the
//! previous one, or `SYMPLAY_BENCH_BASE`) in a git worktree of its own and
//! at the working tree, explores every integer entry of every C example
//! with each (default options, the same for both; the runs of the two
//! taken in turns, so that a change in the machine's load touches both),
//! and prints the exploration time (the report's `total_ms`, the quickest
//! of the runs: the work is the same every time, which other processes
//! only slow) and peak memory (the report's, measured by the allocator,
//! median of the runs) side by side with their ratios. The bench fails when an entry finds other paths
//! after than before or the base cannot run it, unless the example's golden
//! report (`tests/golden/<example>.json`) changed since the base too: a
//! change of behaviour on purpose, reviewed in that diff, which is listed
//! and not timed. The goal: no entry more than 10% slower after than
//! before (of those taking at least a millisecond, where timing is not
//! noise).
//!
//! Run with `cargo bench -p symplay-tests --bench before_after`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per entry and binary (default 5, 3 in
//! the short form).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use symplay_tests::bench::{self, checked, median_of, number, Bound, Settings};
use symplay_tests::corpus::{c_examples, integer_entries};

/// Goal: no judged entry slower than this ratio after / before.
const SLOWER: f64 = 1.10;
/// Entries quicker than this (in both) are shown but not judged.
const MIN_JUDGED_MS: f64 = 1.0;

fn main() -> ExitCode {
    bench::exit(run())
}

/// The base commit's CLI, built in a worktree under `<target>/bench-base`
/// and kept there as `symplay-<commit>` (the working tree's build, in the
/// same target directory, overwrites the built binary).
fn build_base(base: &str) -> Result<(String, PathBuf), String> {
    let root = bench::root();
    let commit =
        checked(
            Command::new("git")
                .current_dir(&root)
                .args(["rev-parse", "--short", base]),
        )?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    let place = bench::target_dir()?.join("bench-base");
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
    let built = bench::build_cli(&tree)?;
    let kept = place.join(format!("symplay-{commit}"));
    std::fs::copy(&built, &kept).map_err(|e| format!("{}: {e}", kept.display()))?;
    Ok((commit, kept))
}

/// Whether the golden report of `example` differs between `commit` and the
/// working tree: its behaviour changed on purpose.
fn golden_changed(commit: &str, example: &str) -> Result<bool, String> {
    let golden = format!("tests/golden/{example}.json");
    let status = Command::new("git")
        .current_dir(bench::root())
        .args(["diff", "--quiet", commit, "--", &golden])
        .status()
        .map_err(|e| format!("git diff: {e}"))?;
    match status.code() {
        Some(0) => Ok(false),
        Some(1) => Ok(true),
        _ => Err(format!("git diff {commit} -- {golden} failed")),
    }
}

/// One exploration's time (ms), peak memory (bytes) and paths.
struct Measure {
    ms: f64,
    peak: f64,
    paths: f64,
}

fn explore(binary: &Path, module: &Path, entry: &str) -> Result<Measure, String> {
    let args = [module.as_os_str(), "--entry".as_ref(), entry.as_ref()];
    let report = bench::explore_report(binary, &args)?;
    Ok(Measure {
        ms: number(&report, "/stats/timing/total_ms")?,
        peak: number(&report, "/stats/peak_memory_bytes")?,
        paths: number(&report, "/stats/paths")?,
    })
}

/// The quickest time and median peak of an entry's runs, and the paths
/// each found.
struct Side {
    ms: f64,
    peak: f64,
    paths: Vec<f64>,
}

impl Side {
    fn of(measures: Vec<Measure>) -> Side {
        Side {
            ms: measures.iter().map(|m| m.ms).fold(f64::INFINITY, f64::min),
            peak: median_of(measures.iter().map(|m| m.peak).collect()),
            paths: measures.iter().map(|m| m.paths).collect(),
        }
    }
}

/// Runs the benchmark; `Ok(false)` when an entry finds other paths, the
/// base cannot run it, or it is slower.
fn run() -> Result<bool, String> {
    let settings = Settings::from_env(5, 3)?;
    let runs = settings.runs;
    let base = std::env::var("SYMPLAY_BENCH_BASE").unwrap_or_else(|_| "HEAD~1".into());
    eprintln!("building {base} and the working tree...");
    let (commit, before) = build_base(&base)?;
    let after = bench::build_cli(&bench::root())?;
    let mib = |b: f64| b / (1024.0 * 1024.0);

    println!("before: {commit}, after: the working tree; {runs} runs each, default options");
    println!(
        "{:<34} {:>6} {:>10} {:>10} {:>6} {:>9} {:>9} {:>6}",
        "entry", "paths", "before ms", "after ms", "ratio", "before MiB", "after MiB", "ratio"
    );
    // Entries the two cannot be compared on: changed on purpose, or not.
    let (mut on_purpose, mut failed, mut slower) = (Vec::new(), Vec::new(), Vec::new());
    let mut slowest: f64 = 0.0;
    for example in c_examples()? {
        let module = bench::root().join("static/examples/c").join(&example.name);
        let changed = golden_changed(&commit, &example.name)?;
        let mut not_compared = |name: &str, why: String| {
            let why = if changed {
                on_purpose.push(name.to_string());
                format!("{why}; its golden report changed too: on purpose")
            } else {
                failed.push(name.to_string());
                why
            };
            println!("{name:<34} not compared: {why}");
        };
        for entry in integer_entries(&example.module) {
            let name = format!("{}:{entry}", example.name);
            let (mut b, mut a) = (Vec::new(), Vec::new());
            for _ in 0..runs {
                match explore(&before, &module, &entry) {
                    Ok(m) => b.push(m),
                    Err(e) => {
                        not_compared(&name, format!("the base cannot run it: {e}"));
                        break;
                    }
                }
                a.push(explore(&after, &module, &entry)?);
            }
            if b.len() < runs {
                continue;
            }
            let (b, a) = (Side::of(b), Side::of(a));
            if b.paths.iter().chain(&a.paths).any(|&p| p != b.paths[0]) {
                let why = format!("paths before {:?}, after {:?}", b.paths, a.paths);
                not_compared(&name, why);
                continue;
            }
            let ratio = a.ms / b.ms.max(f64::MIN_POSITIVE);
            let judged = b.ms.max(a.ms) >= MIN_JUDGED_MS;
            if judged {
                slowest = slowest.max(ratio);
            }
            let mark = if judged && ratio > SLOWER {
                slower.push(name.clone());
                " slower"
            } else {
                ""
            };
            println!(
                "{name:<34} {:>6} {:>10.2} {:>10.2} {ratio:>6.2} {:>9.1} {:>9.1} {:>6.2}{mark}",
                a.paths[0],
                b.ms,
                a.ms,
                mib(b.peak),
                mib(a.peak),
                a.peak / b.peak.max(1.0)
            );
        }
    }
    if !on_purpose.is_empty() {
        println!("changed on purpose: {}", on_purpose.join(", "));
    }
    if !failed.is_empty() {
        println!(
            "other paths, or the base cannot run them: {}",
            failed.join(", ")
        );
    }
    if !slower.is_empty() {
        println!("slower: {}", slower.join(", "));
    }
    let met = settings.goal(
        "the slowest judged entry's time after / before",
        slowest,
        Bound::AtMost(SLOWER),
        "x",
    );
    Ok(failed.is_empty() && met)
}
