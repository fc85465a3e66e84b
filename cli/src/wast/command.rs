//! The `symplay wast` command: options, and printing the failing directives
//! and the summary.

use super::script::{run_script, Options, Verdict};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::process::ExitCode;
use symplay_engine::exec::store::DEFAULT_MAX_INSTRUCTIONS;
use symplay_engine::exec::{MergeMode, MergeOptions};
use symplay_wasm::Profile;

#[derive(Args)]
pub struct WastArgs {
    /// The spec script.
    file: String,
    /// Also run every assert_return and assert_trap with integer arguments
    /// symbolically (arguments symbolic, constrained to their values): it
    /// passes when exactly one path is feasible, with the expected outcome.
    #[arg(long)]
    symbolic: bool,
    /// In the symbolic calls, split memories into pieces for accesses at
    /// symbolic addresses (explore's --split, with its defaults).
    #[arg(long, requires = "symbolic")]
    split: bool,
    /// In the symbolic calls, merge states at loop exits as explore's
    /// --merge does.
    #[arg(
        long,
        value_name = "MODE",
        default_value = "none",
        requires = "symbolic"
    )]
    merge: String,
    /// Have the solver check each merge against the states it replaced (a
    /// wrong merge fails the run).
    #[arg(long)]
    validate_merge: bool,
    /// What the modules are validated against: `1.0` for the Wasm 1.0 spec
    /// scripts (where e.g. a block with two results is invalid), `supported`
    /// for everything the engine runs (Wasm 2.0 without SIMD: 1.0 with sign
    /// extension, non-trapping conversions, multi-value, bulk memory and
    /// reference types).
    #[arg(long, value_name = "VERSION", default_value = "supported")]
    wasm: WasmVersion,
    /// Instructions one call may run before it counts as failed.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_INSTRUCTIONS)]
    max_instructions: u64,
}

#[derive(Clone, Copy, ValueEnum)]
enum WasmVersion {
    #[value(name = "1.0")]
    V1,
    Supported,
}

/// Prints `FILE:LINE:COL: directive: why` for each failed (and skipped)
/// directive, then the summary; exit code 0 only when nothing failed.
pub fn run(args: &WastArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.file);
            return ExitCode::FAILURE;
        }
    };
    let merge = match MergeMode::parse(&args.merge) {
        Some(MergeMode::None) if args.validate_merge => {
            eprintln!(
                "error: --validate-merge checks merges: give --merge {}",
                MergeMode::listed(&MergeMode::ALL[1..])
            );
            return ExitCode::FAILURE;
        }
        Some(mode) => MergeOptions {
            mode,
            validate: args.validate_merge,
            ..MergeOptions::default()
        },
        None => {
            eprintln!(
                "error: unknown merge mode `{}` ({})",
                args.merge,
                MergeMode::listed(&MergeMode::ALL)
            );
            return ExitCode::FAILURE;
        }
    };
    let options = Options {
        symbolic: args.symbolic,
        profile: match args.wasm {
            WasmVersion::V1 => Profile::Wasm1,
            WasmVersion::Supported => Profile::Supported,
        },
        max_instructions: args.max_instructions,
        split: args.split,
        merge,
    };
    let report = match run_script(&text, &options) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("error: {}:{e}", args.file);
            return ExitCode::FAILURE;
        }
    };
    let mut out = String::new();
    for d in &report.directives {
        let why = match &d.verdict {
            Verdict::Passed => continue,
            Verdict::Failed(why) => why.clone(),
            Verdict::Skipped(why) => format!("skipped: {why}"),
        };
        out.push_str(&format!(
            "{}:{}:{}: {}: {why}\n",
            args.file, d.line, d.column, d.kind
        ));
    }
    out.push_str(&report.summary());
    out.push('\n');
    // A closed pipe (`| head`) is not an error of the run.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    if report.failed() == 0 && report.merge_violations() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
