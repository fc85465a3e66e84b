//! Rust's own containers over the heap, compiled for wasm32-unknown-unknown
//! (rustc's allocator shims over dlmalloc, replaced by the heap model): a
//! `Vec` of boxed records picked at a symbolic index, and a `HashMap` of
//! five keys looked up by a symbolic one. The parameters are the inputs.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Records behind boxes in a `Vec`: one picked by `i`, its field
/// compared with `value`.
#[no_mangle]
pub extern "C" fn boxed_records(i: u32, value: u32) -> u32 {
    let records: Vec<Box<[u32; 4]>> = (0..6).map(|k| Box::new([k, k * 10, k * 100, 7])).collect();
    match records.get(i as usize) {
        Some(r) if r[1] == value => 1,
        Some(_) => 2,
        None => 0,
    }
}

/// A multiplicative hash: the map's buckets follow the key, and the
/// lookup of a symbolic key stays a few paths.
#[derive(Default)]
struct Multiply(u64);

impl Hasher for Multiply {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Five keys and their values, one looked up by `key`.
#[no_mangle]
pub extern "C" fn map_lookup(key: u32) -> u32 {
    let mut map: HashMap<u32, u32, BuildHasherDefault<Multiply>> = HashMap::default();
    for k in 0..5u32 {
        map.insert(k * 3 + 1, k);
    }
    map.get(&key).copied().unwrap_or(99)
}
