//! Dynamic segments against a fork per block (`--resolve segment` against
//! `--resolve fork`, both over symbolic bases), in one run: the pointer
//! programs of `tests/data/pointers/segments.c` (one of them also with
//! selects as `ite` values, which leaves its pointers to choose among
//! blocks), those of `programs.c` (string functions, a list, a parser, a
//! sort, a stack, a ring buffer, a growing vector, a symbol table: most
//! never point into several blocks, and show what segments cost where
//! they do nothing), Rust's `Vec` and `HashMap` (`rust_pointers`) and the
//! relocatable examples, each explored by the CLI both
//! ways, depth first. Per case it prints paths, forks, the largest segment
//! and time (the report's `total_ms`, median of the runs) under each, and
//! the time ratio (segment / fork); then the geometric means of the path
//! and time ratios, beside the thesis's figures.
//!
//! What segments buy: an access through a pointer that may point into
//! several blocks forks once per block without them, and lands in one
//! segment with them, at the price of a larger array per access (a mux
//! over the segment's bytes once bit-blasted). The thesis measured its
//! DSMM against forking (FMM) at 48x faster on m4, 1.8x on make and 3.2x
//! on apr, and 5.3x slower on SQLite (`relocatable_and_caching.md` §6.2).
//!
//! Checks (they fail the bench): both find the same bugs (kinds and
//! places) on every case, and segments never make more paths. The goal
//! bounds the geometric mean of the time ratio.
//!
//! Run with `cargo bench -p symplay-tests --bench segments`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per case and mode (default 3, 1 in
//! the short form, which CI runs through `scripts/bench-short.sh`).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;
use symplay_tests::bench::{self, bugs, geometric_mean, number, Bound, Case, Settings};

/// A run's time limit, in seconds: no case comes near it.
const LIMIT_S: u32 = 120;
/// The most the geometric mean of segment / fork time may be: segments
/// must not cost on programs made for them (measured 0.73x in the short
/// form; one run of a few milliseconds moves by a third).
const MEAN_GOAL: f64 = 1.0;

/// What one exploration found and cost.
struct Measure {
    paths: f64,
    forks: f64,
    segment_bytes: f64,
    ms: f64,
    bugs: BTreeSet<String>,
}

fn main() -> ExitCode {
    bench::exit(run())
}

fn cases() -> Result<Vec<Case>, String> {
    let data = bench::root().join("tests/data");
    let entry = |name: String, module: &Path, entry: &str, more: &[&str]| {
        let mut args = vec!["--entry".to_string(), entry.to_string()];
        args.extend(["--search", "dfs"].map(String::from));
        args.extend(more.iter().map(|s| s.to_string()));
        Case {
            name,
            module: module.to_path_buf(),
            args,
        }
    };
    let mut all = Vec::new();
    let pointers = data.join("pointers/segments.wasm");
    for name in [
        "matrix_rows",
        "name_table",
        "account_update",
        "hash_lookup",
        "list_walk",
        "pointer_sort",
        "tree_search",
        "ordered_blocks",
    ] {
        all.push(entry(format!("pointers {name}"), &pointers, name, &[]));
    }
    all.push(entry(
        "pointers pointer_sort (selects as ite)".into(),
        &pointers,
        "pointer_sort",
        &["--select-as-ite"],
    ));
    let programs = data.join("pointers/programs.wasm");
    for name in [
        "string_copy",
        "string_join",
        "list_sorted",
        "tokens",
        "record_sort",
        "stack_machine",
        "ring_buffer",
        "growing_vector",
        "symbol_table",
        "split_fields",
    ] {
        all.push(entry(format!("programs {name}"), &programs, name, &[]));
    }
    let rust = data.join("pointers/rust_pointers.wasm");
    for name in ["boxed_records", "map_lookup"] {
        all.push(entry(format!("rust {name}"), &rust, name, &[]));
    }
    let examples = data.join("relocatable/examples.wasm");
    for name in ["blocks", "blocks_twice", "hash_tables"] {
        all.push(entry(format!("relocatable {name}"), &examples, name, &[]));
    }
    Ok(all)
}

/// `case` explored `runs` times, resolving as `resolve` says: what the
/// last run found, and the median of the times.
fn measured(binary: &Path, case: &Case, resolve: &str, runs: usize) -> Result<Measure, String> {
    let extra = ["--bases", "symbolic", "--resolve", resolve].map(String::from);
    let (report, ms) = case.explored(binary, (&extra, resolve), LIMIT_S, runs)?;
    Ok(Measure {
        paths: number(&report, "/stats/paths")?,
        forks: number(&report, "/stats/forks")?,
        segment_bytes: number(&report, "/stats/largest_segment_bytes")?,
        ms,
        bugs: bugs(&report),
    })
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let binary = bench::build_cli(&bench::root())?;
    println!(
        "segments benchmark: --resolve segment against fork, over symbolic bases, median of {} runs",
        settings.runs
    );
    println!(
        "  {:<40} {:>6} {:>6} | {:>6} {:>6} | {:>8} | {:>8} {:>8} | {:>7}",
        "case", "paths", "seg.", "forks", "seg.", "segment", "fork ms", "seg. ms", "time"
    );
    let mut ok = true;
    let (mut times, mut paths) = (Vec::new(), Vec::new());
    for case in cases()? {
        let fork = measured(&binary, &case, "fork", settings.runs)?;
        let merged = measured(&binary, &case, "segment", settings.runs)?;
        if fork.bugs != merged.bugs || merged.paths > fork.paths {
            println!(
                "  {}: more paths or other bugs: {} {:?} forking, {} {:?} with segments",
                case.name, fork.paths, fork.bugs, merged.paths, merged.bugs
            );
            ok = false;
        }
        // A millisecond is the report's resolution: shorter runs count as one.
        let ratio = merged.ms.max(1.0) / fork.ms.max(1.0);
        println!(
            "  {:<40} {:>6} {:>6} | {:>6} {:>6} | {:>6} B | {:>8.1} {:>8.1} | {:>6.2}x",
            case.name,
            fork.paths,
            merged.paths,
            fork.forks,
            merged.forks,
            merged.segment_bytes,
            fork.ms,
            merged.ms,
            ratio
        );
        times.push(ratio);
        paths.push(merged.paths / fork.paths);
    }
    let (time_mean, path_mean) = (geometric_mean(&times), geometric_mean(&paths));
    println!(
        "segment / fork over {} cases, geometric means: paths {path_mean:.2}x, time {time_mean:.2}x; the thesis (DSMM / FMM, time): 0.02x m4, 0.54x make, 0.31x apr, 5.3x SQLite",
        times.len()
    );
    ok &= settings.goal(
        "time with segments, geometric mean of segment / fork",
        time_mean,
        Bound::AtMost(MEAN_GOAL),
        "x",
    );
    Ok(ok)
}
