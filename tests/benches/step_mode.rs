//! Step mode against one run: every integer entry of every C example is
//! explored once in one run and once a branch at a time, each step followed
//! by what the page's worker sends with it (the report so far, as JSON).
//! Printed per entry: the run's time, the stepped run's time and their
//! ratio, the steps taken, the slowest step's engine time (the solver's
//! work, which one run does too) and the slowest report sent with a step
//! (step mode's own cost). The goal: no report of a step of a gallery
//! example takes more than 50 ms to make (a click answers at once, but for
//! the engine's own work). Both explorations must give the same paths.
//!
//! Run with `cargo bench -p symplay-tests --bench step_mode`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per entry (default 3), of which the
//! medians are reported.

use std::process::ExitCode;
use std::time::{Duration, Instant};
use symplay_engine::exec::{explore, Exploration, Options};
use symplay_engine::report::step::StepBy;
use symplay_tests::corpus::{c_examples, integer_entries};
use symplay_tests::median;

const DEFAULT_RUNS: usize = 3;
/// Goal: the slowest report of a step made within this.
const GOAL_REPORT: Duration = Duration::from_millis(50);

fn main() -> ExitCode {
    symplay_tests::bench_exit(run())
}

/// One stepped run: its time, its steps, its slowest step and slowest
/// report, and its paths.
struct Stepped {
    total: Duration,
    steps: usize,
    slowest_step: Duration,
    slowest_report: Duration,
    paths: usize,
}

fn stepped(module: &symplay_wasm::Module, entry: &str) -> Result<Stepped, String> {
    let started = Instant::now();
    let mut e = Exploration::new(module, entry, &Options::default()).map_err(|e| e.to_string())?;
    let first = e.first_step();
    let mut next = first.next.is_some();
    let (mut steps, mut slowest_step, mut slowest_report) = (0, Duration::ZERO, Duration::ZERO);
    while next {
        let t = Instant::now();
        let step = e
            .step(StepBy::Branch, Duration::MAX)
            .ok_or("a step with no time limit did not end")?;
        slowest_step = slowest_step.max(t.elapsed());
        // What the worker sends with each step.
        let t = Instant::now();
        let json = serde_json::to_string(&(&step, e.snapshot())).map_err(|e| e.to_string())?;
        std::hint::black_box(json);
        slowest_report = slowest_report.max(t.elapsed());
        steps += 1;
        next = step.next.is_some();
    }
    let paths = e.finish().paths.len();
    Ok(Stepped {
        total: started.elapsed(),
        steps,
        slowest_step,
        slowest_report,
        paths,
    })
}

fn run() -> Result<bool, String> {
    let runs = symplay_tests::bench_runs(DEFAULT_RUNS)?;
    println!(
        "{:<34} {:>10} {:>12} {:>7} {:>6} {:>13} {:>14}",
        "example:entry",
        "one run",
        "step by step",
        "ratio",
        "steps",
        "slowest step",
        "slowest report"
    );
    let mut worst = Duration::ZERO;
    for example in c_examples()? {
        for entry in integer_entries(&example.module) {
            let mut whole = Vec::new();
            let mut stepwise = Vec::new();
            let mut slowest_step = Vec::new();
            let mut slowest_report = Vec::new();
            let mut steps = 0;
            for _ in 0..runs {
                let t = Instant::now();
                let report = explore(&example.module, &entry, &Options::default())
                    .map_err(|e| e.to_string())?;
                whole.push(t.elapsed());
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
                steps = s.steps;
            }
            let (whole, stepwise) = (median(&whole), median(&stepwise));
            let (step, report) = (median(&slowest_step), median(&slowest_report));
            worst = worst.max(report);
            println!(
                "{:<34} {:>8.1}ms {:>10.1}ms {:>7.2} {:>6} {:>11.2}ms {:>12.2}ms",
                format!("{}:{entry}", example.name.trim_end_matches(".wasm")),
                whole.as_secs_f64() * 1e3,
                stepwise.as_secs_f64() * 1e3,
                stepwise.as_secs_f64() / whole.as_secs_f64().max(1e-9),
                steps,
                step.as_secs_f64() * 1e3,
                report.as_secs_f64() * 1e3
            );
        }
    }
    let met = worst <= GOAL_REPORT;
    println!(
        "slowest report of a step: {:.2} ms (goal: {} ms): {}",
        worst.as_secs_f64() * 1e3,
        GOAL_REPORT.as_millis(),
        if met { "met" } else { "NOT met" }
    );
    Ok(met)
}
