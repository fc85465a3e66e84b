//! Paths counted by what befell them and where, for the report: dropped
//! without an outcome (by [`DropCause`](crate::report::DropCause)), or made
//! partly concrete (by what was concretised).

use crate::report::Location;
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// Paths counted by a key and an instruction, in the order the sites were
/// first met, so that reports are deterministic.
#[derive(Debug)]
pub struct SiteCounts<K> {
    sites: Vec<(K, Location, u64)>,
    /// By key and (store function, pc): the site's index in `sites`.
    index: FxHashMap<(K, (u32, u32)), usize>,
}

impl<K> Default for SiteCounts<K> {
    fn default() -> Self {
        SiteCounts {
            sites: Vec::new(),
            index: FxHashMap::default(),
        }
    }
}

impl<K: Clone + Eq + Hash> SiteCounts<K> {
    /// One more path for `key` at the instruction `at`, which is `location`.
    pub(crate) fn record(&mut self, key: K, at: (u32, u32), location: Location) {
        let next = self.sites.len();
        let site = *self.index.entry((key.clone(), at)).or_insert(next);
        if site == next {
            self.sites.push((key, location, 0));
        }
        self.sites[site].2 += 1;
    }

    pub fn total(&self) -> u64 {
        self.sites.iter().map(|s| s.2).sum()
    }

    /// Each site: its key, location and number of paths.
    pub fn sites(&self) -> &[(K, Location, u64)] {
        &self.sites
    }
}
