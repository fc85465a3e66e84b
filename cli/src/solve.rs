//! `symplay solve`: runs an SMT-LIB2 script and prints the answers.

use clap::Args;
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::Duration;
use symplay_engine::smtlib::{run_script, RunOptions, ScriptOutput};
use symplay_engine::solver::{Budget, LayerStats, SolverConfig, SolverStats};

#[derive(Args)]
pub struct SolveArgs {
    /// The script; `-` reads standard input.
    file: String,
    /// Time limit of each check-sat in milliseconds; past it the answer is `unknown`.
    #[arg(long, value_name = "N")]
    timeout_ms: Option<u64>,
    /// SAT conflicts each check-sat may spend; past them the answer is `unknown`.
    #[arg(long, value_name = "N")]
    max_conflicts: Option<u64>,
    /// Print what each layer of the solver chain did to standard error.
    #[arg(long)]
    stats: bool,
}

pub fn run(args: &SolveArgs) -> ExitCode {
    let text = match read_input(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.file);
            return ExitCode::FAILURE;
        }
    };
    let options = RunOptions {
        solver: SolverConfig {
            budget: Budget {
                max_conflicts: args.max_conflicts,
                timeout: args.timeout_ms.map(Duration::from_millis),
                ..Budget::default()
            },
            ..SolverConfig::default()
        },
    };
    let (output, error) = match run_script(&text, &options) {
        Ok(output) => (output, None),
        Err(e) => (*e.output, Some(e.error)),
    };
    let printed = print_output(&output);
    if args.stats {
        eprint!("{}", format_stats(&output.stats));
    }
    if let Some(error) = &error {
        eprintln!("error: {error}");
    }
    let failed = error.is_some() || output.error_lines > 0;
    // A closed standard output (as in `| head`) is not an error of the script.
    if failed || printed.is_err_and(|e| e.kind() != io::ErrorKind::BrokenPipe) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn read_input(file: &str) -> io::Result<String> {
    if file == "-" {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(file)
    }
}

fn print_output(output: &ScriptOutput) -> io::Result<()> {
    for warning in &output.warnings {
        eprintln!("warning: {warning}");
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(output.text.as_bytes())?;
    stdout.flush()
}

fn format_stats(stats: &SolverStats) -> String {
    let layer = |name: &str, l: &LayerStats| {
        format!(
            "  {name:<14}{:>10}{:>10}{:>12.3}\n",
            l.queries,
            l.hits,
            l.time.as_secs_f64() * 1000.0
        )
    };
    let mut text = format!(
        "queries: {} (sat {}, unsat {}, unknown {}), total {:.3} ms\n",
        stats.queries,
        stats.sat,
        stats.unsat,
        stats.unknown,
        stats.total_time.as_secs_f64() * 1000.0
    );
    text.push_str(&format!(
        "  {:<14}{:>10}{:>10}{:>12}\n",
        "layer", "queries", "hits", "time (ms)"
    ));
    text.push_str(&layer("simplify", &stats.simplify));
    text.push_str(&layer("independence", &stats.independence));
    text.push_str(&layer("query cache", &stats.query_cache));
    text.push_str(&layer("cex cache", &stats.cex_cache));
    text.push_str(&layer("sat", &stats.sat_solver));
    text.push_str(&format!(
        "sat variables: {}, clauses: {}\n",
        stats.sat_vars, stats.sat_clauses
    ));
    text
}
