//! Merging the bytes of memories that differ only in some bytes: each
//! byte that differs becomes one term by the merge's [`Join`]. Chunks two
//! memories still share are skipped whole, so a merge costs what the
//! states wrote since they forked.

use super::{Byte, FlatMemory, CHUNK};
use crate::expr::{Join, TermId, TermStore};
use std::collections::BTreeSet;
use std::rc::Rc;

/// The bytes where memories about to merge may differ (those of the
/// chunks they do not share), and how many of them are merged so far: a
/// merge over many states goes through them in steps.
pub struct ByteMerge {
    chunks: Vec<usize>,
    done: usize,
}

impl ByteMerge {
    /// Whether every byte is merged.
    pub fn is_done(&self) -> bool {
        self.done == self.chunks.len() * CHUNK
    }
}

impl FlatMemory {
    /// The bytes at which to merge this memory (state 0's) with `others`
    /// (states 1 to k). An error names what keeps them apart: anything
    /// but bytes at concrete addresses (size, regions, the arrays of
    /// writes at symbolic addresses).
    pub fn byte_merge(&self, others: &[&FlatMemory]) -> Result<ByteMerge, &'static str> {
        for other in others {
            self.same_layout(other)?;
        }
        let mut chunks = BTreeSet::new();
        for other in others {
            self.slots
                .for_each_unshared(&other.slots, |ci| _ = chunks.insert(ci));
        }
        Ok(ByteMerge {
            chunks: chunks.into_iter().collect(),
            done: 0,
        })
    }

    /// Merges the next bytes of `bytes`, as many as take about `work`
    /// values read (one byte at least): a byte that differs becomes
    /// `join`'s term of the states' bytes. An error when a differing byte
    /// is one of them reads from an array of symbolic writes.
    pub fn merge_bytes(
        &mut self,
        store: &mut TermStore,
        others: &[&FlatMemory],
        join: &mut dyn Join,
        bytes: &mut ByteMerge,
        work: u64,
    ) -> Result<(), &'static str> {
        // Arrays built for symbolic reads are derived from the bytes: the
        // next symbolic read builds them from the merged ones.
        self.windows.clear();
        let mut values = Vec::with_capacity(others.len() + 1);
        let mut read = 0;
        while !bytes.is_done() && read < work {
            let at = (bytes.chunks[bytes.done / CHUNK] * CHUNK + bytes.done % CHUNK) as u64;
            bytes.done += 1;
            values.clear();
            values.push(self.read(at));
            values.extend(others.iter().map(|m| m.read(at)));
            read += values.len() as u64;
            if values.iter().all(|&b| b == values[0]) {
                continue;
            }
            if values.contains(&Byte::Hole) {
                return Err("a byte that differs is read from an array of symbolic writes");
            }
            let merged = merged_byte(store, &values, join);
            self.write(at, merged);
        }
        Ok(())
    }

    /// Whether `other` differs from this memory in bytes at concrete
    /// addresses only.
    fn same_layout(&self, other: &FlatMemory) -> Result<(), &'static str> {
        let (pages, slots) = (
            self.pages != other.pages,
            self.slots.len() != other.slots.len(),
        );
        if pages || slots || self.max_pages != other.max_pages {
            return Err("memory sizes differ");
        }
        let regions = Rc::ptr_eq(&self.regions, &other.regions) || self.regions == other.regions;
        if !regions || self.narrow != other.narrow || self.arena_start != other.arena_start {
            return Err("memory regions differ");
        }
        if self.base != other.base || self.object_holes != other.object_holes {
            return Err("writes at symbolic addresses differ");
        }
        Ok(())
    }
}

/// The byte `join` makes of the states' bytes `values`.
fn merged_byte(store: &mut TermStore, values: &[Byte], join: &mut dyn Join) -> Byte {
    let terms: Vec<TermId> = (values.iter())
        .map(|&b| match b {
            Byte::Const(v) => store.bv_const(8, u64::from(v)),
            Byte::Term(t) => t,
            Byte::Hole => unreachable!("holes are refused before"),
        })
        .collect();
    let merged = join.join(store, &terms);
    match store.as_bv_const(merged) {
        Some(value) => Byte::Const(value as u8),
        None => Byte::Term(merged),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Guarded, Sort};

    fn memory(store: &mut TermStore) -> FlatMemory {
        FlatMemory::new(store, 1, Some(1))
    }

    /// `a` merged with `others` in steps of a byte each.
    fn merge(
        st: &mut TermStore,
        a: &mut FlatMemory,
        others: &[&FlatMemory],
        join: &mut dyn Join,
    ) -> Result<(), &'static str> {
        let mut bytes = a.byte_merge(others)?;
        while !bytes.is_done() {
            a.merge_bytes(st, others, join, &mut bytes, 1)?;
        }
        Ok(())
    }

    #[test]
    fn only_differing_bytes_become_ites_over_the_guards() {
        let mut st = TermStore::new();
        let c = st.declare("c", Sort::Bool).unwrap();
        let x = st.declare("x", Sort::Bv(8)).unwrap();
        let mut a = memory(&mut st);
        a.write_concrete(&mut st, 100, &[1, 2, 3]);
        let mut b = a.clone();
        b.write_concrete(&mut st, 101, &[9]);
        b.set_byte(&mut st, 5000, x);
        merge(&mut st, &mut a, &[&b], &mut Guarded(vec![c])).unwrap();
        assert_eq!(a.load_concrete(100, 1), Some(1));
        assert_eq!(a.load_concrete(102, 1), Some(3));
        let nine = st.bv_const(8, 9);
        let two = st.bv_const(8, 2);
        let zero = st.bv_const(8, 0);
        assert_eq!(a.byte(&mut st, 101), st.ite(c, two, nine));
        assert_eq!(a.byte(&mut st, 5000), st.ite(c, zero, x));
        // Equal bytes written apart stay as they are.
        let mut d = memory(&mut st);
        d.write_concrete(&mut st, 7, &[4]);
        let mut e = memory(&mut st);
        e.write_concrete(&mut st, 7, &[4]);
        merge(&mut st, &mut d, &[&e], &mut Guarded(vec![c])).unwrap();
        assert_eq!(d.load_concrete(7, 1), Some(4));
    }

    #[test]
    fn three_memories_merge_into_a_chain_whose_last_value_is_unguarded() {
        let mut st = TermStore::new();
        let (c0, c1) = (
            st.declare("c0", Sort::Bool).unwrap(),
            st.declare("c1", Sort::Bool).unwrap(),
        );
        let m: Vec<FlatMemory> = (0..3u8)
            .map(|k| {
                let mut m = memory(&mut st);
                m.write_concrete(&mut st, 64, &[k]);
                m
            })
            .collect();
        let mut merged = m[0].clone();
        let others = [&m[1], &m[2]];
        merge(&mut st, &mut merged, &others, &mut Guarded(vec![c0, c1])).unwrap();
        let [k0, k1, k2] = [0, 1, 2].map(|k| st.bv_const(8, k));
        let inner = st.ite(c1, k1, k2);
        let expected = st.ite(c0, k0, inner);
        assert_eq!(merged.byte(&mut st, 64), expected);
    }

    #[test]
    fn memories_of_different_sizes_do_not_merge() {
        let mut st = TermStore::new();
        let c = st.declare("c", Sort::Bool).unwrap();
        let mut a = FlatMemory::new(&mut st, 1, Some(2));
        let mut b = a.clone();
        b.grow(1);
        assert_eq!(
            merge(&mut st, &mut a, &[&b], &mut Guarded(vec![c])),
            Err("memory sizes differ")
        );
    }
}
