//! Dynamic segments (`relocatable_and_caching.md` §2.2, `--resolve
//! segment`): before an access through a symbolic pointer forks over the
//! heap blocks it may land in, the blocks the path allows it to land in
//! are merged into one segment, so that it lands in one place and reads
//! one array. Blocks that cannot move (pinned, split, freed, or of
//! concrete bases) keep their own cases, as does a set of blocks whose
//! segment would pass the cap.
//!
//! Context-based resolution (§2.3) asks fewer queries: each block records
//! the context it was allocated in (its allocation site and the callers
//! above it, allocator wrappers skipped), each access instruction the
//! contexts of the blocks it met. An access there asks only the places of
//! those contexts whether the path allows them (none of the other places
//! the pointer may reach), and when one is allowed, asks once whether the
//! pointer can land anywhere else; if it cannot, the access lands there
//! without a fork, else every block is asked as without contexts.

use crate::exec::executor::Executor;
use crate::exec::outcome::End;
use crate::expr::TermId;
use crate::memory::{Case, MemoryModel, ObjectId, Place};
use crate::state::State;
use rustc_hash::FxHasher;
use std::hash::Hasher;

/// Whether a function of this name only passes an allocation on: Rust's
/// allocation layers (`Vec` → `RawVec` → `alloc::alloc` → `__rust_alloc`,
/// and `hashbrown`'s tables) and C wrappers such as `xmalloc`. A context
/// starts at the first caller that is not one, so that every `Vec` of a
/// program does not share liballoc's context.
fn passes_allocation_on(name: &str) -> bool {
    let name = name.trim_start_matches('<');
    let library = ["alloc::", "core::", "std::", "hashbrown::", "__rustc::"];
    library.iter().any(|l| name.starts_with(l))
        || !name.contains("::")
            && ["malloc", "calloc", "realloc"]
                .iter()
                .any(|f| name.contains(f))
}

/// What resolving into a segment did.
pub(super) enum Segmented {
    /// Nothing: the access forks over its cases as they are.
    Unchanged,
    /// Blocks moved into a segment: the pointer is resolved again.
    Moved,
    /// The pointer lands in this place only (by context).
    Certain(Place),
}

impl Executor<'_> {
    /// A hash of the context of an allocation at `site` in `s`: the first
    /// place, from the site outwards through the callers, that is not in
    /// an allocator wrapper, and the run's context depth of callers above
    /// it; 0 without context-based resolution.
    pub(super) fn allocation_context(&self, s: &State, site: (u32, u32)) -> u64 {
        let Some(depth) = (self.program.roles.heap.segments).and_then(|g| g.context_depth) else {
            return 0;
        };
        let callers = s.frames.iter().rev().skip(1).map(|f| (f.func, f.pc));
        let places = std::iter::once(site).chain(callers);
        let mut hash = FxHasher::default();
        let kept = places
            .skip_while(|&(func, _)| {
                let name = self.program.func_at(func).map(|(module, index)| {
                    module.funcs.get(index as usize).map(|f| f.name.as_str())
                });
                name.flatten().is_some_and(passes_allocation_on)
            })
            .take(depth as usize + 1);
        for (func, pc) in kept {
            hash.write_u32(func);
            hash.write_u32(pc);
        }
        // Never 0, which says "no context".
        hash.finish() | 1
    }

    /// Where a symbolic pointer with the places `cases` lands under
    /// segments: in one place, when the contexts of the blocks this access
    /// met before say where and the path allows nothing else (when the run
    /// keeps contexts); else, when `scan` says so, in a segment of the
    /// blocks the path allows, each asked.
    pub(super) fn resolved_in_segment(
        &mut self,
        s: &mut State,
        cases: &[Case],
        scan: bool,
    ) -> Result<Segmented, End> {
        let Some(segments) = self.program.roles.heap.segments else {
            return Ok(Segmented::Unchanged);
        };
        if segments.context_depth.is_some() {
            if let Some(place) = self.placed_by_context(s, cases)? {
                return Ok(Segmented::Certain(place));
            }
        }
        if !scan {
            return Ok(Segmented::Unchanged);
        }
        let moved = self.merged_into_segment(s, cases)?;
        Ok(if moved {
            Segmented::Moved
        } else {
            Segmented::Unchanged
        })
    }

    /// Context-based resolution: when the access at `s.at` met blocks
    /// before, the one place among `cases` whose blocks were allocated in
    /// their contexts that the path allows (one query each; none for the
    /// other places the pointer may reach), if the path lets the pointer
    /// land nowhere else (one query). It never merges: which blocks a
    /// segment holds is the scan's choice, the same in every state
    /// whatever the others met first.
    fn placed_by_context(&mut self, s: &mut State, cases: &[Case]) -> Result<Option<Place>, End> {
        let Some(seen) = self.cx.caches.contexts.get(&s.at) else {
            return Ok(None);
        };
        let Some(memory) = self.program.memory(s) else {
            return Ok(None);
        };
        let known = movable_places(memory, cases, |object| {
            (memory.contexts_of(object).iter()).all(|c| seen.contains(c))
        });
        let allowed = if known.len() == 1 {
            known
        } else {
            self.allowed(s, known)?
        };
        let [(place, condition)] = allowed[..] else {
            return Ok(None);
        };
        let elsewhere = self.cx.terms.not(condition);
        if self.feasible(s, elsewhere)? != Some(false) {
            return Ok(None);
        }
        self.cx.counters.context_resolutions += 1;
        Ok(Some(place))
    }

    /// Records that the access at `s.at` met the blocks `ids` (blocks, or
    /// segments standing for their members), by their contexts.
    fn remember_contexts(&mut self, s: &State, ids: &[ObjectId]) {
        let Some(memory) = self.program.memory(s) else {
            return;
        };
        let contexts: Vec<u64> = ids.iter().flat_map(|&id| memory.contexts_of(id)).collect();
        let seen = self.cx.caches.contexts.entry(s.at).or_default();
        seen.extend(contexts.into_iter().filter(|&c| c != 0));
    }

    /// The places of `places` the path of `s` allows, each asked.
    fn allowed(
        &mut self,
        s: &mut State,
        places: Vec<(Place, TermId)>,
    ) -> Result<Vec<(Place, TermId)>, End> {
        let mut allowed = Vec::with_capacity(places.len());
        for (place, condition) in places {
            if self.feasible(s, condition)? == Some(true) {
                allowed.push((place, condition));
            }
        }
        Ok(allowed)
    }

    /// Merges the blocks and segments among the places of `cases` that
    /// the path of `s` allows into one segment, when there are two or more
    /// and it stays within the run's cap: `true` when blocks moved.
    fn merged_into_segment(&mut self, s: &mut State, cases: &[Case]) -> Result<bool, End> {
        let Some(segments) = self.program.roles.heap.segments else {
            return Ok(false);
        };
        let Some(memory) = self.program.memory(s) else {
            return Ok(false);
        };
        let candidates = movable_places(memory, cases, |_| true);
        if candidates.len() < 2 {
            return Ok(false);
        }
        let allowed: Vec<ObjectId> = (self.allowed(s, candidates)?.iter())
            .map(|(place, _)| place.object())
            .collect();
        if segments.context_depth.is_some() {
            self.remember_contexts(s, &allowed);
        }
        let Some(memory) = self.program.memory(s) else {
            return Ok(false);
        };
        let span = memory.segment_span(&allowed);
        if allowed.len() < 2 || span > u64::from(segments.cap) {
            return Ok(false);
        }
        let (at, crowded) = (s.at, memory.arena_crowded());
        let made = self
            .program
            .memory_mut(s)
            .and_then(|m| m.merge(&mut self.cx.terms, &allowed, at));
        self.note_crowding(s, crowded, "a segment");
        if made.is_some() {
            self.cx.counters.segments += 1;
            self.cx.counters.largest_segment = self.cx.counters.largest_segment.max(span);
        }
        Ok(made.is_some())
    }
}

/// The places among `cases` in blocks (or segments) that may join a
/// segment and that `keep` keeps, each with its condition.
fn movable_places(
    memory: &MemoryModel,
    cases: &[Case],
    keep: impl Fn(ObjectId) -> bool,
) -> Vec<(Place, TermId)> {
    cases
        .iter()
        .filter_map(|c| match c.target {
            Ok(place @ Place::Symbolic { object, .. })
                if memory.may_join_segment(object) && keep(object) =>
            {
                Some((place, c.condition))
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::passes_allocation_on;

    #[test]
    fn allocator_layers_and_wrappers_pass_an_allocation_on_and_programs_do_not() {
        for layer in [
            "alloc::raw_vec::RawVecInner<A>::finish_grow",
            "<alloc::vec::Vec<T,A> as core::clone::Clone>::clone",
            "hashbrown::raw::RawTable<T,A>::reserve_rehash",
            "__rustc::__rust_alloc",
            "xmalloc",
            "safe_calloc",
        ] {
            assert!(passes_allocation_on(layer), "{layer}");
        }
        for program in [
            "insert",
            "main",
            "rust_pointers::boxed_records",
            "list_push",
        ] {
            assert!(!passes_allocation_on(program), "{program}");
        }
    }
}
