//! Parallel exploration (issue 31): the wall-clock time of `--jobs 1`, 2
//! and all the machine's cores (when more than 2) on the workloads with the
//! most paths: 14 branches on the bits of one `i32` (16,384 paths), the
//! B-tree suite's largest test `7o3u` (721 paths) and the pointer
//! program `message_decode` (156 paths), through the engine's API
//! (`explore_parallel`). Every run must find the paths of one job. The
//! bench prints each time and the speed-up over one job.
//!
//! Targets, printed as met or not yet met: two jobs at least 1.7x as fast
//! as one on each workload. No goal: how far two jobs get depends on the
//! machine's two cores being free.
//!
//! Run with `cargo bench -p symplay-tests --bench jobs`;
//! `SYMPLAY_BENCH_RUNS` sets the runs of each (default 3, 1 in the short
//! form, which runs 12 branches and the B-tree test `4o3u` instead).

use std::process::ExitCode;
use std::time::{Duration, Instant};
use symplay_engine::exec::{explore_parallel, Options};
use symplay_tests::bench::{self, least, root, Bound, Settings};
use symplay_tests::corpus::bits_wat;

fn main() -> ExitCode {
    bench::exit(run())
}

struct Workload {
    name: String,
    module: Vec<u8>,
    entry: &'static str,
}

fn workloads(short: bool) -> Result<Vec<Workload>, String> {
    let file = |path: &str| std::fs::read(root().join(path)).map_err(|e| format!("{path}: {e}"));
    let (n, btree) = if short { (12, "4o3u") } else { (14, "7o3u") };
    Ok(vec![
        Workload {
            name: format!("{n} branches"),
            module: bits_wat(n).into_bytes(),
            entry: "f",
        },
        Workload {
            name: format!("B-tree {btree}"),
            module: file(&format!("tests/data/btree/native/{btree}.wasm"))?,
            entry: "main",
        },
        Workload {
            name: "message_decode".into(),
            module: file("tests/data/pointers/programs.wasm")?,
            entry: "message_decode",
        },
    ])
}

/// The least wall-clock time of `runs` explorations of `w` with `jobs`
/// jobs, and the paths each found.
fn measure(w: &Workload, jobs: usize, runs: usize) -> Result<(Duration, usize), String> {
    let module = symplay_wasm::load(&w.module).map_err(|e| e.to_string())?;
    let mut times = Vec::with_capacity(runs);
    let mut paths = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let report = explore_parallel(&module, w.entry, &Options::default(), jobs, &mut |_| true)
            .map_err(|e| format!("{}: {}", w.name, e.message))?;
        times.push(started.elapsed());
        if report.stop_reason != "completed" {
            return Err(format!(
                "{} with {jobs} jobs: {}",
                w.name, report.stop_reason
            ));
        }
        paths = report.paths.len();
    }
    Ok((least(&times), paths))
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut jobs = vec![1, 2];
    if cores > 2 {
        jobs.push(cores);
    }
    println!(
        "jobs benchmark: least wall-clock time of {} runs each, {cores} cores",
        settings.runs
    );
    for w in workloads(settings.short)? {
        let (one, paths) = measure(&w, 1, settings.runs)?;
        println!("  {:<16} {paths:>6} paths  1 job   {one:>10.3?}", w.name);
        for &n in &jobs[1..] {
            let (time, found) = measure(&w, n, settings.runs)?;
            if found != paths {
                return Err(format!(
                    "{} with {n} jobs: {found} paths, one job {paths}",
                    w.name
                ));
            }
            let speedup = one.as_secs_f64() / time.as_secs_f64();
            println!(
                "  {:<16} {paths:>6} paths  {n} jobs  {time:>10.3?}  {speedup:.2}x",
                w.name
            );
            if n == 2 {
                bench::target(
                    &format!("{}: 2 jobs against 1", w.name),
                    speedup,
                    Bound::AtLeast(1.7),
                    "x",
                );
            }
        }
    }
    Ok(true)
}
