//! Shared code of Symplay's cross-crate tests and benchmarks: random term
//! generators, a z3 process to compare against, operator coverage counts,
//! the example corpus, and what the benchmarks share: their run count,
//! medians and exit code.

pub mod corpus;
pub mod coverage;
pub mod gen;
pub mod rng;
pub mod z3;

use std::process::ExitCode;
use std::time::Duration;

/// Runs per benchmark: `SYMPLAY_BENCH_RUNS`, or `default` when unset.
pub fn bench_runs(default: usize) -> Result<usize, String> {
    match std::env::var("SYMPLAY_BENCH_RUNS") {
        Ok(text) => text
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("SYMPLAY_BENCH_RUNS={text} is not a positive number")),
        Err(_) => Ok(default),
    }
}

/// The median of a benchmark's times (the upper one of an even count).
pub fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    sorted[sorted.len() / 2]
}

/// A benchmark's exit: success when it ran and met its goal (`true`),
/// else failure, with its error said.
pub fn bench_exit<E: std::fmt::Display>(outcome: Result<bool, E>) -> ExitCode {
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
