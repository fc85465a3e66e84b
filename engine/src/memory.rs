//! Wasm linear memory whose bytes are terms.
//!
//! Bytes at concrete addresses are kept one term each. The first access at a
//! symbolic address turns memory into one array term (a store chain over the
//! bytes that are not zero), and from then on every access goes through it:
//! a read is `select`, a write is `store`.

use crate::expr::{BvBinOp, Node, Sort, TermId, TermStore, ARRAY_INDEX_WIDTH};

/// Bytes in a Wasm page.
pub const PAGE_SIZE: u64 = 65536;
/// Pages a 32-bit memory can have.
pub const MAX_PAGES: u32 = 65536;

#[derive(Clone, Debug)]
pub struct LinearMemory {
    bytes: Vec<TermId>,
    max_pages: u32,
    zero: TermId,
    /// The whole memory as an array term, once a symbolic address was used.
    array: Option<TermId>,
}

impl LinearMemory {
    pub fn new(store: &mut TermStore, min_pages: u32, max_pages: Option<u32>) -> LinearMemory {
        let zero = store.bv_const(8, 0);
        LinearMemory {
            bytes: vec![zero; (u64::from(min_pages) * PAGE_SIZE) as usize],
            max_pages: max_pages.unwrap_or(MAX_PAGES).min(MAX_PAGES),
            zero,
            array: None,
        }
    }

    pub fn pages(&self) -> u32 {
        (self.len() / PAGE_SIZE) as u32
    }

    /// Size in bytes.
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// `memory.grow`: the old size in pages, or `None` when the memory cannot
    /// grow by `delta` pages.
    pub fn grow(&mut self, delta: u32) -> Option<u32> {
        let old = self.pages();
        let new = old.checked_add(delta).filter(|&n| n <= self.max_pages)?;
        self.bytes
            .resize((u64::from(new) * PAGE_SIZE) as usize, self.zero);
        // New pages are zero, which the array already says for every index
        // it has no store for.
        Some(old)
    }

    /// The condition that `size` bytes at `addr + offset` lie inside memory,
    /// computed without wrap-around (`addr` is an unsigned 32-bit term).
    pub fn in_bounds(&self, store: &mut TermStore, addr: TermId, offset: u32, size: u32) -> TermId {
        let end = u64::from(offset) + u64::from(size);
        if end > self.len() {
            return store.fls();
        }
        let wide = store.zero_ext(32, addr);
        let limit = store.bv_const(64, self.len() - end);
        store.cmp(crate::expr::BvCmp::Ule, wide, limit)
    }

    /// Reads `size` bytes (1, 2, 4 or 8) little-endian at `addr + offset` as
    /// a term of width `8 * size`. The access must be in bounds on the path.
    pub fn load(&mut self, store: &mut TermStore, addr: TermId, offset: u32, size: u32) -> TermId {
        let mut value: Option<TermId> = None;
        for k in 0..size {
            let byte = self.read_byte(store, addr, u64::from(offset) + u64::from(k));
            value = Some(match value {
                None => byte,
                Some(low) => store.concat(byte, low),
            });
        }
        value.expect("size is at least 1")
    }

    /// Writes `value` (width `8 * size`) little-endian at `addr + offset`.
    /// The access must be in bounds on the path.
    pub fn store(&mut self, store: &mut TermStore, addr: TermId, offset: u32, value: TermId) {
        let size = u32::from(store.width(value) / 8);
        for k in 0..size {
            let byte = store.extract((8 * k + 7) as u8, (8 * k) as u8, value);
            self.write_byte(store, addr, u64::from(offset) + u64::from(k), byte);
        }
    }

    /// The byte at a concrete address, for host functions and bulk operations.
    pub fn byte(&mut self, store: &mut TermStore, addr: u64) -> TermId {
        let a = store.bv_const(32, addr);
        self.read_byte(store, a, 0)
    }

    /// Sets the byte at a concrete address.
    pub fn set_byte(&mut self, store: &mut TermStore, addr: u64, value: TermId) {
        let a = store.bv_const(32, addr);
        self.write_byte(store, a, 0, value);
    }

    /// Writes concrete bytes at a concrete address (data segments, host calls).
    pub fn write_concrete(&mut self, store: &mut TermStore, addr: u64, bytes: &[u8]) {
        for (k, &b) in bytes.iter().enumerate() {
            let value = store.bv_const(8, u64::from(b));
            self.set_byte(store, addr + k as u64, value);
        }
    }

    fn read_byte(&mut self, store: &mut TermStore, addr: TermId, delta: u64) -> TermId {
        match (self.array, store.as_bv_const(addr)) {
            (None, Some(a)) => self.bytes[(a + delta) as usize],
            _ => {
                let array = self.as_array(store);
                let index = offset_index(store, addr, delta);
                store.select(array, index)
            }
        }
    }

    fn write_byte(&mut self, store: &mut TermStore, addr: TermId, delta: u64, value: TermId) {
        match (self.array, store.as_bv_const(addr)) {
            (None, Some(a)) => self.bytes[(a + delta) as usize] = value,
            _ => {
                let array = self.as_array(store);
                let index = offset_index(store, addr, delta);
                self.array = Some(store.store(array, index, value));
            }
        }
    }

    /// The memory as one array term, built on first use.
    fn as_array(&mut self, store: &mut TermStore) -> TermId {
        if let Some(array) = self.array {
            return array;
        }
        let mut array = store.const_array(self.zero);
        for (i, &b) in self.bytes.iter().enumerate() {
            if b != self.zero {
                let index = store.bv_const(ARRAY_INDEX_WIDTH, i as u64);
                array = store.store(array, index, b);
            }
        }
        debug_assert_eq!(store.sort(array), Sort::Array);
        self.array = Some(array);
        array
    }
}

/// `addr + delta` as a 32-bit index; in bounds, it cannot wrap.
fn offset_index(store: &mut TermStore, addr: TermId, delta: u64) -> TermId {
    if delta == 0 {
        return addr;
    }
    if let Node::BvConst { value, .. } = *store.node(addr) {
        return store.bv_const(32, value + delta);
    }
    let d = store.bv_const(32, delta);
    store.bin(BvBinOp::Add, addr, d)
}
