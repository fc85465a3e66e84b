//! The B-tree suite of `filipeom/wasm-se-bench` (`tests/data/btree`): every
//! `native` test's `main` explored with symbolic parameters by the CLI,
//! its path count checked against the suite's (`published.tsv`; the one
//! path that breaks the test's precondition traps and is not counted),
//! and its CPU time and peak memory printed beside the times the suite
//! publishes for Owi (24 workers and 1), WASP and SeeWasm, which were
//! measured on another machine: their ratios to ours say how far apart
//! the tools are, not a goal.
//!
//! Run with `cargo bench -p symplay-tests --bench btree`; the short form
//! (`SYMPLAY_BENCH_SHORT=1`) runs the tests of at most 120 paths.

use std::process::ExitCode;
use std::time::Duration;
use symplay_tests::bench::{self, build_cli, children_cpu, explore_report, number, root, Settings};

fn main() -> ExitCode {
    bench::exit(run())
}

/// One line of `published.tsv`.
struct Test {
    name: String,
    paths: u64,
    owi_24: f64,
    owi_1: f64,
    wasp: f64,
    seewasm: f64,
}

fn tests() -> Result<Vec<Test>, String> {
    let path = root().join("tests/data/btree/published.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let number = |i: usize| -> Result<f64, String> {
                f.get(i)
                    .and_then(|x| x.parse().ok())
                    .ok_or_else(|| format!("published.tsv: bad line `{line}`"))
            };
            Ok(Test {
                name: f[0].to_string(),
                paths: number(2)? as u64,
                owi_24: number(3)?,
                owi_1: number(4)?,
                wasp: number(5)?,
                seewasm: number(6)?,
            })
        })
        .collect()
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(1, 1)?;
    let cli = build_cli(&root())?;
    let mut ok = true;
    println!(
        "B-tree suite (filipeom/wasm-se-bench, native tests, `main` with symbolic parameters); \
         the published times are another machine's"
    );
    println!(
        "  {:<6} {:>5} {:>9} {:>9} {:>8} {:>8} {:>8} {:>9} {:>10}",
        "test", "paths", "symplay", "peak", "Owi-24", "Owi-1", "WASP", "SeeWasm", "Owi-1/us"
    );
    let mut total = Duration::ZERO;
    for t in tests()? {
        if settings.short && t.paths > 120 {
            continue;
        }
        let file = format!("tests/data/btree/native/{}.wasm", t.name);
        let before = children_cpu();
        let report = explore_report(&cli, &[file.as_str(), "--entry", "main"])?;
        let time = children_cpu().saturating_sub(before);
        total += time;
        let count = |status: &str| {
            report["paths"].as_array().map_or(0, |p| {
                p.iter().filter(|p| p["status"] == status).count() as u64
            })
        };
        let (returned, trapped) = (count("returned"), count("trapped"));
        let complete = report["stop_reason"] == "completed";
        let peak = number(&report, "/stats/peak_memory_bytes")? / f64::from(1 << 20);
        let secs = time.as_secs_f64();
        println!(
            "  {:<6} {:>5} {:>8.2}s {:>6.1}MiB {:>7.2}s {:>7.2}s {:>7.2}s {:>8.1}s {:>9.0}x",
            t.name,
            returned,
            secs,
            peak,
            t.owi_24,
            t.owi_1,
            t.wasp,
            t.seewasm,
            t.owi_1 / secs.max(1e-3)
        );
        if (returned, trapped, complete) != (t.paths, 1, true) {
            println!(
                "  check failed: {}: {returned} paths returned and {trapped} trapped ({}), the suite counts {} and one precondition trap",
                t.name, report["stop_reason"], t.paths
            );
            ok = false;
        }
    }
    println!("  total CPU time {:.2} s", total.as_secs_f64());
    Ok(ok)
}
