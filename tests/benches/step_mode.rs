//! Step mode against one run: every integer entry of every C example is
//! explored once in one run and once a branch at a time, each step followed
//! by what the page's worker sends with it (the report so far, as JSON).
//! Printed per entry, in CPU time (which other processes do not change):
//! the run's time, the stepped run's time and their ratio, the steps taken,
//! the slowest step's engine time (the solver's work, which one run does
//! too), the slowest report sent with a step (step mode's own cost) and, the
//! baseline, the time to make the whole report, as at the end of the run.
//! The goal: no report of a step costs more than a few times the whole
//! report (a click answers at once, but for the engine's own work). Both
//! explorations must give the same paths.
//!
//! Run with `cargo bench -p symplay-tests --bench step_mode`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per entry (default 3, 1 in the short
//! form), of which the medians are reported.

use std::process::ExitCode;
use std::time::Duration;
use symplay_engine::exec::{explore, Exploration, ExploreError, Options};
use symplay_engine::report::step::StepBy;
use symplay_tests::bench::{self, cpu_timed, median, Bound, Settings};
use symplay_tests::corpus::{c_examples, integer_entries};

/// Goal: the slowest report of a step within this factor of the time to
/// make the whole report, both of the entry with the largest.
const GOAL_RATIO: f64 = 4.0;

fn main() -> ExitCode {
    bench::exit(run())
}

/// One stepped run: its time, its steps, its slowest step and slowest
/// report, the time to make the whole report at its end, and its paths.
struct Stepped {
    total: Duration,
    steps: usize,
    slowest_step: Duration,
    slowest_report: Duration,
    whole_report: Duration,
    paths: usize,
}

fn stepped(module: &symplay_wasm::Module, entry: &str) -> Result<Stepped, String> {
    let (mut steps, mut slowest_step, mut slowest_report) = (0, Duration::ZERO, Duration::ZERO);
    let (started, mut total) = cpu_timed(|| -> Result<_, ExploreError> {
        let mut e = Exploration::new(module, entry, &Options::default())?;
        let first = e.first_step();
        Ok((e, first))
    });
    let (mut e, first) = started.map_err(|e| e.to_string())?;
    let mut next = first.goes_on();
    while next {
        let (step, time) = cpu_timed(|| e.step(StepBy::Branch, Duration::MAX));
        let step = step.ok_or("a step with no time limit did not end")?;
        // What the worker sends with each step.
        let (json, report) = cpu_timed(|| serde_json::to_string(&(&step, e.snapshot())));
        json.map_err(|e| e.to_string())?;
        (slowest_step, slowest_report) = (slowest_step.max(time), slowest_report.max(report));
        total += time + report;
        steps += 1;
        next = step.goes_on();
    }
    // The report so far, now that the run is over, is the whole report.
    let (json, whole_report) = cpu_timed(|| serde_json::to_string(&e.snapshot()));
    json.map_err(|e| e.to_string())?;
    let paths = e.finish().paths.len();
    Ok(Stepped {
        total,
        steps,
        slowest_step,
        slowest_report,
        whole_report,
        paths,
    })
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let runs = settings.runs;
    println!(
        "{:<34} {:>10} {:>12} {:>7} {:>6} {:>13} {:>14} {:>12}",
        "example:entry",
        "one run",
        "step by step",
        "ratio",
        "steps",
        "slowest step",
        "slowest report",
        "whole report"
    );
    // The slowest report of a step and the whole report of one run, of
    // the entry whose whole report takes longest.
    let (mut worst, mut worst_whole) = (Duration::ZERO, Duration::ZERO);
    for example in c_examples()? {
        for entry in integer_entries(&example.module) {
            let mut whole = Vec::new();
            let mut stepwise = Vec::new();
            let mut slowest_step = Vec::new();
            let mut slowest_report = Vec::new();
            let mut whole_report = Vec::new();
            let mut steps = 0;
            for _ in 0..runs {
                let (report, time) =
                    cpu_timed(|| explore(&example.module, &entry, &Options::default()));
                let report = report.map_err(|e| e.to_string())?;
                whole.push(time);
                let s = stepped(&example.module, &entry)?;
                if s.paths != report.paths.len() {
                    return Err(format!(
                        "{}:{entry}: {} paths stepped, {} in one run",
                        example.name,
                        s.paths,
                        report.paths.len()
                    ));
                }
                stepwise.push(s.total);
                slowest_step.push(s.slowest_step);
                slowest_report.push(s.slowest_report);
                whole_report.push(s.whole_report);
                steps = s.steps;
            }
            let (whole, stepwise) = (median(&whole), median(&stepwise));
            let (step, report) = (median(&slowest_step), median(&slowest_report));
            let whole_report = median(&whole_report);
            if whole_report > worst_whole {
                (worst, worst_whole) = (report, whole_report);
            }
            println!(
                "{:<34} {:>8.1}ms {:>10.1}ms {:>7.2} {:>6} {:>11.2}ms {:>12.2}ms {:>10.2}ms",
                format!("{}:{entry}", example.name.trim_end_matches(".wasm")),
                whole.as_secs_f64() * 1e3,
                stepwise.as_secs_f64() * 1e3,
                stepwise.as_secs_f64() / whole.as_secs_f64().max(1e-9),
                steps,
                step.as_secs_f64() * 1e3,
                report.as_secs_f64() * 1e3,
                whole_report.as_secs_f64() * 1e3
            );
        }
    }
    println!(
        "largest report: {:.2} ms whole, {:.2} ms at most for a step",
        worst_whole.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3
    );
    Ok(settings.goal(
        "the slowest report of a step / the whole report",
        worst.as_secs_f64() / worst_whole.as_secs_f64().max(1e-9),
        Bound::AtMost(GOAL_RATIO),
        "x",
    ))
}
