//! The memory model interface. Every access to linear memory (a load, a
//! store, a bulk operation, a host call's read or write) is first resolved
//! to where it lands, then made there: resolution is where a model decides
//! what is in bounds, so the check exists once per model. The flat model
//! has one object, the whole memory; the objects model checks accesses
//! against the heap's blocks (with symbolic sizes), which under symbolic
//! bases may move into segments. [`MemoryModel`] is an enum so that the
//! interpreter's loop makes no virtual call. A fork clones the model;
//! contents are shared copy on write.
//!
//! Both models keep the bytes in one `FlatMemory`, so a spot's offset is
//! its address in linear memory. The models are private to `memory/`: the
//! interpreter makes, frees and looks up memory objects through this
//! interface too, never through the objects model itself.

use super::flat::{ByteMerge, FlatMemory, Within};
use super::objects::{within, Free, Object, ObjectMemory, Segment, Size};
use super::options::{Contents, Split};
use super::pieces::Pieces;
use super::place::{Fault, ObjectId, Piece, Place, Pointer, Resolution, Spot};
use crate::expr::{BvCmp, Join, TermId, TermStore};
use crate::limits::{Checkpoint, Limits, Reached};

/// Linear memory under one of the memory models.
#[derive(Clone, Debug)]
pub enum MemoryModel {
    Flat(FlatMemory),
    Objects(ObjectMemory),
}

impl MemoryModel {
    /// A flat memory of `min_pages` zero pages that can grow to `max_pages`.
    pub fn flat(store: &mut TermStore, min_pages: u32, max_pages: Option<u32>) -> MemoryModel {
        MemoryModel::Flat(FlatMemory::new(store, min_pages, max_pages))
    }

    /// The bytes, whatever the model.
    #[inline(always)]
    fn contents(&self) -> &FlatMemory {
        match self {
            MemoryModel::Flat(m) => m,
            MemoryModel::Objects(m) => m.contents(),
        }
    }

    #[inline(always)]
    fn contents_mut(&mut self) -> &mut FlatMemory {
        match self {
            MemoryModel::Flat(m) => m,
            MemoryModel::Objects(m) => m.contents_mut(),
        }
    }

    /// The objects model, when this memory is under it. Private, so that
    /// how objects are kept can change behind the methods below.
    fn objects(&self) -> Option<&ObjectMemory> {
        match self {
            MemoryModel::Objects(m) => Some(m),
            MemoryModel::Flat(_) => None,
        }
    }

    /// The flat model, when this memory is under it.
    fn flat_model(&self) -> Option<&FlatMemory> {
        match self {
            MemoryModel::Flat(m) => Some(m),
            MemoryModel::Objects(_) => None,
        }
    }

    fn objects_mut(&mut self) -> Option<&mut ObjectMemory> {
        match self {
            MemoryModel::Objects(m) => Some(m),
            MemoryModel::Flat(_) => None,
        }
    }

    /// Puts this memory under the objects model, with heap objects from
    /// `heap_start` up and null-pointer dereferences below `null_end`.
    pub fn check_objects(&mut self, heap_start: u64, null_end: u64) {
        if let MemoryModel::Flat(m) = self {
            // Cheap: the chunks are shared.
            let mut objects = ObjectMemory::new(m.clone(), heap_start);
            objects.set_null_page(null_end);
            *self = MemoryModel::Objects(objects);
        }
    }

    /// Whether a freed block stayed in a slot a later block took, with no
    /// room left in the arena to move it.
    pub fn arena_crowded(&self) -> bool {
        self.objects().is_some_and(ObjectMemory::arena_crowded)
    }

    /// Gives the heap blocks made from now on slots in the engine's arena
    /// (relocatable bases): see [`ObjectMemory::use_arena`].
    pub fn use_arena(&mut self) {
        if let Some(m) = self.objects_mut() {
            m.use_arena();
        }
    }

    /// The regions of the memory below the heap (data, stack, the rest),
    /// by where each starts and, last, where the heap starts: a symbolic
    /// access there that can reach one region only reads and writes that
    /// region's own array.
    pub fn set_regions(&mut self, starts: &[u64]) {
        self.contents_mut().set_regions(starts)
    }

    /// Which bytes the arrays of symbolic accesses hold from now on.
    pub fn set_contents(&mut self, contents: Contents) {
        self.contents_mut().set_contents(contents)
    }

    pub fn pages(&self) -> u32 {
        self.contents().pages()
    }

    /// Size in bytes.
    pub fn byte_len(&self) -> u64 {
        self.contents().len()
    }

    /// Whether the `len` bytes at `address` are in linear memory, or among
    /// the slots of the arena of hidden addresses.
    pub fn addressable(&self, address: u64, len: u64) -> bool {
        match self {
            MemoryModel::Flat(m) => address.checked_add(len).is_some_and(|end| end <= m.len()),
            MemoryModel::Objects(m) => m.addressable(address, len),
        }
    }

    /// That an empty range at the 64-bit address `a` lies in linear
    /// memory or among the arena's slots: a bulk operation of no bytes
    /// there does not trap.
    pub fn holds_empty(&self, store: &mut TermStore, a: TermId) -> TermId {
        let len = store.bv_const(64, self.contents().len());
        let in_memory = store.cmp(BvCmp::Ule, a, len);
        match self.objects().and_then(ObjectMemory::arena_slots) {
            Some((start, next)) => {
                let in_arena = within(store, a, 0, start, next);
                store.or(in_memory, in_arena)
            }
            None => in_memory,
        }
    }

    /// `memory.grow`: the old size in pages, or `None` when the memory cannot
    /// grow by `delta` pages.
    pub fn grow(&mut self, delta: u32) -> Option<u32> {
        self.contents_mut().grow(delta)
    }

    /// Where `width` bytes at the concrete `address` land (`None`: out of
    /// bounds). Inlined for the interpreter's concrete fast path.
    #[inline(always)]
    pub fn resolve_concrete(&self, address: u64, width: u64) -> Option<Spot> {
        match self {
            MemoryModel::Flat(m) => m.resolve_concrete(address, width),
            MemoryModel::Objects(m) => m.resolve_concrete(address, width),
        }
    }

    /// Where `width` bytes at `pointer + plus` may land.
    pub fn resolve(
        &self,
        store: &mut TermStore,
        pointer: Pointer,
        plus: u32,
        width: u64,
    ) -> Resolution {
        match self {
            MemoryModel::Flat(m) => m.resolve(store, pointer, plus, width),
            MemoryModel::Objects(m) => m.resolve(store, pointer, plus, width),
        }
    }

    /// The `width` (1 to 8) bytes at `spot`, little-endian, when they all
    /// are concrete: concrete loads build no terms. Inlined for the fast
    /// path.
    #[inline(always)]
    pub fn read_concrete(&self, spot: Spot, width: u32) -> Option<u64> {
        self.contents().load_concrete(spot.offset, width)
    }

    /// The `width` (1 to 8) bytes at the concrete `address`, when they
    /// are in bounds and concrete (the fast path's loads, a panic's
    /// message). Inlined for the fast path.
    #[inline(always)]
    pub fn read_concrete_at(&self, address: u64, width: u32) -> Option<u64> {
        let spot = self.resolve_concrete(address, u64::from(width))?;
        self.read_concrete(spot, width)
    }

    /// The `width` (1 to 8) bytes at `place`, little-endian, as a term;
    /// the limit reached while building it, if one is.
    pub fn read(
        &mut self,
        store: &mut TermStore,
        place: Place,
        width: u32,
        limits: Limits,
    ) -> Result<TermId, Reached> {
        match place {
            Place::Concrete(spot) => Ok(self.contents_mut().load_at(store, spot.offset, width)),
            Place::Symbolic { pointer, plus, .. } => {
                let within = self.within(place);
                let checkpoint = &mut Checkpoint::new(limits);
                self.contents_mut()
                    .load_within(store, pointer, plus, width, within, checkpoint)
            }
        }
    }

    /// The addresses an access resolved into `object` stays within
    /// (inclusive): the object's bytes, or anywhere for the flat model's
    /// one object and for the unchecked rest.
    fn bounds(&self, object: ObjectId) -> (u64, u64) {
        match self {
            MemoryModel::Objects(m) => m.bounds(object),
            MemoryModel::Flat(_) => (0, u64::MAX),
        }
    }

    /// What an access at the symbolic `place` reads and writes: its
    /// object's own array (or its piece's, when the object is split), or,
    /// for the flat model's one object and the unchecked rest, memory's
    /// bytes within their bounds.
    fn within(&self, place: Place) -> Within {
        let (object, piece) = match place {
            Place::Symbolic { object, piece, .. } => (object, piece),
            Place::Concrete(spot) => (spot.object, None),
        };
        if let Some(p) = piece {
            return Within::Object(p.first, p.reach);
        }
        let (lo, hi) = self.bounds(object);
        match self {
            MemoryModel::Objects(m) if m.owns(object) => Within::Object(lo, hi),
            _ => Within::Bytes(lo, hi),
        }
    }

    /// How many bytes the array of an access of `width` bytes at `place`
    /// holds at most: 0 at a concrete place, which reads no array.
    pub fn array_bytes(&self, store: &TermStore, place: Place, width: u32) -> u64 {
        match place {
            Place::Concrete(_) => 0,
            Place::Symbolic { pointer, plus, .. } => {
                let within = self.within(place);
                self.contents()
                    .array_bytes(store, pointer, plus, width, within)
            }
        }
    }

    /// The pieces an access of `width` bytes resolved to `place` can
    /// start in, when it is at a symbolic offset into an object or region
    /// that `split` cuts; `None` when it stays whole.
    pub fn pieces(
        &self,
        store: &TermStore,
        place: Place,
        width: u64,
        split: Split,
    ) -> Option<Pieces> {
        let Place::Symbolic { object, .. } = place else {
            return None;
        };
        // An object in the arena lies above the memory the module sees.
        let last = self.contents().stored().checked_sub(1)?;
        let (lo, hi) = self.bounds(object);
        let span = (lo, hi.min(last));
        let owned = self.objects().is_some_and(|m| m.owns(object));
        let starts = match owned {
            true => vec![span.0],
            // The unchecked rest and the flat model's memory: the regions
            // (data, stack, the rest) are its parts.
            false => self.contents().part_starts(span),
        };
        let pieces = Pieces::of(store, place, width, (span, &starts), split)?;
        // An untouched input's bytes are its array symbol, with no store:
        // pieces would only add forks.
        let (first, last) = pieces.bytes();
        (!self.contents().holds_one_input(store, first, last)).then_some(pieces)
    }

    /// That the bytes at the 64-bit addresses `ends`, the first and last
    /// of one range, lie in the same member of the segment `object`;
    /// `None` when `object` is no segment.
    pub fn in_one_member(
        &self,
        store: &mut TermStore,
        object: ObjectId,
        ends: (TermId, TermId),
    ) -> Option<TermId> {
        self.objects()?.in_one_member(store, object, ends)
    }

    /// `place`, where the first byte of a range of up to `width` bytes
    /// landed, with its piece (when split) reaching the range's other
    /// bytes too, up to the end of its object (or of the unchecked rest,
    /// whose pieces a range may leave for the next region's): a bulk
    /// operation of a symbolic length is narrowed to a piece by its first
    /// byte only.
    pub fn reaching(&self, place: Place, width: u64) -> Place {
        let Place::Symbolic {
            piece: Some(piece),
            object,
            pointer,
            plus,
        } = place
        else {
            return place;
        };
        let last = self.contents().stored().saturating_sub(1);
        let last = last.min(self.bounds(object).1);
        let reach = (piece.last + width.saturating_sub(1)).min(last);
        Place::Symbolic {
            object,
            pointer,
            plus,
            piece: Some(Piece {
                reach: reach.max(piece.reach),
                ..piece
            }),
        }
    }

    /// Writes the low `width` (1 to 8) bytes of `value` at `spot`. Inlined
    /// for the fast path.
    #[inline(always)]
    pub fn write_concrete(&mut self, store: &mut TermStore, spot: Spot, width: u32, value: u64) {
        self.contents_mut()
            .store_concrete(store, spot.offset, width, value)
    }

    /// Writes the low `width` (1 to 8) bytes of `value` at the concrete
    /// `address`; `false` when out of bounds. Inlined for the fast path.
    #[inline(always)]
    pub fn write_concrete_at(
        &mut self,
        store: &mut TermStore,
        address: u64,
        width: u32,
        value: u64,
    ) -> bool {
        let Some(spot) = self.resolve_concrete(address, u64::from(width)) else {
            return false;
        };
        self.write_concrete(store, spot, width, value);
        true
    }

    /// Writes `value` (a whole number of bytes wide) little-endian at
    /// `place`; the limit reached while building the array of a symbolic
    /// place, if one is (memory is then unchanged).
    pub fn write(
        &mut self,
        store: &mut TermStore,
        place: Place,
        value: TermId,
        limits: Limits,
    ) -> Result<(), Reached> {
        match place {
            Place::Concrete(spot) => {
                self.contents_mut().store_at(store, spot.offset, value);
                Ok(())
            }
            Place::Symbolic { pointer, plus, .. } => {
                let within = self.within(place);
                let checkpoint = &mut Checkpoint::new(limits);
                self.contents_mut()
                    .store_within(store, pointer, plus, value, within, checkpoint)
            }
        }
    }

    /// Writes concrete bytes from `spot` on (data segments, host calls,
    /// `memory.init`).
    pub fn write_bytes(&mut self, store: &mut TermStore, spot: Spot, bytes: &[u8]) {
        self.contents_mut()
            .write_concrete(store, spot.offset, bytes)
    }

    /// Writes concrete bytes at the concrete `address` (an active data
    /// segment at instantiation); `false` when out of bounds.
    pub fn write_bytes_at(&mut self, store: &mut TermStore, address: u64, bytes: &[u8]) -> bool {
        let Some(spot) = self.resolve_concrete(address, bytes.len() as u64) else {
            return false;
        };
        self.write_bytes(store, spot, bytes);
        true
    }

    /// Sets the byte at `spot` to the 8-bit term `byte`.
    pub fn write_byte(&mut self, store: &mut TermStore, spot: Spot, byte: TermId) {
        self.contents_mut().set_byte(store, spot.offset, byte)
    }

    /// `memory.fill`: `len` copies of the 8-bit term `byte` from `spot` on.
    pub fn fill(&mut self, store: &mut TermStore, spot: Spot, byte: TermId, len: u64) {
        self.contents_mut().fill(store, spot.offset, byte, len)
    }

    /// `memory.copy`, with `memmove` semantics: the ranges may overlap.
    pub fn copy(&mut self, store: &mut TermStore, dst: Spot, src: Spot, len: u64) {
        self.contents_mut().copy(store, dst.offset, src.offset, len)
    }

    /// Approximate heap bytes this memory owns (shared contents counted in
    /// part), for the memory estimate.
    pub fn heap_bytes(&self) -> usize {
        match self {
            MemoryModel::Flat(m) => m.heap_bytes(),
            MemoryModel::Objects(m) => m.heap_bytes(),
        }
    }

    /// A hash of the bytes memory holds: equal for memories that hold the
    /// same bytes, whatever they share (the objects' table is not in it).
    /// State merging looks for equal memories by it.
    pub fn content_hash(&self) -> u64 {
        self.contents().content_hash()
    }

    /// The bytes at which to merge this memory with `others` of the same
    /// model; an error names what keeps them apart.
    pub fn byte_merge(&self, others: &[&MemoryModel]) -> Result<ByteMerge, &'static str> {
        match self {
            MemoryModel::Flat(m) => m.byte_merge(&flat_models(others)?),
            MemoryModel::Objects(m) => m.byte_merge(&object_models(others)?),
        }
    }

    /// Merges the next bytes of `bytes` (about `work` values read): where
    /// a byte differs, `join`'s term of the states' bytes.
    pub fn merge_bytes(
        &mut self,
        store: &mut TermStore,
        others: &[&MemoryModel],
        join: &mut dyn Join,
        bytes: &mut ByteMerge,
        work: u64,
    ) -> Result<(), &'static str> {
        match self {
            MemoryModel::Flat(m) => m.merge_bytes(store, &flat_models(others)?, join, bytes, work),
            MemoryModel::Objects(m) => {
                m.merge_bytes(store, &object_models(others)?, join, bytes, work)
            }
        }
    }

    /// Bytes this memory holds that no other one shares: what a state
    /// wrote since it was forked.
    pub fn own_bytes(&self) -> usize {
        match self {
            MemoryModel::Flat(m) => m.own_bytes(),
            MemoryModel::Objects(m) => m.own_bytes(),
        }
    }
}

/// The memory objects, which only the objects model has: under the flat
/// model there are none, and what would change them does nothing.
impl MemoryModel {
    /// Whether accesses are checked against memory objects (the objects
    /// model).
    pub fn checks_objects(&self) -> bool {
        self.objects().is_some()
    }

    /// Every memory object made so far, by id, freed ones included; none
    /// under the flat model.
    pub fn made_objects(&self) -> &[Object] {
        self.objects().map_or(&[], ObjectMemory::objects)
    }

    pub fn object(&self, id: ObjectId) -> Option<&Object> {
        self.objects()?.object(id)
    }

    /// The heap objects, freed or not, in allocation order.
    pub fn heap_objects(&self) -> impl Iterator<Item = (ObjectId, &Object)> {
        self.objects()
            .into_iter()
            .flat_map(ObjectMemory::heap_objects)
    }

    /// How many objects were made so far, and the ids of those freed (or,
    /// for input buffers, retired) among the first `max`.
    pub fn made_and_freed(&self, max: usize) -> (u32, Vec<u32>) {
        self.objects()
            .map_or((0, Vec::new()), |m| m.made_and_freed(max))
    }

    /// The base of a new heap object of `capacity` bytes, `align`ed, in a
    /// slot reserving at least `reserve` bytes; `None` when memory cannot
    /// hold it.
    pub fn alloc(
        &mut self,
        store: &mut TermStore,
        size: Size,
        capacity: u64,
        reserve: u64,
        align: u64,
        (site, context): ((u32, u32), u64),
    ) -> Option<u64> {
        let m = self.objects_mut()?;
        let id = m.alloc(store, size, capacity, reserve, align, site)?;
        m.set_context(id, context);
        m.object(id).map(|o| o.base)
    }

    /// The contexts (hashes) of the blocks of `id`: its own, or its
    /// members' if it is a segment.
    pub fn contexts_of(&self, id: ObjectId) -> Vec<u64> {
        let Some(m) = self.objects() else {
            return Vec::new();
        };
        match m.segment(id) {
            Some(segment) => (segment.members.iter())
                .filter_map(|&b| Some(m.object(b)?.context))
                .collect(),
            None => m.object(id).map(|o| o.context).into_iter().collect(),
        }
    }

    /// Gives the heap object at `address` a relocatable base symbol, whose
    /// hidden address is `address` (`--bases symbolic`).
    pub fn give_base(&mut self, store: &mut TermStore, address: u64) -> Option<TermId> {
        let m = self.objects_mut()?;
        let id = m.heap_object_at(address)?;
        m.give_base(store, id)
    }

    /// The constant of the hidden address of base symbol `beta` in this
    /// state: what unfolding puts in its place before a decision, an
    /// address or a query.
    #[inline]
    pub fn hidden(&self, beta: TermId) -> Option<TermId> {
        self.objects()?.hidden(beta)
    }

    /// [`ObjectMemory::pinned_hidden`].
    pub fn pinned_hidden(&self, beta: TermId) -> Option<TermId> {
        self.objects()?.pinned_hidden(beta)
    }

    /// [`ObjectMemory::base_moved`].
    pub fn base_moved(&self, beta: TermId) -> bool {
        self.objects().is_some_and(|o| o.base_moved(beta))
    }

    /// [`ObjectMemory::base_size`].
    pub fn base_size(&self, beta: TermId) -> Option<u64> {
        self.objects()?.base_size(beta)
    }

    /// [`ObjectMemory::base_of`].
    pub fn base_of(&self, id: ObjectId) -> Option<(TermId, u64)> {
        self.objects()?.base_of(id)
    }

    /// Where the heap starts: every block lies above it.
    pub fn heap_start(&self) -> Option<u64> {
        Some(self.objects()?.heap_start())
    }

    /// Whether `target` holds the blocks of all of `bases`
    /// ([`ObjectMemory::holds`]).
    pub fn holds(&self, target: ObjectId, bases: &[TermId]) -> bool {
        self.objects().is_some_and(|m| m.holds(target, bases))
    }

    /// Pins the blocks of `bases` (a decision at `at` depended on their
    /// hidden addresses) and what an access through them met in `target`
    /// ([`ObjectMemory::pin_met`]).
    pub fn pin_met(&mut self, bases: &[TermId], target: Option<ObjectId>, at: (u32, u32)) {
        if let Some(m) = self.objects_mut() {
            m.pin_met(bases, target, at);
        }
    }

    /// The heap block whose slot holds `address`.
    pub fn block_holding(&self, address: u64) -> Option<ObjectId> {
        self.objects()?.block_holding(address)
    }

    /// The heap block whose base is `address`, freed or not.
    pub fn block_at(&self, address: u64) -> Option<ObjectId> {
        self.objects()?.heap_object_at(address)
    }

    /// The segment `id`, if it is one (`--resolve segment`).
    pub fn segment(&self, id: ObjectId) -> Option<&Segment> {
        self.objects()?.segment(id)
    }

    /// Whether `id` may join a segment: a heap block that may move, or a
    /// segment whose members all may.
    pub fn may_join_segment(&self, id: ObjectId) -> bool {
        self.objects().is_some_and(|m| m.may_join_segment(id))
    }

    /// Bytes a segment of `ids` (blocks, or segments) would span.
    pub fn segment_span(&self, ids: &[ObjectId]) -> u64 {
        self.objects().map_or(0, |m| m.segment_span(ids))
    }

    /// Moves the blocks `ids` (blocks, or segments whose members join)
    /// into a new segment made at `at`; `None` when memory cannot hold it
    /// (or under the flat model).
    pub fn merge(
        &mut self,
        store: &mut TermStore,
        ids: &[ObjectId],
        at: (u32, u32),
    ) -> Option<ObjectId> {
        self.objects_mut()?.merge(store, ids, at)
    }

    /// The base symbol of the heap object at `address`, under relocatable
    /// bases.
    pub fn base_symbol_at(&self, address: u64) -> Option<TermId> {
        self.objects()?.base_symbol_at(address)
    }

    /// The capacity of the live heap object whose base is `address`.
    pub fn live_capacity(&self, address: u64) -> Option<u64> {
        self.objects()?.live_capacity(address)
    }

    /// Frees the heap object whose base is `address`, or says why not;
    /// `None` under the flat model.
    pub fn free_at(&mut self, address: u64, at: (u32, u32)) -> Option<Free> {
        Some(self.objects_mut()?.free_at(address, at))
    }

    /// `realloc`'s copy of `len` bytes from the block at `from` to the one
    /// at `to`, unchecked: both are the allocator's.
    pub fn copy_object(&mut self, store: &mut TermStore, to: u64, from: u64, len: u64) {
        self.contents_mut().copy(store, to, from, len)
    }

    /// A new input buffer of `capacity` bytes in a slot of the heap of its
    /// own (an entry's buffer parameter): its base and id.
    pub fn alloc_input(
        &mut self,
        size: Size,
        capacity: u64,
        name: &str,
        site: (u32, u32),
    ) -> Option<(u64, ObjectId)> {
        self.objects_mut()?.alloc_input(size, capacity, name, site)
    }

    /// Makes the `capacity` bytes at `base` an input buffer of `size`
    /// bytes, in place of the input buffers it overlaps.
    pub fn add_input(
        &mut self,
        base: u64,
        size: Size,
        capacity: u64,
        name: &str,
        site: (u32, u32),
    ) {
        if let Some(m) = self.objects_mut() {
            m.add_input(base, size, capacity, name, site);
        }
    }

    /// Gives object `id` its size: an entry's buffer, written whole at its
    /// capacity first, then sized under the run's size mode.
    pub fn set_size(&mut self, id: ObjectId, size: Size) {
        if let Some(m) = self.objects_mut() {
            m.set_size(id, size);
        }
    }

    /// Records that `object` (if it is one of the model's) is split into
    /// pieces of `piece` bytes.
    pub fn mark_split(&mut self, object: ObjectId, piece: u64) {
        if let Some(m) = self.objects_mut() {
            m.mark_split(object, piece);
        }
    }

    /// Ends the input buffers that overlap `[lo, hi)`, where new input is
    /// written.
    pub fn retire_inputs_over(&mut self, lo: u64, hi: u64, at: (u32, u32)) {
        if let Some(m) = self.objects_mut() {
            m.retire_inputs_over(lo, hi, at);
        }
    }

    /// Ends the input buffers whose bytes start in `[lo, hi)`: the stack
    /// frames that held them have returned.
    pub fn retire_inputs_in(&mut self, lo: u64, hi: u64, at: (u32, u32)) {
        if let Some(m) = self.objects_mut() {
            m.retire_inputs_in(lo, hi, at);
        }
    }

    /// The fault of `width` bytes at `address`, a place where no live
    /// object takes them (a symbolic pointer's fault case, given a value);
    /// unclassified under the flat model.
    pub fn classify(&self, store: &mut TermStore, address: u64, width: u64) -> Fault {
        self.objects()
            .map_or(Fault::Unclassified, |m| m.classify(store, address, width))
    }
}

/// The flat models of `memories`, to merge with one of the flat model.
fn flat_models<'a>(memories: &[&'a MemoryModel]) -> Result<Vec<&'a FlatMemory>, &'static str> {
    let models: Option<Vec<_>> = memories.iter().map(|m| m.flat_model()).collect();
    models.ok_or(MODELS_DIFFER)
}

/// The objects models of `memories`, to merge with one of the objects
/// model.
fn object_models<'a>(memories: &[&'a MemoryModel]) -> Result<Vec<&'a ObjectMemory>, &'static str> {
    let models: Option<Vec<_>> = memories.iter().map(|m| m.objects()).collect();
    models.ok_or(MODELS_DIFFER)
}

const MODELS_DIFFER: &str = "memory models differ";

#[cfg(test)]
mod tests;
