//! Memory contents side by side: each shape of `tests/data/memory/shapes.wat`
//! is explored with the CLI under `--contents whole` (a symbolic access's
//! array holds all of linear memory: the baseline) and `--contents
//! per-object` (only the bytes the access can reach), and the bench prints
//! per shape the paths, terms built, time (the report's `total_ms`, median
//! of the runs) and peak memory under each, with per-object's ratios
//! against whole measured in the same run, and the mean bytes a state held
//! of its own where it forked or ended. Both must find the same paths.
//!
//! Goals: a symbolic index into a 256-byte table after half a mebibyte of
//! memory was filled elsewhere takes under 1 s and at most 3x the time of
//! the same read without the fill, and builds at most 1.5x its terms
//! (the read's cost does not grow with the memory's contents). A
//! whole-memory run that reaches its time limit prints as `>` it.
//!
//! Run with `cargo bench -p symplay-tests --bench memory`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per shape and mode (default 3, 1 in
//! the short form, which also leaves out the largest sizes).

use serde_json::Value;
use std::path::Path;
use std::process::ExitCode;
use symplay_tests::bench::{self, median_of, number, Bound, Settings};

const SHAPES: &str = "tests/data/memory/shapes.wat";

/// A whole-memory run's time limit, in seconds (the short form's second).
const LIMIT_S: [u32; 2] = [30, 5];

fn main() -> ExitCode {
    bench::exit(run())
}

/// One shape: a name, the entry and its options.
struct Shape {
    name: String,
    args: Vec<String>,
}

fn shape(name: &str, entry: &str, more: &[&str]) -> Shape {
    let mut args = vec!["--entry".to_string(), entry.to_string()];
    args.extend(more.iter().map(|a| a.to_string()));
    Shape {
        name: name.to_string(),
        args,
    }
}

fn shapes(short: bool) -> Vec<Shape> {
    let mut all = vec![
        shape("table 256 B", "table_lookup", &[]),
        shape("table 256 B, 512 KiB filled", "table_after_fill", &[]),
        shape("table 4 KiB", "table_4k", &[]),
    ];
    let sizes: &[u32] = if short {
        &[64, 256, 1024]
    } else {
        &[64, 256, 1024, 4096]
    };
    for &n in sizes {
        let concrete = format!("1={n}");
        all.push(shape(
            &format!("index read, {n} B"),
            "index_read",
            &["--concrete", &concrete],
        ));
    }
    for &n in if short {
        &[64, 256][..]
    } else {
        &[64, 256, 1024][..]
    } {
        let concrete = format!("0={n}");
        all.push(shape(
            &format!("string copy, {n} B"),
            "string_copy",
            &["--concrete", &concrete, "--search", "dfs"],
        ));
    }
    for &n in if short {
        &[8, 12][..]
    } else {
        &[8, 12, 16][..]
    } {
        let concrete = format!("0={n}");
        all.push(shape(
            &format!("2^{n} paths"),
            "branches",
            &["--concrete", &concrete, "--search", "dfs"],
        ));
    }
    let n = if short { 13 } else { 16 };
    let concrete = format!("0={n}");
    all.push(shape(
        &format!("2^{n} paths, breadth first"),
        "branches",
        &["--concrete", &concrete, "--search", "bfs"],
    ));
    all
}

/// What one exploration found and cost; `limited` when it stopped at the
/// time limit.
struct Measure {
    paths: f64,
    terms: f64,
    ms: f64,
    peak_mib: f64,
    /// The report's `mean_state_bytes`.
    state_bytes: f64,
    limited: bool,
}

fn explore(binary: &Path, shape: &Shape, contents: &str, limit: u32) -> Result<Measure, String> {
    let limit = limit.to_string();
    let mut args = vec![SHAPES, "--contents", contents, "--max-time", &limit];
    args.extend(shape.args.iter().map(String::as_str));
    let report: Value = bench::explore_report(binary, &args)
        .map_err(|e| format!("{} ({contents}): {e}", shape.name))?;
    Ok(Measure {
        paths: number(&report, "/stats/paths")?,
        terms: number(&report, "/stats/terms")?,
        ms: number(&report, "/stats/timing/total_ms")?,
        peak_mib: number(&report, "/stats/peak_memory_bytes")? / f64::from(1 << 20),
        state_bytes: number(&report, "/stats/mean_state_bytes")?,
        limited: report["stop_reason"].as_str() == Some("time limit"),
    })
}

/// The medians of `runs` explorations (paths, terms and the bytes per
/// state from the last: they do not vary).
fn measured(
    binary: &Path,
    shape: &Shape,
    contents: &str,
    runs: usize,
    limit: u32,
) -> Result<Measure, String> {
    let mut all = Vec::new();
    for _ in 0..runs {
        let m = explore(binary, shape, contents, limit)?;
        let limited = m.limited;
        all.push(m);
        // One run at the limit says enough.
        if limited {
            break;
        }
    }
    let last = all.last().ok_or("no run")?;
    Ok(Measure {
        paths: last.paths,
        terms: last.terms,
        state_bytes: last.state_bytes,
        limited: last.limited,
        ms: median_of(all.iter().map(|m| m.ms).collect()),
        peak_mib: median_of(all.iter().map(|m| m.peak_mib).collect()),
    })
}

fn time(m: &Measure) -> String {
    let at = if m.limited { ">" } else { "" };
    format!("{at}{:.1}", m.ms)
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let limit = LIMIT_S[usize::from(settings.short)];
    let binary = bench::build_cli(&bench::root())?;
    println!(
        "memory benchmark: median of {} runs, whole-memory runs stopped at {limit} s",
        settings.runs
    );
    println!(
        "  {:<30} {:>7} | {:>9} {:>9} {:>8} | {:>9} {:>9} {:>8} {:>8} | {:>7} {:>7} {:>7}",
        "shape",
        "paths",
        "whole ms",
        "terms",
        "MiB",
        "p-o ms",
        "terms",
        "MiB",
        "B/state",
        "time",
        "terms",
        "memory"
    );
    let mut per_object = Vec::new();
    for shape in shapes(settings.short) {
        let whole = measured(&binary, &shape, "whole", settings.runs, limit)?;
        let ours = measured(&binary, &shape, "per-object", settings.runs, limit)?;
        if ours.limited {
            return Err(format!(
                "{}: per-object contents reached the {limit} s limit",
                shape.name
            ));
        }
        if !whole.limited && whole.paths != ours.paths {
            return Err(format!(
                "{}: {} paths under whole contents, {} per object",
                shape.name, whole.paths, ours.paths
            ));
        }
        let at = if whole.limited { "≥" } else { "" };
        println!(
            "  {:<30} {:>7} | {:>9} {:>9} {:>8.1} | {:>9} {:>9} {:>8.1} {:>8.0} | {at}{:>6.2}x {:>6.2}x {:>6.2}x",
            shape.name,
            ours.paths,
            time(&whole),
            whole.terms,
            whole.peak_mib,
            time(&ours),
            ours.terms,
            ours.peak_mib,
            ours.state_bytes,
            whole.ms / ours.ms,
            whole.terms / ours.terms,
            whole.peak_mib / ours.peak_mib,
        );
        per_object.push((shape.name, ours));
    }
    println!("  (ratios: whole / per-object; above 1, per-object is cheaper)");
    let find = |name: &str| {
        per_object
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, m)| m)
            .ok_or(format!("no shape {name}"))
    };
    let (plain, filled) = (find("table 256 B")?, find("table 256 B, 512 KiB filled")?);
    let under_a_second = settings.goal(
        "table read after a 512 KiB fill, per object",
        filled.ms / 1000.0,
        Bound::AtMost(1.0),
        " s",
    );
    let time_ratio = settings.goal(
        "its time / the same read without the fill",
        filled.ms / plain.ms,
        Bound::AtMost(3.0),
        "x",
    );
    let terms_ratio = settings.goal(
        "its terms / the same read without the fill",
        filled.terms / plain.terms,
        Bound::AtMost(1.5),
        "x",
    );
    Ok(under_a_second && time_ratio && terms_ratio)
}
