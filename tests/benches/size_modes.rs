//! The size modes side by side (`symbolic_size.md` §1.7, §6): each
//! size-dependent example is explored with the release CLI under Base,
//! ForkEager and ForkLazy, and the bench prints per mode the paths, solver
//! queries, time (the report's `total_ms`, median of the runs), peak memory
//! (the report's, measured by the CLI's allocator) and the memory errors
//! found, with each mode's ratio against Base, then the bugs that the range
//! modes found and Base missed: the seed's finding, in direction.
//!
//! Run with `cargo bench -p symplay-tests --bench size_modes`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per example and mode (default 3).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const DEFAULT_RUNS: usize = 3;
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
    symplay_tests::bench_exit(run().map(|()| true))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
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
    let out = std::env::temp_dir().join(format!("symplay-size-{}.json", std::process::id()));
    let status = Command::new(binary)
        .current_dir(root())
        .args(["explore", file, "--entry", entry, "--search", "dfs"])
        .args(["--size-mode", mode, "--capacity", &capacity.to_string()])
        .args(more)
        .arg("--json")
        .arg(&out)
        .output()
        .map_err(|e| e.to_string())?;
    if !status.status.success() {
        return Err(format!(
            "{file} {entry} {mode}: {}",
            String::from_utf8_lossy(&status.stderr)
        ));
    }
    let text = std::fs::read_to_string(&out).map_err(|e| e.to_string())?;
    let report: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let stats = &report["stats"];
    let number = |v: &Value| v.as_f64().unwrap_or(0.0);
    let bugs = report["paths"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let kind = p["memory_error"]["kind"].as_str()?;
            let at = &p["location"];
            Some(format!(
                "{kind} at {}+0x{:x}",
                at["function"].as_str().unwrap_or("?"),
                at["offset"].as_u64().unwrap_or(0)
            ))
        })
        .collect();
    Ok(Measure {
        paths: number(&stats["paths"]),
        queries: number(&stats["queries"]),
        ms: number(&stats["timing"]["total_ms"]),
        peak_mib: number(&stats["peak_memory_bytes"]) / f64::from(1 << 20),
        bugs,
    })
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn ratio(x: f64, base: f64) -> String {
    if base == 0.0 {
        "-".into()
    } else {
        format!("{:.2}", x / base)
    }
}

fn run() -> Result<(), String> {
    let runs = std::env::var("SYMPLAY_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(DEFAULT_RUNS)
        .max(1);
    let built = Command::new(env!("CARGO"))
        .current_dir(root())
        .args(["build", "--quiet", "--release", "-p", "symplay-cli"])
        .status()
        .map_err(|e| e.to_string())?;
    if !built.success() {
        return Err("building the CLI failed".into());
    }
    let binary = root().join("target/release/symplay");
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
            Path::new(file)
                .file_name()
                .unwrap_or_default()
                .to_string_lossy(),
            if more.is_empty() { "" } else { ", " },
            more.join(" ")
        );
        let mut base: Option<Measure> = None;
        for mode in MODES {
            let mut measures = Vec::new();
            for _ in 0..runs {
                measures.push(explore(&binary, file, entry, mode, capacity, more)?);
            }
            let ms = median(measures.iter().map(|m| m.ms).collect());
            let peak = median(measures.iter().map(|m| m.peak_mib).collect());
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
    Ok(())
}
