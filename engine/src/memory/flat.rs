//! The flat memory model: Wasm linear memory as one object, whose bytes
//! are terms. An access is in bounds when it lies inside the memory.
//!
//! # Representation
//!
//! Memory is cut into chunks of [`CHUNK`] bytes held behind [`Rc`], in a
//! [`PersistentVec`] whose nodes its clones share: cloning a memory (a
//! fork) copies one pointer, and a write copies only what another memory
//! still shares, its chunk and the few small nodes above it (fine-grain
//! copy on write). A chunk that was never written is [`Slot::Zero`] and
//! takes no space; a chunk of concrete bytes is plain `u8`s; only a chunk
//! with a symbolic byte also keeps a term per byte.
//!
//! # Symbolic addresses
//!
//! Memory has an array term, `base`, under the chunks: a byte can be a
//! *hole*, which means "whatever `base` holds at this index". Until the first
//! write at a symbolic address, `base` is `const_array(0)` and there are no
//! holes: the chunks alone say what memory holds.
//!
//! A read at a symbolic address needs memory as an array term, but only
//! over the bytes the address can reach: its interval, read off the
//! address term's shape ([`interval`](super::interval)), meets the bounds
//! the caller knows (the object the access resolved into). The array is
//! `base` plus one `store` per byte of that *window* (per non-zero byte
//! while `base` is all zeros), so a symbolic index into a 256-byte table
//! costs 256 stores at most however full the rest of memory is. Arrays are
//! cached per window together with a log of the concrete addresses written
//! in it since, so a later read only adds a `store` per logged address;
//! forks share the cached terms. A write at a symbolic address extends the
//! array of the chunks its window meets, makes it the new `base`, and
//! turns the bytes it can reach into holes, since the write may have hit
//! any of them; `base` is unchanged outside them. Concrete writes after
//! that fill the bytes again, so concrete addresses written since the
//! last symbolic write are read without the array.
//!
//! # Objects
//!
//! An access the caller resolved into one object ([`Within::Object`])
//! reads and writes the object's own array, indexed by offset from its
//! first byte (KLEE's `ObjectState` and its update list): the array its
//! bytes were made from (an input's) or zeros, plus a store per byte
//! changed since. A write at a symbolic offset there stores into that
//! array alone, and the bytes it can reach become holes that read it:
//! nothing outside the object changes, and a later read of the object
//! selects from its array, never from one over all of memory. Outside
//! objects, the regions below the heap (the data, the stack, the rest) are
//! owners in the same way for an access that can reach one of them only.

use super::interval::unsigned_interval;
use super::options::Contents;
use super::persistent::{mix, PersistentVec};
use super::place::{Case, Fault, ObjectId, Place, Pointer, Resolution, Spot};
use crate::expr::{BvBinOp, BvCmp, Node, TermId, TermStore, ARRAY_INDEX_WIDTH};
#[cfg(test)]
use crate::limits::Limits;
use crate::limits::{Checkpoint, Reached};
use std::rc::Rc;

mod merge;
pub use merge::ByteMerge;

#[cfg(test)]
mod fine_grain_tests;
#[cfg(test)]
mod tests;

/// Bytes in a Wasm page.
pub const PAGE_SIZE: u64 = 65536;
/// Pages a 32-bit memory can have.
pub const MAX_PAGES: u32 = 65536;

/// The one object of the flat model: the whole memory.
const THE_MEMORY: ObjectId = ObjectId(0);

/// Bytes in one copy-on-write chunk: what a state copies when it first
/// writes to memory it shares.
pub const CHUNK: usize = 256;
const CHUNK_U64: u64 = CHUNK as u64;
const CHUNKS_PER_PAGE: usize = (PAGE_SIZE / CHUNK_U64) as usize;

/// The bounds of an access nothing but memory's size bounds.
const ANYWHERE: (u64, u64) = (0, u64::MAX);

/// Stores a read at a concrete offset from the top of an array skips, looking
/// for the store that wrote it, before giving up and building a `select`.
const READ_OVER_WRITE_STEPS: usize = 64;

#[derive(Clone, Debug)]
enum Slot {
    /// Every byte is zero, in the chunks and in `base`.
    Zero,
    /// Every byte is a hole: its value is what `base` holds at its index.
    Hole,
    Data(Rc<Chunk>),
}

#[derive(Clone, Debug)]
enum Chunk {
    /// Only concrete bytes, kept inline: one allocation per chunk.
    Bytes([u8; CHUNK]),
    /// Some symbolic bytes: `terms[i]` is the byte's term, or the memory's
    /// `concrete` marker when `bytes[i]` is the value, or its `hole` marker.
    Mixed {
        bytes: [u8; CHUNK],
        terms: Box<[TermId]>,
        /// Entries of `terms` that are not the `concrete` marker.
        symbolic: u32,
    },
}

/// The value of one byte at a concrete address.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Byte {
    Const(u8),
    /// A byte term that is not a constant.
    Term(TermId),
    /// What `base` holds at that index.
    Hole,
}

/// Objects smaller than this get an array over all of their bytes at a
/// write at a symbolic offset (KLEE flushes any object whole); larger ones
/// only over the bytes the write can reach.
const WHOLE_OBJECT_WINDOW: u64 = 1 << 16;

/// Windows whose arrays a memory keeps; the least recently built goes.
const WINDOWS: usize = 8;

/// An array term that agrees with memory at the bytes `lo..=hi` (elsewhere
/// it holds what `base` does, or anything), and what was written there
/// since. An object's window is indexed from the object's first byte, its
/// origin, over the array the object's bytes were made from.
#[derive(Clone, Debug)]
struct Window {
    lo: u64,
    hi: u64,
    /// The object's first byte, for an object's window.
    origin: Option<u64>,
    /// The bytes of the window as they were when `dirty` was empty, over
    /// `under`.
    array: TermId,
    /// The `base` it was built on: it holds what that does outside the
    /// window.
    under: TermId,
    /// Concrete addresses in the window written since, maybe repeated.
    dirty: Vec<u32>,
    /// Length of `dirty` when it was last deduplicated.
    dirty_unique: usize,
    /// Stores in `array` above `base`.
    stores: usize,
}

impl Window {
    fn meets(&self, lo: u64, hi: u64) -> bool {
        self.lo <= hi && lo <= self.hi
    }

    fn span(&self) -> u64 {
        self.hi - self.lo
    }

    /// The index of the byte at `at` in the window's array.
    fn index(&self, at: u64) -> u64 {
        at - self.origin.unwrap_or(0)
    }
}

/// What a symbolic access stays within, as its resolution says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    /// The bytes `lo..=hi` of memory (the unchecked rest, the flat
    /// model's one object): the access reads an array indexed by address,
    /// or, when it can reach one region only, that region's array.
    Bytes(u64, u64),
    /// One object's bytes `lo..=hi`: the access reads the object's own
    /// array, indexed from its first byte, over the array its bytes were
    /// made from (an input's) or zeros, with a store per byte changed
    /// since.
    Object(u64, u64),
}

impl Within {
    fn bounds(self) -> (u64, u64) {
        match self {
            Within::Bytes(lo, hi) | Within::Object(lo, hi) => (lo, hi),
        }
    }
}

/// Bytes `lo..=hi` that a write at a symbolic offset into one object made
/// holes: they read that object's array, `array`, at their offset from its
/// first byte, `origin`. Every range of one object has the object's latest
/// array, which agrees with its older ones outside the bytes it wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ObjectHoles {
    lo: u64,
    hi: u64,
    origin: u64,
    array: TermId,
}

#[derive(Clone, Debug)]
pub struct FlatMemory {
    /// The bytes of the memory, and above it those of an arena the
    /// objects model holds ([`Self::start_arena`]).
    slots: PersistentVec<Slot>,
    /// The pages the module sees (`memory.size`).
    pages: u32,
    max_pages: u32,
    /// `(_ bv0 8)`.
    zero: TermId,
    /// `const_array(0)`, also the marker of a hole in `Chunk::Mixed::terms`
    /// (an array is never a byte).
    hole: TermId,
    /// `false`, the marker of a concrete byte in `Chunk::Mixed::terms`.
    concrete: TermId,
    /// The array under the holes outside objects, indexed by address;
    /// `hole` (all zeros) until the first write at a symbolic address there.
    base: TermId,
    /// The holes that objects' writes at symbolic offsets made, which read
    /// the object's own array: sorted, disjoint, usually none or a few.
    object_holes: Vec<ObjectHoles>,
    /// Where the regions outside objects start (data, stack, the rest),
    /// and where the last ends: an access that can reach one of them only
    /// has that region's own array, as an object does.
    regions: Rc<[u64]>,
    /// Whether a symbolic access's array holds only the bytes it can reach
    /// ([`Contents::PerObject`]), or all of memory.
    narrow: bool,
    /// Arrays built for symbolic reads, oldest first; empty until the
    /// first one (concrete stores then skip logging their addresses).
    windows: Vec<Window>,
    /// Where an arena starts (0 when none): between the module's pages
    /// and there, no access lands.
    arena_start: u64,
}

impl FlatMemory {
    pub fn new(store: &mut TermStore, min_pages: u32, max_pages: Option<u32>) -> FlatMemory {
        let zero = store.bv_const(8, 0);
        let hole = store.const_array(zero);
        let concrete = store.fls();
        let pages = min_pages.min(MAX_PAGES);
        FlatMemory {
            slots: PersistentVec::filled(pages as usize * CHUNKS_PER_PAGE, Slot::Zero),
            pages,
            max_pages: max_pages.unwrap_or(MAX_PAGES).min(MAX_PAGES),
            zero,
            hole,
            concrete,
            base: hole,
            object_holes: Vec::new(),
            regions: Rc::new([]),
            narrow: true,
            windows: Vec::new(),
            arena_start: 0,
        }
    }

    pub fn set_contents(&mut self, contents: Contents) {
        self.narrow = contents == Contents::PerObject;
    }

    /// Where the regions outside objects start, and where the last ends.
    pub fn set_regions(&mut self, starts: &[u64]) {
        self.regions = starts.into();
    }

    /// Where the parts of `span` start when it is cut at the regions'
    /// starts: its first byte, then each region start inside it.
    pub fn part_starts(&self, span: (u64, u64)) -> Vec<u64> {
        let inside = self.regions.iter().filter(|&&r| span.0 < r && r <= span.1);
        std::iter::once(span.0).chain(inside.copied()).collect()
    }

    /// The first and last byte of the region that holds `lo..=hi`, if one
    /// does.
    fn region_of(&self, lo: u64, hi: u64) -> Option<(u64, u64)> {
        let i = self.regions.partition_point(|&start| start <= lo);
        let (start, end) = (*self.regions.get(i.checked_sub(1)?)?, *self.regions.get(i)?);
        (hi < end).then_some((start, end - 1))
    }

    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// Size in bytes, as the module sees it.
    pub fn len(&self) -> u64 {
        u64::from(self.pages) * PAGE_SIZE
    }

    pub fn is_empty(&self) -> bool {
        self.pages == 0
    }

    /// Bytes held: the memory's, and an arena's above it.
    pub fn stored(&self) -> u64 {
        self.slots.len() as u64 * CHUNK_U64
    }

    /// The most pages this memory can grow to.
    pub fn max_pages(&self) -> u32 {
        self.max_pages
    }

    /// Starts an arena of the engine's at `start`, above every page the
    /// module's memory may grow to (its maximum is cut to end there): the
    /// arena's bytes are held beyond the module's ([`Self::hold`]), and
    /// the memory never grows into them.
    pub fn start_arena(&mut self, start: u64) {
        self.max_pages = self.max_pages.min((start / PAGE_SIZE) as u32);
        self.arena_start = start;
        self.hold(start);
    }

    /// Holds the bytes below `end` too (an arena's slots), without growing
    /// the memory the module sees.
    pub fn hold(&mut self, end: u64) {
        self.slots.grow(end.div_ceil(CHUNK_U64) as usize);
    }

    /// The parts of `lo..=hi` an access can land in: all of it, less the
    /// bytes between the module's pages and an arena, which the module's
    /// memory has not grown into.
    fn reachable_parts(&self, lo: u64, hi: u64) -> impl Iterator<Item = (u64, u64)> {
        let gap = self.len()..self.arena_start;
        let parts = match gap.is_empty() || hi < gap.start || gap.end <= lo {
            true => [Some((lo, hi)), None],
            false => [
                (lo < gap.start).then(|| (lo, gap.start - 1)),
                (gap.end <= hi).then_some((gap.end, hi)),
            ],
        };
        parts.into_iter().flatten()
    }

    /// `memory.grow`: the old size in pages, or `None` when the memory cannot
    /// grow by `delta` pages.
    pub fn grow(&mut self, delta: u32) -> Option<u32> {
        let old = self.pages();
        let new = old.checked_add(delta).filter(|&n| n <= self.max_pages)?;
        // New pages are zero, and so is `base` there: every store in it is at
        // an index that was in bounds when it was made.
        self.slots.grow(new as usize * CHUNKS_PER_PAGE);
        self.pages = new;
        Some(old)
    }

    /// Where `width` bytes at `address` land: in the memory, or out of
    /// bounds (`None`).
    #[inline(always)]
    pub fn resolve_concrete(&self, address: u64, width: u64) -> Option<Spot> {
        let end = address.checked_add(width)?;
        (end <= self.len()).then_some(Spot {
            object: THE_MEMORY,
            offset: address,
        })
    }

    /// Where `width` bytes at `pointer + plus` may land: in the memory
    /// where that lies inside it, computed without wrap-around (a symbolic
    /// `pointer` is an unsigned 32-bit term), and out of bounds otherwise.
    pub fn resolve(
        &self,
        store: &mut TermStore,
        pointer: Pointer,
        plus: u32,
        width: u64,
    ) -> Resolution {
        let pointer = match pointer {
            Pointer::Con(a) => {
                let spot = self.resolve_concrete(a + u64::from(plus), width);
                return Resolution::Certain(spot.map(Place::Concrete).ok_or(Fault::OutOfBounds));
            }
            Pointer::Sym(t) => t,
        };
        let end = u64::from(plus) + width;
        let inside = if end > self.len() {
            store.fls()
        } else {
            let wide = store.zero_ext(32, pointer);
            let limit = store.bv_const(64, self.len() - end);
            store.cmp(BvCmp::Ule, wide, limit)
        };
        let outside = store.not(inside);
        Resolution::Cases(vec![
            Case {
                condition: inside,
                target: Ok(Place::Symbolic {
                    object: THE_MEMORY,
                    pointer,
                    plus,
                    piece: None,
                }),
            },
            Case {
                condition: outside,
                target: Err(Fault::OutOfBounds),
            },
        ])
    }

    /// Reads `size` bytes (1, 2, 4 or 8) little-endian at `addr + offset` as
    /// a term of width `8 * size`. The access must be in bounds on the path.
    #[cfg(test)]
    pub fn load(&mut self, store: &mut TermStore, addr: TermId, offset: u32, size: u32) -> TermId {
        let unlimited = &mut Checkpoint::new(Limits::default());
        let anywhere = Within::Bytes(ANYWHERE.0, ANYWHERE.1);
        let read = self.load_within(store, addr, offset, size, anywhere, unlimited);
        read.expect("no limits")
    }

    /// Reads `size` bytes (1, 2, 4 or 8) little-endian at `addr + offset`,
    /// an access the path keeps in bounds and `within` what it resolved
    /// into, as a term of width `8 * size`; the limit reached while
    /// building its array, if one is.
    pub fn load_within(
        &mut self,
        store: &mut TermStore,
        addr: TermId,
        offset: u32,
        size: u32,
        within: Within,
        checkpoint: &mut Checkpoint,
    ) -> Result<TermId, Reached> {
        assert!((1..=8).contains(&size), "load of {size} bytes");
        if let Some(a) = store.as_bv_const(addr) {
            return Ok(self.load_at(store, a + u64::from(offset), size));
        }
        let (lo, hi) = self.reach(store, addr, offset, size, within.bounds());
        let origin = match within {
            _ if !self.narrow => None,
            Within::Object(first, _) => Some(first),
            Within::Bytes(..) => self
                .input_origin(store, lo, hi)
                .or_else(|| Some(self.region_of(lo, hi)?.0)),
        };
        let array = self.window_array(store, (lo, hi), origin, false, checkpoint)?;
        let mut bytes = [self.zero; 8];
        for (k, slot) in bytes.iter_mut().enumerate().take(size as usize) {
            let delta = (u64::from(offset) + k as u64).wrapping_sub(origin.unwrap_or(0));
            let index = offset_index(store, addr, delta);
            *slot = select(store, array, index);
        }
        Ok(assemble(store, &bytes[..size as usize]))
    }

    /// Reads `size` bytes (1 to 8) little-endian at the concrete address
    /// `start` as a term of width `8 * size`. The access must be in bounds.
    pub fn load_at(&mut self, store: &mut TermStore, start: u64, size: u32) -> TermId {
        assert!((1..=8).contains(&size), "load of {size} bytes");
        debug_assert!(
            start + u64::from(size) <= self.stored(),
            "load out of bounds"
        );
        let mut value = 0u64;
        let mut all_concrete = true;
        for k in 0..size as usize {
            match self.read(start + k as u64) {
                Byte::Const(b) => value |= u64::from(b) << (8 * k),
                _ => all_concrete = false,
            }
        }
        if all_concrete {
            return store.bv_const((8 * size) as u8, value);
        }
        let mut bytes = [self.zero; 8];
        for (k, slot) in bytes.iter_mut().enumerate().take(size as usize) {
            let at = start + k as u64;
            let byte = self.read(at);
            *slot = self.byte_term(store, at, byte);
        }
        assemble(store, &bytes[..size as usize])
    }

    /// Writes `value` (width `8 * size`) little-endian at `addr + offset`.
    /// The access must be in bounds on the path.
    #[cfg(test)]
    pub fn store(&mut self, store: &mut TermStore, addr: TermId, offset: u32, value: TermId) {
        let unlimited = &mut Checkpoint::new(Limits::default());
        let anywhere = Within::Bytes(ANYWHERE.0, ANYWHERE.1);
        let write = self.store_within(store, addr, offset, value, anywhere, unlimited);
        write.expect("no limits")
    }

    /// Writes `value` (width `8 * size`) little-endian at `addr + offset`,
    /// an access the path keeps in bounds and `within` what it resolved
    /// into; the limit reached while building the array, if one is (memory
    /// is then unchanged).
    pub fn store_within(
        &mut self,
        store: &mut TermStore,
        addr: TermId,
        offset: u32,
        value: TermId,
        within: Within,
        checkpoint: &mut Checkpoint,
    ) -> Result<(), Reached> {
        let size = u32::from(store.width(value) / 8);
        if let Some(a) = store.as_bv_const(addr) {
            self.store_at(store, a + u64::from(offset), value);
            return Ok(());
        }
        if self.stored() == 0 {
            return Ok(());
        }
        let (lo, hi) = self.reach(store, addr, offset, size, within.bounds());
        let region = match within {
            Within::Bytes(..) if self.narrow => self.region_of(lo, hi),
            _ => None,
        };
        match region.map_or(within, |(first, last)| Within::Object(first, last)) {
            Within::Object(origin, last) if self.narrow => {
                // The object's array over all of it, when it is not huge:
                // then it agrees with every byte the write cannot reach, and
                // a later read of any part of the object needs no more
                // stores than the bytes written since.
                let window = if last - origin < WHOLE_OBJECT_WINDOW {
                    (origin, last)
                } else {
                    (lo, hi)
                };
                let written = (addr, offset, value);
                self.store_in_object(store, written, (lo, hi), (window, origin), checkpoint)
            }
            _ => self.store_in_bytes(store, (addr, offset, value), (lo, hi), checkpoint),
        }
    }

    /// A write at a symbolic address that can reach the bytes `lo..=hi`
    /// outside any object: it extends the array of the chunks it meets,
    /// which becomes `base`.
    fn store_in_bytes(
        &mut self,
        store: &mut TermStore,
        (addr, offset, value): (TermId, u32, TermId),
        (lo, hi): (u64, u64),
        checkpoint: &mut Checkpoint,
    ) -> Result<(), Reached> {
        let chunks = self.chunks_of(lo, hi);
        let (chunks_lo, chunks_hi) = self.widened(
            chunks.start as u64 * CHUNK_U64,
            chunks.end as u64 * CHUNK_U64 - 1,
        );
        // Outside those chunks, the new `base` must hold what the old one
        // does: holes elsewhere still read it.
        let chunks = (chunks_lo, chunks_hi);
        let array = self.window_array(store, chunks, None, true, checkpoint)?;
        let array = stored(store, array, (addr, offset, value), 0);
        // The write may have hit any byte it can reach: from now on
        // `array` says what they hold, except where concrete writes fill
        // them again. Elsewhere `array` agrees with memory (in the chunks
        // it was built over) and with the old `base`.
        self.base = array;
        // A write spanning the arena's gap cannot land there: it stays
        // blank, which walks over memory skip.
        for (lo, hi) in self.reachable_parts(lo, hi).collect::<Vec<_>>() {
            self.make_holes(lo, hi, None);
        }
        self.keep_written_window((lo, hi), (chunks_lo, chunks_hi), None, array);
        Ok(())
    }

    /// A write at a symbolic offset into the object whose first byte is at
    /// `origin`, that can reach its bytes `lo..=hi`: one store over the
    /// object's own array over `window` (KLEE's update list), which the
    /// bytes it can reach read from now on. Nothing outside the object
    /// changes.
    fn store_in_object(
        &mut self,
        store: &mut TermStore,
        (addr, offset, value): (TermId, u32, TermId),
        (lo, hi): (u64, u64),
        (window, origin): ((u64, u64), u64),
        checkpoint: &mut Checkpoint,
    ) -> Result<(), Reached> {
        let array = self.window_array(store, window, Some(origin), true, checkpoint)?;
        let array = stored(store, array, (addr, offset, value), origin);
        self.make_holes(lo, hi, Some((origin, array)));
        self.keep_written_window((lo, hi), window, Some(origin), array);
        Ok(())
    }

    /// After a write at a symbolic address that can reach `lo..=hi`: the
    /// windows there are stale, and `array` is the one over `window`.
    fn keep_written_window(
        &mut self,
        (lo, hi): (u64, u64),
        window: (u64, u64),
        origin: Option<u64>,
        array: TermId,
    ) {
        self.windows.retain(|w| !w.meets(lo, hi));
        self.keep_window(Window {
            lo: window.0,
            hi: window.1,
            origin,
            array,
            under: array,
            dirty: Vec::new(),
            dirty_unique: 0,
            stores: 0,
        });
    }

    /// Writes `value` (a whole number of bytes wide) little-endian at the
    /// concrete address `start`. The access must be in bounds.
    pub fn store_at(&mut self, store: &mut TermStore, start: u64, value: TermId) {
        let size = u32::from(store.width(value) / 8);
        debug_assert!(
            start + u64::from(size) <= self.stored(),
            "store out of bounds"
        );
        if let Some(v) = store.as_bv_const(value) {
            for k in 0..size {
                self.write(start + u64::from(k), Byte::Const((v >> (8 * k)) as u8));
            }
        } else {
            for k in 0..size {
                let byte = byte_of(store, value, k as u8);
                self.write(start + u64::from(k), byte);
            }
        }
    }

    /// The byte at a concrete address as a term, for the tests to compare
    /// memories byte by byte.
    #[cfg(test)]
    fn byte(&mut self, store: &mut TermStore, addr: u64) -> TermId {
        let byte = self.read(addr);
        self.byte_term(store, addr, byte)
    }

    /// Sets the byte at a concrete address.
    pub fn set_byte(&mut self, store: &mut TermStore, addr: u64, value: TermId) {
        let byte = byte_of(store, value, 0);
        self.write(addr, byte);
    }

    /// Writes concrete bytes at a concrete address (data segments, host calls).
    pub fn write_concrete(&mut self, _store: &mut TermStore, addr: u64, bytes: &[u8]) {
        debug_assert!(
            addr + bytes.len() as u64 <= self.stored(),
            "write out of bounds"
        );
        let mut done = 0usize;
        while done < bytes.len() {
            let at = addr + done as u64;
            let (ci, off) = split(at);
            if ci >= self.slots.len() {
                return;
            }
            let n = (CHUNK - off).min(bytes.len() - done);
            let src = &bytes[done..done + n];
            let unchanged = match &self.slots[ci] {
                Slot::Zero => src.iter().all(|&b| b == 0),
                Slot::Data(c) => match &**c {
                    Chunk::Bytes(b) => &b[off..off + n] == src,
                    Chunk::Mixed { .. } => false,
                },
                Slot::Hole => false,
            };
            if !unchanged {
                let concrete = self.concrete;
                let chunk = self.chunk_mut(ci);
                match chunk {
                    Chunk::Bytes(b) => b[off..off + n].copy_from_slice(src),
                    Chunk::Mixed {
                        bytes: b,
                        terms,
                        symbolic,
                    } => {
                        b[off..off + n].copy_from_slice(src);
                        for t in &mut terms[off..off + n] {
                            if *t != concrete {
                                *t = concrete;
                                *symbolic -= 1;
                            }
                        }
                    }
                }
                self.demote(ci);
                self.mark_dirty(at, n as u64);
            }
            done += n;
        }
    }

    /// The `size` (1 to 8) bytes at `addr`, little-endian, when they all are
    /// concrete: the interpreter's concrete loads build no terms. The access
    /// must be in bounds. Inlined for the fast path, whose loads mostly take
    /// the first branch.
    #[inline]
    pub fn load_concrete(&self, addr: u64, size: u32) -> Option<u64> {
        let (ci, off) = split(addr);
        if let (Some(Slot::Data(c)), true) = (self.slots.get(ci), off + 8 <= CHUNK) {
            if let Chunk::Bytes(b) = &**c {
                let word: [u8; 8] = b[off..off + 8].try_into().expect("eight bytes");
                return Some(u64::from_le_bytes(word) & crate::expr::mask((8 * size) as u8));
            }
        }
        self.load_bytewise(addr, size)
    }

    /// `load_concrete` across chunks or in mixed ones; out of line, so that
    /// inlining `load_concrete` inlines only the common case.
    #[inline(never)]
    fn load_bytewise(&self, addr: u64, size: u32) -> Option<u64> {
        (0..u64::from(size))
            .rev()
            .try_fold(0u64, |acc, k| match self.read(addr + k) {
                Byte::Const(b) => Some(acc << 8 | u64::from(b)),
                Byte::Term(_) | Byte::Hole => None,
            })
    }

    /// Writes the low `size` (1 to 8) bytes of `value` at `addr`, as
    /// `write_concrete` does, but in place and without a `memcpy` when the
    /// access sits in an only-concrete chunk that no other memory shares.
    /// The access must be in bounds. Always inlined: the fast path's loop
    /// is too large for the inliner to pick it, and a call there costs more
    /// than the store.
    #[inline(always)]
    pub fn store_concrete(&mut self, store: &mut TermStore, addr: u64, size: u32, value: u64) {
        let (ci, off) = split(addr);
        if let (Some(Slot::Data(c)), true, None) = (
            self.slots.get_mut(ci),
            off + 8 <= CHUNK,
            self.windows.first(),
        ) {
            if let Some(Chunk::Bytes(b)) = Rc::get_mut(c) {
                let word: &mut [u8; 8] = (&mut b[off..off + 8]).try_into().expect("eight bytes");
                let keep = !crate::expr::mask((8 * size) as u8);
                let old = u64::from_le_bytes(*word);
                *word = (old & keep | value & !keep).to_le_bytes();
                return;
            }
        }
        self.write_concrete(store, addr, &value.to_le_bytes()[..size as usize]);
    }

    /// The bytes at `addr..addr + len` when they all are in bounds and
    /// concrete, for host functions (C strings, `fd_write` buffers).
    pub fn concrete_bytes(&self, addr: u64, len: u64) -> Option<Vec<u8>> {
        if addr.checked_add(len)? > self.stored() {
            return None;
        }
        let mut out = Vec::with_capacity(len as usize);
        let mut at = addr;
        let end = addr + len;
        while at < end {
            let (ci, off) = split(at);
            let n = (CHUNK - off).min((end - at) as usize);
            match &self.slots[ci] {
                Slot::Zero => out.resize(out.len() + n, 0),
                Slot::Hole => return None,
                Slot::Data(c) => match &**c {
                    Chunk::Bytes(b) => out.extend_from_slice(&b[off..off + n]),
                    Chunk::Mixed { bytes, terms, .. } => {
                        if terms[off..off + n].iter().any(|&t| t != self.concrete) {
                            return None;
                        }
                        out.extend_from_slice(&bytes[off..off + n]);
                    }
                },
            }
            at += n as u64;
        }
        Some(out)
    }

    /// Makes `lo..hi` zero bytes again, as memory never written: the
    /// range of a freed block a new one takes.
    pub fn clear(&mut self, lo: u64, hi: u64) {
        self.fill_bytes(lo, Byte::Const(0), hi - lo);
        // Its bytes are no holes now: no array of an object is read there.
        self.claim_holes(lo, hi - 1, None);
    }

    /// `memory.fill` at concrete addresses: `len` copies of the byte `value`
    /// from `addr`. The range must be in bounds.
    pub fn fill(&mut self, store: &mut TermStore, addr: u64, value: TermId, len: u64) {
        debug_assert!(addr + len <= self.stored(), "fill out of bounds");
        let byte = byte_of(store, value, 0);
        self.fill_bytes(addr, byte, len);
    }

    /// `len` copies of `byte` from `addr`.
    fn fill_bytes(&mut self, addr: u64, byte: Byte, len: u64) {
        let end = (addr + len).min(self.stored());
        // Whole chunks share one chunk of `byte`s; the ends are written
        // byte by byte.
        let first = addr.div_ceil(CHUNK_U64);
        let last = end / CHUNK_U64;
        if first < last {
            let uniform = self.uniform_slot(byte);
            self.slots.set_range(first as usize..last as usize, uniform);
            self.mark_dirty(first * CHUNK_U64, (last - first) * CHUNK_U64);
        }
        let whole = first * CHUNK_U64..last * CHUNK_U64;
        let mut at = addr;
        while at < end {
            if whole.contains(&at) {
                at = whole.end;
                continue;
            }
            let (ci, off) = split(at);
            let n = (CHUNK - off).min((end - at) as usize) as u64;
            for k in 0..n {
                self.write(at + k, byte);
            }
            self.demote(ci);
            at += n;
        }
    }

    /// `memory.copy` at concrete addresses, with `memmove` semantics: the
    /// ranges may overlap. Both ranges must be in bounds.
    pub fn copy(&mut self, store: &mut TermStore, dst: u64, src: u64, len: u64) {
        debug_assert!(
            dst + len <= self.stored() && src + len <= self.stored(),
            "copy out of bounds"
        );
        if len == 0 || dst == src || dst + len > self.stored() || src + len > self.stored() {
            return;
        }
        // Blocks that do not cross a chunk of `dst`, taken from the end when
        // `dst` is above `src` so no block reads bytes a previous one wrote.
        let mut blocks = Vec::new();
        let mut at = 0u64;
        while at < len {
            let n = (CHUNK_U64 - (dst + at) % CHUNK_U64).min(len - at);
            blocks.push((at, n));
            at += n;
        }
        if dst > src {
            blocks.reverse();
        }
        let mut buffer: Vec<Byte> = Vec::with_capacity(CHUNK);
        for (at, n) in blocks {
            let (d, s) = (dst + at, src + at);
            let (dci, _) = split(d);
            if n == CHUNK_U64 && s % CHUNK_U64 == 0 {
                if let Some(slot) = self.movable_slot(split(s).0) {
                    self.slots[dci] = slot;
                    self.mark_dirty(d, CHUNK_U64);
                    continue;
                }
            }
            buffer.clear();
            for k in 0..n {
                let byte = match self.read(s + k) {
                    Byte::Hole => Byte::Term(self.byte_term(store, s + k, Byte::Hole)),
                    b => b,
                };
                buffer.push(byte);
            }
            for (k, &byte) in buffer.iter().enumerate() {
                self.write(d + k as u64, byte);
            }
            self.demote(dci);
        }
    }

    /// The whole memory as one array term, from indices to bytes.
    #[cfg(test)]
    fn array(&mut self, store: &mut TermStore) -> TermId {
        let unlimited = &mut Checkpoint::new(Limits::default());
        let array = self.window_array(store, ANYWHERE, None, false, unlimited);
        array.expect("no limits")
    }

    /// How many bytes the array of a symbolic access of `size` bytes at
    /// `addr + offset` holds at most, `within` what it resolved into.
    pub fn array_bytes(
        &self,
        store: &TermStore,
        addr: TermId,
        offset: u32,
        size: u32,
        within: Within,
    ) -> u64 {
        let (lo, hi) = self.reach(store, addr, offset, size, within.bounds());
        self.reachable_parts(lo, hi)
            .map(|(lo, hi)| hi - lo + 1)
            .sum()
    }

    /// The bytes an access of `size` bytes at `addr + offset` can touch
    /// on a path where it is in bounds and inside `bounds`.
    fn reach(
        &self,
        store: &TermStore,
        addr: TermId,
        offset: u32,
        size: u32,
        bounds: (u64, u64),
    ) -> (u64, u64) {
        let last = self.stored().saturating_sub(1);
        if !self.narrow {
            return (0, last);
        }
        let (lo, hi) = unsigned_interval(store, addr);
        let lo = (lo + u64::from(offset)).max(bounds.0);
        let hi = (hi + u64::from(offset) + u64::from(size) - 1)
            .min(bounds.1)
            .min(last);
        // No byte: no path makes the access, so any array will do.
        (lo.min(hi), hi)
    }

    /// An array that agrees with memory at the bytes `lo..=hi`: indexed by
    /// address; or, with an `origin`, the array of the object whose first
    /// byte is there, indexed from it. With `on_base`, elsewhere it agrees
    /// with the array the holes there read (`base`, or the object's), so
    /// that a write can extend it. A cached one brought up to date, or a
    /// new one.
    fn window_array(
        &mut self,
        store: &mut TermStore,
        (lo, hi): (u64, u64),
        origin: Option<u64>,
        on_base: bool,
        checkpoint: &mut Checkpoint,
    ) -> Result<TermId, Reached> {
        let (lo, hi) = match origin {
            None => self.widened(lo, hi),
            Some(_) => (lo, hi),
        };
        let span = hi - lo;
        let cached = self
            .windows
            .iter()
            .enumerate()
            .filter(|(_, w)| {
                w.origin == origin
                    && w.lo <= lo
                    && hi <= w.hi
                    && w.span() / 4 <= span.saturating_add(CHUNK_U64)
                    && (!on_base || self.on_current_base(w))
            })
            .min_by_key(|(_, w)| w.span())
            .map(|(i, _)| i);
        if let Some(i) = cached {
            return self.refresh(store, i, checkpoint);
        }
        let (array, stores) = match origin {
            Some(first) => self.rebuild_object(store, first, lo, hi, checkpoint)?,
            None => self.rebuild(store, lo, hi, checkpoint)?,
        };
        self.keep_window(Window {
            lo,
            hi,
            origin,
            array,
            under: self.under(origin),
            dirty: Vec::new(),
            dirty_unique: 0,
            stores,
        });
        Ok(array)
    }

    /// Whether window `w` agrees outside its bytes with the array its
    /// holes read now: a write at a symbolic address may extend it then.
    /// (An object with no holes has none to keep.)
    fn on_current_base(&self, w: &Window) -> bool {
        match w.origin {
            None => w.under == self.base || (w.lo, w.hi) == ANYWHERE,
            Some(o) => self.object_array(o).is_none_or(|array| w.under == array),
        }
    }

    /// The window `lo..=hi`, or all of memory when it covers most of it:
    /// such windows share the array of all of it.
    fn widened(&self, lo: u64, hi: u64) -> (u64, u64) {
        if hi - lo >= self.len() / 2 {
            ANYWHERE
        } else {
            (lo, hi)
        }
    }

    fn keep_window(&mut self, window: Window) {
        if self.windows.len() == WINDOWS {
            self.windows.remove(0);
        }
        self.windows.push(window);
    }

    /// Window `i`'s array with the bytes written since added.
    fn refresh(
        &mut self,
        store: &mut TermStore,
        i: usize,
        checkpoint: &mut Checkpoint,
    ) -> Result<TermId, Reached> {
        let w = &mut self.windows[i];
        if w.dirty.is_empty() {
            return Ok(w.array);
        }
        let mut dirty = std::mem::take(&mut w.dirty);
        let (lo, hi, mut array, origin) = (w.lo, w.hi, w.array, w.origin);
        dirty.sort_unstable();
        dirty.dedup();
        let mut under = w.under;
        let mut stores = w.stores + dirty.len();
        let bound = match origin {
            Some(_) => (hi - lo + 1) as usize,
            None => self.rebuild_bound(lo, hi),
        };
        if stores > 64 && stores > 2 * bound + 64 {
            // The chain would outgrow the bytes it describes: start over.
            let rebuilt = match origin {
                Some(first) => self.rebuild_object(store, first, lo, hi, checkpoint),
                None => self.rebuild(store, lo, hi, checkpoint),
            };
            match rebuilt {
                Ok(rebuilt) => (array, stores) = rebuilt,
                Err(limit) => {
                    // Stopped: the log stays, for the next read.
                    self.windows[i].dirty = dirty;
                    return Err(limit);
                }
            }
            under = self.under(origin);
        } else {
            for &a in &dirty {
                if let Some(limit) = checkpoint.after(1) {
                    self.windows[i].dirty = dirty;
                    return Err(limit);
                }
                let at = u64::from(a);
                let byte = self.read(at);
                let value = self.byte_term(store, at, byte);
                let index = store.bv_const(ARRAY_INDEX_WIDTH, self.windows[i].index(at));
                array = store.store(array, index, value);
            }
        }
        let w = &mut self.windows[i];
        (w.array, w.under, w.stores, w.dirty_unique) = (array, under, stores, 0);
        Ok(array)
    }

    /// Approximate heap bytes this memory owns; a chunk shared by `n`
    /// memories counts `1 / n`.
    pub fn heap_bytes(&self) -> usize {
        self.slots.heap_bytes(|slot| match slot {
            Slot::Data(c) => chunk_bytes(c) / Rc::strong_count(c),
            Slot::Zero | Slot::Hole => 0,
        }) + self.log_bytes()
    }

    /// Bytes this memory holds that no other one shares: the chunks it
    /// wrote since it was cloned, the nodes above them, its windows' logs.
    pub fn own_bytes(&self) -> usize {
        self.slots.own_bytes(|slot| match slot {
            Slot::Data(c) if Rc::strong_count(c) == 1 => chunk_bytes(c),
            _ => 0,
        }) + self.log_bytes()
    }

    /// A hash of what memory holds, for finding states with equal memory
    /// (state merging) without comparing their bytes: memories that hold
    /// the same bytes hash alike however they came to be and whatever they
    /// share, and a hash changes with any byte (up to collisions, which a
    /// byte-by-byte check rules out). Each byte adds a hash of its place
    /// and value, a zero nothing; holes add the hash of the array they
    /// read (`base`, or an object's with the bytes that read it), so a
    /// memory with holes over another array hashes apart even where the
    /// arrays agree. Each trie node keeps its subtree's
    /// hash: a memory hashed again pays for the chunks written since.
    pub fn content_hash(&self) -> u64 {
        let bytes = self.slots.hash(|slot| self.slot_hash(slot));
        let base = if self.base == self.hole {
            0
        } else {
            mix(1 << 62 | self.base.index() as u64)
        };
        let objects = self.object_holes.iter().fold(0u64, |sum, r| {
            let array = mix(1 << 59 | r.array.index() as u64);
            sum.wrapping_add(mix(r.lo ^ mix(r.hi ^ mix(r.origin ^ array))))
        });
        bytes ^ mix(self.len()) ^ base ^ objects
    }

    /// The sum of the hashes of a chunk's bytes, each of its place in the
    /// chunk and its value.
    fn slot_hash(&self, slot: &Slot) -> u64 {
        let byte = |off: usize, b: Byte| match b {
            Byte::Const(0) => 0,
            Byte::Const(v) => mix((off as u64) << 8 | u64::from(v)),
            Byte::Term(t) => mix(1 << 61 | (off as u64) << 32 | t.index() as u64),
            Byte::Hole => mix(1 << 60 | off as u64),
        };
        let sum = |bytes: &mut dyn Iterator<Item = Byte>| {
            bytes
                .enumerate()
                .fold(0u64, |sum, (off, b)| sum.wrapping_add(byte(off, b)))
        };
        match slot {
            Slot::Zero => 0,
            Slot::Hole => sum(&mut std::iter::repeat_n(Byte::Hole, CHUNK)),
            Slot::Data(c) => match &**c {
                Chunk::Bytes(b) => sum(&mut b.iter().map(|&v| Byte::Const(v))),
                Chunk::Mixed { bytes, terms, .. } => {
                    sum(&mut bytes.iter().zip(terms.iter()).map(|(&v, &t)| {
                        if t == self.concrete {
                            Byte::Const(v)
                        } else if t == self.hole {
                            Byte::Hole
                        } else {
                            Byte::Term(t)
                        }
                    }))
                }
            },
        }
    }

    /// Bytes of what a clone copies whole: the windows' logs and the
    /// objects' hole ranges.
    fn log_bytes(&self) -> usize {
        let logs = self
            .windows
            .iter()
            .map(|w| w.dirty.capacity())
            .sum::<usize>();
        let holes = self.object_holes.capacity() * std::mem::size_of::<ObjectHoles>();
        logs * std::mem::size_of::<u32>() + holes
    }

    // ----- bytes at concrete addresses -----

    fn read(&self, at: u64) -> Byte {
        let (ci, off) = split(at);
        match self.slots.get(ci) {
            None | Some(Slot::Zero) => Byte::Const(0),
            Some(Slot::Hole) => Byte::Hole,
            Some(Slot::Data(c)) => match &**c {
                Chunk::Bytes(b) => Byte::Const(b[off]),
                Chunk::Mixed { bytes, terms, .. } => {
                    let t = terms[off];
                    if t == self.concrete {
                        Byte::Const(bytes[off])
                    } else if t == self.hole {
                        Byte::Hole
                    } else {
                        Byte::Term(t)
                    }
                }
            },
        }
    }

    /// Writes a byte; `Term`s are never constants, and a `Hole` makes
    /// the byte read what `base` holds.
    fn write(&mut self, at: u64, byte: Byte) {
        let (ci, off) = split(at);
        if ci >= self.slots.len() || self.read(at) == byte {
            return;
        }
        let (concrete, hole) = (self.concrete, self.hole);
        let chunk = self.chunk_mut(ci);
        match (&mut *chunk, byte) {
            (Chunk::Bytes(b), Byte::Const(v)) => b[off] = v,
            (Chunk::Bytes(b), _) => {
                let bytes = *b;
                let mut terms = vec![concrete; CHUNK].into_boxed_slice();
                terms[off] = to_term(byte, hole);
                *chunk = Chunk::Mixed {
                    bytes,
                    terms,
                    symbolic: 1,
                };
            }
            (
                Chunk::Mixed {
                    bytes,
                    terms,
                    symbolic,
                },
                _,
            ) => {
                let was_concrete = terms[off] == concrete;
                if let Byte::Const(v) = byte {
                    bytes[off] = v;
                    terms[off] = concrete;
                    if !was_concrete {
                        *symbolic -= 1;
                    }
                } else {
                    terms[off] = to_term(byte, hole);
                    if was_concrete {
                        *symbolic += 1;
                    }
                }
            }
        }
        self.mark_dirty(at, 1);
    }

    /// Turns the bytes `lo..=hi` into holes of `base`, or of an object's
    /// array (its origin and the array): the chunks they cover whole at
    /// once, the bytes of the others one by one, so that the bytes around
    /// them stay as they are (a read there needs no array).
    fn make_holes(&mut self, lo: u64, hi: u64, object: Option<(u64, TermId)>) {
        self.claim_holes(lo, hi, object);
        let (first, end) = (lo.div_ceil(CHUNK_U64), (hi + 1) / CHUNK_U64);
        let ends = if first < end {
            self.slots
                .set_range(first as usize..end as usize, Slot::Hole);
            [lo..first * CHUNK_U64, end * CHUNK_U64..hi + 1]
        } else {
            // Less than two chunks, none of them whole.
            [lo..hi + 1, 0..0]
        };
        for at in ends.into_iter().flatten() {
            self.write(at, Byte::Hole);
        }
    }

    /// Makes the holes `lo..=hi` read `base`, or the array of the object
    /// whose first byte is `origin`; that object's other holes read its
    /// new array too (it agrees with the old one outside `lo..=hi`).
    fn claim_holes(&mut self, lo: u64, hi: u64, object: Option<(u64, TermId)>) {
        let mut kept = Vec::with_capacity(self.object_holes.len() + 2);
        for r in self.object_holes.drain(..) {
            if r.hi < lo || hi < r.lo {
                kept.push(r);
                continue;
            }
            if r.lo < lo {
                kept.push(ObjectHoles { hi: lo - 1, ..r });
            }
            if hi < r.hi {
                kept.push(ObjectHoles { lo: hi + 1, ..r });
            }
        }
        if let Some((origin, array)) = object {
            for r in kept.iter_mut().filter(|r| r.origin == origin) {
                r.array = array;
            }
            let at = kept.partition_point(|r| r.hi < lo);
            kept.insert(
                at,
                ObjectHoles {
                    lo,
                    hi,
                    origin,
                    array,
                },
            );
        }
        self.object_holes = kept;
    }

    /// The object holes `at` is among, if it is.
    fn object_holes_at(&self, at: u64) -> Option<&ObjectHoles> {
        let i = self.object_holes.partition_point(|r| r.hi < at);
        self.object_holes.get(i).filter(|r| r.lo <= at)
    }

    /// The array the holes of the object whose first byte is `origin` read.
    fn object_array(&self, origin: u64) -> Option<TermId> {
        let mut ranges = self.object_holes.iter();
        ranges.find(|r| r.origin == origin).map(|r| r.array)
    }

    /// The array a window of `origin`'s is built over, which it agrees with
    /// outside its bytes: `base`, or the object's array (zeros until a
    /// write at a symbolic offset into it).
    fn under(&self, origin: Option<u64>) -> TermId {
        match origin {
            None => self.base,
            Some(o) => self.object_array(o).unwrap_or(self.hole),
        }
    }

    /// The term of a byte read at `at`.
    fn byte_term(&self, store: &mut TermStore, at: u64, byte: Byte) -> TermId {
        match byte {
            Byte::Const(b) => store.bv_const(8, u64::from(b)),
            Byte::Term(t) => t,
            Byte::Hole => match self.object_holes_at(at) {
                Some(r) => {
                    let index = store.bv_const(ARRAY_INDEX_WIDTH, at - r.origin);
                    select(store, r.array, index)
                }
                None => {
                    let index = store.bv_const(ARRAY_INDEX_WIDTH, at);
                    select(store, self.base, index)
                }
            },
        }
    }

    /// The chunk of slot `ci`, made writable: materialized if it is `Zero`
    /// or `Hole`, copied if another memory shares it.
    fn chunk_mut(&mut self, ci: usize) -> &mut Chunk {
        let slot = &mut self.slots[ci];
        match slot {
            Slot::Zero => {
                *slot = Slot::Data(Rc::new(Chunk::Bytes([0; CHUNK])));
            }
            Slot::Hole => {
                *slot = Slot::Data(Rc::new(Chunk::Mixed {
                    bytes: [0; CHUNK],
                    terms: vec![self.hole; CHUNK].into_boxed_slice(),
                    symbolic: CHUNK as u32,
                }));
            }
            Slot::Data(_) => {}
        }
        match slot {
            Slot::Data(c) => Rc::make_mut(c),
            _ => unreachable!("materialized above"),
        }
    }

    /// Turns a chunk whose bytes all became concrete back into plain bytes.
    /// Called after bulk writes only, so that a byte switching between
    /// concrete and symbolic does not reallocate its chunk every time.
    fn demote(&mut self, ci: usize) {
        let Some(Slot::Data(c)) = self.slots.get_mut(ci) else {
            return;
        };
        if let Chunk::Mixed {
            symbolic: 0, bytes, ..
        } = &**c
        {
            *c = Rc::new(Chunk::Bytes(*bytes));
        }
    }

    /// A slot whose every byte is `byte`.
    fn uniform_slot(&self, byte: Byte) -> Slot {
        match byte {
            // `Zero` also says `base` is zero there: true only without holes.
            Byte::Const(0) if self.base == self.hole => Slot::Zero,
            Byte::Const(v) => Slot::Data(Rc::new(Chunk::Bytes([v; CHUNK]))),
            _ => Slot::Data(Rc::new(Chunk::Mixed {
                bytes: [0; CHUNK],
                terms: vec![to_term(byte, self.hole); CHUNK].into_boxed_slice(),
                symbolic: CHUNK as u32,
            })),
        }
    }

    /// Slot `ci` as it can be moved to another chunk-aligned place, when its
    /// meaning does not depend on where it is (it has no holes).
    fn movable_slot(&self, ci: usize) -> Option<Slot> {
        match &self.slots[ci] {
            Slot::Zero if self.base == self.hole => Some(Slot::Zero),
            Slot::Zero => Some(self.uniform_slot(Byte::Const(0))),
            Slot::Hole => None,
            Slot::Data(c) => match &**c {
                Chunk::Bytes(_) => Some(Slot::Data(c.clone())),
                Chunk::Mixed { terms, .. } => {
                    (!terms.contains(&self.hole)).then(|| Slot::Data(c.clone()))
                }
            },
        }
    }

    fn mark_dirty(&mut self, at: u64, n: u64) {
        if n == 0 {
            return;
        }
        for w in &mut self.windows {
            let (from, to) = (at.max(w.lo), (at + n - 1).min(w.hi));
            if from > to {
                continue;
            }
            w.dirty.extend((from..=to).map(|a| a as u32));
            if w.dirty.len() > 2 * w.dirty_unique + 1024 {
                w.dirty.sort_unstable();
                w.dirty.dedup();
                w.dirty_unique = w.dirty.len();
            }
        }
    }

    // ----- the array term -----

    /// The chunks that hold bytes of `lo..=hi`.
    fn chunks_of(&self, lo: u64, hi: u64) -> std::ops::Range<usize> {
        let first = (lo / CHUNK_U64) as usize;
        let end = usize::try_from(hi / CHUNK_U64).map_or(usize::MAX, |c| c.saturating_add(1));
        first.min(self.slots.len())..end.min(self.slots.len())
    }

    /// Most stores a rebuild of the window `lo..=hi` makes.
    fn rebuild_bound(&self, lo: u64, hi: u64) -> usize {
        self.data_chunks(lo, hi).len() * CHUNK
    }

    /// The chunks with data among those that hold bytes of `lo..=hi`, and
    /// their numbers, found without visiting the blank rest of memory.
    fn data_chunks(&self, lo: u64, hi: u64) -> Vec<(usize, Rc<Chunk>)> {
        let mut found = Vec::new();
        self.slots
            .for_each_written(self.chunks_of(lo, hi), |ci, slot| {
                if let Slot::Data(c) = slot {
                    found.push((ci, c.clone()));
                }
            });
        found
    }

    /// Whether every byte of `lo..=hi` is still the byte of one input
    /// that it was made as: an array over them is that input's array
    /// symbol with no store, which no split makes smaller.
    pub fn holds_one_input(&self, store: &TermStore, lo: u64, hi: u64) -> bool {
        let Some(origin) = self.input_origin(store, lo, hi) else {
            return false;
        };
        let Byte::Term(first) = self.read(lo) else {
            return false;
        };
        let array = input_byte(store, first).map(|(array, _)| array);
        (lo..=hi).all(|at| match self.read(at) {
            Byte::Term(t) => input_array(store, t, at - origin) == array,
            _ => false,
        })
    }

    /// Where the input array that the bytes `lo..=hi` were made from
    /// starts, when the first and the last of them are still that input's
    /// bytes: a read of them outside any object (a `symbolic_buffer`'s)
    /// then goes through the input's array too.
    fn input_origin(&self, store: &TermStore, lo: u64, hi: u64) -> Option<u64> {
        let Byte::Term(first) = self.read(lo) else {
            return None;
        };
        let (array, k) = input_byte(store, first)?;
        let origin = lo.checked_sub(k)?;
        match self.read(hi) {
            Byte::Term(last) if input_array(store, last, hi - origin) == Some(array) => {
                Some(origin)
            }
            _ => None,
        }
    }

    /// The bytes `lo..=hi` of the object whose first byte is at `origin`,
    /// as an array indexed from it, and the number of stores: the object's
    /// array, when a write at a symbolic offset made one, plus a store per
    /// byte there that is not one of its holes; else the array its bytes
    /// were made from (an input's, when the byte at `lo` is still that
    /// input's) or zeros, plus a store per byte there that differs from it.
    fn rebuild_object(
        &self,
        store: &mut TermStore,
        origin: u64,
        lo: u64,
        hi: u64,
        checkpoint: &mut Checkpoint,
    ) -> Result<(TermId, usize), Reached> {
        let own = self.object_array(origin);
        let made_from = match self.read(lo) {
            Byte::Term(t) if own.is_none() => input_array(store, t, lo - origin),
            _ => None,
        };
        let zeros = own.is_none() && made_from.is_none();
        let mut array = own.or(made_from).unwrap_or(self.hole);
        let mut stores = 0;
        for ci in self.chunks_of(lo, hi) {
            if zeros && matches!(self.slots[ci], Slot::Zero) {
                continue;
            }
            let start = ci as u64 * CHUNK_U64;
            let (from, to) = (lo.max(start), hi.min(start + CHUNK_U64 - 1));
            if let Some(limit) = checkpoint.after(to + 1 - from) {
                return Err(limit);
            }
            for at in from..=to {
                let k = at - origin;
                let byte = self.read(at);
                let same = match byte {
                    Byte::Const(0) => zeros,
                    Byte::Term(t) => made_from.is_some() && input_array(store, t, k) == made_from,
                    Byte::Hole => {
                        own.is_some() && self.object_holes_at(at).map(|r| r.origin) == Some(origin)
                    }
                    Byte::Const(_) => false,
                };
                if same {
                    continue;
                }
                let value = self.byte_term(store, at, byte);
                let index = store.bv_const(ARRAY_INDEX_WIDTH, k);
                array = store.store(array, index, value);
                stores += 1;
            }
        }
        Ok((array, stores))
    }

    /// The bytes `lo..=hi` as `base` plus one store per byte the chunks
    /// hold there (only the non-zero ones while `base` is all zeros) and
    /// per hole an object's array says, and the number of stores.
    fn rebuild(
        &self,
        store: &mut TermStore,
        lo: u64,
        hi: u64,
        checkpoint: &mut Checkpoint,
    ) -> Result<(TermId, usize), Reached> {
        let skip_zeros = self.base == self.hole;
        let mut array = self.base;
        let mut stores = 0;
        for (ci, c) in self.data_chunks(lo, hi) {
            let start = ci as u64 * CHUNK_U64;
            let from = lo.saturating_sub(start) as usize;
            let to = (hi - start).min(CHUNK_U64 - 1) as usize;
            if let Some(limit) = checkpoint.after((to + 1 - from) as u64) {
                return Err(limit);
            }
            for off in from..=to {
                let at = start + off as u64;
                let value = match &*c {
                    Chunk::Bytes(b) => Byte::Const(b[off]),
                    Chunk::Mixed { .. } => self.read(at),
                };
                let value = match value {
                    Byte::Hole | Byte::Const(0) if skip_zeros => continue,
                    Byte::Hole => continue,
                    Byte::Const(v) => store.bv_const(8, u64::from(v)),
                    Byte::Term(t) => t,
                };
                let index = store.bv_const(ARRAY_INDEX_WIDTH, at);
                array = store.store(array, index, value);
                stores += 1;
            }
        }
        // Objects' holes read the objects' arrays, not `base`.
        for r in self
            .object_holes
            .iter()
            .filter(|r| r.lo <= hi && lo <= r.hi)
        {
            let (from, to) = (lo.max(r.lo), hi.min(r.hi));
            if let Some(limit) = checkpoint.after(to + 1 - from) {
                return Err(limit);
            }
            for at in (from..=to).filter(|&at| self.read(at) == Byte::Hole) {
                let value = self.byte_term(store, at, Byte::Hole);
                let index = store.bv_const(ARRAY_INDEX_WIDTH, at);
                array = store.store(array, index, value);
                stores += 1;
            }
        }
        Ok((array, stores))
    }
}

// ----- helpers -----

/// Bytes a chunk takes.
fn chunk_bytes(c: &Chunk) -> usize {
    let terms = match c {
        Chunk::Bytes(_) => 0,
        Chunk::Mixed { .. } => CHUNK * std::mem::size_of::<TermId>(),
    };
    std::mem::size_of::<Chunk>() + terms
}

/// The array symbol and the constant index the byte term `t` reads, if
/// it reads one: an input's byte.
fn input_byte(store: &TermStore, t: TermId) -> Option<(TermId, u64)> {
    match *store.node(t) {
        Node::Select(array, index) if matches!(store.node(array), Node::Symbol(_)) => {
            Some((array, store.as_bv_const(index)?))
        }
        _ => None,
    }
}

/// The array symbol whose byte `k` the byte term `t` reads, if it reads
/// one.
fn input_array(store: &TermStore, t: TermId, k: u64) -> Option<TermId> {
    input_byte(store, t).and_then(|(array, index)| (index == k).then_some(array))
}

/// Chunk number and offset in it.
fn split(at: u64) -> (usize, usize) {
    ((at / CHUNK_U64) as usize, (at % CHUNK_U64) as usize)
}

fn to_term(byte: Byte, hole: TermId) -> TermId {
    match byte {
        Byte::Term(t) => t,
        Byte::Hole => hole,
        Byte::Const(_) => unreachable!("constants live in the byte array"),
    }
}

/// Byte `k` (bits `8k + 7 .. 8k`) of `value`, looking through concats,
/// extracts and zero extensions so that no term is built when the byte
/// already is one.
fn byte_of(store: &mut TermStore, value: TermId, k: u8) -> Byte {
    let (mut t, mut hi, mut lo) = (value, 8 * k + 7, 8 * k);
    loop {
        let width = store.width(t);
        if lo == 0 && hi + 1 == width {
            break;
        }
        match *store.node(t) {
            Node::BvConst { value, .. } => return Byte::Const((value >> lo) as u8),
            Node::Concat(high, low) => {
                let wl = store.width(low);
                if hi < wl {
                    t = low;
                } else if lo >= wl {
                    (t, hi, lo) = (high, hi - wl, lo - wl);
                } else {
                    break;
                }
            }
            Node::Extract { lo: l2, arg, .. } => (t, hi, lo) = (arg, hi + l2, lo + l2),
            Node::ZeroExt(_, arg) => {
                let wa = store.width(arg);
                if lo >= wa {
                    return Byte::Const(0);
                } else if hi < wa {
                    t = arg;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    let byte = if lo == 0 && hi + 1 == store.width(t) {
        t
    } else {
        store.extract(hi, lo, t)
    };
    match store.as_bv_const(byte) {
        Some(v) => Byte::Const(v as u8),
        None => Byte::Term(byte),
    }
}

/// Concatenates bytes given low byte first, merging runs of constants into
/// one constant and runs of adjacent extracts of one term into one extract
/// (or the term itself).
fn assemble(store: &mut TermStore, bytes: &[TermId]) -> TermId {
    enum Piece {
        Const { value: u64, width: u8 },
        Bits { arg: TermId, hi: u8, lo: u8 },
    }
    let piece_of = |store: &TermStore, b: TermId| match *store.node(b) {
        Node::BvConst { value, .. } => Piece::Const { value, width: 8 },
        Node::Extract { hi, lo, arg } => Piece::Bits { arg, hi, lo },
        _ => Piece::Bits {
            arg: b,
            hi: 7,
            lo: 0,
        },
    };
    let mut pieces: Vec<Piece> = Vec::with_capacity(bytes.len());
    for &b in bytes {
        let next = piece_of(store, b);
        match (pieces.last_mut(), next) {
            (Some(Piece::Const { value, width }), Piece::Const { value: v, width: w }) => {
                *value |= v << *width;
                *width += w;
            }
            (
                Some(Piece::Bits { arg, hi, .. }),
                Piece::Bits {
                    arg: a2,
                    hi: h2,
                    lo: l2,
                },
            ) if *arg == a2 && l2 == *hi + 1 => *hi = h2,
            (_, next) => pieces.push(next),
        }
    }
    let mut acc: Option<TermId> = None;
    for piece in pieces {
        let t = match piece {
            Piece::Const { value, width } => store.bv_const(width, value),
            Piece::Bits { arg, hi, lo } => {
                if lo == 0 && hi + 1 == store.width(arg) {
                    arg
                } else {
                    store.extract(hi, lo, arg)
                }
            }
        };
        acc = Some(match acc {
            None => t,
            Some(low) => store.concat(t, low),
        });
    }
    acc.expect("at least one byte")
}

/// A 32-bit index as a term plus a constant: `x + c` is `(Some(x), c)`, a
/// constant `c` is `(None, c)`.
fn decompose(store: &TermStore, index: TermId) -> (Option<TermId>, u64) {
    match *store.node(index) {
        Node::BvConst { value, .. } => (None, value),
        Node::BvBin(BvBinOp::Add, x, y) => match (store.as_bv_const(x), store.as_bv_const(y)) {
            (_, Some(c)) => (Some(x), c),
            (Some(c), _) => (Some(y), c),
            _ => (Some(index), 0),
        },
        _ => (Some(index), 0),
    }
}

/// `addr + delta` as a 32-bit index, folding constants: `(x + c) + d` is
/// `array` with `value` stored little-endian at `addr + offset`, indexed
/// from `origin`.
fn stored(
    store: &mut TermStore,
    mut array: TermId,
    (addr, offset, value): (TermId, u32, TermId),
    origin: u64,
) -> TermId {
    for k in 0..store.width(value) / 8 {
        let byte = match byte_of(store, value, k) {
            Byte::Const(b) => store.bv_const(8, u64::from(b)),
            Byte::Term(t) => t,
            Byte::Hole => unreachable!("byte_of gives no holes"),
        };
        let delta = (u64::from(offset) + u64::from(k)).wrapping_sub(origin);
        let index = offset_index(store, addr, delta);
        array = store.store(array, index, byte);
    }
    array
}

/// `x + (c + d)`, modulo 2^32 (`delta` may take an object's base off).
fn offset_index(store: &mut TermStore, addr: TermId, delta: u64) -> TermId {
    let delta = delta & 0xffff_ffff;
    if delta == 0 {
        return addr;
    }
    match decompose(store, addr) {
        (None, c) => store.bv_const(ARRAY_INDEX_WIDTH, c.wrapping_add(delta) & 0xffff_ffff),
        (Some(x), c) => {
            let total = c.wrapping_add(delta) & 0xffff_ffff;
            if total == 0 {
                x
            } else {
                let d = store.bv_const(ARRAY_INDEX_WIDTH, total);
                store.bin(BvBinOp::Add, x, d)
            }
        }
    }
}

/// `select(array, index)`, reading over stores whose index is surely
/// different and answering the value of a store at the same index.
fn select(store: &mut TermStore, array: TermId, index: TermId) -> TermId {
    let (base, offset) = decompose(store, index);
    let mut a = array;
    for _ in 0..READ_OVER_WRITE_STEPS {
        match *store.node(a) {
            Node::ConstArray(v) => return v,
            Node::Store(below, j, v) => {
                if j == index {
                    return v;
                }
                let (jb, jo) = decompose(store, j);
                if jb == base && jo & 0xffff_ffff != offset & 0xffff_ffff {
                    a = below;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    store.select(a, index)
}
