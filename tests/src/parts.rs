//! Explorations split into parts as a parallel run's jobs split them, run
//! one after another so that the split is the same at every run: after
//! every few slices, a part hands a waiting state to a new part, which
//! explores the subtree below it; the parts' reports are joined. And what
//! names a path whatever the run's numbering or models.

use std::time::Duration;
use symplay_engine::exec::{Exploration, ExploreError, Options};
use symplay_engine::report::join::{cut_reason, join, Part};
use symplay_engine::report::{ForkKind, Report};
use symplay_wasm::Module;

/// `entry` of `module` explored in parts, a state handed to a new part
/// after every `every` slices of each; the joined report and how many
/// states were handed over.
pub fn explored_in_parts(
    module: &Module,
    entry: &str,
    options: &Options,
    every: usize,
) -> Result<(Report, usize), ExploreError> {
    let (parts, handed) = parts_of(module, entry, options, every)?;
    let mut joined = join(&parts);
    joined.stop_reason = cut_reason(&parts);
    Ok((joined, handed))
}

/// The parts of [`explored_in_parts`], the whole run's first, not joined;
/// and how many states were handed over.
pub fn parts_of(
    module: &Module,
    entry: &str,
    options: &Options,
    every: usize,
) -> Result<(Vec<Part>, usize), ExploreError> {
    let mut parts = Vec::new();
    let mut queue = vec![None];
    let mut handed = 0;
    while let Some(handover) = queue.pop() {
        let mut x = match &handover {
            None => Exploration::new(module, entry, options)?,
            Some(h) => Exploration::for_subtree(module, entry, options, h)?,
        };
        let mut slices = 0;
        while !x.advance(Duration::ZERO, &mut |_| true) {
            slices += 1;
            if slices % every == 0 {
                if let Some(h) = x.hand_over() {
                    handed += 1;
                    queue.push(Some(h));
                }
            }
        }
        assert_eq!(x.off_course(), 0, "a part's path ended on its way");
        let covered = Some(x.covered().to_vec());
        parts.push(Part {
            report: x.finish(),
            at: handover.map_or_else(Vec::new, |h| h.decisions),
            covered,
        });
    }
    Ok((parts, handed))
}

/// What each path is, whatever the run's numbering and models: its leaf's
/// decisions (but for the side of a split result, which a model orders),
/// how and where it ended and how many constraints its condition has,
/// sorted. Not its results (a result the path leaves a term is printed
/// as a model's value), nor its condition's text: each job's term store
/// numbers terms in its own order, and the operands of a sum or a
/// conjunction follow those numbers.
pub fn path_names(report: &Report) -> Vec<String> {
    let canonical = join(&[Part {
        report: report.clone(),
        at: Vec::new(),
        covered: None,
    }]);
    let mut names: Vec<String> = (canonical.paths.iter())
        .map(|p| {
            format!(
                "{:?} {} at {} under {} constraints",
                decisions_but_results(&canonical, p.node),
                p.ending(),
                p.location.text(),
                p.condition.len()
            )
        })
        .collect();
    names.sort();
    names
}

/// The decisions from the root to `node`, the side of a split result
/// left out.
fn decisions_but_results(report: &Report, node: usize) -> Vec<u32> {
    let mut decisions = report.decisions_of(node);
    let parent = report.tree[node].parent;
    if parent.is_some_and(|p| report.tree[p].fork_kind == ForkKind::Result) {
        decisions.pop();
    }
    decisions
}

/// Why two runs' paths differ (their counts, and a few of each side's
/// own), or `None` when they are the same.
pub fn paths_differ(a: &Report, b: &Report) -> Option<String> {
    let (a, b) = (path_names(a), path_names(b));
    if a == b {
        return None;
    }
    let only = |x: &[String], y: &[String]| -> Vec<String> {
        x.iter()
            .filter(|p| !y.contains(p))
            .take(3)
            .cloned()
            .collect()
    };
    Some(format!(
        "{} paths against {}; only in the first: {:?}; only in the second: {:?}",
        a.len(),
        b.len(),
        only(&a, &b),
        only(&b, &a)
    ))
}
