//! The reports of a run's shards (`--shard I/N`) joined into the report
//! one run gives: each must be a shard of the same run (the same module
//! entry and options, the same count, each index once); a shard missing
//! leaves the states it was given pending, and says so.

use super::join::{cut_reason, join, Part, CUTS};
use super::{Report, ShardReport};
use crate::exec::MAX_SHARDS;

/// `reports`, each with a name to tell it by (its file), joined; an error
/// names the report that does not fit and why.
pub fn join_shards(reports: Vec<(String, Report)>) -> Result<Report, String> {
    let Some((first_name, first)) = reports.first() else {
        return Err("no report to merge".into());
    };
    let count = shard_of(first_name, first)?.count;
    let mut seen: Vec<Option<&str>> = vec![None; count as usize];
    for (name, report) in &reports {
        let shard = shard_of(name, report)?;
        if shard.index >= shard.count {
            return Err(format!(
                "{name} is damaged: shard {}/{} (counted from 0)",
                shard.index, shard.count
            ));
        }
        if shard.count != count {
            return Err(format!(
                "{name} is shard {}/{}, and {first_name} one of {count}",
                shard.index, shard.count
            ));
        }
        if let Some(other) = seen[shard.index as usize].replace(name.as_str()) {
            return Err(format!(
                "{name} and {other} are both shard {}/{count}",
                shard.index
            ));
        }
        check_tree(name, report)?;
        if let Some(what) = differs(first, report) {
            return Err(format!(
                "{name} explored with another {what} than {first_name}: shards of one run share every option but --shard"
            ));
        }
    }
    let missing: Vec<String> = (seen.iter().enumerate())
        .filter(|(_, name)| name.is_none())
        .map(|(index, _)| format!("{index}/{count}"))
        .collect();
    let total_ms = (reports.iter())
        .map(|(_, r)| r.stats.timing.total_ms)
        .fold(0.0, f64::max);
    let parts = (reports.into_iter())
        .map(|(name, report)| {
            let total = report.coverage.total_instructions;
            let ran = report
                .shard
                .as_ref()
                .map(|s| s.ran.as_slice())
                .unwrap_or_default();
            let covered = Some(ran_map(ran, total).map_err(|e| format!("{name}: {e}"))?);
            Ok(Part {
                report,
                at: Vec::new(),
                covered,
            })
        })
        .collect::<Result<Vec<Part>, String>>()?;
    let mut joined = join(&parts);
    // A shard that a limit stopped stopped the run; else the first cut.
    joined.stop_reason = (parts.iter())
        .map(|p| &p.report.stop_reason)
        .find(|reason| *reason != "completed" && !CUTS.contains(&reason.as_str()))
        .cloned()
        .unwrap_or_else(|| cut_reason(&parts));
    if !missing.is_empty() {
        joined.warnings.push(format!(
            "shard {} missing: the states it was given are pending",
            missing.join(", ")
        ));
        joined.stop_reason = "shards missing".into();
    }
    joined.stats.timing.total_ms = total_ms;
    Ok(joined)
}

/// The shard `report` is, of a count a run may have.
fn shard_of<'r>(name: &str, report: &'r Report) -> Result<&'r ShardReport, String> {
    let shard = report.shard.as_ref().ok_or_else(|| {
        format!("{name} is the report of a whole run, not of a shard (explore with --shard I/N)")
    })?;
    if shard.count == 0 || shard.count > MAX_SHARDS {
        return Err(format!(
            "{name} is damaged: {} shards (1 to {MAX_SHARDS})",
            shard.count
        ));
    }
    Ok(shard)
}

/// The first setting of the run `b` explored with that is not `a`'s.
fn differs(a: &Report, b: &Report) -> Option<&'static str> {
    let settings = [
        ("report schema", a.schema_version == b.schema_version),
        ("entry", a.entry == b.entry && a.params == b.params),
        ("searcher or seed", a.search == b.search && a.seed == b.seed),
        ("concrete or buffer arguments", {
            a.concrete_args == b.concrete_args && a.buffer_args == b.buffer_args
        }),
        ("heap or memory options", a.heap == b.heap),
        ("merging", a.merge == b.merge),
        ("limits", a.limits == b.limits),
        ("outcome options", a.outcomes == b.outcomes),
        ("import handling", a.havoc_imports == b.havoc_imports),
    ];
    settings
        .iter()
        .find(|(_, same)| !same)
        .map(|(what, _)| *what)
}

/// That the tree of `report` is one: each node's children come after it,
/// within the tree, each the child of one node, and each path a node
/// names is in the report (a damaged file would loop or index past them).
fn check_tree(name: &str, report: &Report) -> Result<(), String> {
    let tree = &report.tree;
    let mut parent = vec![None; tree.len()];
    for (id, node) in tree.iter().enumerate() {
        for &c in &node.children {
            if c <= id || c >= tree.len() || parent[c].replace(id).is_some() {
                return Err(format!(
                    "{name}: the tree is damaged (node {id} names {c} a child)"
                ));
            }
        }
        if node.path.is_some_and(|p| p >= report.paths.len()) {
            return Err(format!(
                "{name}: the tree is damaged (node {id} names a path the report does not have)"
            ));
        }
    }
    Ok(())
}

/// Whether each instruction ran, per function, from the ranges of those
/// that did (of `total` instructions in all).
fn ran_map(ran: &[Vec<[u32; 2]>], total: u64) -> Result<Vec<Vec<bool>>, String> {
    (ran.iter())
        .map(|ranges| {
            let mut map = Vec::new();
            for &[start, end] in ranges {
                if start < map.len() as u32 || end <= start || u64::from(end) > total {
                    return Err(format!(
                        "the instructions it ran are damaged (range {start}..{end})"
                    ));
                }
                map.resize(start as usize, false);
                map.resize(end as usize, true);
            }
            Ok(map)
        })
        .collect()
}
