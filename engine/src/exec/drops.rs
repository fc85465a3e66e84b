//! The paths dropped without an outcome (an assumption that cannot hold,
//! a branch the solver could not decide), counted by cause and instruction
//! for the report.

use crate::report::{DropCause, DropSite, Location};
use rustc_hash::FxHashMap;

/// The paths dropped without an outcome, counted by cause and instruction
/// (in the order the sites were first met, so reports are deterministic).
#[derive(Debug, Default)]
pub struct Drops {
    sites: Vec<DropSite>,
    /// By cause and (store function, pc): the site's index in `sites`.
    index: FxHashMap<(DropCause, (u32, u32)), usize>,
}

impl Drops {
    pub(crate) fn record(&mut self, cause: DropCause, at: (u32, u32), location: Location) {
        let next = self.sites.len();
        let site = *self.index.entry((cause, at)).or_insert(next);
        if site == next {
            self.sites.push(DropSite {
                cause,
                location,
                paths: 0,
            });
        }
        self.sites[site].paths += 1;
    }

    pub fn total(&self) -> u64 {
        self.sites.iter().map(|s| s.paths).sum()
    }

    pub fn sites(&self) -> &[DropSite] {
        &self.sites
    }
}
