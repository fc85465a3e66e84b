//! `symplay`: Symplay's command line.

use clap::{Args, Parser, Subcommand};
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::Duration;
use symplay_engine::exec::Options;
use symplay_engine::report::{Report, Status};
use symplay_engine::search::SearchKind;
use symplay_engine::smtlib::{run_script, RunOptions, ScriptOutput};
use symplay_engine::solver::{Budget, LayerStats, SolverConfig, SolverStats};

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
    Solve(SolveArgs),
    /// Explore an exported function of a Wasm module symbolically.
    Explore(ExploreArgs),
}

#[derive(Args)]
struct ExploreArgs {
    /// The module: binary `.wasm` or WAT text.
    file: String,
    /// The exported function to explore; its parameters are symbolic.
    #[arg(long, value_name = "NAME")]
    entry: String,
    /// dfs, bfs, random-path or coverage-new.
    #[arg(long, default_value = "dfs")]
    search: String,
    /// Seed of the random-path searcher.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[arg(long, value_name = "SECONDS")]
    max_time: Option<f64>,
    #[arg(long, value_name = "N")]
    max_paths: Option<u64>,
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    #[arg(long, value_name = "N")]
    max_instructions: Option<u64>,
    /// Write the JSON report here.
    #[arg(long, value_name = "OUT")]
    json: Option<String>,
}

#[derive(Args)]
struct SolveArgs {
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

fn main() -> ExitCode {
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
        Command::Solve(args) => solve(&args),
        Command::Explore(args) => match explore(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

fn explore(args: &ExploreArgs) -> Result<(), String> {
    let search = SearchKind::parse(&args.search).ok_or_else(|| {
        format!(
            "unknown searcher `{}` (dfs, bfs, random-path, coverage-new)",
            args.search
        )
    })?;
    let max_time = match args.max_time {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            return Err("--max-time must be greater than zero".into())
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    let bytes = std::fs::read(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file))?;
    let module = symplay_wasm::load(&bytes).map_err(|e| format!("{}: {e}", args.file))?;
    let options = Options {
        search,
        seed: args.seed,
        max_time,
        max_paths: args.max_paths,
        max_depth: args.max_depth,
        max_instructions: args.max_instructions,
        max_memory: None,
    };
    let report =
        symplay_engine::exec::explore(&module, &args.entry, &options).map_err(|e| e.to_string())?;
    print!("{}", summary(&report));
    if let Some(out) = &args.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(out, json + "\n").map_err(|e| format!("cannot write {out}: {e}"))?;
    }
    Ok(())
}

fn summary(r: &Report) -> String {
    let count = |status: Status| r.paths.iter().filter(|p| p.status == status).count();
    let mut text = format!(
        "explored {} with {}: {} paths ({} returned, {} trapped, {} assertion failures, {} at the depth limit)\n",
        r.entry,
        r.search,
        r.paths.len(),
        count(Status::Returned),
        count(Status::Trapped),
        count(Status::AssertFailed),
        count(Status::Limit),
    );
    if r.stop_reason != "completed" {
        text.push_str(&format!(
            "stopped early: {} ({} states left)\n",
            r.stop_reason, r.stats.pending_states
        ));
    }
    for p in r
        .paths
        .iter()
        .filter(|p| matches!(p.status, Status::Trapped | Status::AssertFailed))
    {
        let what = match p.trap {
            Some(trap) => format!(
                "trap {}",
                serde_json::to_string(&trap)
                    .unwrap_or_default()
                    .trim_matches('"')
            ),
            None => "assertion failed".to_string(),
        };
        let inputs = serde_json::to_string(&p.inputs).unwrap_or_default();
        text.push_str(&format!(
            "bug: path {}: {what} at {}+0x{:x}, input {inputs}\n",
            p.id, p.location.function, p.location.offset
        ));
    }
    let c = &r.coverage;
    let percent = if c.total_instructions == 0 {
        0.0
    } else {
        100.0 * c.covered_instructions as f64 / c.total_instructions as f64
    };
    text.push_str(&format!(
        "coverage: {}/{} instructions ({percent:.1}%)\n",
        c.covered_instructions, c.total_instructions
    ));
    let s = &r.stats;
    text.push_str(&format!(
        "stats: {} instructions, {} forks, {} queries ({} cache hits, {} SAT calls), solver {:.1} ms, total {:.1} ms, peak memory ~{} KiB\n",
        s.instructions, s.forks, s.queries, s.query_cache_hits + s.cex_cache_hits, s.sat_calls,
        s.timing.solver_ms, s.timing.total_ms, s.peak_memory_bytes / 1024
    ));
    text
}

fn solve(args: &SolveArgs) -> ExitCode {
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
