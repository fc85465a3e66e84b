//! Relocatable bases against concrete ones (`--bases symbolic` against
//! `--bases concrete`), in one run: every entry of the heap corpus (depth
//! first, the heap test's limits), the relocatable examples and the
//! array programs of `tests/data/pointers/arrays.c`, each explored by the
//! CLI both ways. Per case it prints paths and time (the report's
//! `total_ms`, median of the runs) under each, and the time ratio
//! (symbolic / concrete); then the geometric mean of the ratio and the
//! largest one.
//!
//! What symbolic bases cost: every pointer to a heap block is a term over
//! the block's base symbol, built by the interpreter (the fast path takes
//! numbers only) and unfolded to its hidden address where it is used. The
//! thesis measured its bare model at 4% on average and 16% at most
//! (`relocatable_and_caching.md` §6.1).
//!
//! Checks (they fail the bench): both find the same paths and bugs (kinds
//! and places) on every case; the goal bounds the geometric mean.
//!
//! Run with `cargo bench -p symplay-tests --bench bases`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per case and mode (default 3, 1 in
//! the short form, which CI runs through `scripts/bench-short.sh`).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;
use symplay_tests::bench::{self, bugs, geometric_mean, number, target, Bound, Case, Settings};
use symplay_tests::corpus;

/// A run's time limit, in seconds: no case comes near it.
const LIMIT_S: u32 = 120;
/// The most the geometric mean of symbolic / concrete may be: past it, a
/// pointer needs a value of its own on the fast path (a base and an
/// offset) rather than a term.
const MEAN_GOAL: f64 = 1.5;

/// What one exploration found and cost.
struct Measure {
    paths: f64,
    ms: f64,
    /// `kind line` of each memory error and trap, and `status` of each
    /// other way a path ended but returning.
    bugs: BTreeSet<String>,
}

fn main() -> ExitCode {
    bench::exit(run())
}

fn cases() -> Result<Vec<Case>, String> {
    let data = bench::root().join("tests/data");
    let entry = |name: String, module: &Path, entry: &str, more: &[String]| {
        let mut args = vec!["--entry".to_string(), entry.to_string()];
        args.extend(["--search", "dfs"].map(String::from));
        args.extend(more.iter().cloned());
        Case {
            name,
            module: module.to_path_buf(),
            args,
        }
    };
    let mut all = Vec::new();
    let arrays = data.join("pointers/arrays.wasm");
    for name in [
        "checked_index",
        "record_update",
        "masked_table",
        "string_in_buffer",
    ] {
        all.push(entry(format!("arrays {name}"), &arrays, name, &[]));
    }
    let examples = data.join("relocatable/examples.wasm");
    for name in ["blocks", "blocks_twice", "hash_tables"] {
        all.push(entry(format!("relocatable {name}"), &examples, name, &[]));
    }
    let heap = corpus::heap_dir();
    let limits = [
        "--max-paths".to_string(),
        corpus::HEAP_MAX_PATHS.to_string(),
        "--max-instructions".to_string(),
        corpus::HEAP_MAX_INSTRUCTIONS.to_string(),
    ];
    for case in corpus::heap_cases()? {
        let name = format!("heap {} {}", case.file, case.entry);
        all.push(entry(name, &heap.join(&case.file), &case.entry, &limits));
    }
    Ok(all)
}

/// `case` explored `runs` times: what the last run found, and the median
/// of the times.
fn measured(binary: &Path, case: &Case, symbolic: bool, runs: usize) -> Result<Measure, String> {
    let bases = if symbolic { "symbolic" } else { "concrete" };
    let extra = ["--bases".to_string(), bases.to_string()];
    let (report, ms) = case.explored(binary, (&extra, bases), LIMIT_S, runs)?;
    Ok(Measure {
        paths: number(&report, "/stats/paths")?,
        ms,
        bugs: bugs(&report),
    })
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let binary = bench::build_cli(&bench::root())?;
    println!(
        "bases benchmark: --bases symbolic against concrete, median of {} runs",
        settings.runs
    );
    println!(
        "  {:<52} {:>6} {:>6} | {:>9} {:>9} | {:>7}",
        "case", "paths", "symb.", "conc. ms", "symb. ms", "time"
    );
    let mut ok = true;
    let mut ratios = Vec::new();
    for case in cases()? {
        let concrete = measured(&binary, &case, false, settings.runs)?;
        let symbolic = measured(&binary, &case, true, settings.runs)?;
        if (concrete.paths, &concrete.bugs) != (symbolic.paths, &symbolic.bugs) {
            println!(
                "  {}: other paths or bugs: {} {:?} concrete, {} {:?} symbolic",
                case.name, concrete.paths, concrete.bugs, symbolic.paths, symbolic.bugs
            );
            ok = false;
        }
        // A millisecond is the report's resolution: shorter runs count as one.
        let ratio = symbolic.ms.max(1.0) / concrete.ms.max(1.0);
        println!(
            "  {:<52} {:>6} {:>6} | {:>9.1} {:>9.1} | {:>6.2}x",
            case.name, concrete.paths, symbolic.paths, concrete.ms, symbolic.ms, ratio
        );
        ratios.push(ratio);
    }
    let mean = geometric_mean(&ratios);
    let largest = ratios.iter().copied().fold(0.0, f64::max);
    println!(
        "time, symbolic / concrete: {mean:.2}x geometric mean over {} cases, {largest:.2}x at most; the thesis: 1.04x on average, 1.16x at most",
        ratios.len()
    );
    ok &= settings.goal(
        "time with symbolic bases, geometric mean of symbolic / concrete",
        mean,
        Bound::AtMost(MEAN_GOAL),
        "x",
    );
    target(
        "the largest time ratio, symbolic / concrete",
        largest,
        Bound::AtMost(2.0),
        "x",
    );
    Ok(ok)
}
