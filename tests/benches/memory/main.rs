//! Memory contents side by side: each shape of `tests/data/memory/shapes.wat`,
//! every integer entry of the C examples (default options) and every entry
//! of the heap corpus (`tests/data/heap/expected.txt`, depth first with the
//! heap test's limits) is explored with the CLI under `--contents whole` (a
//! symbolic access's array holds all of linear memory: the baseline) and
//! `--contents per-object` (only the bytes the access can reach). The bench
//! prints per shape the paths, terms built, time (the report's `total_ms`,
//! median of the runs) and peak memory under each, with per-object's ratios
//! against whole measured in the same run, and the mean bytes a state held
//! of its own where it forked or ended; the same per entry of the examples
//! and the heap corpus in the full form, and in both forms their geometric
//! means and the entry where per-object fares worst against whole. Both
//! modes must find the same paths. A whole-memory run that
//! reaches its time limit (or the memory limit) prints as `>` its time.
//!
//! The shapes: symbolic indices into a 256-byte table (after half a
//! mebibyte of memory was filled elsewhere too), a 4 KiB table, buffers of
//! symbolic bytes; four reads of the 256-byte table in memories of 16
//! pages, 16 pages of which 15 are filled with non-zero bytes, and 256
//! filled pages; writes at symbolic offsets into a 1 KiB input object
//! (each one store over its own array), then a read of it; a string copy; 2^n paths from n input bytes, depth first
//! and breadth first; and a breadth-first run over 16 pages, each path
//! writing to every page, whose states stop splitting at 10,000 pending.
//!
//! Goals (they fail the bench): a symbolic index into a 256-byte table
//! after the half-mebibyte fill takes under 1 s and at most 3x the time of
//! the same read without the fill, and builds at most 1.5x its terms; the
//! SAT variables per table read, per object, vary by at most 1.2x across
//! the three memories (measured equal, 2,317 per read in each, where a
//! whole-memory read's array holds every filled byte: the slack is for
//! changes in how the solver splits and answers these queries, not for a
//! read that grows with the memory); the 10,000-pending run peaks under
//! 512 MiB per object. Targets, printed as met or not yet met and not
//! enforced: the time per table read varies by at most 1.5x across the
//! memories (it is a few SAT calls, too noisy to fail a run on); at most
//! 50 us per path for the 2^n shapes; the 2^16 breadth-first run (full
//! form only) under 160 MiB peak per object.
//!
//! Run with `cargo bench -p symplay-tests --bench memory`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per case and mode (default 3, 1 in
//! the short form). The short form (`SYMPLAY_BENCH_SHORT=1`, which CI runs
//! through `scripts/bench-short.sh`) stops whole-memory runs at 5 s
//! instead of 30, leaves out the largest sizes (2^n for n = 8 and 12 and
//! 2^13 breadth first, instead of n = 8 to 16 and 2^16) and prints the
//! examples and the heap corpus as their summary only.

mod measure;
mod programs;
mod shapes;

use measure::Pair;
use std::process::ExitCode;
use symplay_tests::bench::{self, Bound, Settings};

/// A whole-memory run's time limit, in seconds (the short form's second).
const LIMIT_S: [u32; 2] = [30, 5];

fn main() -> ExitCode {
    bench::exit(run())
}

fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let limit = LIMIT_S[usize::from(settings.short)];
    let binary = bench::build_cli(&bench::root())?;
    println!(
        "memory benchmark: median of {} runs, whole-memory runs stopped at {limit} s",
        settings.runs
    );
    measure::print_header("shape");
    let mut measured = Vec::new();
    for shape in shapes::all(settings.short) {
        let pair = measure::compare(&binary, &shape, settings.runs, limit)?;
        if !pair.paths_agree() {
            return Err(format!(
                "{}: {} paths under whole contents, {} per object",
                shape.name, pair.whole.paths, pair.ours.paths
            ));
        }
        measure::print_row(&shape.name, &pair);
        measured.push((shape.name, pair));
    }
    println!("  (ratios: whole / per-object; above 1, per-object is cheaper)");
    let find = |name: &str| {
        measured
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, pair)| pair)
            .ok_or(format!("no shape {name}"))
    };
    let reads = reads_per_memory(&find)?;
    programs::run(&binary, settings.runs, limit, !settings.short)?;
    judge(&settings, &find, &reads)
}

/// Prints the goals and targets on the shapes' figures; whether every goal
/// was met.
fn judge<'a>(
    settings: &Settings,
    find: &impl Fn(&str) -> Result<&'a Pair, String>,
    reads: &[&Pair],
) -> Result<bool, String> {
    let (plain, filled) = (
        &find("table 256 B")?.ours,
        &find("table 256 B, 512 KiB filled")?.ours,
    );
    let under_a_second = settings.goal(
        "table read after a 512 KiB fill, per object",
        filled.ms / 1000.0,
        Bound::AtMost(1.0),
        " s",
    );
    let time_ratio = settings.goal(
        "its time / the same read without the fill",
        filled.ms / plain.ms,
        Bound::AtMost(3.0),
        "x",
    );
    let terms_ratio = settings.goal(
        "its terms / the same read without the fill",
        filled.terms / plain.terms,
        Bound::AtMost(1.5),
        "x",
    );
    let spread = |per_read: fn(&Pair) -> f64| {
        let all: Vec<f64> = reads.iter().map(|pair| per_read(pair)).collect();
        all.iter().copied().fold(f64::MIN, f64::max) / all.iter().copied().fold(f64::MAX, f64::min)
    };
    let sat_spread = settings.goal(
        "SAT variables per table read, per object, most / least across the memories",
        spread(|p| p.ours.sat_variables),
        Bound::AtMost(1.2),
        "x",
    );
    bench::target(
        "time per table read, per object, most / least across the memories",
        spread(|p| p.ours.ms),
        Bound::AtMost(1.5),
        "x",
    );
    let per_path = shapes::branch_sizes(settings.short)
        .into_iter()
        .map(shapes::paths_name)
        .chain([shapes::breadth_first_name(shapes::breadth_first_size(
            settings.short,
        ))])
        .map(|name| find(&name).map(|p| p.ours.ms * 1000.0 / p.ours.paths))
        .collect::<Result<Vec<f64>, String>>()?;
    bench::target(
        "time per path of the 2^n shapes, per object, the most",
        per_path.into_iter().fold(f64::MIN, f64::max),
        Bound::AtMost(50.0),
        " us",
    );
    if !settings.short {
        bench::target(
            "peak memory of 2^16 paths breadth first, per object",
            find(&shapes::breadth_first_name(16))?.ours.peak_mib,
            Bound::AtMost(160.0),
            " MiB",
        );
    }
    let pending_peak = settings.goal(
        &format!(
            "peak memory with {} states pending over 16 pages, per object",
            shapes::PENDING_STATES
        ),
        find(&shapes::pending_name())?.ours.peak_mib,
        Bound::AtMost(512.0),
        " MiB",
    );
    Ok(under_a_second && time_ratio && terms_ratio && sat_spread && pending_peak)
}

/// The table-reads shapes' figures, one per memory, after printing them
/// per read.
fn reads_per_memory<'a>(
    find: &impl Fn(&str) -> Result<&'a Pair, String>,
) -> Result<Vec<&'a Pair>, String> {
    println!(
        "  {:<40} | {:>13} {:>9} | {:>13} {:>9}",
        "per table read, in", "whole SAT var", "ms", "p-o SAT var", "ms"
    );
    let mut all = Vec::new();
    for (memory, ..) in shapes::READ_MEMORIES {
        let pair = find(&shapes::reads_name(memory))?;
        let per_read = |x: f64| x / shapes::TABLE_READS;
        let at = if pair.whole.limited { ">" } else { "" };
        println!(
            "  {:<40} | {:>13} {:>9} | {:>13.0} {:>9.2}",
            memory,
            if pair.whole.limited {
                "-".to_string()
            } else {
                format!("{:.0}", per_read(pair.whole.sat_variables))
            },
            format!("{at}{:.2}", per_read(pair.whole.ms)),
            per_read(pair.ours.sat_variables),
            per_read(pair.ours.ms),
        );
        all.push(pair);
    }
    Ok(all)
}
