//! `symplay`: Symplay's command line.

mod compare;
mod explore;
mod heap;
mod replay;
mod solve;
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

#[derive(Parser)]
#[command(
    name = "symplay",
    version,
    about = "Symbolic execution for WebAssembly"
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
        // --help and --version are not errors; every real error exits with 1.
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Explore(args) => match explore::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Step(args) => match step::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Compare(args) => match compare::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Replay(args) => match replay::run(&args) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Wast(args) => wast::run(&args),
    }
}
