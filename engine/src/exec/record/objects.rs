//! The memory objects in a path's report: each object of the objects
//! model with its size under the path's model, the heap objects a path
//! leaked, and the sizes a path allows an object of symbolic size.

use crate::exec::executor::Executor;
use crate::expr::TermId;
use crate::memory::{segment_index, MemoryModel, ObjectId, ObjectKind, Size};
use crate::report::{ObjectReport, SegmentReport, MAX_OBJECTS};
use crate::state::State;

impl Executor<'_> {
    /// The memory objects of `s`, under the objects model, a symbolic
    /// size given its value by `size_of` (under a path's model).
    pub(super) fn object_reports(
        &self,
        s: &State,
        size_of: &mut dyn FnMut(TermId) -> u64,
    ) -> Vec<ObjectReport> {
        let Some(memory) = self.program.memory(s) else {
            return Vec::new();
        };
        memory
            .made_objects()
            .iter()
            .take(MAX_OBJECTS)
            .zip(0u32..)
            .map(|(o, id)| {
                let (size, symbolic_size) = match o.size {
                    Size::Con(n) => (n, None),
                    Size::Sym(t) => (size_of(t), Some(self.cx.terms.to_readable(t))),
                };
                let name = match &o.kind {
                    ObjectKind::Heap => None,
                    ObjectKind::Input(name) => Some(name.clone()),
                };
                ObjectReport {
                    id,
                    kind: if name.is_some() { "input" } else { "heap" }.into(),
                    name,
                    base: o.base,
                    size,
                    symbolic_size,
                    size_range: None,
                    capacity: o.capacity,
                    site: self.program.location(o.site),
                    freed_at: o.freed.map(|at| self.program.location(at)),
                    pieces: o.pieces,
                    base_symbol: o.beta.map(|beta| self.cx.terms.to_readable(beta)),
                    pinned_at: o.pinned.map(|at| self.program.location(at)),
                    segment: o.segment.and_then(|id| self.segment_report(memory, id)),
                }
            })
            .collect()
    }

    /// The report of segment `id` of `memory`.
    fn segment_report(&self, memory: &MemoryModel, id: ObjectId) -> Option<SegmentReport> {
        let segment = memory.segment(id)?;
        Some(SegmentReport {
            id: segment_index(id)?,
            base: segment.base,
            capacity: segment.capacity,
            made_at: self.program.location(segment.made_at),
            members: segment.members.iter().map(|m| m.0).collect(),
        })
    }

    /// Heap objects of `s` still allocated, but for one whose base the
    /// entry returned.
    pub(super) fn leaks(&self, s: &State, returned: &[u64]) -> Vec<u32> {
        let Some(memory) = self.program.memory(s) else {
            return Vec::new();
        };
        memory
            .heap_objects()
            .filter(|(_, o)| o.freed.is_none() && !returned.contains(&o.base))
            .map(|(id, _)| id.0)
            .collect()
    }

    /// The least and greatest size of object `id` the path allows, when
    /// the size is symbolic.
    pub(super) fn size_range(&mut self, s: &mut State, id: ObjectId) -> Option<[u64; 2]> {
        let o = self.program.memory(s)?.object(id)?;
        let (Size::Sym(t), capacity) = (o.size, o.capacity) else {
            return None;
        };
        let lo = self.smallest(s, t).ok()?;
        let hi = self.largest(s, t, capacity).ok()?;
        Some([lo, hi])
    }
}
