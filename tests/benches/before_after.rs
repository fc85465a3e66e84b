//! Before and after a change: builds `symplay` at a base commit (the
//! previous one, or `SYMPLAY_BENCH_BASE`) in a git worktree of its own and
//! at the working tree, explores every integer entry of every C example
//! with each (default options, the same for both; the runs of the two
//! taken in pairs, each first in turn), and prints the time of a run (the
//! CPU time of the `symplay explore` process, starting and loading
//! included, median of the runs) and peak memory (the report's, measured
//! by the allocator) side by side with their ratios; the ratio of times is
//! the median of the pairs' ratios, each pair run under the same load. The
//! bench fails when an entry finds other paths after than before or the
//! base cannot run it, unless the example's golden report
//! (`tests/golden/<example>.json`) changed since the base too: a change of
//! behaviour on purpose, reviewed in that diff, which is listed and not
//! timed. The goals, over the entries taking at least 10 ms (where timing
//! is not noise): all of them together (the geometric mean of their
//! ratios) at most 5% slower after than before, and none more than 25%
//! (one entry's ratio varies by a tenth on a busy machine).
//!
//! Run with `cargo bench -p symplay-tests --bench before_after`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per entry and binary (default 9, 7 in
//! the short form).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use symplay_tests::bench::{self, checked, median_of, number, Bound, Settings};
use symplay_tests::corpus::{c_examples, integer_entries};

/// Goals: the judged entries together, and each, no slower than these
/// ratios after / before.
const SLOWER_TOGETHER: f64 = 1.05;
const SLOWER_ANY: f64 = 1.25;
/// Entries quicker than this (in both) are shown but not judged: a few
/// milliseconds are the process starting and loading the module, whose
/// cost varies by a tenth from run to run.
const MIN_JUDGED_MS: f64 = 10.0;

fn main() -> ExitCode {
    bench::exit(run())
}

/// The CLI built at `built`, copied to `<target>/bench-base/<name>`: the
/// two binaries run alike as copies made alike.
fn keep(built: &Path, name: &str) -> Result<PathBuf, String> {
    let kept = bench::target_dir()?.join("bench-base").join(name);
    std::fs::copy(built, &kept).map_err(|e| format!("{}: {e}", kept.display()))?;
    Ok(kept)
}

/// The base commit, and its CLI, built in a worktree under
/// `<target>/bench-base` into a target directory of its own.
fn build_base(base: &str) -> Result<(String, PathBuf), String> {
    let root = bench::root();
    let commit =
        checked(
            Command::new("git")
                .current_dir(&root)
                .args(["rev-parse", "--short", base]),
        )?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    let tree = bench::target_dir()?.join("bench-base/tree");
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
    let target = bench::target_dir()?.join("bench-base/target");
    let built = bench::build_cli_in(&tree, &target)?;
    let kept = keep(&built, &format!("symplay-{commit}"))?;
    Ok((commit, kept))
}

/// Whether the sources of the CLI differ between `commit` and the working
/// tree.
fn sources_changed(commit: &str) -> Result<bool, String> {
    let status = Command::new("git")
        .current_dir(bench::root())
        .args(["diff", "--quiet", commit, "--"])
        .args(["engine", "cli", "wasm-frontend", "Cargo.toml", "Cargo.lock"])
        .status()
        .map_err(|e| format!("git diff: {e}"))?;
    Ok(status.code() != Some(0))
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

/// One exploration's CPU time (ms), peak memory (bytes) and paths.
struct Measure {
    ms: f64,
    peak: f64,
    paths: f64,
}

fn explore(binary: &Path, module: &Path, entry: &str) -> Result<Measure, String> {
    let args = [module.as_os_str(), "--entry".as_ref(), entry.as_ref()];
    let start = bench::children_cpu();
    let report = bench::explore_report(binary, &args)?;
    let cpu = bench::children_cpu().saturating_sub(start);
    Ok(Measure {
        ms: cpu.as_secs_f64() * 1e3,
        peak: number(&report, "/stats/peak_memory_bytes")?,
        paths: number(&report, "/stats/paths")?,
    })
}

/// An entry's runs with one binary: each run's time, the median time and
/// peak, and the paths each found.
struct Side {
    times: Vec<f64>,
    ms: f64,
    peak: f64,
    paths: Vec<f64>,
}

impl Side {
    fn of(measures: Vec<Measure>) -> Side {
        let times: Vec<f64> = measures.iter().map(|m| m.ms).collect();
        Side {
            ms: median_of(times.clone()),
            times,
            peak: median_of(measures.iter().map(|m| m.peak).collect()),
            paths: measures.iter().map(|m| m.paths).collect(),
        }
    }
}

/// Runs the benchmark; `Ok(false)` when an entry finds other paths, the
/// base cannot run it, or it is slower.
fn run() -> Result<bool, String> {
    let settings = Settings::from_env(9, 7)?;
    let runs = settings.runs;
    let base = std::env::var("SYMPLAY_BENCH_BASE").unwrap_or_else(|_| "HEAD~1".into());
    eprintln!("building {base} and the working tree...");
    let (commit, before) = build_base(&base)?;
    let after = keep(&bench::build_cli(&bench::root())?, "symplay-after")?;
    let same_binary = std::fs::read(&before).ok() == std::fs::read(&after).ok();
    if same_binary && sources_changed(&commit)? {
        return Err(format!(
            "the CLI built at {commit} and the working tree's are the same binary, though their sources differ"
        ));
    }
    let mib = |b: f64| b / (1024.0 * 1024.0);

    println!("before: {commit}, after: the working tree; {runs} runs each, default options");
    println!(
        "{:<34} {:>6} {:>10} {:>10} {:>6} {:>9} {:>9} {:>6}",
        "entry", "paths", "before ms", "after ms", "ratio", "before MiB", "after MiB", "ratio"
    );
    // Entries the two cannot be compared on: changed on purpose, or not.
    let (mut on_purpose, mut failed, mut slower) = (Vec::new(), Vec::new(), Vec::new());
    let mut judged_ratios = Vec::new();
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
            for run in 0..runs {
                // Each first in turn: the second of two runs costs a little
                // more, whichever binary it is.
                if run % 2 == 1 {
                    a.push(explore(&after, &module, &entry)?);
                }
                match explore(&before, &module, &entry) {
                    Ok(m) => b.push(m),
                    Err(e) => {
                        not_compared(&name, format!("the base cannot run it: {e}"));
                        break;
                    }
                }
                if run % 2 == 0 {
                    a.push(explore(&after, &module, &entry)?);
                }
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
            // Each run after over the run before taken next to it, the
            // median of those: a change of load touches the two alike.
            let ratio = median_of(
                (a.times.iter().zip(&b.times))
                    .map(|(a, b)| a / b.max(f64::MIN_POSITIVE))
                    .collect(),
            );
            let judged = b.ms.max(a.ms) >= MIN_JUDGED_MS;
            if judged {
                judged_ratios.push(ratio);
            }
            let mark = if judged && ratio > SLOWER_ANY {
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
        println!("more than 25% slower: {}", slower.join(", "));
    }
    let slowest = judged_ratios.iter().copied().fold(0.0, f64::max);
    let together = (judged_ratios.iter().map(|r| r.ln()).sum::<f64>()
        / judged_ratios.len().max(1) as f64)
        .exp();
    let together_met = settings.goal(
        "the judged entries' time after / before (geometric mean)",
        together,
        Bound::AtMost(SLOWER_TOGETHER),
        "x",
    );
    let any_met = settings.goal(
        "the slowest judged entry's time after / before",
        slowest,
        Bound::AtMost(SLOWER_ANY),
        "x",
    );
    Ok(failed.is_empty() && together_met && any_met)
}
