//! `symplay`: Symplay's command line.

mod compare;
mod explore;
mod heap;
mod merges;
mod output;
mod replay;
mod shards;
mod solve;
mod status;
mod step;

use clap::{Parser, Subcommand};
use peak_alloc::PeakAlloc;
use std::process::ExitCode;
use symplay_cli::wast;
use symplay_engine::limits::{set_heap_meter, HeapMeter};

/// Counts the heap, so that `--max-memory` limits real memory and the
/// report's peak memory is measured.
#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// The statuses of [`status`], as the help says them.
const EXIT_STATUS: &str = "Exit status:
  0   no bug was found (or a replay matches its recorded outcome)
  1   an error: a file cannot be read or written, the module cannot be explored,
      or --validate-merge found a merge wrong (the report says which)
  2   a usage error: an option, its value, the entry or a test that does not fit
  3   a replay's outcome differs from the recorded one
  13  a bug was found (explore, replay; --exit-zero gives 0 instead)
  130 interrupted by Ctrl-C (what was found is still printed and written)";

#[derive(Parser)]
#[command(
    name = "symplay",
    version,
    about = "Symbolic execution for WebAssembly",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run an SMT-LIB2 script (QF_BV, QF_ABV) and print the answers as z3 does.
    Solve(solve::SolveArgs),
    /// Explore an exported function of a Wasm module symbolically.
    Explore(explore::ExploreArgs),
    /// Explore one branch or one instruction at a time, printing the state
    /// that runs next after each step.
    Step(step::StepArgs),
    /// Join the JSON reports of a run's shards (explore --shard I/N) into
    /// the report of one run.
    Merge(shards::MergeArgs),
    /// Run one test concretely and print its trace and outcome.
    Replay(replay::ReplayArgs),
    /// Explore one module under two configurations and compare the runs.
    Compare(compare::CompareArgs),
    /// Run a WebAssembly spec script (.wast) and check every assertion.
    Wast(wast::WastArgs),
}

fn main() -> ExitCode {
    set_heap_meter(HeapMeter {
        in_use: || HEAP.current_usage(),
        peak: || HEAP.peak_usage(),
        reset_peak: || HEAP.reset_peak_usage(),
    });
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version are not errors; a wrong command line exits
        // with 2.
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(status::USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let ended = match cli.command {
        Command::Solve(args) => return solve::run(&args),
        Command::Wast(args) => return wast::run(&args),
        Command::Explore(args) => explore::run(&args).map(|ending| ending.status(args.exit_zero())),
        Command::Merge(args) => shards::run(&args).map(|ending| ending.status(args.exit_zero())),
        Command::Step(args) => step::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Compare(args) => compare::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Replay(args) => replay::run(&args).map(|ending| ending.status(args.exit_zero())),
    };
    ended.unwrap_or_else(|failure| {
        eprintln!("error: {}", failure.message());
        failure.status()
    })
}
