//! The merge modes side by side (`symbolic_size.md` §3 and §6,
//! `quantified_merging.md` §8): each size-dependent program is explored
//! with the CLI under Base, ForkEager and ForkLazy, each with no merging,
//! CFG, SM, SMOpt and PAT, depth first. The bench prints per run the
//! paths, the states that waited at loop exits, the merges (and PAT's over
//! a k), the solver queries, the time (the report's `total_ms`, median of
//! the runs), the size of the merged formulas (DAG nodes of the merged
//! conditions and values, their `or`s and `ite`s, CNF variables and
//! clauses of the merged conditions, from the report's `merges`), the
//! quantified queries answered at each stage of the procedure (strip,
//! duplicate, repair, fallback) and the bugs found, with the ratios of
//! paths, queries and time against the same size mode without merging.
//! Then the seeds' comparisons, in direction: SMOpt against SM (formula
//! size, queries, time), ForkLazy with SMOpt against ForkLazy alone and
//! against Base, PAT against CFG (time, `ite`s and `or`s, queries), and
//! the bugs the range modes find that Base misses. The goals: no merge
//! mode misses a bug (kind and place) that its size mode finds without
//! merging; SMOpt explores the paths SM does, with merged formulas no
//! larger in all; PAT's merged formulas have no more `ite`s and `or`s in
//! all than CFG's. A report without a figure the table shows is an error,
//! not a zero.
//!
//! Run with `cargo bench -p symplay-tests --bench merging`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per program and mode (default 3, 1
//! in the short form).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::ExitCode;
use symplay_tests::bench::{self, geometric_mean, median_of, number, ratio, Bound, Settings};

const SIZE_MODES: [&str; 3] = ["base", "fork-eager", "fork-lazy"];
const MERGE_MODES: [&str; 5] = ["none", "cfg", "sm", "smopt", "pat"];

/// File (from the repository root), entry, capacity, and more options.
const PROGRAMS: &[(&str, &str, u32, &[&str])] = &[
    (
        "tests/data/heap/size/e1.wat",
        "e1",
        3,
        &["--no-past-capacity"],
    ),
    (
        "tests/data/heap/size/e1.wat",
        "e1_count",
        3,
        &["--no-past-capacity"],
    ),
    ("tests/data/heap/size/strided.wat", "fill", 200, &[]),
    ("tests/data/heap/size/strided.wat", "fill_strided", 4, &[]),
    ("tests/data/heap/size/headers.wat", "headers", 8, &[]),
    ("tests/data/heap/size/e5.wat", "two_calls_wider", 4, &[]),
    (
        "tests/data/heap/length_dependent_read.O1.wasm",
        "length_dependent_read",
        100,
        &[],
    ),
    (
        "static/examples/c/length_read.wasm",
        "first_header",
        100,
        &[],
    ),
    ("static/examples/c/memspn.wasm", "blank_run", 100, &[]),
    (
        "tests/data/heap/size/memspn_ab.wat",
        "memspn",
        3,
        &["--no-past-capacity"],
    ),
    ("static/examples/c/strchr_chain.wasm", "field_gap", 100, &[]),
    (
        "tests/data/heap/libc_strchr.O1.wasm",
        "libc_strchr",
        100,
        &[],
    ),
    (
        "tests/data/heap/params/header.wat",
        "count_hashes",
        100,
        &["--buffer", "0:8"],
    ),
];

fn main() -> ExitCode {
    bench::exit(run())
}

/// What one exploration found and cost.
#[derive(Clone)]
struct Measure {
    paths: f64,
    waited: f64,
    merges: f64,
    queries: f64,
    ms: f64,
    /// PAT's merges over a k, and its incremental ones.
    over_k: f64,
    incremental: f64,
    /// DAG nodes of the merged conditions and values, their `or`s and
    /// `ite`s, CNF variables and clauses of the merged conditions, over
    /// every merge.
    formula_nodes: f64,
    ors_ites: f64,
    cnf_variables: f64,
    cnf_clauses: f64,
    /// Quantified queries answered at strip, duplicate, repair and the
    /// fallback, and left unknown.
    stages: [f64; 5],
    /// `status/kind at function+offset` of each path that did not return.
    bugs: BTreeSet<String>,
}

fn explore(
    binary: &Path,
    (file, entry, capacity, more): (&str, &str, u32, &[&str]),
    size_mode: &str,
    merge: &str,
) -> Result<Measure, String> {
    let capacity = capacity.to_string();
    let mut args = vec![file, "--entry", entry, "--search", "dfs"];
    args.extend(["--size-mode", size_mode, "--capacity", &capacity]);
    args.extend(["--merge", merge]);
    args.extend(more);
    let what = format!("{file} {entry} {size_mode}+{merge}");
    let report = bench::explore_report(binary, &args).map_err(|e| format!("{what}: {e}"))?;
    if report["stop_reason"].as_str() != Some("completed") {
        return Err(format!("{what}: stopped by {}", report["stop_reason"]));
    }
    measure(&report, merge != "none").map_err(|e| format!("{what}: {e}"))
}

fn measure(report: &Value, merging: bool) -> Result<Measure, String> {
    let merges = report["merges"].as_array().map_or(&[][..], Vec::as_slice);
    let (mut formula_nodes, mut ors_ites) = (0.0, 0.0);
    let (mut cnf_variables, mut cnf_clauses) = (0.0, 0.0);
    for m in merges {
        formula_nodes += number(m, "/condition_size/nodes")? + number(m, "/values_size/nodes")?;
        ors_ites += [
            "/condition_size/ors",
            "/condition_size/ites",
            "/values_size/ites",
        ]
        .iter()
        .map(|at| number(m, at))
        .sum::<Result<f64, String>>()?;
        // A condition too large to count, or a quantified one (the
        // procedure makes several CNFs of it), has no CNF figure: counted
        // as its DAG, which only makes the larger mode look smaller.
        let nodes = number(m, "/condition_size/nodes")?;
        cnf_variables += number(m, "/condition_size/cnf_variables").unwrap_or(nodes);
        cnf_clauses += number(m, "/condition_size/cnf_clauses").unwrap_or(nodes);
    }
    // Present only where the run asked quantified queries.
    let stages = match report.pointer("/stats/quantified") {
        Some(q) if !q.is_null() => {
            let mut stages = [0.0; 5];
            for (stage, name) in
                stages
                    .iter_mut()
                    .zip(["strip", "duplicate", "repair", "fallback", "unknown"])
            {
                *stage = number(q, &format!("/{name}"))?;
            }
            stages
        }
        _ => [0.0; 5],
    };
    let (waited, merged, over_k, incremental) = if merging {
        (
            number(report, "/stats/merging/waited")?,
            number(report, "/stats/merging/merges")?,
            number(report, "/stats/merging/over_k")?,
            number(report, "/stats/merging/incremental")?,
        )
    } else {
        (0.0, 0.0, 0.0, 0.0)
    };
    if merged != merges.len() as f64 {
        return Err(format!(
            "{merged} merges counted, {} reported",
            merges.len()
        ));
    }
    Ok(Measure {
        paths: number(report, "/stats/paths")?,
        waited,
        merges: merged,
        over_k,
        incremental,
        queries: number(report, "/stats/queries")?,
        ms: number(report, "/stats/timing/total_ms")?,
        formula_nodes,
        ors_ites,
        cnf_variables,
        cnf_clauses,
        stages,
        bugs: bugs(report)?,
    })
}

/// `status/kind at function+offset` of each path that did not return.
fn bugs(report: &Value) -> Result<BTreeSet<String>, String> {
    let paths = report["paths"]
        .as_array()
        .ok_or("the report has no paths")?;
    let mut bugs = BTreeSet::new();
    for path in paths.iter().filter(|p| p["status"] != "returned") {
        let kind = (path["memory_error"]["kind"].as_str())
            .or(path["trap"].as_str())
            .or(path["status"].as_str())
            .unwrap_or("?");
        let function = path["location"]["function"].as_str().unwrap_or("?");
        let offset = number(path, "/location/offset")? as u64;
        bugs.insert(format!("{kind} at {function}+0x{offset:x}"));
    }
    Ok(bugs)
}

/// Runs the benchmark; `Ok(false)` when a goal is missed.
fn run() -> Result<bool, String> {
    let settings = Settings::from_env(3, 1)?;
    let root = bench::root();
    let binary = bench::build_cli(&root)?;
    std::env::set_current_dir(&root).map_err(|e| e.to_string())?;
    println!(
        "{:<40} {:<16} {:>6} {:>6} {:>7} {:>7} {:>8} {:>8} {:>6} {:>8} {:>8} {:>11} {:>4}  {:>5} {:>5} {:>5}",
        "program",
        "mode",
        "paths",
        "waited",
        "merges",
        "queries",
        "ms",
        "f.nodes",
        "or+ite",
        "cnf var.",
        "cnf cl.",
        "S/D/R/F/U",
        "bugs",
        "paths",
        "quer.",
        "time"
    );
    println!(
        "{:>155}",
        "(PAT's merges: over a k/incremental/all; ratios against no merging)"
    );
    let mut all: BTreeMap<(usize, &str, &str), Measure> = BTreeMap::new();
    let mut missed = Vec::new();
    let mut base_missed = BTreeSet::new();
    for (p, &program) in PROGRAMS.iter().enumerate() {
        let (file, entry, capacity, _) = program;
        let name = format!(
            "{} {entry} (capacity {capacity})",
            Path::new(file)
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
        );
        for size_mode in SIZE_MODES {
            for merge in MERGE_MODES {
                let mut runs = Vec::new();
                for _ in 0..settings.runs {
                    runs.push(explore(&binary, program, size_mode, merge)?);
                }
                let ms = median_of(runs.iter().map(|m| m.ms).collect());
                let m = Measure {
                    ms,
                    ..runs.swap_remove(0)
                };
                let plain = all.get(&(p, size_mode, "none")).unwrap_or(&m).clone();
                for bug in plain.bugs.difference(&m.bugs) {
                    missed.push(format!("{name}: {bug} ({size_mode}+{merge})"));
                }
                if let Some(base) = all
                    .get(&(p, "base", "none"))
                    .filter(|_| size_mode != "base")
                {
                    base_missed.extend(
                        m.bugs
                            .difference(&base.bugs)
                            .map(|b| format!("{name}: {b}")),
                    );
                }
                let merges = match merge {
                    "pat" => format!("{}/{}/{}", m.over_k, m.incremental, m.merges),
                    _ => m.merges.to_string(),
                };
                let stages: Vec<String> = m.stages.iter().map(f64::to_string).collect();
                println!(
                    "{name:<40} {:<16} {:>6} {:>6} {:>7} {:>7} {:>8.2} {:>8} {:>6} {:>8} {:>8} {:>11} {:>4}  {:>5} {:>5} {:>5}",
                    format!("{size_mode}+{merge}"),
                    m.paths,
                    m.waited,
                    merges,
                    m.queries,
                    m.ms,
                    m.formula_nodes,
                    m.ors_ites,
                    m.cnf_variables,
                    m.cnf_clauses,
                    stages.join("/"),
                    m.bugs.len(),
                    ratio(m.paths, plain.paths),
                    ratio(m.queries, plain.queries),
                    ratio(m.ms, plain.ms),
                );
                all.insert((p, size_mode, merge), m);
            }
        }
    }
    println!();
    let pick = |size_mode: &'static str, merge: &'static str| -> Vec<&Measure> {
        (0..PROGRAMS.len())
            .filter_map(|p| all.get(&(p, size_mode, merge)))
            .collect()
    };
    let means = |a: &[&Measure], b: &[&Measure], f: fn(&Measure) -> f64| {
        let ratios: Vec<f64> = (a.iter().zip(b))
            .filter(|(x, y)| f(x) > 0.0 && f(y) > 0.0)
            .map(|(x, y)| f(x) / f(y))
            .collect();
        geometric_mean(&ratios)
    };
    let (sm, smopt) = (pick("fork-lazy", "sm"), pick("fork-lazy", "smopt"));
    let (lazy, base) = (pick("fork-lazy", "none"), pick("base", "none"));
    let merged: Vec<(&Measure, &Measure)> = (sm.iter().zip(&smopt))
        .filter(|(a, b)| a.merges > 0.0 && b.merges > 0.0)
        .map(|(a, b)| (*a, *b))
        .collect();
    let (sm_merged, smopt_merged): (Vec<&Measure>, Vec<&Measure>) = merged.iter().copied().unzip();
    println!(
        "fork-lazy, SMOpt against SM where both merged ({} programs), geometric means: formula nodes {:.2}x, CNF clauses {:.2}x, queries {:.2}x, time {:.2}x (the seed: constraints 12x to 886x smaller, queries fewer, 1.4x to 1.6x faster)",
        merged.len(),
        means(&smopt_merged, &sm_merged, |m| m.formula_nodes),
        means(&smopt_merged, &sm_merged, |m| m.cnf_clauses),
        means(&smopt_merged, &sm_merged, |m| m.queries),
        means(&smopt_merged, &sm_merged, |m| m.ms),
    );
    println!(
        "fork-lazy with SMOpt against fork-lazy alone, geometric means: paths {:.2}x, queries {:.2}x, time {:.2}x",
        means(&smopt, &lazy, |m| m.paths),
        means(&smopt, &lazy, |m| m.queries),
        means(&smopt, &lazy, |m| m.ms),
    );
    println!(
        "fork-lazy with SMOpt against base, geometric means: paths {:.2}x, time {:.2}x (the seed: SMOpt about 3x faster than Base on libtasn1 and libosip, slower on libpng)",
        means(&smopt, &base, |m| m.paths),
        means(&smopt, &base, |m| m.ms),
    );
    // PAT against CFG on each size mode, where both merged.
    let (mut pat_ors_ites, mut cfg_ors_ites) = (0.0, 0.0);
    for size_mode in SIZE_MODES {
        let (cfg, pat) = (pick(size_mode, "cfg"), pick(size_mode, "pat"));
        cfg_ors_ites += cfg.iter().map(|m| m.ors_ites).sum::<f64>();
        pat_ors_ites += pat.iter().map(|m| m.ors_ites).sum::<f64>();
        let both: Vec<(&Measure, &Measure)> = (cfg.iter().zip(&pat))
            .filter(|(c, p)| c.merges > 0.0 && p.merges > 0.0)
            .map(|(c, p)| (*c, *p))
            .collect();
        let (c, p): (Vec<&Measure>, Vec<&Measure>) = both.iter().copied().unzip();
        let over_k: f64 = p.iter().map(|m| m.over_k).sum();
        let incremental: f64 = p.iter().map(|m| m.incremental).sum();
        let merges: f64 = p.iter().map(|m| m.merges).sum();
        let stages: Vec<String> = (0..5)
            .map(|s| p.iter().map(|m| m.stages[s]).sum::<f64>().to_string())
            .collect();
        println!(
            "{size_mode}, PAT against CFG where both merged ({} programs; {over_k} of PAT's {merges} merges over a k, {incremental} incremental; quantified queries at S/D/R/F/unknown {}), geometric means: time {:.2}x, or+ite {:.2}x, formula nodes {:.2}x, queries {:.2}x, paths {:.2}x (the seed: PAT 7.18x faster than CFG on libosip, 2.69x on wget, with fewer ites and disjunctions)",
            both.len(),
            stages.join("/"),
            means(&p, &c, |m| m.ms),
            means(&p, &c, |m| m.ors_ites),
            means(&p, &c, |m| m.formula_nodes),
            means(&p, &c, |m| m.queries),
            means(&p, &c, |m| m.paths),
        );
    }
    for bug in &base_missed {
        println!("found by a range mode, missed by base: {bug}");
    }
    for bug in &missed {
        println!("found without merging, missed by merging: {bug}");
    }
    let sm_nodes: f64 = sm.iter().map(|m| m.formula_nodes).sum();
    let smopt_nodes: f64 = smopt.iter().map(|m| m.formula_nodes).sum();
    let differing = (sm.iter().zip(&smopt))
        .filter(|(a, b)| a.paths != b.paths)
        .count();
    let found = settings.goal(
        "bugs found by a range mode and missed by base",
        base_missed.len() as f64,
        Bound::AtLeast(1.0),
        "",
    );
    let kept = settings.goal(
        "bugs found without merging and missed by a merge mode",
        missed.len() as f64,
        Bound::AtMost(0.0),
        "",
    );
    let same = settings.goal(
        "programs where SMOpt explores other paths than SM",
        differing as f64,
        Bound::AtMost(0.0),
        "",
    );
    let smaller = settings.goal(
        "merged formula nodes, SMOpt / SM over every program",
        smopt_nodes / sm_nodes.max(1.0),
        Bound::AtMost(1.0),
        "x",
    );
    let fewer = settings.goal(
        "or and ite in merged formulas, PAT / CFG over every program and size mode",
        pat_ors_ites / cfg_ors_ites.max(1.0),
        Bound::AtMost(1.0),
        "x",
    );
    Ok(found && kept && same && smaller && fewer)
}
