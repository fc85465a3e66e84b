//! Dynamic segments (`relocatable_and_caching.md` §2.2, `--resolve
//! segment`): before an access through a symbolic pointer forks over the
//! heap blocks it may land in, the blocks the path allows it to land in
//! are merged into one segment, so that it lands in one place and reads
//! one array. Blocks that cannot move (pinned, split, freed, or of
//! concrete bases) keep their own cases, as does a set of blocks whose
//! segment would pass the cap.

use crate::exec::executor::Executor;
use crate::exec::outcome::End;
use crate::memory::{Case, ObjectId, Place};
use crate::state::State;

impl Executor<'_> {
    /// Merges the blocks and segments among the places of `cases` that
    /// the path of `s` allows into one segment, when there are two or more
    /// and it stays within the run's cap: `true` when blocks moved.
    pub(super) fn merged_into_segment(
        &mut self,
        s: &mut State,
        cases: &[Case],
    ) -> Result<bool, End> {
        let Some(segments) = self.program.roles.heap.segments else {
            return Ok(false);
        };
        let Some(memory) = self.program.memory(s) else {
            return Ok(false);
        };
        let candidates: Vec<(ObjectId, _)> = cases
            .iter()
            .filter_map(|c| match c.target {
                Ok(Place::Symbolic { object, .. }) if memory.may_join_segment(object) => {
                    Some((object, c.condition))
                }
                _ => None,
            })
            .collect();
        if candidates.len() < 2 {
            return Ok(false);
        }
        let mut allowed = Vec::with_capacity(candidates.len());
        for (object, condition) in candidates {
            if self.feasible(s, condition)? == Some(true) {
                allowed.push(object);
            }
        }
        let Some(memory) = self.program.memory(s) else {
            return Ok(false);
        };
        let span = memory.segment_span(&allowed);
        if allowed.len() < 2 || span > u64::from(segments.cap) {
            return Ok(false);
        }
        let at = s.at;
        let made = self
            .program
            .memory_mut(s)
            .and_then(|m| m.merge(&mut self.cx.terms, &allowed, at));
        if made.is_some() {
            self.cx.counters.segments += 1;
            self.cx.counters.largest_segment = self.cx.counters.largest_segment.max(span);
        }
        Ok(made.is_some())
    }
}
