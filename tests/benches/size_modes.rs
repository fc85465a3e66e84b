//! The size modes side by side (`symbolic_size.md` §1.7, §6): each
//! size-dependent example is explored with the CLI under Base, ForkEager
//! and ForkLazy (merging's modes are `benches/merging.rs`'s), and the
//! bench prints per mode the paths, solver queries, time (the report's
//! `total_ms`, median of the runs), peak memory (the report's, measured by
//! the CLI's allocator) and the memory errors found, with each mode's
//! ratio against Base, then the bugs that the range modes found and Base
//! missed: the seed's finding, in direction. The goal: the range modes
//! find at least one bug that Base misses. A report without a figure the
//! table shows is an error, not a zero.
//!
//! Run with `cargo bench -p symplay-tests --bench size_modes`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per example and mode (default 3, 1
//! in the short form).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use symplay_tests::bench::{self, median_of, number, ratio, Bound, Settings};

/// The size modes, in the table's order.
const MODES: [&str; 3] = ["base", "fork-eager", "fork-lazy"];

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
    mode: &str,
    capacity: u32,
    more: &[&str],
) -> Result<Measure, String> {
    let capacity = capacity.to_string();
    let mut args = vec![file, "--entry", entry, "--search", "dfs"];
    args.extend(["--size-mode", mode, "--capacity", &capacity]);
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

/// Runs the benchmark; `Ok(false)` when the range modes find no bug that
/// Base misses.
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
        for mode in MODES {
            let mut measures = Vec::new();
            for _ in 0..settings.runs {
                measures.push(explore(&binary, file, entry, mode, capacity, more)?);
            }
            let ms = median_of(measures.iter().map(|m| m.ms).collect());
            let peak = median_of(measures.iter().map(|m| m.peak_mib).collect());
            let m = measures.swap_remove(0);
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
    let found = settings.goal(
        "bugs found by a range mode and missed by base",
        missed_by_base.len() as f64,
        Bound::AtLeast(1.0),
        "",
    );
    Ok(found)
}
