//! Bulk memory: `memory.copy`, `memory.fill` and `memory.init` over
//! ranges made concrete (a symbolic start or length is concretised, and
//! the path says so), each range resolved as one access.

use crate::exec::executor::Executor;
use crate::exec::outcome::End;
use crate::report::{Access, Trap};
use crate::state::value::Val;
use crate::state::State;

const OOB: End = End::Trap(Trap::OutOfBounds);

impl Executor<'_> {
    /// Concrete start and length of a bulk operation's range (a symbolic
    /// one is made concrete and recorded).
    pub(crate) fn range(
        &mut self,
        s: &mut State,
        start: Val,
        len: Val,
        what: &str,
    ) -> Result<(u64, u64), End> {
        let start = self.concretize(s, start, &format!("the {what} address"))?;
        let len = self.concretize(s, len, &format!("the {what} size"))?;
        Ok((start, len))
    }

    pub(crate) fn copy_range(
        &mut self,
        s: &mut State,
        dst: Val,
        src: Val,
        n: Val,
    ) -> Result<(), End> {
        let (src, n) = self.range(s, src, n, "memory.copy source")?;
        let src = self.spot(s, src, n, Access::Read)?;
        let (dst, _) = self.range(s, dst, Val::i32(n as u32), "memory.copy destination")?;
        let dst = self.spot(s, dst, n, Access::Write)?;
        if let Some(memory) = self.program.memory_mut(s) {
            memory.copy(&mut self.cx.terms, dst, src, n);
        }
        Ok(())
    }

    pub(crate) fn fill_range(
        &mut self,
        s: &mut State,
        dst: Val,
        value: Val,
        n: Val,
    ) -> Result<(), End> {
        let (dst, n) = self.range(s, dst, n, "memory.fill")?;
        let dst = self.spot(s, dst, n, Access::Write)?;
        let byte = match value {
            Val::Con { bits, .. } => self.cx.terms.bv_const(8, bits),
            Val::Sym(t) => self.cx.terms.extract(7, 0, t),
        };
        if let Some(memory) = self.program.memory_mut(s) {
            memory.fill(&mut self.cx.terms, dst, byte, n);
        }
        Ok(())
    }

    pub(crate) fn init_range(
        &mut self,
        s: &mut State,
        data: u32,
        dst: Val,
        src: Val,
        n: Val,
    ) -> Result<(), End> {
        let module = self.program.module_of(s);
        let bytes: &[u8] = if s.dropped_data[self.program.instance(s)][data as usize] {
            &[]
        } else {
            &module.data[data as usize].bytes
        };
        let (src, n) = self.range(s, src, n, "memory.init source")?;
        if src + n > bytes.len() as u64 {
            return Err(OOB);
        }
        let (dst, _) = self.range(s, dst, Val::i32(n as u32), "memory.init destination")?;
        let dst = self.spot(s, dst, n, Access::Write)?;
        if let Some(memory) = self.program.memory_mut(s) {
            memory.write_bytes(
                &mut self.cx.terms,
                dst,
                &bytes[src as usize..(src + n) as usize],
            );
        }
        Ok(())
    }
}
