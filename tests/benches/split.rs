//! Intra-object splitting against whole objects (`--split` against none),
//! in one run: the array-heavy programs of `tests/data/pointers/arrays.c`,
//! the relocatable examples' hash tables (E5), the large-table shapes of
//! `tests/data/memory/shapes.wat` and every entry of the heap corpus
//! (depth first, the heap test's limits), each explored by the CLI with
//! the default split (objects and regions over 300 bytes, 128-byte pieces)
//! and without. Per case it prints paths, time (the report's `total_ms`,
//! median of the runs), the most bytes one symbolic access's array held,
//! and SAT variables and clauses per SAT call under each, with the time ratio
//! (none / split); then the geometric mean of the time ratio over the
//! cases that split something, and over those whose largest array
//! unsplit is more than 1 KiB (the thesis's "array-heavy" programs).
//!
//! Checks (they fail the bench): both find the same bugs (kinds and
//! places) on every case; the largest array split is at most the piece
//! plus the bytes an access straddles into the next (128 + 7) wherever an
//! access split. The thesis measured splitting 6 to 132 times faster on
//! its array-heavy programs and slower where it makes many paths
//! (`relocatable_and_caching.md` §6.3); both show here, and the docs
//! (`docs/testing.md`) quote the figures.
//!
//! Run with `cargo bench -p symplay-tests --bench split`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per case and mode (default 3, 1 in
//! the short form, which CI runs through `scripts/bench-short.sh` and
//! which leaves out the heap corpus).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;
use symplay_tests::bench::{self, bugs, geometric_mean, median_of, number, Bound, Case, Settings};
use symplay_tests::corpus;

/// A run's time limit, in seconds: no case comes near it.
const LIMIT_S: u32 = 120;
/// The most bytes a split access's array may hold: a piece and the bytes
/// an 8-byte access starting in its last byte straddles into the next.
const SPLIT_ARRAY_MAX: f64 = 128.0 + 7.0;
/// Unsplit arrays larger than this make a program array-heavy.
const HEAVY: f64 = 1024.0;

/// What one exploration found and cost.
struct Measure {
    paths: f64,
    ms: f64,
    largest_array: f64,
    split_accesses: f64,
    sat_per_call: f64,
    clauses_per_call: f64,
    /// `kind line` of each memory error and trap, and `status` of each
    /// other way a path ended but returning.
    bugs: BTreeSet<String>,
}

fn main() -> ExitCode {
    bench::exit(run())
}

fn cases(short: bool) -> Result<Vec<Case>, String> {
    let root = bench::root();
    let data = root.join("tests/data");
    let entry = |name: &str, module: &Path, entry: &str, more: &[&str]| {
        let mut args = vec!["--entry".to_string(), entry.to_string()];
        args.extend(["--search", "dfs"].map(String::from));
        args.extend(more.iter().map(|s| s.to_string()));
        Case {
            name: name.to_string(),
            module: module.to_path_buf(),
            args,
        }
    };
    let arrays = data.join("pointers/arrays.wasm");
    let shapes = data.join("memory/shapes.wat");
    let mut all = vec![
        entry("arrays checked_index", &arrays, "checked_index", &[]),
        entry("arrays record_update", &arrays, "record_update", &[]),
        entry("arrays masked_table", &arrays, "masked_table", &[]),
        entry("arrays string_in_buffer", &arrays, "string_in_buffer", &[]),
        entry(
            "relocatable hash_tables (E5)",
            &data.join("relocatable/examples.wasm"),
            "hash_tables",
            &[],
        ),
        entry("shapes table_4k", &shapes, "table_4k", &[]),
        entry(
            "shapes index_read 4096",
            &shapes,
            "index_read",
            &["--concrete", "1=4096"],
        ),
    ];
    if !short {
        let heap = corpus::heap_dir();
        for case in corpus::heap_cases()? {
            let limits = [
                "--max-paths".to_string(),
                corpus::HEAP_MAX_PATHS.to_string(),
                "--max-instructions".to_string(),
                corpus::HEAP_MAX_INSTRUCTIONS.to_string(),
            ];
            let limits: Vec<&str> = limits.iter().map(String::as_str).collect();
            let name = format!("heap {} {}", case.file, case.entry);
            all.push(entry(&name, &heap.join(&case.file), &case.entry, &limits));
        }
    }
    Ok(all)
}

fn explore(binary: &Path, case: &Case, split: bool) -> Result<Measure, String> {
    let limit = LIMIT_S.to_string();
    let mut args = vec![case.module.display().to_string()];
    args.extend(["--max-time".to_string(), limit]);
    args.extend(case.args.iter().cloned());
    if split {
        args.push("--split".into());
    }
    let what = format!("{} ({})", case.name, if split { "split" } else { "none" });
    let report = bench::explore_report(binary, &args).map_err(|e| format!("{what}: {e}"))?;
    if report["stop_reason"].as_str() != Some("completed") {
        return Err(format!("{what}: stopped by {}", report["stop_reason"]));
    }
    let calls = number(&report, "/stats/sat_calls")?.max(1.0);
    Ok(Measure {
        paths: number(&report, "/stats/paths")?,
        ms: number(&report, "/stats/timing/total_ms")?,
        largest_array: number(&report, "/stats/largest_array_bytes")?,
        split_accesses: number(&report, "/stats/split_accesses")?,
        sat_per_call: number(&report, "/stats/sat_variables")? / calls,
        clauses_per_call: number(&report, "/stats/sat_clauses")? / calls,
        bugs: bugs(&report),
    })
}

/// The medians of `runs` explorations.
fn measured(binary: &Path, case: &Case, split: bool, runs: usize) -> Result<Measure, String> {
    let mut all = Vec::new();
    for _ in 0..runs {
        all.push(explore(binary, case, split)?);
    }
    let ms = median_of(all.iter().map(|m| m.ms).collect());
    let last = all.pop().ok_or("no run")?;
    Ok(Measure { ms, ..last })
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let binary = bench::build_cli(&bench::root())?;
    println!(
        "split benchmark: --split (objects and regions over 300 B, 128 B pieces) against none, median of {} runs",
        settings.runs
    );
    println!(
        "  {:<44} {:>6} {:>6} | {:>9} {:>9} | {:>8} {:>8} | {:>8} {:>8} | {:>9} {:>9} | {:>7}",
        "case",
        "paths",
        "split",
        "none ms",
        "split ms",
        "array B",
        "split",
        "vars/SAT",
        "split",
        "cls/SAT",
        "split",
        "time"
    );
    let mut ok = true;
    let (mut all, mut heavy) = (Vec::new(), Vec::new());
    let mut widest_split: f64 = 0.0;
    for case in cases(settings.short)? {
        let none = measured(&binary, &case, false, settings.runs)?;
        let split = measured(&binary, &case, true, settings.runs)?;
        if none.bugs != split.bugs {
            println!(
                "  {}: other bugs found: {:?} without splitting, {:?} split",
                case.name, none.bugs, split.bugs
            );
            ok = false;
        }
        let ratio = none.ms / split.ms;
        println!(
            "  {:<44} {:>6} {:>6} | {:>9.1} {:>9.1} | {:>8} {:>8} | {:>8.0} {:>8.0} | {:>9.0} {:>9.0} | {:>6.2}x",
            case.name,
            none.paths,
            split.paths,
            none.ms,
            split.ms,
            none.largest_array,
            split.largest_array,
            none.sat_per_call,
            split.sat_per_call,
            none.clauses_per_call,
            split.clauses_per_call,
            ratio
        );
        if split.split_accesses > 0.0 {
            widest_split = widest_split.max(split.largest_array);
            all.push(ratio);
            if none.largest_array > HEAVY {
                heavy.push(ratio);
            }
        }
    }
    println!(
        "time, none / split, geometric mean: {:.2}x over the {} cases that split, {:.2}x over the {} array-heavy ones (an unsplit array over 1 KiB); the thesis: 6 to 132x on its array-heavy programs",
        geometric_mean(&all),
        all.len(),
        geometric_mean(&heavy),
        heavy.len()
    );
    ok &= settings.goal(
        "the largest array of a split access (bytes)",
        widest_split,
        Bound::AtMost(SPLIT_ARRAY_MAX),
        "",
    );
    Ok(ok)
}
