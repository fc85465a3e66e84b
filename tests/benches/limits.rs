//! How far past its time limit a run goes: the CLI explores, with a time
//! limit, a loop over a symbolic count (an exploration that never ends: the
//! limit holds between paths) and a polynomial whose one query bit-blasts
//! into tens of millions of gates (the limit holds inside the solver).
//! Each run's wall time, less the baseline (the same command stopped at its
//! first instruction: starting and loading), over the limit, is the ratio
//! the bench prints; the goal: at most 1.2x, the run ends within a fifth of
//! its limit past it. Every run must stop by the time limit.
//!
//! Run with `cargo bench -p symplay-tests --bench limits`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per case (default 3); the limit is
//! 5 s, 1 s in the short form.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use symplay_tests::bench::{self, median, Bound, Settings};

/// Goal: a run's time past its start, over its time limit, at most this.
const GOAL_RATIO: f64 = 1.2;

fn main() -> ExitCode {
    bench::exit(run())
}

/// The wall time of `symplay explore FILE ARGS`, and its stop reason.
fn timed(binary: &Path, file: &Path, args: &[&str]) -> Result<(Duration, String), String> {
    let start = Instant::now();
    let mut all = vec![file.as_os_str()];
    all.extend(args.iter().map(OsStr::new));
    let report = bench::explore_report(binary, &all)?;
    let took = start.elapsed();
    let stop = report["stop_reason"]
        .as_str()
        .ok_or("the report has no stop_reason")?;
    Ok((took, stop.to_string()))
}

/// Runs the benchmark; `Ok(false)` when a run goes too far past its limit.
fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 3)?;
    let limit_s = if settings.short { 1 } else { 5 };
    let limit = Duration::from_secs(limit_s);
    let binary = bench::build_cli(&bench::root())?;
    let data = bench::root().join("tests/data");
    let cases: [(&str, PathBuf); 2] = [
        ("loop, symbolic count", data.join("wat/symbolic_loop.wat")),
        (
            "polynomial (bit-blasting)",
            data.join("limits/polynomial.wat"),
        ),
    ];
    let limit_arg = limit_s.to_string();
    println!(
        "limits benchmark: time limit {limit_s} s, median of {} runs",
        settings.runs
    );
    println!(
        "  {:<28} {:>10} {:>10} {:>8}",
        "case", "baseline", "limited", "ratio"
    );
    let mut worst: f64 = 0.0;
    for (name, file) in &cases {
        let (mut base, mut limited) = (Vec::new(), Vec::new());
        for _ in 0..settings.runs {
            base.push(timed(&binary, file, &["--max-instructions", "1"])?.0);
            let (took, stop) = timed(&binary, file, &["--max-time", &limit_arg])?;
            if stop != "time limit" {
                return Err(format!("{name}: stopped by {stop}, not the time limit"));
            }
            limited.push(took);
        }
        let (base, limited) = (median(&base), median(&limited));
        let ratio = limited.saturating_sub(base).as_secs_f64() / limit.as_secs_f64();
        worst = worst.max(ratio);
        println!("  {name:<28} {base:>10.2?} {limited:>10.2?} {ratio:>7.2}x");
    }
    Ok(settings.goal(
        "time past the start / the time limit",
        worst,
        Bound::AtMost(GOAL_RATIO),
        "x",
    ))
}
