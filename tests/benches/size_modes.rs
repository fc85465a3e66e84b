//! The size modes side by side (`symbolic_size.md` §1.7, §6): each
//! size-dependent example is explored with the CLI under Base, ForkEager
//! and ForkLazy, and ForkLazy with CFG and SM merging at loop exits, and the
//! bench prints per mode the paths, solver queries, time (the report's
//! `total_ms`, median of the runs), peak memory (the report's, measured by
//! the CLI's allocator) and the memory errors found, with each mode's
//! ratio against Base, then the bugs that the range modes found and Base
//! missed: the seed's finding, in direction. The goals: the range modes
//! find at least one bug that Base misses, and merging misses none of
//! ForkLazy's (kind and place). A report without a figure the table shows
//! is an error, not a zero.
//!
//! Run with `cargo bench -p symplay-tests --bench size_modes`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per example and mode (default 3, 1
//! in the short form).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use symplay_tests::bench::{self, median_of, number, Bound, Settings};

/// Each mode's name in the table, its size mode and its merge mode.
const MODES: [(&str, &str, &str); 6] = [
    ("base", "base", "none"),
    ("fork-eager", "fork-eager", "none"),
    ("fork-lazy", "fork-lazy", "none"),
    ("lazy+cfg", "fork-lazy", "cfg"),
    ("lazy+sm", "fork-lazy", "sm"),
    ("lazy+smopt", "fork-lazy", "smopt"),
];

/// File (from the repository root), entry, capacity, and more options
/// (buffer parameters).
const EXAMPLES: &[(&str, &str, u32, &[&str])] = &[
    ("tests/data/heap/size/e1.wat", "e1", 3, &[]),
    ("tests/data/heap/size/strided.wat", "fill", 200, &[]),
    ("tests/data/heap/size/strided.wat", "fill_strided", 4, &[]),
    ("tests/data/heap/size/headers.wat", "headers", 8, &[]),
    (
        "tests/data/heap/length_dependent_read.O1.wasm",
        "length_dependent_read",
        100,
        &[],
    ),
    ("static/examples/c/heap.wasm", "copy_record", 100, &[]),
    (
        "static/examples/c/heap_overflow.wasm",
        "copy_name",
        100,
        &[],
    ),
    (
        "static/examples/c/length_read.wasm",
        "first_header",
        100,
        &[],
    ),
    ("static/examples/c/strchr_chain.wasm", "field_gap", 100, &[]),
    (
        "tests/data/heap/libc_strchr.O1.wasm",
        "libc_strchr",
        100,
        &[],
    ),
    (
        "tests/data/heap/params/header.wat",
        "header",
        100,
        &["--buffer", "0:16:1"],
    ),
    (
        "tests/data/heap/params/header.wat",
        "count_hashes",
        100,
        &["--buffer", "0:8"],
    ),
];

fn main() -> ExitCode {
    bench::exit(run())
}

/// What one exploration found and cost.
struct Measure {
    paths: f64,
    queries: f64,
    ms: f64,
    peak_mib: f64,
    /// `kind at location` of each memory error.
    bugs: BTreeSet<String>,
}

fn explore(
    binary: &Path,
    file: &str,
    entry: &str,
    (mode, size_mode, merge): (&str, &str, &str),
    capacity: u32,
    more: &[&str],
) -> Result<Measure, String> {
    let capacity = capacity.to_string();
    let mut args = vec![file, "--entry", entry, "--search", "dfs"];
    args.extend(["--size-mode", size_mode, "--capacity", &capacity]);
    args.extend(["--merge", merge]);
    args.extend(more);
    let report =
        bench::explore_report(binary, &args).map_err(|e| format!("{file} {entry} {mode}: {e}"))?;
    let measure = || -> Result<Measure, String> {
        Ok(Measure {
            paths: number(&report, "/stats/paths")?,
            queries: number(&report, "/stats/queries")?,
            ms: number(&report, "/stats/timing/total_ms")?,
            peak_mib: number(&report, "/stats/peak_memory_bytes")? / f64::from(1 << 20),
            bugs: bugs(&report)?,
        })
    };
    measure().map_err(|e| format!("{file} {entry} {mode}: {e}"))
}

/// `kind at function+offset` of each path's memory error.
fn bugs(report: &Value) -> Result<BTreeSet<String>, String> {
    let paths = report["paths"]
        .as_array()
        .ok_or("the report has no paths")?;
    let mut bugs = BTreeSet::new();
    for path in paths {
        let error = &path["memory_error"];
        if error.is_null() {
            continue;
        }
        let text = |pointer: &str| {
            path.pointer(pointer)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("a memory error without {pointer}"))
        };
        bugs.insert(format!(
            "{} at {}+0x{:x}",
            text("/memory_error/kind")?,
            text("/location/function")?,
            number(path, "/location/offset")? as u64
        ));
    }
    Ok(bugs)
}

fn ratio(x: f64, base: f64) -> String {
    if base == 0.0 {
        "-".into()
    } else {
        format!("{:.2}", x / base)
    }
}

/// Runs the benchmark; `Ok(false)` when the range modes find no bug that
/// Base misses, or merging misses one of ForkLazy's.
fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let binary = bench::build_cli(&bench::root())?;
    println!(
        "{:<56} {:<10} {:>6} {:>7} {:>9} {:>8} {:>5}  {:>5} {:>6} {:>5} {:>5}",
        "example",
        "mode",
        "paths",
        "queries",
        "time ms",
        "peak MiB",
        "bugs",
        "paths",
        "queries",
        "time",
        "peak"
    );
    println!("{:>120}", "(ratios against base)");
    let mut missed_by_base = Vec::new();
    let mut missed_by_merging = Vec::new();
    for &(file, entry, capacity, more) in EXAMPLES {
        let name = format!(
            "{} {entry} (capacity {capacity}{}{})",
            PathBuf::from(file)
                .file_name()
                .unwrap_or_default()
                .to_string_lossy(),
            if more.is_empty() { "" } else { ", " },
            more.join(" ")
        );
        let mut base: Option<Measure> = None;
        let mut lazy_bugs = BTreeSet::new();
        for mode in MODES {
            let mut measures = Vec::new();
            for _ in 0..settings.runs {
                measures.push(explore(&binary, file, entry, mode, capacity, more)?);
            }
            let ms = median_of(measures.iter().map(|m| m.ms).collect());
            let peak = median_of(measures.iter().map(|m| m.peak_mib).collect());
            let m = measures.swap_remove(0);
            match mode.0 {
                "fork-lazy" => lazy_bugs = m.bugs.clone(),
                "lazy+cfg" | "lazy+sm" | "lazy+smopt" => {
                    for bug in lazy_bugs.difference(&m.bugs) {
                        missed_by_merging.push(format!("{name}: {bug} ({})", mode.0));
                    }
                }
                _ => {}
            }
            let mode = mode.0;
            let b = base.as_ref().unwrap_or(&m);
            let (base_ms, base_peak) = base.as_ref().map_or((ms, peak), |b| (b.ms, b.peak_mib));
            println!(
                "{name:<56} {mode:<10} {:>6} {:>7} {ms:>9.2} {peak:>8.2} {:>5}  {:>5} {:>6} {:>5} {:>5}",
                m.paths,
                m.queries,
                m.bugs.len(),
                ratio(m.paths, b.paths),
                ratio(m.queries, b.queries),
                ratio(ms, base_ms),
                ratio(peak, base_peak),
            );
            if let Some(b) = &base {
                for bug in m.bugs.difference(&b.bugs) {
                    missed_by_base.push(format!("{name}: {bug} ({mode})"));
                }
            } else {
                base = Some(Measure {
                    ms,
                    peak_mib: peak,
                    ..m
                });
            }
        }
    }
    println!();
    if missed_by_base.is_empty() {
        println!("the range modes found no bug that base missed");
    } else {
        println!("found by a range mode, missed by base:");
        for bug in &missed_by_base {
            println!("  {bug}");
        }
    }
    for bug in &missed_by_merging {
        println!("found by fork-lazy, missed by merging: {bug}");
    }
    let found = settings.goal(
        "bugs found by a range mode and missed by base",
        missed_by_base.len() as f64,
        Bound::AtLeast(1.0),
        "",
    );
    let kept = settings.goal(
        "bugs found by fork-lazy and missed by merging",
        missed_by_merging.len() as f64,
        Bound::AtMost(0.0),
        "",
    );
    Ok(found && kept)
}
