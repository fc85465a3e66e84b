//! The cost of a path as a run finds more of them (issue 31): a function of
//! n independent branches on the bits of one `i32` (2^n paths, the browser
//! bench's `bits`) for n = 10, 12 and 14, and strlen over a buffer of 256
//! and of 1,024 symbolic bytes (257 and 1,025 paths, each one byte deeper
//! than the one before), explored with the default searcher through the
//! engine's API, the report built but not printed. Each run must find all
//! of its paths. The bench prints the least CPU time of its runs, the time
//! per path, and how the time grows against the paths.
//!
//! Goal (it fails the bench): strlen over 1,024 symbolic bytes in at most
//! a second. Targets, printed as met or not yet met: 14 branches at most 24x
//! the time of 10 (16x the paths); at most 50 us per path at 12 branches;
//! strlen over 1,024 bytes at most 6x the time of 256 (4x the paths).
//!
//! Run with `cargo bench -p symplay-tests --bench path_cost`;
//! `SYMPLAY_BENCH_RUNS` sets the runs of each (default 3, 1 in the short
//! form, which runs the same workloads).

use std::process::ExitCode;
use std::time::Duration;
use symplay_engine::exec::{explore, Options};
use symplay_engine::memory::{HeapOptions, SizeMode};
use symplay_engine::report::BufferArg;
use symplay_tests::bench::{self, cpu_timed, least, Bound, Settings};
use symplay_tests::corpus::{bits_wat, STRLEN_WAT};

fn main() -> ExitCode {
    bench::exit(run())
}

struct Workload {
    name: String,
    wat: String,
    options: Options,
    paths: usize,
}

fn workloads() -> Vec<Workload> {
    let mut all: Vec<Workload> = [10, 12, 14]
        .map(|n| Workload {
            name: format!("{n} branches"),
            wat: bits_wat(n),
            options: Options::default(),
            paths: 1 << n,
        })
        .into();
    for bytes in [256, 1024] {
        all.push(Workload {
            name: format!("strlen over {bytes} bytes"),
            wat: STRLEN_WAT.to_string(),
            options: Options {
                buffer_args: vec![BufferArg {
                    param: 0,
                    capacity: bytes,
                    length_param: None,
                }],
                // The buffer's whole length: a path per terminator's place
                // and one that reads past the end.
                heap: HeapOptions {
                    size_mode: SizeMode::Base,
                    ..HeapOptions::default()
                },
                ..Options::default()
            },
            paths: bytes as usize + 1,
        });
    }
    all
}

/// The least CPU time of `runs` explorations of `w`, checking its paths.
fn measure(w: &Workload, runs: usize) -> Result<Duration, String> {
    let module = symplay_wasm::load(w.wat.as_bytes()).map_err(|e| e.to_string())?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (report, time) = cpu_timed(|| explore(&module, "f", &w.options));
        let report = report.map_err(|e| format!("{}: {}", w.name, e.message))?;
        if report.stop_reason != "completed" || report.paths.len() != w.paths {
            return Err(format!(
                "{}: {} paths ({}), expected {}",
                w.name,
                report.paths.len(),
                report.stop_reason,
                w.paths
            ));
        }
        times.push(time);
    }
    Ok(least(&times))
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    println!(
        "path cost benchmark: least CPU time of {} runs each",
        settings.runs
    );
    let mut seconds = Vec::new();
    for w in workloads() {
        let time = measure(&w, settings.runs)?;
        println!(
            "  {:<24} {:>6} paths  {:>10.3?}  {:>7.1} us per path",
            w.name,
            w.paths,
            time,
            time.as_secs_f64() * 1e6 / w.paths as f64
        );
        seconds.push(time.as_secs_f64());
    }
    let [b10, b12, b14, s256, s1024] = seconds[..] else {
        return Err("five workloads".into());
    };
    bench::target(
        "14 branches (16,384 paths) against 10 (1,024)",
        b14 / b10,
        Bound::AtMost(24.0),
        "x",
    );
    bench::target(
        "time per path at 12 branches",
        b12 * 1e6 / 4096.0,
        Bound::AtMost(50.0),
        " us",
    );
    bench::target(
        "strlen over 1,024 symbolic bytes against 256",
        s1024 / s256,
        Bound::AtMost(6.0),
        "x",
    );
    Ok(settings.goal(
        "strlen over 1,024 symbolic bytes",
        s1024,
        Bound::AtMost(1.0),
        " s",
    ))
}
