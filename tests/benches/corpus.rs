//! Exploration speed over the example corpus: every entry of every C example
//! under `static/examples/c` explored with default options, with its paths,
//! solver queries and time, and the totals as paths and queries per second.
//! The baseline, measured in the same run, is Symplay's concrete replay of
//! every generated test, each of which must end as its path did:
//! exploration / replay is the cost of being symbolic.
//!
//! Run with `cargo bench -p symplay-tests --bench corpus`;
//! `SYMPLAY_BENCH_RUNS` sets the number of runs (default 5, 1 in the short
//! form), of which the medians are reported.

use std::process::ExitCode;
use std::time::{Duration, Instant};
use symplay_engine::exec::{explore, replay, Options};
use symplay_engine::report::Report;
use symplay_tests::bench::{self, median, Settings};
use symplay_tests::corpus::{c_examples, integer_entries};

fn main() -> ExitCode {
    bench::exit(run().map(|()| true))
}

/// One entry's figures over the runs.
struct Row {
    name: String,
    paths: u64,
    queries: u64,
    explore: Duration,
    solver: Duration,
    replay: Duration,
}

fn run() -> Result<(), String> {
    let runs = Settings::from_env(5, 1)?.runs;
    let mut rows = Vec::new();
    for example in c_examples()? {
        for entry in integer_entries(&example.module) {
            rows.push(measure(&example.module, &example.name, &entry, runs)?);
        }
    }

    println!("corpus benchmark: default options, median of {runs} runs");
    println!(
        "  {:<36} {:>6} {:>8} {:>10} {:>10} {:>10} {:>9}",
        "example entry", "paths", "queries", "explore", "solver", "replay", "expl/repl"
    );
    for r in &rows {
        println!(
            "  {:<36} {:>6} {:>8} {:>10.2?} {:>10.2?} {:>10.2?} {:>8.1}x",
            r.name,
            r.paths,
            r.queries,
            r.explore,
            r.solver,
            r.replay,
            r.explore.as_secs_f64() / r.replay.as_secs_f64()
        );
    }
    let paths: u64 = rows.iter().map(|r| r.paths).sum();
    let queries: u64 = rows.iter().map(|r| r.queries).sum();
    let explore_time: Duration = rows.iter().map(|r| r.explore).sum();
    let solver_time: Duration = rows.iter().map(|r| r.solver).sum();
    let replay_time: Duration = rows.iter().map(|r| r.replay).sum();
    let secs = explore_time.as_secs_f64();
    println!(
        "  total: {paths} paths, {queries} queries in {explore_time:.2?} ({:.0}% in the solver)",
        100.0 * solver_time.as_secs_f64() / secs
    );
    println!(
        "  exploration: {:.0} paths/s, {:.0} queries/s",
        paths as f64 / secs,
        queries as f64 / secs
    );
    println!(
        "  baseline, concrete replay of every test: {:.0} paths/s; exploration / replay {:.1}x",
        paths as f64 / replay_time.as_secs_f64(),
        secs / replay_time.as_secs_f64()
    );
    Ok(())
}

/// Explores `entry` `runs` times and replays every test of the last run as
/// often; the medians of each.
fn measure(
    module: &symplay_wasm::Module,
    example: &str,
    entry: &str,
    runs: usize,
) -> Result<Row, String> {
    let name = format!("{example} {entry}");
    let mut explore_times = Vec::with_capacity(runs);
    let mut solver_times = Vec::with_capacity(runs);
    let mut report: Option<Report> = None;
    for _ in 0..runs {
        let start = Instant::now();
        let r = explore(module, entry, &Options::default()).map_err(|e| format!("{name}: {e}"))?;
        explore_times.push(start.elapsed());
        if r.stop_reason != "completed" {
            return Err(format!("{name}: stopped by {}", r.stop_reason));
        }
        solver_times.push(Duration::from_secs_f64(r.stats.timing.solver_ms / 1000.0));
        report = Some(r);
    }
    let report = report.ok_or("no runs")?;
    let mut replay_times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        for path in &report.paths {
            let replayed =
                replay(module, entry, &path.inputs).map_err(|e| format!("{name}: {e}"))?;
            // The baseline replays the paths explored, not others.
            if replayed.status != path.status {
                return Err(format!(
                    "{name}: path {} ended {:?}, its test replays to {:?}",
                    path.id, path.status, replayed.status
                ));
            }
        }
        replay_times.push(start.elapsed());
    }
    Ok(Row {
        name,
        paths: report.stats.paths,
        queries: report.stats.queries,
        explore: median(&explore_times),
        solver: median(&solver_times),
        replay: median(&replay_times),
    })
}
