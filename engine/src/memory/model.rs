//! The memory model interface. Every access to linear memory (a load, a
//! store, a bulk operation, a host call's read or write) is first resolved
//! to where it lands, then made there: resolution is where a model decides
//! what is in bounds, so the check exists once per model. The flat model
//! has one object, the whole memory; the objects model checks accesses
//! against the heap's blocks (with symbolic sizes); relocatable segments
//! will be a further variant of [`MemoryModel`], an enum so that the
//! interpreter's loop makes no virtual call. A fork clones the model;
//! contents are shared copy on write.
//!
//! Both models keep the bytes in one [`FlatMemory`], so a spot's offset is
//! its address in linear memory.

use super::flat::FlatMemory;
use super::objects::ObjectMemory;
use super::place::{Place, Pointer, Resolution, Spot};
use crate::expr::{TermId, TermStore};

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

    /// The objects model, when this memory is under it.
    pub fn objects(&self) -> Option<&ObjectMemory> {
        match self {
            MemoryModel::Objects(m) => Some(m),
            MemoryModel::Flat(_) => None,
        }
    }

    pub fn objects_mut(&mut self) -> Option<&mut ObjectMemory> {
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

    pub fn pages(&self) -> u32 {
        self.contents().pages()
    }

    /// Size in bytes.
    pub fn byte_len(&self) -> u64 {
        self.contents().len()
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

    /// The `width` (1 to 8) bytes at `place`, little-endian, as a term.
    pub fn read(&mut self, store: &mut TermStore, place: Place, width: u32) -> TermId {
        let m = self.contents_mut();
        match place {
            Place::Concrete(spot) => m.load_at(store, spot.offset, width),
            Place::Symbolic { pointer, plus, .. } => m.load(store, pointer, plus, width),
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
    /// `place`.
    pub fn write(&mut self, store: &mut TermStore, place: Place, value: TermId) {
        let m = self.contents_mut();
        match place {
            Place::Concrete(spot) => m.store_at(store, spot.offset, value),
            Place::Symbolic { pointer, plus, .. } => m.store(store, pointer, plus, value),
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
}

#[cfg(test)]
mod tests;
