//! Reference instructions, and the table instructions of bulk memory and
//! reference types: get, set, size, grow, fill, init, copy and
//! `elem.drop`. Entries are concrete references; a symbolic index or count
//! is made concrete (and said so on the path).

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::exec::program::instantiate::element;
use crate::expr::BvCmp;
use crate::report::Trap;
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::MAX_TABLE_ENTRIES;

const OOB: End = End::Trap(Trap::OutOfBounds);

impl Executor<'_> {
    pub(super) fn ref_null(&mut self, s: &mut State) -> Result<Flow, End> {
        s.stack.push(Val::reference(None));
        Ok(Flow::Next)
    }

    pub(super) fn ref_is_null(&mut self, s: &mut State) -> Result<Flow, End> {
        let r = s.pop();
        s.stack.push(Val::bool(r.as_reference().is_none()));
        Ok(Flow::Next)
    }

    /// `ref.func` of function `index` of the running instance.
    pub(super) fn ref_func(&mut self, s: &mut State, index: u32) -> Result<Flow, End> {
        let func = self.program.links_of(s).funcs[index as usize];
        s.stack.push(Val::reference(Some(func)));
        Ok(Flow::Next)
    }

    /// The index in `State::tables` of the running instance's `table`.
    fn table(&self, s: &State, table: u32) -> Result<usize, End> {
        self.program.table_index(s, table).ok_or(OOB)
    }

    /// A concrete index of an entry of `table`, or an out-of-bounds trap
    /// (a symbolic index traps on the paths where it is past the end).
    fn entry_index(&mut self, s: &mut State, table: usize, index: Val) -> Result<usize, End> {
        if let Val::Sym(i) = index {
            let len = self
                .cx
                .terms
                .bv_const(32, s.tables[table].entries.len() as u64);
            let inside = self.cx.terms.cmp(BvCmp::Ult, i, len);
            let past = self.cx.terms.not(inside);
            self.guard(s, past, OOB)?;
        }
        let index = self.concretize(s, index, "the table index")? as usize;
        if index >= s.tables[table].entries.len() {
            return Err(OOB);
        }
        Ok(index)
    }

    pub(super) fn table_get(&mut self, s: &mut State, table: u32) -> Result<Flow, End> {
        let index = s.pop();
        let t = self.table(s, table)?;
        let index = self.entry_index(s, t, index)?;
        s.stack.push(Val::reference(s.tables[t].entries[index]));
        Ok(Flow::Next)
    }

    pub(super) fn table_set(&mut self, s: &mut State, table: u32) -> Result<Flow, End> {
        let value = s.pop();
        let index = s.pop();
        let t = self.table(s, table)?;
        let index = self.entry_index(s, t, index)?;
        s.tables_mut()[t].entries[index] = value.as_reference();
        Ok(Flow::Next)
    }

    pub(super) fn table_size(&mut self, s: &mut State, table: u32) -> Result<Flow, End> {
        let len = self
            .program
            .table_index(s, table)
            .map_or(0, |t| s.tables[t].entries.len());
        s.stack.push(Val::i32(len as u32));
        Ok(Flow::Next)
    }

    pub(super) fn table_grow(&mut self, s: &mut State, table: u32) -> Result<Flow, End> {
        let n = s.pop();
        let init = s.pop();
        let old = self.grow_table(s, table, init, n)?;
        s.stack.push(old);
        Ok(Flow::Next)
    }

    pub(super) fn table_fill(&mut self, s: &mut State, table: u32) -> Result<Flow, End> {
        let n = s.pop();
        let value = s.pop();
        let dst = s.pop();
        self.fill_table(s, table, dst, value, n)?;
        Ok(Flow::Next)
    }

    pub(super) fn table_init(&mut self, s: &mut State, elem: u32, table: u32) -> Result<Flow, End> {
        let n = s.pop();
        let src = s.pop();
        let dst = s.pop();
        self.init_table(s, table, elem, [dst, src, n])?;
        Ok(Flow::Next)
    }

    pub(super) fn table_copy(&mut self, s: &mut State, dst: u32, src: u32) -> Result<Flow, End> {
        let n = s.pop();
        let from = s.pop();
        let to = s.pop();
        self.copy_table(s, [dst, src], [to, from, n])?;
        Ok(Flow::Next)
    }

    pub(super) fn elem_drop(&mut self, s: &mut State, elem: u32) -> Result<Flow, End> {
        let instance = self.program.instance(s);
        s.dropped_elems_mut()[instance][elem as usize] = true;
        Ok(Flow::Next)
    }

    /// Grows `table` by `n` entries of `init`; the old length, or -1 past
    /// the table's maximum or the engine's limit on all tables together.
    fn grow_table(&mut self, s: &mut State, table: u32, init: Val, n: Val) -> Result<Val, End> {
        let t = self.table(s, table)?;
        let n = self.concretize(s, n, "the table.grow size")?;
        let all: u64 = s.tables.iter().map(|t| t.entries.len() as u64).sum();
        let table = &mut s.tables_mut()[t];
        let old = table.entries.len() as u64;
        let limit = table.max.unwrap_or(u32::MAX);
        if old + n > u64::from(limit) || all + n > u64::from(MAX_TABLE_ENTRIES) {
            return Ok(Val::i32(u32::MAX));
        }
        let new = (old + n) as usize;
        table.entries.resize(new, init.as_reference());
        Ok(Val::i32(old as u32))
    }

    fn fill_table(
        &mut self,
        s: &mut State,
        table: u32,
        dst: Val,
        value: Val,
        n: Val,
    ) -> Result<(), End> {
        let t = self.table(s, table)?;
        let (dst, n) = self.range(s, dst, n, "table.fill destination")?;
        let entries = &mut s.tables_mut()[t].entries;
        if dst + n > entries.len() as u64 {
            return Err(OOB);
        }
        entries[dst as usize..(dst + n) as usize].fill(value.as_reference());
        Ok(())
    }

    fn init_table(
        &mut self,
        s: &mut State,
        table: u32,
        elem: u32,
        [dst, src, n]: [Val; 3],
    ) -> Result<(), End> {
        let t = self.table(s, table)?;
        let module = self.program.module_of(s);
        let items = if s.dropped_elems[self.program.instance(s)][elem as usize] {
            &[][..]
        } else {
            &module.elements[elem as usize].items[..]
        };
        let (src, n) = self.range(s, src, n, "table.init source")?;
        if src + n > items.len() as u64 {
            return Err(OOB);
        }
        let (dst, _) = self.range(s, dst, Val::i32(n as u32), "table.init destination")?;
        if dst + n > s.tables[t].entries.len() as u64 {
            return Err(OOB);
        }
        let links = self.program.links_of(s);
        let refs: Vec<_> = items[src as usize..(src + n) as usize]
            .iter()
            .map(|&item| element(item, s, links))
            .collect();
        s.tables_mut()[t].entries[dst as usize..(dst + n) as usize].copy_from_slice(&refs);
        Ok(())
    }

    fn copy_table(
        &mut self,
        s: &mut State,
        [dst_table, src_table]: [u32; 2],
        [dst, src, n]: [Val; 3],
    ) -> Result<(), End> {
        let to = self.table(s, dst_table)?;
        let from = self.table(s, src_table)?;
        let (src, n) = self.range(s, src, n, "table.copy source")?;
        if src + n > s.tables[from].entries.len() as u64 {
            return Err(OOB);
        }
        let (dst, _) = self.range(s, dst, Val::i32(n as u32), "table.copy destination")?;
        if dst + n > s.tables[to].entries.len() as u64 {
            return Err(OOB);
        }
        let (src, dst, n) = (src as usize, dst as usize, n as usize);
        if to == from {
            s.tables_mut()[to].entries.copy_within(src..src + n, dst);
        } else {
            let copied = s.tables[from].entries[src..src + n].to_vec();
            s.tables_mut()[to].entries[dst..dst + n].copy_from_slice(&copied);
        }
        Ok(())
    }
}
