//! Solver benchmark: the queries a symbolic executor asks while exploring a
//! program's branches, solved by one long-lived Symplay solver in-process and
//! by one z3 process driven interactively, with every answer cross-checked.
//!
//! Run with `cargo bench -p symplay-tests --bench solver` (the short form,
//! `SYMPLAY_BENCH_SHORT=1`, asks fewer queries). The corpus is also
//! written as one SMT-LIB script (`<target>/solver-corpus.smt2`) for timing
//! z3 by hand; the benchmark times that run as well. Any disagreement
//! fails the bench.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};
use symplay_engine::expr::{TermId, TermStore};
use symplay_engine::solver::{LayerStats, SolveResult, Solver, SolverStats};
use symplay_tests::bench::{self, median, Settings};
use symplay_tests::gen::paths::symex_queries;
use symplay_tests::rng::Rng;
use symplay_tests::z3::{Z3Answer, Z3Error, Z3};

const DEFAULT_SEED: u64 = 0xbe4c_2024;
const MIN_QUERIES: usize = 400;
const MIN_QUERIES_SHORT: usize = 100;
/// Slowest queries listed for each solver.
const SLOWEST_SHOWN: usize = 3;

fn main() -> ExitCode {
    bench::exit(run())
}

/// Runs the benchmark; `Ok(false)` when the two solvers disagree anywhere.
fn run() -> Result<bool, Z3Error> {
    let settings = Settings::from_env(1, 1).map_err(Z3Error)?;
    let seed = match std::env::var("SYMPLAY_BENCH_SEED") {
        Ok(text) => text
            .parse()
            .map_err(|_| Z3Error(format!("SYMPLAY_BENCH_SEED={text} is not a number")))?,
        Err(_) => DEFAULT_SEED,
    };
    let mut store = TermStore::new();
    let at_least = if settings.short {
        MIN_QUERIES_SHORT
    } else {
        MIN_QUERIES
    };
    let queries = symex_queries(&mut store, &mut Rng::new(seed), at_least);

    let mut solver = Solver::default();
    let mut symplay_times = Vec::with_capacity(queries.len());
    let mut symplay_answers = Vec::with_capacity(queries.len());
    for query in &queries {
        let start = Instant::now();
        let result = solver.check(&mut store, query);
        symplay_times.push(start.elapsed());
        symplay_answers.push(result);
    }

    let all_terms: Vec<TermId> = queries.iter().flatten().copied().collect();
    let declarations = store.declarations(&all_terms);
    let query_texts: Vec<String> = queries
        .iter()
        .map(|query| assertions_text(&store, query))
        .collect();
    let mut z3 = Z3::start()?;
    z3.send(&declarations)?;
    let mut z3_times = Vec::with_capacity(queries.len());
    let mut z3_answers = Vec::with_capacity(queries.len());
    for text in &query_texts {
        let start = Instant::now();
        let answer = z3.in_scope(|z3| {
            z3.send(text)?;
            z3.check_sat()
        })?;
        z3_times.push(start.elapsed());
        z3_answers.push(answer);
    }

    let mut agree = true;
    for (i, ((query, ours), theirs)) in queries
        .iter()
        .zip(&symplay_answers)
        .zip(&z3_answers)
        .enumerate()
    {
        if let Some(problem) = disagreement(&store, query, ours, *theirs) {
            agree = false;
            eprintln!("query {i}: {problem}\n{}", store.to_smtlib_script(query));
        }
    }

    let script_path = bench::target_dir()
        .map_err(Z3Error)?
        .join("solver-corpus.smt2");
    std::fs::write(&script_path, corpus_script(&declarations, &query_texts))
        .map_err(|e| Z3Error(format!("cannot write {}: {e}", script_path.display())))?;
    let (script_time, script_answers) = run_z3_on_file(&script_path)?;
    if script_answers != z3_answers {
        agree = false;
        eprintln!(
            "z3 on {} answered differently from z3 interactively",
            script_path.display()
        );
    }

    let sat = z3_answers.iter().filter(|&&a| a == Z3Answer::Sat).count();
    let unsat = z3_answers.iter().filter(|&&a| a == Z3Answer::Unsat).count();
    println!(
        "solver benchmark: {} queries ({sat} sat, {unsat} unsat), seed {seed:#x}",
        queries.len()
    );
    let (symplay_total, symplay_median) = (total(&symplay_times), median(&symplay_times));
    let (z3_total, z3_median) = (total(&z3_times), median(&z3_times));
    println!("  Symplay (in-process, one solver):  total {symplay_total:>10.2?}  median {symplay_median:>10.2?}");
    println!(
        "  z3 (one process, push/pop):        total {z3_total:>10.2?}  median {z3_median:>10.2?}"
    );
    println!(
        "  z3 / Symplay:                      total {:>9.2}x  median {:>9.2}x",
        z3_total.as_secs_f64() / symplay_total.as_secs_f64(),
        z3_median.as_secs_f64() / symplay_median.as_secs_f64()
    );
    println!(
        "  z3 on the whole script (wall):     {script_time:.2?}  ({})",
        script_path.display()
    );
    print_slowest("Symplay", &symplay_times, &z3_times);
    print_slowest("z3", &z3_times, &symplay_times);
    print_stats(solver.stats());
    if agree {
        println!("  Symplay and z3 agree on every query");
    } else {
        eprintln!("Symplay and z3 disagree; see above");
    }
    Ok(agree)
}

/// What is wrong with Symplay's answer to `query`, given z3's.
fn disagreement(
    store: &TermStore,
    query: &[TermId],
    ours: &SolveResult,
    theirs: Z3Answer,
) -> Option<String> {
    let ours_as_z3 = match ours {
        SolveResult::Sat(model) if !store.satisfies(query, model) => {
            return Some("Symplay's model does not satisfy the query".to_string())
        }
        SolveResult::Sat(_) => Z3Answer::Sat,
        SolveResult::Unsat => Z3Answer::Unsat,
        SolveResult::Unknown(why) => return Some(format!("Symplay answered unknown: {why}")),
    };
    match theirs {
        Z3Answer::Unknown => Some("z3 answered unknown".to_string()),
        _ if theirs != ours_as_z3 => {
            Some(format!("Symplay answered {ours_as_z3:?}, z3 {theirs:?}"))
        }
        _ => None,
    }
}

fn assertions_text(store: &TermStore, query: &[TermId]) -> String {
    query
        .iter()
        .map(|&t| format!("(assert {})", store.to_smtlib(t)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The corpus as one script: each query in its own push/pop scope. It sets
/// no logic: the lookup table is a constant array, which z3 rejects under
/// `QF_ABV`.
fn corpus_script(declarations: &str, query_texts: &[String]) -> String {
    let mut script = String::from(declarations);
    for text in query_texts {
        script.push_str("(push 1)\n");
        script.push_str(text);
        script.push_str("\n(check-sat)\n(pop 1)\n");
    }
    script
}

/// Wall time of `z3 <path>`, and its answers.
fn run_z3_on_file(path: &PathBuf) -> Result<(Duration, Vec<Z3Answer>), Z3Error> {
    let start = Instant::now();
    let output = Command::new("z3")
        .arg(path)
        .output()
        .map_err(|e| Z3Error(format!("cannot run z3 on {}: {e}", path.display())))?;
    let elapsed = start.elapsed();
    let text = String::from_utf8_lossy(&output.stdout);
    let answers = text
        .lines()
        .map(|line| match line.trim() {
            "sat" => Ok(Z3Answer::Sat),
            "unsat" => Ok(Z3Answer::Unsat),
            "unknown" => Ok(Z3Answer::Unknown),
            other => Err(Z3Error(format!("z3 on {}: {other}", path.display()))),
        })
        .collect::<Result<_, _>>()?;
    Ok((elapsed, answers))
}

fn total(times: &[Duration]) -> Duration {
    times.iter().sum()
}

/// The queries that took `times` longest, with the other solver's time;
/// query `i` is the `i`-th `check-sat` of the corpus script.
fn print_slowest(name: &str, times: &[Duration], other_times: &[Duration]) {
    let mut order: Vec<usize> = (0..times.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(times[i]));
    let slowest: Vec<String> = order
        .iter()
        .take(SLOWEST_SHOWN)
        .map(|&i| format!("#{i} {:.1?} (other {:.1?})", times[i], other_times[i]))
        .collect();
    println!("  slowest for {name}: {}", slowest.join(", "));
}

fn print_stats(stats: &SolverStats) {
    println!(
        "  Symplay layers ({} queries: {} sat, {} unsat, {} unknown; {:.2?} in the solver):",
        stats.queries, stats.sat, stats.unsat, stats.unknown, stats.total_time
    );
    let layer = |name: &str, what: &str, l: &LayerStats| {
        println!(
            "    {name:<13} {:>6} {what:<22} {:>6} answered  {:>10.2?}",
            l.queries, l.hits, l.time
        );
    };
    layer("simplify", "queries", &stats.simplify);
    println!(
        "    {:<13} {:>6} {:<22} {:>6} constraints already answered",
        "independence", stats.independence.queries, "groups", stats.independence.hits
    );
    layer("query cache", "lookups", &stats.query_cache);
    layer("cex cache", "lookups", &stats.cex_cache);
    layer("SAT", "calls", &stats.sat_solver);
    println!(
        "    SAT instance: {} variables, {} clauses",
        stats.sat_vars, stats.sat_clauses
    );
}
