//! One share of a run's tree, for a run spread over machines: each of N
//! shards runs the same first stretch breadth first, until the tree has
//! [`FRONTIER_PER_SHARD`] waiting states for each shard (the same options
//! make the same tree, so every shard makes the same states), ranks them
//! by their decisions from the root, keeps those whose rank is its index
//! modulo N and marks the others handed over, then explores what it kept
//! with the run's own searcher. `report::shards` joins the shards'
//! reports into the report one run gives.

use super::exploration::Exploration;
use super::options::{ExploreError, Options, Progress};
use crate::exec::run::scheduler::Pace;
use crate::report::{Report, ShardReport};
use crate::search::SearchKind;
use crate::state::{MergeMode, State};
use std::borrow::Borrow;
use symplay_wasm::Module;
use web_time::Duration;

/// Waiting states per shard that the first stretch makes before they are
/// shared out: several each, so that subtrees of unequal sizes even out.
const FRONTIER_PER_SHARD: usize = 8;

/// Shards a run is split into at most: each is given states of a first
/// stretch that makes 8 per shard.
pub const MAX_SHARDS: u32 = 4096;

/// Shard `index` of `count` (counted from 0, as a Kubernetes Indexed Job
/// and a Slurm job array from 0 count them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// `I/N`, with 0 <= I < N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("--shard `{text}`: {why} (I/N, 0 <= I < N: `--shard 0/4`)");
        let (index, count) = text.split_once('/').ok_or_else(|| bad("no `/`"))?;
        let number = |s: &str, what: &str| {
            s.trim()
                .parse::<u32>()
                .map_err(|_| bad(&format!("{what} `{s}` is not a whole number")))
        };
        let (index, count) = (number(index, "I")?, number(count, "N")?);
        if count == 0 || count > MAX_SHARDS {
            return Err(bad(&format!(
                "N is {count}, and a run has 1 to {MAX_SHARDS} shards"
            )));
        }
        if index >= count {
            return Err(bad(&format!(
                "I is {index}, and shards count from 0 to {}",
                count - 1
            )));
        }
        Ok(Shard { index, count })
    }
}

/// Explores shard `shard`'s share of the run, as [`explore_with`](crate::exec::explore_with) explores
/// a whole one.
pub fn explore_shard(
    module: &Module,
    entry: &str,
    options: &Options,
    shard: Shard,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Report, ExploreError> {
    let mut run = Exploration::for_shard(module, entry, options, shard)?;
    run.advance(Duration::MAX, progress);
    Ok(run.finish())
}

impl<M: Borrow<Module>> Exploration<M> {
    /// The exploration of shard `shard`'s share of the run `options` ask
    /// for: the first stretch already run and shared out.
    pub fn for_shard(
        module: M,
        entry_name: &str,
        options: &Options,
        shard: Shard,
    ) -> Result<Self, ExploreError> {
        if options.merge.mode != MergeMode::None {
            return Err(ExploreError::options(
                "a run in shards does not merge states: a merging context's states span subtrees"
                    .to_string(),
            ));
        }
        let breadth_first = Options {
            search: SearchKind::Bfs,
            ..options.clone()
        };
        let mut run = Exploration::new(module, entry_name, &breadth_first)?;
        run.options.search = options.search;
        let frontier = FRONTIER_PER_SHARD * shard.count as usize;
        while !run.is_finished() && run.scheduler.pending() < frontier {
            let stretch = run.run_stretch(Duration::MAX, Pace::Branch, &mut |_| true);
            run.end_if_over(stretch);
        }
        run.share(shard);
        Ok(run)
    }

    /// Keeps the waiting states of `shard`'s rank, marks the others handed
    /// over, and goes on in the run's own searcher's order.
    fn share(&mut self, shard: Shard) {
        let tree = &mut self.context.records.tree;
        let states = (self.scheduler).take_all(self.options.search, self.options.seed, tree);
        let mut named: Vec<(Vec<u32>, State)> = (states.into_iter())
            .map(|s| (tree.decisions(s.node), s))
            .collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        let frontier = named.len();
        for (rank, (_, s)) in named.into_iter().enumerate() {
            if rank % shard.count as usize == shard.index as usize {
                self.scheduler.add(s, tree);
            } else {
                tree.hand_over(s.node);
            }
        }
        self.shard = Some(ShardReport {
            index: shard.index,
            count: shard.count,
            frontier,
            ran: Vec::new(),
        });
    }
}

/// The instructions that ran, per function: ranges `[start, end)` of
/// their indices.
pub(super) fn ran_ranges(covered: &[Vec<bool>]) -> Vec<Vec<[u32; 2]>> {
    (covered.iter())
        .map(|func| {
            let mut ranges: Vec<[u32; 2]> = Vec::new();
            for (pc, _) in func.iter().enumerate().filter(|(_, &ran)| ran) {
                let pc = pc as u32;
                match ranges.last_mut() {
                    Some(last) if last[1] == pc => last[1] = pc + 1,
                    _ => ranges.push([pc, pc + 1]),
                }
            }
            ranges
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_i_of_n_counted_from_0() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for (text, why) in [
            ("4/4", "I is 4, and shards count from 0 to 3"),
            ("0/0", "N is 0"),
            ("0/5000", "N is 5000, and a run has 1 to 4096 shards"),
            ("1", "no `/`"),
            ("a/2", "I `a` is not a whole number"),
            ("1/-2", "N `-2` is not a whole number"),
        ] {
            let e = Shard::parse(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn ranges_are_the_runs_of_instructions_that_ran() {
        let covered = vec![
            vec![true, true, false, true],
            vec![],
            vec![false, true, true],
        ];
        assert_eq!(
            ran_ranges(&covered),
            vec![vec![[0, 2], [3, 4]], vec![], vec![[1, 3]]]
        );
    }
}
