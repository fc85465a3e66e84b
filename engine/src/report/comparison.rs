//! Two reports of one module side by side (two size modes, two searchers,
//! ...): their figures with the second's ratio to the first's, where their
//! paths end, and the bugs one found and the other did not. The command
//! line's `compare` and the page's compare mode both draw this.

use super::{Report, Status};
use std::collections::BTreeMap;

/// One figure of both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub name: &'static str,
    pub left: f64,
    pub right: f64,
    /// A count of what was found (paths, bugs), which the configurations
    /// change, rather than a measurement (time, memory), which varies.
    pub count: bool,
}

impl Figure {
    /// Right over left, when left is not zero.
    pub fn ratio(&self) -> Option<f64> {
        (self.left != 0.0).then(|| self.right / self.left)
    }

    /// A count that differs: what a reader should look at.
    pub fn differs(&self) -> bool {
        self.count && self.left != self.right
    }

    /// A value as printed: whole numbers whole, others to one decimal.
    pub fn text(x: f64) -> String {
        if x.fract() == 0.0 {
            format!("{x}")
        } else {
            format!("{x:.1}")
        }
    }
}

/// Paths that end the same way at the same place, counted in both runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `heap_overflow at f+0x1a (x.c:9)`, `returned at f+0x30`.
    pub what: String,
    pub bug: bool,
    pub left: usize,
    pub right: usize,
    /// A path of each run that ends so, to show it.
    pub left_path: Option<usize>,
    pub right_path: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub figures: Vec<Figure>,
    /// Why each run ended.
    pub stopped: [String; 2],
    /// Every way paths end in either run, bugs first, then by name.
    pub endings: Vec<Ending>,
}

impl Comparison {
    pub fn of(left: &Report, right: &Report) -> Comparison {
        type Measure = fn(&Report) -> f64;
        let figures: [(&'static str, bool, Measure); 18] = [
            ("paths", true, |r| r.paths.len() as f64),
            ("returned", true, |r| count(r, Status::Returned)),
            ("trapped", true, |r| count(r, Status::Trapped)),
            ("assertion failures", true, |r| {
                count(r, Status::AssertFailed)
            }),
            ("memory errors", true, |r| count(r, Status::MemoryError)),
            ("panics", true, |r| count(r, Status::Panicked)),
            ("distinct bugs", true, |r| {
                endings(r).keys().filter(|(bug, _)| *bug).count() as f64
            }),
            ("forks", true, |r| r.stats.forks as f64),
            ("solver queries", false, |r| r.stats.queries as f64),
            ("largest array (bytes)", true, |r| {
                r.stats.largest_array_bytes as f64
            }),
            ("segments", true, |r| r.stats.segments as f64),
            ("largest segment (bytes)", true, |r| {
                r.stats.largest_segment_bytes as f64
            }),
            ("merges", true, |r| r.merges.len() as f64),
            ("states merged", true, |r| {
                r.merges.iter().map(|m| m.states as f64).sum()
            }),
            ("merged formula nodes", true, |r| {
                (r.merges.iter())
                    .map(|m| (m.condition_size.nodes + m.values_size.nodes) as f64)
                    .sum()
            }),
            ("time (ms)", false, |r| r.stats.timing.total_ms),
            ("peak memory (MiB)", false, |r| {
                r.stats.peak_memory_bytes as f64 / f64::from(1 << 20)
            }),
            ("coverage (%)", true, |r| {
                let c = &r.coverage;
                100.0 * c.covered_instructions as f64 / c.total_instructions.max(1) as f64
            }),
        ];
        let figures = figures
            .into_iter()
            .map(|(name, count, measure)| Figure {
                name,
                left: measure(left),
                right: measure(right),
                count,
            })
            .collect();
        let mut merged: BTreeMap<String, Ending> = BTreeMap::new();
        for (side, report) in [left, right].into_iter().enumerate() {
            for ((bug, what), (paths, first)) in endings(report) {
                let e = merged.entry(what.clone()).or_insert_with(|| Ending {
                    what,
                    bug,
                    left: 0,
                    right: 0,
                    left_path: None,
                    right_path: None,
                });
                if side == 0 {
                    (e.left, e.left_path) = (paths, Some(first));
                } else {
                    (e.right, e.right_path) = (paths, Some(first));
                }
            }
        }
        let mut endings: Vec<Ending> = merged.into_values().collect();
        endings.sort_by(|a, b| (!a.bug, &a.what).cmp(&(!b.bug, &b.what)));
        Comparison {
            figures,
            stopped: [left.stop_reason.clone(), right.stop_reason.clone()],
            endings,
        }
    }

    /// The bugs only the left (`left` true) or only the right run found.
    pub fn bugs_only(&self, left: bool) -> impl Iterator<Item = &Ending> {
        self.endings.iter().filter(move |e| {
            let (mine, other) = if left {
                (e.left, e.right)
            } else {
                (e.right, e.left)
            };
            e.bug && mine > 0 && other == 0
        })
    }
}

fn count(r: &Report, status: Status) -> f64 {
    r.paths.iter().filter(|p| p.status == status).count() as f64
}

/// The report's paths by (is a bug, how and where they end), with their
/// number and the first of them.
fn endings(r: &Report) -> BTreeMap<(bool, String), (usize, usize)> {
    let mut found = BTreeMap::new();
    for p in &r.paths {
        let what = format!("{} at {}", p.ending(), p.location.text());
        found
            .entry((p.is_bug(), what))
            .and_modify(|(n, _)| *n += 1)
            .or_insert((1, p.id));
    }
    found
}
