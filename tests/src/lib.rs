//! Shared code of Symplay's cross-crate tests and benchmarks: random term
//! generators, a z3 process to compare against, operator coverage counts,
//! the example corpus, and the benchmarks' run count.

pub mod corpus;
pub mod coverage;
pub mod gen;
pub mod rng;
pub mod z3;

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
