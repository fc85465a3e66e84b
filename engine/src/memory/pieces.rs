//! Intra-object splitting (`relocatable_and_caching.md` §3, §7.3): the
//! pieces an access at a symbolic offset into a large object or region
//! can land in. Each piece is read as an array of its own bytes, so a
//! symbolic read bit-blasts to a mux over one piece, not over the whole
//! object; the price is a fork per piece the path allows.
//!
//! Nothing is moved or copied: a piece keeps its bytes where they are
//! (Wasm's flat memory needs no relocation to split), so concrete regions
//! (the data section, the stack, memory beyond the heap) split as objects
//! do. An object's or region's pieces are cut every `piece` bytes from its
//! first byte; a part no larger than the threshold is one piece.

use super::interval::unsigned_interval;
use super::objects::{effective_address, within};
use super::options::Split;
use super::place::{ObjectId, Piece, Place};
use crate::expr::{TermId, TermStore};
use std::ops::Range;

/// One object or region of a split span, cut into pieces of `step` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    start: u64,
    /// One past its last byte.
    end: u64,
    step: u64,
    /// Pieces in the parts before it.
    before: u64,
}

impl Part {
    fn count(&self) -> u64 {
        (self.end - self.start).div_ceil(self.step)
    }
}

/// The pieces a symbolic access of `width` bytes at `pointer + plus` can
/// start in, in address order: they tile the bytes its first byte can
/// reach, so that conditions over runs of them are disjoint and together
/// cover every place the access may land in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pieces {
    object: ObjectId,
    pointer: TermId,
    plus: u32,
    parts: Vec<Part>,
    /// The first piece the access can start in, counted over all parts.
    first: u64,
    count: u64,
    /// The last byte of the span: no piece's array reaches past it.
    span_last: u64,
    width: u64,
}

impl Pieces {
    /// The pieces of `span` (its first and last byte), made of parts that
    /// start at `starts` (sorted; the first is `span.0`), that an access
    /// resolved into `object` can start in; `None` when no part it can
    /// reach is larger than the threshold, or it can reach one piece only.
    pub fn of(
        store: &TermStore,
        place: Place,
        width: u64,
        (span, starts): ((u64, u64), &[u64]),
        split: Split,
    ) -> Option<Pieces> {
        let Place::Symbolic {
            object,
            pointer,
            plus,
            piece: None,
        } = place
        else {
            return None;
        };
        // The bytes the access's first byte can be at, by the shape of its
        // address (`i & 255` reaches 256 bytes).
        let (lo, hi) = unsigned_interval(store, pointer);
        let lo = (lo + u64::from(plus)).max(span.0);
        let hi = (hi + u64::from(plus)).min((span.1 + 1).checked_sub(width)?);
        if lo > hi {
            return None;
        }
        let mut parts = Vec::new();
        let mut before = 0;
        let mut large = false;
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).map_or(span.1 + 1, |&next| next);
            if end <= lo || hi < start || start >= end {
                continue;
            }
            let size = end - start;
            let step = if size > u64::from(split.threshold) {
                large = true;
                u64::from(split.piece).min(size)
            } else {
                size
            };
            let part = Part {
                start,
                end,
                step,
                before,
            };
            before += part.count();
            parts.push(part);
        }
        let first_part = parts.first()?;
        let last_part = parts.last()?;
        let first = first_part.before + (lo - first_part.start) / first_part.step;
        let last = last_part.before + (hi - last_part.start) / last_part.step;
        (large && last > first).then_some(Pieces {
            object,
            pointer,
            plus,
            parts,
            first,
            count: last - first + 1,
            span_last: span.1,
            width,
        })
    }

    /// How many pieces the access can start in.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Piece `i` of those the access can start in.
    pub fn piece(&self, i: usize) -> Piece {
        let n = self.first + i as u64;
        let k = self.parts.partition_point(|p| p.before + p.count() <= n);
        let part = self.parts[k];
        let first = part.start + (n - part.before) * part.step;
        let last = (first + part.step).min(part.end) - 1;
        Piece {
            first,
            last,
            reach: (last + self.width - 1).min(self.span_last),
        }
    }

    /// The piece the access starts in when its pointer is `pointer`, if
    /// it is one of them.
    pub fn index_of(&self, pointer: u64) -> Option<usize> {
        let at = pointer.checked_add(u64::from(self.plus))?;
        let k = self
            .parts
            .iter()
            .position(|p| p.start <= at && at < p.end)?;
        let part = self.parts[k];
        let n = (part.before + (at - part.start) / part.step).checked_sub(self.first)?;
        (n < self.count).then_some(n as usize)
    }

    /// The first and the last byte the access can touch.
    pub fn bytes(&self) -> (u64, u64) {
        (self.piece(0).first, self.piece(self.len() - 1).reach)
    }

    /// Where the access lands when it starts in piece `i`.
    pub fn place(&self, i: usize) -> Place {
        Place::Symbolic {
            object: self.object,
            pointer: self.pointer,
            plus: self.plus,
            piece: Some(self.piece(i)),
        }
    }

    /// The access starts in one of the pieces `range`: its first byte lies
    /// between the first byte of the first and the last of the last.
    pub fn condition(&self, store: &mut TermStore, range: Range<usize>) -> TermId {
        let first = self.piece(range.start).first;
        let last = self.piece(range.end - 1).last;
        let a = effective_address(store, self.pointer, self.plus);
        within(store, a, 1, first, last + 1)
    }
}

#[cfg(test)]
mod tests;
