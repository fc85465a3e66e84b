//! Loads, stores and bulk memory. Concrete addresses are checked directly;
//! a symbolic address is checked by the solver (forking to an
//! `out_of_bounds` trap only where that is feasible) and reads the whole
//! memory as an array term, without forking per address.

use super::interp::{End, Executor};
use super::state::State;
use super::value::Val;
use crate::memory::LinearMemory;
use crate::report::Trap;

const OOB: End = End::Trap(Trap::OutOfBounds);

impl Executor<'_> {
    /// Checks that `size` bytes at `addr + offset` are in memory.
    fn check_access(
        &mut self,
        s: &mut State,
        addr: Val,
        offset: u32,
        size: u32,
    ) -> Result<(), End> {
        let Some(memory) = self.memory(s) else {
            return Err(OOB);
        };
        match addr {
            Val::Con { bits, .. } if bits + u64::from(offset) + u64::from(size) <= memory.len() => {
                Ok(())
            }
            Val::Con { .. } => Err(OOB),
            Val::Sym(t) => {
                let inside = memory.in_bounds(&mut self.store, t, offset, size);
                let outside = self.store.not(inside);
                self.guard(s, outside, OOB)
            }
        }
    }

    pub(crate) fn load(
        &mut self,
        s: &mut State,
        addr: Val,
        offset: u32,
        size: u32,
    ) -> Result<Val, End> {
        self.check_access(s, addr, offset, size)?;
        let memory = self.memory_mut(s).ok_or(OOB)?;
        let t = match addr {
            Val::Con { bits, .. } => {
                let base = bits + u64::from(offset);
                if let Some(bits) = memory.load_concrete(base, size) {
                    return Ok(Val::con((size * 8) as u8, bits));
                }
                let bytes: Vec<_> = (0..u64::from(size))
                    .map(|k| memory.byte(&mut self.store, base + k))
                    .collect();
                bytes[1..]
                    .iter()
                    .fold(bytes[0], |low, &b| self.store.concat(b, low))
            }
            Val::Sym(a) => memory.load(&mut self.store, a, offset, size),
        };
        let t = self.simplifier.simplify(&mut self.store, t);
        Ok(Val::from_term(&self.store, t))
    }

    pub(crate) fn store_value(
        &mut self,
        s: &mut State,
        addr: Val,
        offset: u32,
        size: u32,
        value: Val,
    ) -> Result<(), End> {
        self.check_access(s, addr, offset, size)?;
        let memory = self.memory_mut(s).ok_or(OOB)?;
        match (addr, value) {
            (Val::Con { bits: a, .. }, Val::Con { bits: v, .. }) => {
                let bytes = v.to_le_bytes();
                memory.write_concrete(
                    &mut self.store,
                    a + u64::from(offset),
                    &bytes[..size as usize],
                );
            }
            _ => {
                let a = addr.term(&mut self.store);
                let mut v = value.term(&mut self.store);
                if u32::from(self.store.width(v)) > size * 8 {
                    v = self.store.extract((size * 8 - 1) as u8, 0, v);
                }
                memory.store(&mut self.store, a, offset, v);
            }
        }
        Ok(())
    }

    /// Concrete (start, length) of a bulk operation's range, bounds-checked
    /// against `limit`.
    fn range(
        &mut self,
        s: &mut State,
        start: Val,
        len: Val,
        limit: u64,
        what: &str,
    ) -> Result<(u64, u64), End> {
        let start = self.concretize(s, start, &format!("the {what} address"))?;
        let len = self.concretize(s, len, &format!("the {what} size"))?;
        if start + len > limit {
            return Err(OOB);
        }
        Ok((start, len))
    }

    fn memory_len(&self, s: &State) -> u64 {
        self.memory(s).map_or(0, LinearMemory::len)
    }

    pub(crate) fn memory_copy(
        &mut self,
        s: &mut State,
        dst: Val,
        src: Val,
        n: Val,
    ) -> Result<(), End> {
        let limit = self.memory_len(s);
        let (src, n) = self.range(s, src, n, limit, "memory.copy source")?;
        let (dst, _) = self.range(s, dst, Val::i32(n as u32), limit, "memory.copy destination")?;
        if let Some(memory) = self.memory_mut(s) {
            memory.copy(&mut self.store, dst, src, n);
        }
        Ok(())
    }

    pub(crate) fn memory_fill(
        &mut self,
        s: &mut State,
        dst: Val,
        value: Val,
        n: Val,
    ) -> Result<(), End> {
        let limit = self.memory_len(s);
        let (dst, n) = self.range(s, dst, n, limit, "memory.fill")?;
        let byte = match value {
            Val::Con { bits, .. } => self.store.bv_const(8, bits),
            Val::Sym(t) => self.store.extract(7, 0, t),
        };
        if let Some(memory) = self.memory_mut(s) {
            memory.fill(&mut self.store, dst, byte, n);
        }
        Ok(())
    }

    pub(crate) fn memory_init(
        &mut self,
        s: &mut State,
        data: u32,
        dst: Val,
        src: Val,
        n: Val,
    ) -> Result<(), End> {
        let module = self.module_of(s);
        let bytes: &[u8] = if s.dropped_data[self.instance(s)][data as usize] {
            &[]
        } else {
            &module.data[data as usize].bytes
        };
        let (src, n) = self.range(s, src, n, bytes.len() as u64, "memory.init source")?;
        let limit = self.memory_len(s);
        let (dst, _) = self.range(s, dst, Val::i32(n as u32), limit, "memory.init destination")?;
        if let Some(memory) = self.memory_mut(s) {
            memory.write_concrete(
                &mut self.store,
                dst,
                &bytes[src as usize..(src + n) as usize],
            );
        }
        Ok(())
    }

    pub(crate) fn table_init(
        &mut self,
        s: &mut State,
        elem: u32,
        dst: Val,
        src: Val,
        n: Val,
    ) -> Result<(), End> {
        let module = self.module_of(s);
        let links = self.links_of(s);
        let items: &[u32] = if s.dropped_elems[self.instance(s)][elem as usize] {
            &[]
        } else {
            &module.elements[elem as usize].items
        };
        let table = self.table_index(s).ok_or(OOB)?;
        let (src, n) = self.range(s, src, n, items.len() as u64, "table.init source")?;
        let (dst, _) = self.range(
            s,
            dst,
            Val::i32(n as u32),
            s.tables[table].len() as u64,
            "table.init destination",
        )?;
        for k in 0..n as usize {
            s.tables[table][dst as usize + k] = Some(links.funcs[items[src as usize + k] as usize]);
        }
        Ok(())
    }

    pub(crate) fn table_copy(
        &mut self,
        s: &mut State,
        dst: Val,
        src: Val,
        n: Val,
    ) -> Result<(), End> {
        let table = self.table_index(s).ok_or(OOB)?;
        let limit = s.tables[table].len() as u64;
        let (src, n) = self.range(s, src, n, limit, "table.copy source")?;
        let (dst, _) = self.range(s, dst, Val::i32(n as u32), limit, "table.copy destination")?;
        s.tables[table].copy_within(src as usize..(src + n) as usize, dst as usize);
        Ok(())
    }
}
