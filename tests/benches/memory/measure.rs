//! One case explored by the CLI under each contents mode, and what it
//! found and cost under each, printed as a row of the benchmark's tables.

use serde_json::Value;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use symplay_tests::bench::{self, median_of, number};

/// A module, the name its rows go by, and the options it is explored with.
pub struct Case {
    pub name: String,
    pub module: PathBuf,
    pub args: Vec<String>,
}

/// What one exploration found and cost; `limited` when it stopped at the
/// time or the memory limit.
pub struct Measure {
    pub paths: f64,
    pub terms: f64,
    pub ms: f64,
    pub peak_mib: f64,
    /// The report's `mean_state_bytes`.
    pub state_bytes: f64,
    pub sat_variables: f64,
    pub limited: bool,
}

/// A case under whole-memory contents (the baseline) and per-object ones.
pub struct Pair {
    pub whole: Measure,
    pub ours: Measure,
}

impl Pair {
    /// Whether both found the same paths; a whole-memory run cut off by
    /// the time limit is not compared.
    pub fn paths_agree(&self) -> bool {
        self.whole.limited || self.whole.paths == self.ours.paths
    }

    pub fn time_ratio(&self) -> f64 {
        self.whole.ms / self.ours.ms
    }
}

fn explore(binary: &Path, case: &Case, contents: &str, limit: u32) -> Result<Measure, String> {
    let mut args: Vec<OsString> = vec![case.module.clone().into()];
    let limit = limit.to_string();
    args.extend(["--contents", contents, "--max-time", &limit].map(OsString::from));
    args.extend(case.args.iter().map(OsString::from));
    let report: Value = bench::explore_report(binary, &args)
        .map_err(|e| format!("{} ({contents}): {e}", case.name))?;
    Ok(Measure {
        paths: number(&report, "/stats/paths")?,
        terms: number(&report, "/stats/terms")?,
        ms: number(&report, "/stats/timing/total_ms")?,
        peak_mib: number(&report, "/stats/peak_memory_bytes")? / f64::from(1 << 20),
        state_bytes: number(&report, "/stats/mean_state_bytes")?,
        sat_variables: number(&report, "/stats/sat_variables")?,
        limited: matches!(
            report["stop_reason"].as_str(),
            Some("time limit" | "memory limit")
        ),
    })
}

/// The medians of `runs` explorations (paths, terms, SAT variables and
/// the bytes per state from the last: they do not vary).
fn measured(
    binary: &Path,
    case: &Case,
    contents: &str,
    runs: usize,
    limit: u32,
) -> Result<Measure, String> {
    let mut all = Vec::new();
    for _ in 0..runs {
        let m = explore(binary, case, contents, limit)?;
        let limited = m.limited;
        all.push(m);
        // One run at the limit says enough.
        if limited {
            break;
        }
    }
    let ms = median_of(all.iter().map(|m| m.ms).collect());
    let peak_mib = median_of(all.iter().map(|m| m.peak_mib).collect());
    let last = all.pop().ok_or("no run")?;
    Ok(Measure {
        ms,
        peak_mib,
        ..last
    })
}

/// `case` explored `runs` times under each contents mode, runs stopped at
/// `limit` seconds; an error when a per-object run reaches a limit.
pub fn compare(binary: &Path, case: &Case, runs: usize, limit: u32) -> Result<Pair, String> {
    let whole = measured(binary, case, "whole", runs, limit)?;
    let ours = measured(binary, case, "per-object", runs, limit)?;
    if ours.limited {
        return Err(format!(
            "{}: per-object contents reached the {limit} s limit or the memory limit",
            case.name
        ));
    }
    Ok(Pair { whole, ours })
}

/// Columns a row's name takes.
const NAME_WIDTH: usize = 40;

/// The head of a table of rows.
pub fn print_header(what: &str) {
    println!(
        "  {what:<NAME_WIDTH$} {:>7} | {:>9} {:>9} {:>8} | {:>9} {:>9} {:>8} {:>8} | {:>7} {:>7} {:>7}",
        "paths",
        "whole ms",
        "terms",
        "MiB",
        "p-o ms",
        "terms",
        "MiB",
        "B/state",
        "time",
        "terms",
        "memory"
    );
}

fn time(m: &Measure) -> String {
    let at = if m.limited { ">" } else { "" };
    format!("{at}{:.1}", m.ms)
}

/// A case's figures under each mode, and per-object's ratios against
/// whole (`≥` where whole stopped at the limit).
pub fn print_row(name: &str, pair: &Pair) {
    let Pair { whole, ours } = pair;
    let at = if whole.limited { "≥" } else { "" };
    println!(
        "  {name:<NAME_WIDTH$} {:>7} | {:>9} {:>9} {:>8.1} | {:>9} {:>9} {:>8.1} {:>8.0} | {at}{:>6.2}x {:>6.2}x {:>6.2}x",
        ours.paths,
        time(whole),
        whole.terms,
        whole.peak_mib,
        time(ours),
        ours.terms,
        ours.peak_mib,
        ours.state_bytes,
        pair.time_ratio(),
        whole.terms / ours.terms,
        whole.peak_mib / ours.peak_mib,
    );
}
