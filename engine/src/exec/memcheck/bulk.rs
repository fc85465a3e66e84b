//! Bulk memory: `memory.copy`, `memory.fill` and `memory.init`, each
//! range resolved as one access. A `memory.copy` or `memory.fill` with a
//! symbolic address and a length of at most [`SYMBOLIC_BULK`] bytes keeps
//! its addresses: each end forks over the objects (and pieces) it may
//! land in, as a load or a store does, and the bytes move one at a time
//! through the memory model. A symbolic length, a longer range and
//! `memory.init`'s addresses are made concrete (the path says so).

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::report::{Access, Trap};
use crate::state::value::Val;
use crate::state::State;

const OOB: End = End::Trap(Trap::OutOfBounds);

/// The most bytes a `memory.copy` or `memory.fill` at a symbolic address
/// moves byte by byte; a longer one has its addresses made concrete.
const SYMBOLIC_BULK: u64 = 256;

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
    ) -> Result<Flow, End> {
        // Resolution settles the addresses again: a segment made for one
        // end moves blocks the other may point into.
        let (to, from) = (self.settle(s, dst), self.settle(s, src));
        if matches!(to, Val::Sym(_)) || matches!(from, Val::Sym(_)) {
            let len = self.concretize(s, n, "the memory.copy size")?;
            if (1..=SYMBOLIC_BULK).contains(&len) {
                return self.copy_symbolic(s, dst, src, len);
            }
            self.copy_concrete(s, dst, src, Val::i32(len as u32))?;
            return Ok(Flow::Next);
        }
        self.copy_concrete(s, dst, src, n)?;
        Ok(Flow::Next)
    }

    /// `memory.copy` of `n` bytes with an end at a symbolic address: the
    /// source resolved (a fork per place it may be), its bytes read, then
    /// the destination resolved and the bytes written, so that ranges that
    /// overlap copy as `memmove` does.
    fn copy_symbolic(&mut self, s: &mut State, dst: Val, src: Val, n: u64) -> Result<Flow, End> {
        let width = n as u32;
        let (from, others) = self.place(s, src, 0, n, Access::Read, false)?;
        self.at_each_flow(s, from, others, &mut |exec, s, from| {
            let bytes = (0..width)
                .map(|k| exec.read(s, from.plus(k), 1))
                .collect::<Result<Vec<Val>, End>>()?;
            let (to, others) = exec.place(s, dst, 0, n, Access::Write, false)?;
            exec.at_each(s, to, others, |exec, s, to| {
                for (k, &byte) in (0..width).zip(&bytes) {
                    exec.write(s, to.plus(k), 1, byte)?;
                }
                Ok(())
            })
        })
    }

    /// `memory.copy` over addresses made concrete (each end as the program
    /// computed it: `concretize` pins the blocks a pointer's number
    /// depends on).
    fn copy_concrete(&mut self, s: &mut State, dst: Val, src: Val, n: Val) -> Result<(), End> {
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
    ) -> Result<Flow, End> {
        let settled = self.settle(s, dst);
        if matches!(settled, Val::Sym(_)) {
            let len = self.concretize(s, n, "the memory.fill size")?;
            if (1..=SYMBOLIC_BULK).contains(&len) {
                let (to, others) = self.place(s, dst, 0, len, Access::Write, false)?;
                return self.at_each(s, to, others, |exec, s, to| {
                    for k in 0..len as u32 {
                        exec.write(s, to.plus(k), 1, value)?;
                    }
                    Ok(())
                });
            }
            self.fill_concrete(s, dst, value, Val::i32(len as u32))?;
            return Ok(Flow::Next);
        }
        self.fill_concrete(s, dst, value, n)?;
        Ok(Flow::Next)
    }

    /// `memory.fill` over an address made concrete (as the program
    /// computed it).
    fn fill_concrete(&mut self, s: &mut State, dst: Val, value: Val, n: Val) -> Result<(), End> {
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
