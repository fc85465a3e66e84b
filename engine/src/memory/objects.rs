//! The objects model: linear memory holds its bytes as in the flat model,
//! and the blocks the program allocated are memory objects, so that an
//! access Wasm allows (it lies inside linear memory) can still be a heap
//! overflow, an underflow or a use after free.
//!
//! # Address space
//!
//! Heap objects live in the heap area, from `heap_start` (the module's
//! `__heap_base`, or the end of its initial memory) up, in slots laid out
//! in allocation order: a guard gap of [`GAP`] bytes, the object's
//! `capacity` bytes, another gap. With concrete pointers a freed object
//! keeps its slot, so a later access to it is a use after free, not an
//! access to a newer object, and memory grows as slots need it.
//!
//! Under relocatable bases the blocks' slots (their hidden addresses) are
//! in an arena instead ([`ObjectMemory::use_arena`]): from [`ARENA_START`]
//! up, above every page the module's memory can grow to, held by the
//! engine without growing the memory the module sees. A freed block's
//! slot is taken again by a later block of the state that fits in it
//! (`relocatable_and_caching.md` §7.2), as an allocator reuses memory,
//! unless a decision depended on its address (it is pinned). The freed
//! block then moves to a slot of its own at the arena's top, which no
//! block takes: its base symbol's hidden address changes (no decision
//! depended on it), so a pointer to it, in whatever form the program kept
//! it, still finds it freed, never the block in its old slot.
//!
//! Below the heap area (data, the C stack) accesses are not checked, but
//! for input buffers of symbolic length, which are objects wherever they
//! are. An object of symbolic size (`symbolic_size.md` §1.2) has a size
//! term σ and a concrete capacity c ≥ σ: its slot reserves c bytes, and an
//! access is in bounds where `w ≤ σ ∧ offset ≤ σ − w` (no wrap-around).

use super::flat::{ByteMerge, FlatMemory, PAGE_SIZE};
use super::place::{Case, Fault, FaultKind, ObjectId, Place, Pointer, Resolution, Spot};
use crate::expr::{BvBinOp, BvCmp, Join, TermId, TermStore};
use rustc_hash::FxHashMap;
use std::rc::Rc;

mod segments;
#[cfg(test)]
mod tests;

pub use segments::{segment_index, Segment};

/// Guard bytes before and after every heap object.
pub const GAP: u64 = 16;
/// Where the arena of hidden addresses starts: 1 GiB, far from address 0
/// and from any page a module's data or stack is in; the memory the module
/// sees grows to this at most.
pub const ARENA_START: u64 = 0x4000_0000;
/// Where it ends: 2 GiB, so that hidden addresses stay positive as `i32`s
/// and an address plus any offset a module computes stays below 2^32.
pub const ARENA_END: u64 = 0x8000_0000;
/// Alignment of heap objects unless asked for more (malloc's on wasm32 is 8).
pub const ALIGN: u64 = 16;

/// The spots outside every object, where accesses are not checked.
pub const UNCHECKED: ObjectId = ObjectId(u32::MAX);
/// Input buffers a concrete access looks through on the fast path; with
/// more live at once, concrete accesses take the slow path.
const INPUTS_SCANNED: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Con(u64),
    /// A 32-bit term, at most the object's capacity on every path.
    Sym(TermId),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A block of the allocator.
    Heap,
    /// An input buffer of symbolic length, with its input's name.
    Input(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    pub base: u64,
    pub size: Size,
    /// Bytes reserved: the size, or the capacity of a symbolic size.
    pub capacity: u64,
    pub kind: ObjectKind,
    /// Where it was allocated: function and pc.
    pub site: (u32, u32),
    /// Where it was freed.
    pub freed: Option<(u32, u32)>,
    /// The pieces it was split into, once an access at a symbolic offset
    /// forked over them (`--split`).
    pub pieces: Option<u64>,
    /// Its base symbol β under relocatable bases (`--bases symbolic`):
    /// pointers to it are terms over β, and `base` is β's hidden address.
    pub beta: Option<TermId>,
    /// Where a decision first depended on its hidden address (an order
    /// between blocks, a hash of the address): it can no longer move.
    pub pinned: Option<(u32, u32)>,
    /// The segment it was moved into (`--resolve segment`).
    pub segment: Option<ObjectId>,
    /// Whether its hidden address changed since it was made: it moved
    /// into a segment, or out of a slot a later block took after its free.
    pub moved: bool,
    /// Bytes its slot reserves (at least its capacity), and the alignment
    /// of its base: a segment lays its members out as the heap does.
    pub reserved: u64,
    pub align: u64,
    /// A hash of the context it was allocated in (its allocation site and
    /// the callers above it, allocator wrappers skipped), under
    /// context-based resolution; 0 otherwise.
    pub context: u64,
}

impl Object {
    /// The bytes its slot holds: its reserve and the gaps around it.
    fn slot(&self) -> (u64, u64) {
        (self.base - GAP, self.base + self.reserved + GAP)
    }

    /// That `width` bytes at the 64-bit address `a` lie inside its size.
    fn holds(&self, store: &mut TermStore, a: TermId, width: u64) -> TermId {
        match self.size {
            Size::Con(size) => within(store, a, width, self.base, self.base + size),
            Size::Sym(sigma) => in_sized(store, a, self.base, sigma, self.capacity, width),
        }
    }
}

/// What a free of an address did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Free {
    /// The live heap object there is freed.
    Freed,
    /// The heap object there was freed before.
    Double(ObjectId),
    /// No heap object starts there (`near`: the one whose slot holds it).
    Invalid { near: Option<ObjectId> },
}

#[derive(Clone, Debug)]
pub struct ObjectMemory {
    contents: FlatMemory,
    /// By id; shared between forks until one allocates or frees.
    objects: Rc<Vec<Object>>,
    /// Ids of the heap objects, by increasing base (allocation order, but
    /// for blocks moved into segments or out of slots of the arena taken
    /// again, and a freed block left behind in a slot a later one took,
    /// with the same base).
    heap: Rc<Vec<u32>>,
    /// Ids of the objects with a slot of the heap or the arena (the heap
    /// objects and the entry's buffers), by increasing base; a freed block
    /// left behind in a slot another took is no longer among them.
    slots: Rc<Vec<u32>>,
    /// Ids of the input buffers.
    inputs: Rc<Vec<u32>>,
    heap_start: u64,
    /// Accesses below this address are null-pointer dereferences (the low
    /// page no data is placed in).
    null_end: u64,
    /// Where the next heap slot starts.
    next: u64,
    /// The address constraint of relocatable bases: each heap object's
    /// base symbol β to the constant of its hidden address. Apart from the
    /// path condition, so that moving an object changes this map only.
    /// Each β also names its block.
    bases: Rc<FxHashMap<TermId, (TermId, ObjectId)>>,
    /// Heap blocks moved next to each other, by index.
    segments: Rc<Vec<Segment>>,
    /// Where blocks' slots are under relocatable bases.
    arena: Option<Arena>,
}

/// The engine's own addresses, where relocatable blocks and segments have
/// their slots (each state its own).
#[derive(Clone, Debug)]
struct Arena {
    /// Where the slots not taken yet start.
    next: u64,
    /// The slots of freed blocks a new slot may take: sorted, disjoint and
    /// apart. Shared between forks until one allocates or frees.
    free: Rc<Vec<(u64, u64)>>,
    /// Whether a freed block stayed in a slot a later block took, with no
    /// room left to move it: a pointer to it reaches the live block.
    crowded: bool,
}

impl ObjectMemory {
    /// The bytes at which to merge this memory with `others` (as
    /// [`FlatMemory::byte_merge`] says): they must hold the same objects
    /// where they are, as states that allocated and freed nothing since
    /// they forked do.
    pub fn byte_merge(&self, others: &[&ObjectMemory]) -> Result<ByteMerge, &'static str> {
        for o in others {
            let same_arena = match (&self.arena, &o.arena) {
                (None, None) => true,
                (Some(a), Some(b)) => {
                    a.next == b.next && Rc::ptr_eq(&a.free, &b.free) && a.crowded == b.crowded
                }
                _ => false,
            };
            let same = Rc::ptr_eq(&self.objects, &o.objects)
                && Rc::ptr_eq(&self.heap, &o.heap)
                && Rc::ptr_eq(&self.slots, &o.slots)
                && Rc::ptr_eq(&self.inputs, &o.inputs)
                && Rc::ptr_eq(&self.bases, &o.bases)
                && Rc::ptr_eq(&self.segments, &o.segments)
                && (self.heap_start, self.null_end, self.next)
                    == (o.heap_start, o.null_end, o.next)
                && same_arena;
            if !same {
                return Err("the states allocated or freed differently");
            }
        }
        let contents: Vec<&FlatMemory> = others.iter().map(|o| &o.contents).collect();
        self.contents.byte_merge(&contents)
    }

    /// Merges the next bytes of `bytes` with `others`' contents (as
    /// [`FlatMemory::merge_bytes`] does).
    pub fn merge_bytes(
        &mut self,
        store: &mut TermStore,
        others: &[&ObjectMemory],
        join: &mut dyn Join,
        bytes: &mut ByteMerge,
        work: u64,
    ) -> Result<(), &'static str> {
        let contents: Vec<&FlatMemory> = others.iter().map(|o| &o.contents).collect();
        (self.contents).merge_bytes(store, &contents, join, bytes, work)
    }

    pub fn new(contents: FlatMemory, heap_start: u64) -> ObjectMemory {
        ObjectMemory {
            contents,
            objects: Rc::default(),
            heap: Rc::default(),
            slots: Rc::default(),
            inputs: Rc::default(),
            heap_start,
            null_end: 0,
            next: heap_start,
            bases: Rc::default(),
            segments: Rc::default(),
            arena: None,
        }
    }

    /// Puts the slots of the blocks made from now on in the arena, and
    /// keeps the module's memory below it.
    /// A memory of more than 1 GiB from the start keeps its blocks in the
    /// heap.
    pub fn use_arena(&mut self) {
        if self.contents.len() > ARENA_START {
            return;
        }
        self.contents.start_arena(ARENA_START);
        self.arena = Some(Arena {
            next: ARENA_START,
            free: Rc::default(),
            crowded: false,
        });
    }

    /// Whether a freed block stayed in a slot a later block took on this
    /// path, with no room left in the arena to move it.
    pub fn arena_crowded(&self) -> bool {
        self.arena.as_ref().is_some_and(|a| a.crowded)
    }

    /// Whether the `len` bytes at `address` are in linear memory, or among
    /// the arena's slots.
    pub fn addressable(&self, address: u64, len: u64) -> bool {
        address
            .checked_add(len)
            .is_some_and(|end| end <= self.contents.len() || self.in_arena(address, end))
    }

    /// The first byte of the arena and one past its last slot, under
    /// symbolic bases.
    pub fn arena_slots(&self) -> Option<(u64, u64)> {
        self.arena.as_ref().map(|a| (ARENA_START, a.next))
    }

    /// Whether `address..end` lies among the arena's slots.
    #[inline(always)]
    fn in_arena(&self, address: u64, end: u64) -> bool {
        self.arena
            .as_ref()
            .is_some_and(|a| address >= ARENA_START && end <= a.next)
    }

    /// Makes accesses below `end` null-pointer dereferences.
    pub fn set_null_page(&mut self, end: u64) {
        self.null_end = end.min(self.heap_start);
    }

    pub fn contents(&self) -> &FlatMemory {
        &self.contents
    }

    pub fn contents_mut(&mut self) -> &mut FlatMemory {
        &mut self.contents
    }

    pub fn heap_start(&self) -> u64 {
        self.heap_start
    }

    pub fn objects(&self) -> &[Object] {
        &self.objects
    }

    pub fn object(&self, id: ObjectId) -> Option<&Object> {
        self.objects.get(id.0 as usize)
    }

    /// Whether `id` is an object or a segment, with an array of its own.
    pub fn owns(&self, id: ObjectId) -> bool {
        self.object(id).is_some() || self.segment(id).is_some()
    }

    /// The addresses an access resolved into `id` stays within
    /// (inclusive): its reserved bytes, or for the unchecked rest, what
    /// lies between the null page and the heap.
    pub fn bounds(&self, id: ObjectId) -> (u64, u64) {
        if let Some(bounds) = self.segment_bounds(id) {
            return bounds;
        }
        match self.object(id) {
            Some(o) if o.capacity > 0 => (o.base, o.base + o.capacity - 1),
            _ if id == UNCHECKED && self.null_end < self.heap_start => {
                (self.null_end, self.heap_start - 1)
            }
            _ => (0, u64::MAX),
        }
    }

    /// A new heap object of `capacity` bytes at an `align`ed base (a power
    /// of two) in a slot reserving at least `reserve` bytes, with its gaps;
    /// `None` when memory cannot grow to hold it, or the arena is full. (A run and its replay
    /// reserve alike, so that the layout does not depend on which sizes
    /// were symbolic.)
    pub fn alloc(
        &mut self,
        store: &mut TermStore,
        size: Size,
        capacity: u64,
        reserve: u64,
        align: u64,
        site: (u32, u32),
    ) -> Option<ObjectId> {
        let reserved = capacity.max(reserve);
        let base = self.place_block(store, reserved, align)?;
        let id = self.push(Object {
            base,
            size,
            capacity,
            kind: ObjectKind::Heap,
            site,
            freed: None,
            pieces: None,
            beta: None,
            pinned: None,
            segment: None,
            moved: false,
            reserved,
            align: align.max(ALIGN),
            context: 0,
        });
        // By base: a slot taken again lies below newer ones, and after a
        // freed block left behind there, which gives the live block its
        // accesses.
        let objects = &self.objects;
        let after = |ids: &[u32]| ids.partition_point(|&i| objects[i as usize].base <= base);
        let (in_heap, in_slots) = (after(&self.heap), after(&self.slots));
        Rc::make_mut(&mut self.heap).insert(in_heap, id.0);
        Rc::make_mut(&mut self.slots).insert(in_slots, id.0);
        Some(id)
    }

    /// An input buffer of `capacity` bytes in a slot of the heap of its
    /// own (an entry's buffer parameter): its base and id.
    pub fn alloc_input(
        &mut self,
        size: Size,
        capacity: u64,
        name: &str,
        site: (u32, u32),
    ) -> Option<(u64, ObjectId)> {
        let base = self.place(capacity, ALIGN)?;
        let id = self.add_input(base, size, capacity, name, site)?;
        Rc::make_mut(&mut self.slots).push(id.0);
        Some((base, id))
    }

    /// The base of a block's slot of `bytes` bytes, aligned, between guard
    /// gaps: in the arena when there is one (a freed slot it fits in
    /// first, made zero bytes again, its freed blocks moved out; else a
    /// fresh one; else, with the arena full, one of the slots freed blocks
    /// were moved out to), else in the heap.
    fn place_block(&mut self, store: &mut TermStore, bytes: u64, align: u64) -> Option<u64> {
        if self.arena.is_none() {
            return self.place(bytes, align);
        }
        let placed = self.take_freed_slot(store, bytes, align);
        if let Some(base) = placed.or_else(|| self.fresh_slot(bytes, align)) {
            return Some(base);
        }
        self.give_up_moved_slots();
        self.take_freed_slot(store, bytes, align)
    }

    /// The base of a slot of `bytes` bytes in a free range of the arena
    /// that fits it, cleared, its freed blocks moved out.
    fn take_freed_slot(&mut self, store: &mut TermStore, bytes: u64, align: u64) -> Option<u64> {
        let arena = self.arena.as_mut()?;
        let (i, base, end) = arena.free.iter().enumerate().find_map(|(i, &(lo, hi))| {
            let (base, end) = arena_slot(lo, bytes, align)?;
            (end <= hi).then_some((i, base, end))
        })?;
        let free = Rc::make_mut(&mut arena.free);
        let (lo, hi) = free[i];
        if end < hi {
            free[i] = (end, hi);
        } else {
            free.remove(i);
        }
        self.contents.clear(lo, end);
        self.move_freed_out(store, base - GAP, end);
        Some(base)
    }

    /// Makes the slots freed blocks were moved out to free again, with the
    /// arena full: a block that takes one leaves the freed block there
    /// behind ([`Self::move_freed_out`]).
    fn give_up_moved_slots(&mut self) {
        let (objects, slots) = (Rc::clone(&self.objects), Rc::clone(&self.slots));
        for &id in slots.iter() {
            let o = &objects[id as usize];
            if o.freed.is_some() && o.moved && o.pinned.is_none() && o.segment.is_none() {
                let (lo, hi) = o.slot();
                self.release_range(lo, hi);
            }
        }
    }

    /// The base of a slot of `bytes` bytes at the arena's top, which no
    /// block had before.
    fn fresh_slot(&mut self, bytes: u64, align: u64) -> Option<u64> {
        let arena = self.arena.as_mut()?;
        let (base, end) = arena_slot(arena.next, bytes, align)?;
        if end > ARENA_END {
            return None;
        }
        arena.next = end;
        self.contents.hold(end);
        Some(base)
    }

    /// Sorts the heap and the slots by base again, after blocks moved (a
    /// stable sort: a freed block left behind stays before the live block
    /// at its base).
    pub(super) fn sort_by_base(&mut self) {
        let objects = Rc::clone(&self.objects);
        Rc::make_mut(&mut self.heap).sort_by_key(|&i| objects[i as usize].base);
        Rc::make_mut(&mut self.slots).sort_by_key(|&i| objects[i as usize].base);
    }

    /// Moves the freed blocks whose slots meet `lo..hi`, which a new slot
    /// takes, to fresh slots of their own, as a segment moves its members
    /// (their base symbols' hidden addresses change; no decision depended
    /// on them, or their slots would have been kept): a pointer to one, in
    /// whatever form, finds it freed there, never the block in its old
    /// slot. A block without a base symbol, or with no room left in the
    /// arena, stays behind and holds no address by slot any more: the
    /// live block takes accesses there.
    fn move_freed_out(&mut self, store: &mut TermStore, lo: u64, hi: u64) {
        let objects = &self.objects;
        let met: Vec<u32> = (self.slots.iter().copied())
            .filter(|&id| {
                let o = &objects[id as usize];
                o.freed.is_some() && o.slot().0 < hi && lo < o.slot().1
            })
            .collect();
        if met.is_empty() {
            return;
        }
        let mut left = Vec::new();
        for id in met {
            let o = &self.objects[id as usize];
            let (beta, old, freed_at) = (o.beta, o.base, o.freed);
            let (reserved, align, capacity) = (o.reserved, o.align, o.capacity);
            let moved = match beta {
                Some(beta) if o.segment.is_none() => {
                    self.fresh_slot(reserved, align).map(|base| (beta, base))
                }
                _ => None,
            };
            let Some((beta, base)) = moved else {
                if let (Some(arena), Some(_)) = (self.arena.as_mut(), beta) {
                    arena.crowded = true;
                }
                left.push(id);
                continue;
            };
            let hidden = store.bv_const(32, base);
            Rc::make_mut(&mut self.bases).insert(beta, (hidden, ObjectId(id)));
            let objects = Rc::make_mut(&mut self.objects);
            objects[id as usize].base = base;
            objects[id as usize].moved = true;
            // The input buffers its free retired move with it.
            for input in objects.iter_mut().filter(|i| {
                matches!(i.kind, ObjectKind::Input(_))
                    && i.freed == freed_at
                    && (old..old + capacity).contains(&i.base)
            }) {
                input.base = input.base - old + base;
            }
        }
        Rc::make_mut(&mut self.slots).retain(|id| !left.contains(id));
        self.sort_by_base();
    }

    /// The base of `bytes` fresh bytes of the heap, aligned, between guard
    /// gaps; memory grows to hold them.
    fn place(&mut self, bytes: u64, align: u64) -> Option<u64> {
        let align = align.max(ALIGN);
        let base = (self.next + GAP).checked_add(align - 1)? & !(align - 1);
        let end = base.checked_add(bytes)?.checked_add(GAP)?;
        let pages = end.div_ceil(PAGE_SIZE);
        let have = u64::from(self.contents.pages());
        if pages > have {
            self.contents.grow(u32::try_from(pages - have).ok()?)?;
        }
        self.next = end;
        Some(base)
    }

    /// Makes the `capacity` bytes at `base` an input buffer of `size`
    /// bytes, in place of the input buffers it overlaps; `None` when they
    /// are not inside linear memory.
    pub fn add_input(
        &mut self,
        base: u64,
        size: Size,
        capacity: u64,
        name: &str,
        site: (u32, u32),
    ) -> Option<ObjectId> {
        self.addressable(base, capacity).then_some(())?;
        self.retire_inputs_over(base, base + capacity, site);
        let id = self.push(Object {
            base,
            size,
            capacity,
            kind: ObjectKind::Input(name.to_string()),
            site,
            freed: None,
            pieces: None,
            beta: None,
            pinned: None,
            segment: None,
            moved: false,
            reserved: capacity,
            align: ALIGN,
            context: 0,
        });
        Rc::make_mut(&mut self.inputs).push(id.0);
        Some(id)
    }

    /// Gives heap object `id` a relocatable base: the symbol `&obj<id>`,
    /// whose hidden address is its base. Pointers to it are then terms
    /// over that symbol. The symbol is the same in every state that makes
    /// object `id`; each state keeps its own hidden address for it.
    pub fn give_base(&mut self, store: &mut TermStore, id: ObjectId) -> Option<TermId> {
        let base = self.object(id)?.base;
        let beta = store.declare_base(&format!("&obj{}", id.0))?;
        let hidden = store.bv_const(32, base);
        Rc::make_mut(&mut self.bases).insert(beta, (hidden, id));
        Rc::make_mut(&mut self.objects)[id.0 as usize].beta = Some(beta);
        Some(beta)
    }

    /// Records that heap object `id` was allocated in `context` (a hash).
    pub fn set_context(&mut self, id: ObjectId, context: u64) {
        if let Some(o) = Rc::make_mut(&mut self.objects).get_mut(id.0 as usize) {
            o.context = context;
        }
    }

    /// The constant of the hidden address of base symbol `beta`, if it is
    /// one of this state's objects'.
    #[inline]
    pub fn hidden(&self, beta: TermId) -> Option<TermId> {
        self.bases.get(&beta).map(|&(hidden, _)| hidden)
    }

    /// The constant of the hidden address of base symbol `beta` when its
    /// block is pinned (a decision depended on where it lies): address-aware
    /// caching takes it as that address, not as any block's.
    pub fn pinned_hidden(&self, beta: TermId) -> Option<TermId> {
        let &(hidden, id) = self.bases.get(&beta)?;
        self.object(id)?.pinned.map(|_| hidden)
    }

    /// Whether the block of base symbol `beta` moved (into a segment, or
    /// out of a slot a later block took).
    pub fn base_moved(&self, beta: TermId) -> bool {
        let block = self.bases.get(&beta).and_then(|&(_, id)| self.object(id));
        block.is_some_and(|o| o.moved)
    }

    /// The size of the block of base symbol `beta`, when it is concrete.
    pub fn base_size(&self, beta: TermId) -> Option<u64> {
        match self.object(self.bases.get(&beta)?.1)?.size {
            Size::Con(size) => Some(size),
            Size::Sym(_) => None,
        }
    }

    /// The base symbol of block `id` and its hidden address, unless it was
    /// moved into a segment.
    pub fn base_of(&self, id: ObjectId) -> Option<(TermId, u64)> {
        let o = self.object(id)?;
        Some((o.beta?, o.base)).filter(|_| o.segment.is_none())
    }

    /// The blocks of the base symbols `bases` (of this state's objects).
    fn blocks_of<'a>(&'a self, bases: &'a [TermId]) -> impl Iterator<Item = ObjectId> + 'a {
        bases
            .iter()
            .filter_map(|beta| Some(self.bases.get(beta)?.1))
    }

    /// Pins the block `id`, as observed at `at`, unless it was pinned
    /// before.
    fn pin_block(&mut self, id: ObjectId, at: (u32, u32)) {
        if let Some(o) = self.object(id).filter(|o| o.pinned.is_none()) {
            let freed = o.freed.is_some();
            Rc::make_mut(&mut self.objects)[id.0 as usize].pinned = Some(at);
            if freed {
                self.keep_slot(id);
            }
        }
    }

    /// Whether `target` (a block, or a segment) holds the blocks of all the
    /// base symbols `bases`: it is their block, or a segment of them.
    pub fn holds(&self, target: ObjectId, bases: &[TermId]) -> bool {
        let mut blocks = self.blocks_of(bases);
        match self.segment(target) {
            Some(segment) => blocks.all(|b| segment.members.contains(&b)),
            None => blocks.all(|b| b == target),
        }
    }

    /// Pins the blocks of the base symbols `bases` and what an access
    /// through them met: `target`, a block, or the members of a segment
    /// (nothing for memory outside the heap, or for a decision).
    pub fn pin_met(&mut self, bases: &[TermId], target: Option<ObjectId>, at: (u32, u32)) {
        let mut met: Vec<ObjectId> = self.blocks_of(bases).collect();
        match target.map(|t| (t, self.segment(t))) {
            Some((_, Some(segment))) => met.extend(segment.members.iter()),
            Some((t, None)) if self.object(t).is_some_and(|o| o.kind == ObjectKind::Heap) => {
                met.push(t)
            }
            _ => {}
        }
        for id in met {
            self.pin_block(id, at);
        }
    }

    /// The heap block whose slot holds `address`.
    pub fn block_holding(&self, address: u64) -> Option<ObjectId> {
        self.heap_slot(address)
            .filter(|&id| self.object(id).is_some_and(|o| o.kind == ObjectKind::Heap))
    }

    /// The base symbol of the heap object at `address`, if it has one.
    pub fn base_symbol_at(&self, address: u64) -> Option<TermId> {
        self.object(self.heap_object_at(address)?)?.beta
    }

    /// How many objects were made so far, and the ids of those freed (or,
    /// for input buffers, retired).
    /// Only the first `max` objects are looked at (as many as a path's
    /// report lists).
    pub fn made_and_freed(&self, max: usize) -> (u32, Vec<u32>) {
        let freed = (0..self.objects.len().min(max) as u32)
            .filter(|&id| self.objects[id as usize].freed.is_some())
            .collect();
        (self.objects.len() as u32, freed)
    }

    /// Gives object `id` its size: an entry's buffer, written whole at its
    /// capacity first, then sized under the run's size mode.
    pub fn set_size(&mut self, id: ObjectId, size: Size) {
        if let Some(object) = Rc::make_mut(&mut self.objects).get_mut(id.0 as usize) {
            object.size = size;
        }
    }

    fn push(&mut self, object: Object) -> ObjectId {
        let objects = Rc::make_mut(&mut self.objects);
        objects.push(object);
        ObjectId(objects.len() as u32 - 1)
    }

    /// The heap object whose base is `address`, freed or not.
    pub fn heap_object_at(&self, address: u64) -> Option<ObjectId> {
        let base = |id: &u32| self.objects[*id as usize].base;
        let first = self.heap.partition_point(|id| base(id) < address);
        let end = self.heap.partition_point(|id| base(id) <= address);
        // In a slot taken again: the live block there, else the newest.
        let there = &self.heap[first..end];
        let live = there
            .iter()
            .rev()
            .find(|&&id| self.objects[id as usize].freed.is_none());
        live.or(there.last()).map(|&id| ObjectId(id))
    }

    /// The heap objects, freed or not, in allocation order.
    pub fn heap_objects(&self) -> impl Iterator<Item = (ObjectId, &Object)> {
        (0u32..)
            .zip(self.objects.iter())
            .filter(|(_, o)| o.kind == ObjectKind::Heap)
            .map(|(id, o)| (ObjectId(id), o))
    }

    /// The capacity of the live heap object whose base is `address`.
    pub fn live_capacity(&self, address: u64) -> Option<u64> {
        let o = self.object(self.heap_object_at(address)?)?;
        o.freed.is_none().then_some(o.capacity)
    }

    /// Frees the heap object whose base is `address`, as freed at `at`,
    /// when it is live; else says why not.
    pub fn free_at(&mut self, address: u64, at: (u32, u32)) -> Free {
        match self.heap_object_at(address) {
            Some(id) if self.object(id).is_some_and(|o| o.freed.is_some()) => Free::Double(id),
            Some(id) => {
                self.free(id, at);
                Free::Freed
            }
            None => Free::Invalid {
                near: self.heap_slot(address),
            },
        }
    }

    /// Frees heap object `id`, and the input buffers inside it.
    fn free(&mut self, id: ObjectId, at: (u32, u32)) {
        let Some(o) = Rc::make_mut(&mut self.objects).get_mut(id.0 as usize) else {
            return;
        };
        o.freed = Some(at);
        let (lo, hi) = (o.base, o.base + o.capacity);
        self.retire_inputs(|i| lo <= i.base && i.base < hi, at);
        self.release(id);
    }

    /// The slot of freed block `id`, which a later block may take unless
    /// the block was pinned (a decision depended on its address, which a
    /// number the path holds may still be) or is in a segment.
    fn release(&mut self, id: ObjectId) {
        let o = &self.objects[id.0 as usize];
        if o.base < ARENA_START || o.pinned.is_some() || o.segment.is_some() {
            return;
        }
        let (lo, hi) = o.slot();
        self.release_range(lo, hi);
    }

    /// Makes the arena's bytes `lo..hi`, which no slot holds now, free for
    /// a later slot, merged with the free ranges they touch.
    pub(super) fn release_range(&mut self, lo: u64, hi: u64) {
        let Some(arena) = self.arena.as_mut() else {
            return;
        };
        let free = Rc::make_mut(&mut arena.free);
        let i = free.partition_point(|&(_, h)| h < lo);
        let mut merged = (lo, hi);
        while let Some(&(l, h)) = free.get(i).filter(|&&(l, _)| l <= hi) {
            merged = (merged.0.min(l), merged.1.max(h));
            free.remove(i);
        }
        free.insert(i, merged);
    }

    /// Takes the slot of freed block `id` out of the free ones: a decision
    /// depended on its address after it was freed.
    fn keep_slot(&mut self, id: ObjectId) {
        let o = &self.objects[id.0 as usize];
        let Some(arena) = self.arena.as_mut() else {
            return;
        };
        let (lo, hi) = o.slot();
        if !arena.free.iter().any(|&(l, h)| l < hi && lo < h) {
            return;
        }
        let free = Rc::make_mut(&mut arena.free);
        *free = free
            .iter()
            .flat_map(|&(l, h)| [(l, h.min(lo)), (l.max(hi), h)])
            .filter(|&(l, h)| l < h)
            .collect();
    }

    /// Records that object `id` is split into pieces of `piece` bytes.
    pub fn mark_split(&mut self, id: ObjectId, piece: u64) {
        let Some(o) = self.objects.get(id.0 as usize) else {
            return;
        };
        let pieces = o.capacity.div_ceil(piece);
        if o.pieces != Some(pieces) {
            Rc::make_mut(&mut self.objects)[id.0 as usize].pieces = Some(pieces);
        }
    }

    /// Ends the input buffers that overlap `[lo, hi)`, where new input
    /// is written.
    pub fn retire_inputs_over(&mut self, lo: u64, hi: u64, at: (u32, u32)) {
        if !self.inputs.is_empty() {
            self.retire_inputs(|i| i.base < hi && lo < i.base + i.capacity, at);
        }
    }

    /// Ends the input buffers whose bytes start in `[lo, hi)`: the stack
    /// frames that held them have returned.
    pub fn retire_inputs_in(&mut self, lo: u64, hi: u64, at: (u32, u32)) {
        if !self.inputs.is_empty() {
            self.retire_inputs(|i| lo <= i.base && i.base < hi, at);
        }
    }

    /// Input buffers end, as freed at `at`, where `gone` holds.
    /// An entry's buffer, in a slot of its own, lasts the whole run: new
    /// input written into it is a buffer inside it.
    fn retire_inputs(&mut self, gone: impl Fn(&Object) -> bool, at: (u32, u32)) {
        let ended: Vec<u32> = self
            .inputs
            .iter()
            .copied()
            .filter(|&id| gone(&self.objects[id as usize]) && !self.owns_slot(id))
            .collect();
        if ended.is_empty() {
            return;
        }
        Rc::make_mut(&mut self.inputs).retain(|id| !ended.contains(id));
        let objects = Rc::make_mut(&mut self.objects);
        for id in ended {
            objects[id as usize].freed = Some(at);
        }
    }

    /// Where `width` bytes at the concrete `address` land when that is
    /// certain and allowed; `None` sends the access to [`Self::resolve`].
    #[inline(always)]
    pub fn resolve_concrete(&self, address: u64, width: u64) -> Option<Spot> {
        let end = address.checked_add(width)?;
        if end > self.contents.len() && !self.in_arena(address, end) || address < self.null_end {
            return None;
        }
        if !self.inputs.is_empty() {
            // As in `resolve_at`, the newest input the access meets takes
            // it; past a few inputs, the slow path looks.
            if self.inputs.len() > INPUTS_SCANNED {
                return None;
            }
            let meets = |&&id: &&u32| {
                let o = &self.objects[id as usize];
                address < o.base + o.capacity && o.base < end
            };
            if let Some(&id) = self.inputs.iter().rev().find(meets) {
                return self.inside(ObjectId(id), address, end);
            }
        }
        if end <= self.heap_start {
            return Some(Spot {
                object: UNCHECKED,
                offset: address,
            });
        }
        self.inside(self.heap_slot(address)?, address, end)
    }

    /// The spot of `address..end` when it lies in object `id`'s live bytes
    /// of a concrete size.
    #[inline(always)]
    fn inside(&self, id: ObjectId, address: u64, end: u64) -> Option<Spot> {
        let o = &self.objects[id.0 as usize];
        match o.size {
            Size::Con(size) if o.freed.is_none() && address >= o.base && end <= o.base + size => {
                Some(Spot {
                    object: id,
                    offset: address,
                })
            }
            _ => None,
        }
    }

    /// The object whose slot of the heap (its gaps and padding included)
    /// holds `address`: the last whose leading gap starts at or below it,
    /// when it is below the end of the last slot.
    fn heap_slot(&self, address: u64) -> Option<ObjectId> {
        let i = self
            .slots
            .partition_point(|&id| self.objects[id as usize].base <= address + GAP);
        let &id = self.slots.get(i.checked_sub(1)?)?;
        let end = match &self.arena {
            Some(arena) if self.objects[id as usize].base >= ARENA_START => arena.next,
            _ => self.next,
        };
        (address < end).then_some(ObjectId(id))
    }

    /// Whether input `id` has a slot of the heap of its own (an entry's
    /// buffer), rather than lying in memory of the program's.
    fn owns_slot(&self, id: u32) -> bool {
        self.heap_slot(self.objects[id as usize].base) == Some(ObjectId(id))
    }

    /// Where `width` bytes at `pointer + plus` may land.
    pub fn resolve(
        &self,
        store: &mut TermStore,
        pointer: Pointer,
        plus: u32,
        width: u64,
    ) -> Resolution {
        match pointer {
            Pointer::Con(a) => self.resolve_at(store, a + u64::from(plus), width),
            Pointer::Sym(t) => Resolution::Cases(self.cases(store, t, plus, width)),
        }
    }

    fn resolve_at(&self, store: &mut TermStore, address: u64, width: u64) -> Resolution {
        let end = address + width;
        if end > self.contents.len() && !self.in_arena(address, end) {
            return Resolution::Certain(Err(Fault::OutOfBounds));
        }
        if address < self.null_end {
            return Resolution::Certain(Err(Fault::Object {
                kind: FaultKind::Null,
                object: None,
            }));
        }
        let place = |object| {
            Ok(Place::Concrete(Spot {
                object,
                offset: address,
            }))
        };
        // The newest first: an input inside an entry's buffer takes its
        // own accesses.
        let within = self
            .inputs
            .iter()
            .rev()
            .map(|&id| ObjectId(id))
            .find(|&id| {
                let o = &self.objects[id.0 as usize];
                address < o.base + o.capacity && o.base < end
            })
            .or_else(|| (end > self.heap_start).then(|| self.heap_slot(address))?);
        let Some(id) = within else {
            return Resolution::Certain(if end <= self.heap_start {
                place(UNCHECKED)
            } else {
                Err(Fault::Object {
                    kind: FaultKind::Wild,
                    object: None,
                })
            });
        };
        let o = &self.objects[id.0 as usize];
        let fault = |kind| {
            Resolution::Certain(Err(Fault::Object {
                kind,
                object: Some(id),
            }))
        };
        if o.freed.is_some() {
            return fault(FaultKind::UseAfterFree);
        }
        if address < o.base {
            return fault(FaultKind::Underflow);
        }
        if end > o.base + o.capacity {
            return fault(FaultKind::Overflow);
        }
        match o.size {
            Size::Con(size) if end <= o.base + size => Resolution::Certain(place(id)),
            Size::Con(_) => fault(FaultKind::Overflow),
            Size::Sym(sigma) => {
                let a = store.bv_const(64, address);
                let inside = in_sized(store, a, o.base, sigma, o.capacity, width);
                let outside = store.not(inside);
                Resolution::Cases(vec![
                    Case {
                        condition: inside,
                        target: place(id),
                    },
                    Case {
                        condition: outside,
                        target: Err(Fault::Object {
                            kind: FaultKind::Overflow,
                            object: Some(id),
                        }),
                    },
                ])
            }
        }
    }

    /// The cases of a symbolic pointer: unchecked memory, each input
    /// buffer and live heap object, out of linear memory, and the rest
    /// (a fault to classify once the pointer has a value).
    fn cases(&self, store: &mut TermStore, pointer: TermId, plus: u32, width: u64) -> Vec<Case> {
        let a = effective_address(store, pointer, plus);
        let place = |object| {
            Ok(Place::Symbolic {
                object,
                pointer,
                plus,
                piece: None,
            })
        };
        let mut cases = Vec::new();
        let overlaps: Vec<(u64, TermId)> = self
            .inputs
            .iter()
            .map(|&id| {
                let o = &self.objects[id as usize];
                (
                    o.base,
                    overlap(store, a, width, o.base, o.base + o.capacity),
                )
            })
            .collect();
        let below_heap = within(store, a, width, self.null_end, self.heap_start);
        let mut unchecked = below_heap;
        for &(_, touches) in &overlaps {
            let apart = store.not(touches);
            unchecked = store.and(unchecked, apart);
        }
        cases.push(Case {
            condition: unchecked,
            target: place(UNCHECKED),
        });
        for &id in self.inputs.iter() {
            let o = &self.objects[id as usize];
            let mut condition = o.holds(store, a, width);
            // An input inside an entry's buffer takes its own accesses.
            if self.owns_slot(id) {
                for &(base, touches) in &overlaps {
                    if base != o.base && (o.base..o.base + o.capacity).contains(&base) {
                        let apart = store.not(touches);
                        condition = store.and(condition, apart);
                    }
                }
            }
            cases.push(Case {
                condition,
                target: place(ObjectId(id)),
            });
        }
        let block = |store: &mut TermStore, id: ObjectId| {
            let o = &self.objects[id.0 as usize];
            let mut condition = o.holds(store, a, width);
            // An input buffer inside the object takes its own accesses.
            for &(base, touches) in &overlaps {
                if (o.base..o.base + o.capacity).contains(&base) {
                    let apart = store.not(touches);
                    condition = store.and(condition, apart);
                }
            }
            condition
        };
        for &id in self.heap.iter() {
            let o = &self.objects[id as usize];
            if o.freed.is_some() || o.segment.is_some() {
                continue;
            }
            cases.push(Case {
                condition: block(store, ObjectId(id)),
                target: place(ObjectId(id)),
            });
        }
        // A segment is one case: the access lands in one of its members.
        for (id, segment) in self.live_segments() {
            let mut member = |store: &mut TermStore, m| block(store, m);
            if let Some(condition) = self.segment_condition(store, segment, &mut member) {
                cases.push(Case {
                    condition,
                    target: place(id),
                });
            }
        }
        // The low page, where the layout leaves it to NULL, is a case of
        // its own: not one wild address among others.
        if self.null_end > 0 {
            let null_end = store.bv_const(64, self.null_end);
            cases.push(Case {
                condition: store.cmp(BvCmp::Ult, a, null_end),
                target: Err(Fault::Object {
                    kind: FaultKind::Null,
                    object: None,
                }),
            });
        }
        let limit = store.bv_const(64, self.contents.len().saturating_sub(width));
        let mut outside = store.cmp(BvCmp::Ult, limit, a);
        if let Some(arena) = &self.arena {
            let among_slots = within(store, a, width, ARENA_START, arena.next);
            let not = store.not(among_slots);
            outside = store.and(outside, not);
        }
        let mut rest = store.not(outside);
        for c in &cases {
            let not = store.not(c.condition);
            rest = store.and(rest, not);
        }
        cases.push(Case {
            condition: outside,
            target: Err(Fault::OutOfBounds),
        });
        cases.push(Case {
            condition: rest,
            target: Err(Fault::Unclassified),
        });
        cases
    }

    /// The fault of `width` bytes at `address`, a place where no live
    /// object takes them (a symbolic pointer's fault case, given a value).
    pub fn classify(&self, store: &mut TermStore, address: u64, width: u64) -> Fault {
        match self.resolve_at(store, address, width) {
            Resolution::Certain(Err(fault)) => fault,
            // Past the symbolic size of the object.
            Resolution::Cases(cases) => cases
                .iter()
                .find_map(|c| c.target.err())
                .unwrap_or(Fault::Unclassified),
            Resolution::Certain(Ok(_)) => Fault::Unclassified,
        }
    }

    pub fn heap_bytes(&self) -> usize {
        self.contents.heap_bytes() + self.objects.len() * std::mem::size_of::<Object>()
    }

    /// Bytes this memory holds that no other one shares: its own contents,
    /// and the object table once it made or freed an object since a fork.
    pub fn own_bytes(&self) -> usize {
        let table = if Rc::strong_count(&self.objects) == 1 {
            self.objects.len() * std::mem::size_of::<Object>()
        } else {
            0
        };
        self.contents.own_bytes() + table
    }
}

/// The 64-bit address of an access at the 32-bit `pointer + plus`: Wasm's
/// effective address, which does not wrap around.
pub fn effective_address(store: &mut TermStore, pointer: TermId, plus: u32) -> TermId {
    let wide = store.zero_ext(32, pointer);
    let plus = store.bv_const(64, u64::from(plus));
    store.bin(BvBinOp::Add, wide, plus)
}

/// `lo ≤ a ∧ a + width ≤ hi` for a 64-bit `a`, as one unsigned comparison
/// (below `lo`, `a − lo` wraps to a huge value).
pub fn within(store: &mut TermStore, a: TermId, width: u64, lo: u64, hi: u64) -> TermId {
    if hi < lo + width {
        return store.fls();
    }
    let lo_t = store.bv_const(64, lo);
    let offset = store.bin(BvBinOp::Sub, a, lo_t);
    let last = store.bv_const(64, hi - lo - width);
    store.cmp(BvCmp::Ule, offset, last)
}

/// `width` bytes at `a` lie inside `[base, base + σ)`, overflow-safe:
/// `w ≤ σ ∧ a − base ≤ σ − w`, and inside the capacity, which the path
/// condition implies but the cases must say to be disjoint by themselves.
fn in_sized(
    store: &mut TermStore,
    a: TermId,
    base: u64,
    sigma: TermId,
    capacity: u64,
    width: u64,
) -> TermId {
    let reserved = within(store, a, width, base, base + capacity);
    let sigma = store.zero_ext(32, sigma);
    let w = store.bv_const(64, width);
    let fits = store.cmp(BvCmp::Ule, w, sigma);
    let base_t = store.bv_const(64, base);
    let offset = store.bin(BvBinOp::Sub, a, base_t);
    let room = store.bin(BvBinOp::Sub, sigma, w);
    let inside = store.cmp(BvCmp::Ule, offset, room);
    let sized = store.and(fits, inside);
    store.and(reserved, sized)
}

/// `width` bytes at `a` touch `[lo, hi)`.
fn overlap(store: &mut TermStore, a: TermId, width: u64, lo: u64, hi: u64) -> TermId {
    let hi_t = store.bv_const(64, hi);
    let before_end = store.cmp(BvCmp::Ult, a, hi_t);
    let w = store.bv_const(64, width);
    let end = store.bin(BvBinOp::Add, a, w);
    let lo_t = store.bv_const(64, lo);
    let after_start = store.cmp(BvCmp::Ult, lo_t, end);
    store.and(before_end, after_start)
}

/// The base and the end of a slot of `bytes` bytes from `lo` on: aligned,
/// between guard gaps.
fn arena_slot(lo: u64, bytes: u64, align: u64) -> Option<(u64, u64)> {
    let align = align.max(ALIGN);
    let base = (lo + GAP).checked_add(align - 1)? & !(align - 1);
    Some((base, base.checked_add(bytes)?.checked_add(GAP)?))
}
