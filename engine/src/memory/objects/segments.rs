//! Dynamic segments (`relocatable_and_caching.md` §2.2): heap blocks that
//! one symbolic pointer may point into are moved next to each other, into
//! one segment, so that an access through the pointer resolves into the
//! segment as one case, reading one array, instead of forking per block.
//!
//! Only blocks with a base symbol move: pointers to them are terms over
//! the symbol, so moving a block changes its hidden address and nothing
//! else. Each member keeps its guard gaps, its size and its own bounds:
//! the segment's case holds where the access lies inside a live member,
//! and a pointer into a gap or a freed member still faults against that
//! member. The members are laid out as slots allocated one after the
//! other (each its reserve and alignment), in a slot of the arena taken
//! as a block's is; the slots they leave are free for later ones.

use super::{Object, ObjectMemory, ALIGN, ARENA_START, GAP};
use crate::expr::{TermId, TermStore};
use crate::memory::place::ObjectId;
use std::rc::Rc;

/// Segments have ids of their own, above every object's, so that making
/// one leaves the ids (and base symbols) of later blocks as they are.
const FIRST_SEGMENT: u32 = 1 << 31;

/// Blocks moved next to each other at `base`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub base: u64,
    /// Bytes from the first member's base to the last member's end.
    pub capacity: u64,
    /// By increasing base.
    pub members: Rc<[ObjectId]>,
    /// The access that made it: function and pc.
    pub made_at: (u32, u32),
    /// Whether a later segment took in its members.
    pub merged_again: bool,
}

/// The id of segment `index`.
fn segment_id(index: usize) -> ObjectId {
    ObjectId(FIRST_SEGMENT + index as u32)
}

/// The index of segment `id` among the segments, in the order they were
/// made; `None` for an object's id.
pub fn segment_index(id: ObjectId) -> Option<u32> {
    id.0.checked_sub(FIRST_SEGMENT)
}

impl ObjectMemory {
    /// The segment `id`, if it is one.
    pub fn segment(&self, id: ObjectId) -> Option<&Segment> {
        self.segments.get(segment_index(id)? as usize)
    }

    /// Whether heap block `id` may move into a segment: it is live, has a
    /// base symbol, no decision observed its address, it is not split,
    /// and no input buffer lies inside it.
    fn movable(&self, id: ObjectId) -> bool {
        self.object(id)
            .is_some_and(|o| o.beta.is_some() && o.freed.is_none() && self.may_move(o))
    }

    /// Whether `o` may move, live or freed: no decision observed its
    /// address, it is not split, and no input buffer lies inside it.
    fn may_move(&self, o: &Object) -> bool {
        let (lo, hi) = (o.base, o.base + o.capacity);
        o.pinned.is_none()
            && o.pieces.is_none()
            && !self.inputs.iter().any(|&i| {
                let b = self.objects[i as usize].base;
                lo <= b && b < hi
            })
    }

    /// Whether `id` may join a segment: a movable block, or a segment
    /// whose members all may still move.
    pub fn may_join_segment(&self, id: ObjectId) -> bool {
        match self.segment(id) {
            Some(s) => s
                .members
                .iter()
                .all(|&m| self.may_move(&self.objects[m.0 as usize])),
            None => self.movable(id),
        }
    }

    /// Bytes a segment of `ids` (blocks, or segments standing for their
    /// members) spans: each member's slot, the gaps between them.
    pub fn segment_span(&self, ids: &[ObjectId]) -> u64 {
        self.layout_of(&self.members_of(ids)).0
    }

    /// The capacity and the members' offsets of a segment of `members`
    /// (by base). The first member of a segment they come from is aligned
    /// as that segment was, so that its members keep their distances: an
    /// access resolved into it before, through one member's pointer,
    /// lands where it did.
    fn layout_of(&self, members: &[ObjectId]) -> (u64, Vec<u64>) {
        layout(members.iter().map(|&id| {
            let o = &self.objects[id.0 as usize];
            let first_of = o
                .segment
                .and_then(|s| self.segment(s))
                .filter(|s| s.members.first() == Some(&id));
            let align = first_of.map_or(o.align, |s| {
                s.members
                    .iter()
                    .map(|m| self.objects[m.0 as usize].align)
                    .fold(o.align, u64::max)
            });
            (o.reserved, align)
        }))
    }

    /// The blocks `ids` stand for: a segment its members.
    fn members_of(&self, ids: &[ObjectId]) -> Vec<ObjectId> {
        let mut members: Vec<ObjectId> = ids
            .iter()
            .flat_map(|&id| match self.segment(id) {
                Some(s) => s.members.to_vec(),
                None => vec![id],
            })
            .collect();
        members.sort_by_key(|id| self.objects[id.0 as usize].base);
        members.dedup();
        members
    }

    /// Moves the blocks `ids` (blocks, or segments whose members join)
    /// next to each other into a new segment, made at `at`: each block's
    /// bytes move and its base symbol's hidden address changes. `None`
    /// when memory cannot grow to hold the segment.
    pub fn merge(
        &mut self,
        store: &mut TermStore,
        ids: &[ObjectId],
        at: (u32, u32),
    ) -> Option<ObjectId> {
        let members = self.members_of(ids);
        let (capacity, offsets) = self.layout_of(&members);
        let align = members
            .iter()
            .map(|&id| self.objects[id.0 as usize].align)
            .max()
            .unwrap_or(ALIGN);
        let base = self.place_block(store, capacity, align)?;
        let id = segment_id(self.segments.len());
        // The slots the members leave: a block's own, or a segment's.
        let mut left = Vec::new();
        for (&member, offset) in members.iter().zip(offsets) {
            let o = &self.objects[member.0 as usize];
            let (from, to, bytes) = (o.base, base + offset, o.capacity);
            let (beta, before) = (o.beta, o.segment);
            match before.and_then(|s| self.segment(s)) {
                Some(s) => left.push((s.base - GAP, s.base + s.capacity + GAP)),
                None => left.push(o.slot()),
            }
            self.contents.copy(store, to, from, bytes);
            if let Some(beta) = beta {
                let hidden = store.bv_const(32, to);
                Rc::make_mut(&mut self.bases).insert(beta, (hidden, member));
            }
            let moved = &mut Rc::make_mut(&mut self.objects)[member.0 as usize];
            moved.base = to;
            moved.segment = Some(id);
            moved.moved = true;
            if let Some(index) = before.and_then(segment_index) {
                Rc::make_mut(&mut self.segments)[index as usize].merged_again = true;
            }
        }
        Rc::make_mut(&mut self.segments).push(Segment {
            base,
            capacity,
            members: members.into(),
            made_at: at,
            merged_again: false,
        });
        left.sort_unstable();
        left.dedup();
        for (lo, hi) in left {
            if lo >= ARENA_START {
                self.release_range(lo, hi);
            }
        }
        self.sort_by_base();
        Some(id)
    }

    /// The segments whose members an access may land in, with them.
    pub(super) fn live_segments(&self) -> impl Iterator<Item = (ObjectId, &Segment)> {
        self.segments
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.merged_again)
            .map(|(i, s)| (segment_id(i), s))
    }

    /// The bounds of segment `id`: its first member's first byte to its
    /// last member's last.
    pub(super) fn segment_bounds(&self, id: ObjectId) -> Option<(u64, u64)> {
        let s = self.segment(id)?;
        Some((s.base, s.base + s.capacity.max(1) - 1))
    }

    /// That the bytes at the 64-bit addresses `first` and `last`, the
    /// ends of one range, lie in the same live member of segment `id`
    /// (its members lie apart, with gaps between: the bytes between lie
    /// in that member too); `None` when `id` is no segment.
    pub fn in_one_member(
        &self,
        store: &mut TermStore,
        id: ObjectId,
        (first, last): (TermId, TermId),
    ) -> Option<TermId> {
        let segment = self.segment(id)?;
        let mut both = |store: &mut TermStore, m: ObjectId| {
            let o = &self.objects[m.0 as usize];
            let [first, last] = [first, last].map(|a| o.holds(store, a, 1));
            store.and(first, last)
        };
        Some(
            self.segment_condition(store, segment, &mut both)
                .unwrap_or_else(|| store.fls()),
        )
    }

    /// The condition that an access lands in a live member of `segment`:
    /// the disjunction of each live member's, which `member` builds;
    /// `None` when every member is freed.
    pub(super) fn segment_condition(
        &self,
        store: &mut TermStore,
        segment: &Segment,
        member: &mut dyn FnMut(&mut TermStore, ObjectId) -> TermId,
    ) -> Option<TermId> {
        let mut condition = None;
        for &id in segment.members.iter() {
            if self.objects[id.0 as usize].freed.is_some() {
                continue;
            }
            let inside = member(store, id);
            condition = Some(match condition {
                Some(c) => store.or(c, inside),
                None => inside,
            });
        }
        condition
    }
}

/// A segment's capacity and its members' offsets: members of the given
/// reserved bytes and alignments laid out in order as the heap lays out
/// slots allocated one after the other, each reserving what its slot did
/// and aligned as it was, with a guard gap after one and before the next.
/// An access that overflows a block lands where it would have, had the
/// blocks been allocated one after the other: in its reserve or the gaps,
/// else in the next member.
fn layout(slots: impl Iterator<Item = (u64, u64)>) -> (u64, Vec<u64>) {
    let mut end = 0;
    let mut offsets = Vec::new();
    for (reserved, align) in slots {
        let offset = if offsets.is_empty() {
            0
        } else {
            (end + 2 * GAP).next_multiple_of(align)
        };
        offsets.push(offset);
        end = offset + reserved;
    }
    (end, offsets)
}
