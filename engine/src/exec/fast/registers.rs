//! The fast path's registers and what each fused op does to them, with the
//! semantics of `step` (results, instruction count, coverage). An op
//! returns `None` to leave the fast path, before it has changed anything:
//! on a symbolic operand, a trap, an out-of-bounds access or one to a
//! returned frame's variable, a full stack, or the end of the slice.

use super::fuse::Access;
use crate::exec::arith::int::{concrete_binary, Alu};
use crate::expr::TermStore;
use crate::memory::{DeadStack, MemoryModel};
use crate::state::value::Val;
use symplay_wasm::ir::{BinaryOp, Target};

/// The top frame of a state as the fast path runs it.
pub(super) struct Registers<'a> {
    /// The operand stack, with free slots above `sp`, its height.
    pub(super) stack: &'a mut [Val],
    pub(super) sp: usize,
    pub(super) locals: &'a mut [Val],
    pub(super) pc: u32,
    /// Instructions the slice has left.
    pub(super) left: u64,
    /// The pc of the last instruction run: the last of the last op run,
    /// since an op that branches ends with its branch.
    pub(super) last: u32,
    /// The function's executed instructions, by pc.
    pub(super) covered: &'a mut [bool],
    pub(super) memory: Option<&'a mut MemoryModel>,
    pub(super) dead: &'a DeadStack,
    pub(super) terms: &'a mut TermStore,
}

/// The bits of a concrete value; `None` for a symbolic one.
#[inline(always)]
fn con(v: Val) -> Option<u64> {
    match v {
        Val::Con { bits, .. } => Some(bits),
        Val::Sym(_) => None,
    }
}

impl Registers<'_> {
    /// Whether `n` more instructions fit the slice.
    #[inline(always)]
    fn fits(&self, n: u64) -> Option<()> {
        (self.left >= n).then_some(())
    }

    /// Whether there is a free stack slot.
    #[inline(always)]
    fn room(&self) -> Option<()> {
        (self.sp != self.stack.len()).then_some(())
    }

    #[inline(always)]
    fn push(&mut self, v: Val) {
        self.stack[self.sp] = v;
        self.sp += 1;
    }

    /// Accounts for the `N` instructions of the op just run, which
    /// continues after the op.
    #[inline(always)]
    fn ran<const N: usize>(&mut self) -> Option<()> {
        self.ran_to::<N>(self.pc + N as u32)
    }

    /// Accounts for the `N` instructions of the op just run, which
    /// continues at `next`.
    #[inline(always)]
    fn ran_to<const N: usize>(&mut self, next: u32) -> Option<()> {
        let first = self.pc as usize;
        // An array of constant length: a few plain stores, not a `memset`.
        let covered: &mut [bool; N] = (&mut self.covered[first..first + N])
            .try_into()
            .expect("a range of N");
        *covered = [true; N];
        self.left -= N as u64;
        self.last = self.pc + N as u32 - 1;
        self.pc = next;
        Some(())
    }

    /// A load of concrete bytes at a concrete address in bounds, but for
    /// the variables of returned frames, which `step` checks.
    #[inline(always)]
    fn read(&self, addr: u64, a: &Access) -> Option<Val> {
        let address = addr + u64::from(a.offset);
        if self.dead.overlaps(address, address + u64::from(a.size)) {
            return None;
        }
        let raw = self
            .memory
            .as_deref()?
            .read_concrete_at(address, u32::from(a.size))?;
        let extended = ((raw << a.sign_shift) as i64 >> a.sign_shift) as u64;
        Some(Val::Con {
            width: a.width,
            bits: extended & a.mask,
        })
    }

    /// A store at a concrete address in bounds (`false` otherwise), but
    /// for the variables of returned frames, which `step` checks.
    #[inline(always)]
    fn write(&mut self, address: u64, size: u8, v: u64) -> bool {
        !self.dead.overlaps(address, address + u64::from(size))
            && self
                .memory
                .as_deref_mut()
                .is_some_and(|m| m.write_concrete_at(self.terms, address, u32::from(size), v))
    }

    /// A taken branch to `t`: keeps the top `keep` values, removes `drop`
    /// beneath them; the pc it goes to.
    #[inline(always)]
    fn branch(&mut self, t: &Target) -> u32 {
        if t.drop > 0 {
            let (keep, drop) = (t.keep as usize, t.drop as usize);
            let sp = self.sp;
            self.stack.copy_within(sp - keep..sp, sp - keep - drop);
            self.sp -= drop;
        }
        t.pc
    }

    #[inline(always)]
    pub(super) fn local_get(&mut self, l: u32) -> Option<()> {
        self.fits(1)?;
        self.room()?;
        self.push(self.locals[l as usize]);
        self.ran::<1>()
    }

    #[inline(always)]
    pub(super) fn local_set(&mut self, l: u32) -> Option<()> {
        self.fits(1)?;
        self.sp -= 1;
        self.locals[l as usize] = self.stack[self.sp];
        self.ran::<1>()
    }

    #[inline(always)]
    pub(super) fn local_tee(&mut self, l: u32) -> Option<()> {
        self.fits(1)?;
        self.locals[l as usize] = self.stack[self.sp - 1];
        self.ran::<1>()
    }

    #[inline(always)]
    pub(super) fn constant(&mut self, v: Val) -> Option<()> {
        self.fits(1)?;
        self.room()?;
        self.push(v);
        self.ran::<1>()
    }

    /// Any integer binary operator, division included: a trap leaves.
    #[inline(always)]
    pub(super) fn bin(&mut self, op: BinaryOp) -> Option<()> {
        self.fits(1)?;
        let sp = self.sp;
        let (a, b) = (con(self.stack[sp - 2])?, con(self.stack[sp - 1])?);
        let v = concrete_binary(op, a, b)?.ok()?;
        self.sp -= 1;
        self.stack[sp - 2] = v;
        self.ran::<1>()
    }

    /// `k; op`
    #[inline(always)]
    pub(super) fn bin_imm(&mut self, alu: &Alu, k: u64) -> Option<()> {
        self.fits(2)?;
        let top = self.sp - 1;
        let a = con(self.stack[top])?;
        self.stack[top] = alu.eval(a, k);
        self.ran::<2>()
    }

    /// `local.get l; op`
    #[inline(always)]
    pub(super) fn bin_local(&mut self, alu: &Alu, l: u32) -> Option<()> {
        self.fits(2)?;
        let top = self.sp - 1;
        let (a, b) = (con(self.stack[top])?, con(self.locals[l as usize])?);
        self.stack[top] = alu.eval(a, b);
        self.ran::<2>()
    }

    /// `op; local.set x`
    #[inline(always)]
    pub(super) fn bin_set(&mut self, alu: &Alu, x: u32) -> Option<()> {
        self.fits(2)?;
        let sp = self.sp;
        let (a, b) = (con(self.stack[sp - 2])?, con(self.stack[sp - 1])?);
        self.locals[x as usize] = alu.eval(a, b);
        self.sp -= 2;
        self.ran::<2>()
    }

    /// `local.get l; k; op`
    #[inline(always)]
    pub(super) fn local_bin_imm(&mut self, alu: &Alu, l: u32, k: u64) -> Option<()> {
        self.fits(3)?;
        self.room()?;
        let a = con(self.locals[l as usize])?;
        self.push(alu.eval(a, k));
        self.ran::<3>()
    }

    /// `local.get a; local.get b; op`
    #[inline(always)]
    pub(super) fn local_bin_local(&mut self, alu: &Alu, a: u32, b: u32) -> Option<()> {
        self.fits(3)?;
        self.room()?;
        let (a, b) = (con(self.locals[a as usize])?, con(self.locals[b as usize])?);
        self.push(alu.eval(a, b));
        self.ran::<3>()
    }

    /// `local.get l; k; op; local.set x`
    #[inline(always)]
    pub(super) fn local_bin_imm_set(&mut self, alu: &Alu, l: u32, k: u64, x: u32) -> Option<()> {
        self.fits(4)?;
        let a = con(self.locals[l as usize])?;
        self.locals[x as usize] = alu.eval(a, k);
        self.ran::<4>()
    }

    /// `local.get l; k; op; local.tee x`
    #[inline(always)]
    pub(super) fn local_bin_imm_tee(&mut self, alu: &Alu, l: u32, k: u64, x: u32) -> Option<()> {
        self.fits(4)?;
        self.room()?;
        let a = con(self.locals[l as usize])?;
        let v = alu.eval(a, k);
        self.locals[x as usize] = v;
        self.push(v);
        self.ran::<4>()
    }

    /// `local.get a; local.get b; k; inner; outer`
    #[inline(always)]
    pub(super) fn local_local_imm2(
        &mut self,
        inner: &Alu,
        outer: &Alu,
        a: u32,
        b: u32,
        k: u64,
    ) -> Option<()> {
        self.fits(5)?;
        self.room()?;
        let (a, b) = (con(self.locals[a as usize])?, con(self.locals[b as usize])?);
        self.push(outer.eval(a, inner.bits(b, k)));
        self.ran::<5>()
    }

    /// `local.get a; local.get b; k; inner; outer; local.set x`
    #[inline(always)]
    pub(super) fn local_local_imm2_set(
        &mut self,
        inner: &Alu,
        outer: &Alu,
        a: u32,
        b: u32,
        x: u32,
        k: u64,
    ) -> Option<()> {
        self.fits(6)?;
        let (a, b) = (con(self.locals[a as usize])?, con(self.locals[b as usize])?);
        self.locals[x as usize] = outer.eval(a, inner.bits(b, k));
        self.ran::<6>()
    }

    #[inline(always)]
    pub(super) fn load(&mut self, access: &Access) -> Option<()> {
        self.fits(1)?;
        let top = self.sp - 1;
        let addr = con(self.stack[top])?;
        self.stack[top] = self.read(addr, access)?;
        self.ran::<1>()
    }

    /// `local.get a; load`
    #[inline(always)]
    pub(super) fn local_load(&mut self, a: u32, access: &Access) -> Option<()> {
        self.fits(2)?;
        self.room()?;
        let addr = con(self.locals[a as usize])?;
        let v = self.read(addr, access)?;
        self.push(v);
        self.ran::<2>()
    }

    #[inline(always)]
    pub(super) fn store(&mut self, size: u8, offset: u32) -> Option<()> {
        self.fits(1)?;
        let sp = self.sp;
        let (addr, v) = (con(self.stack[sp - 2])?, con(self.stack[sp - 1])?);
        self.write(addr + u64::from(offset), size, v)
            .then_some(())?;
        self.sp -= 2;
        self.ran::<1>()
    }

    /// `local.get a; local.get v; store`
    #[inline(always)]
    pub(super) fn local_local_store(
        &mut self,
        a: u32,
        v: u32,
        size: u8,
        offset: u32,
    ) -> Option<()> {
        self.fits(3)?;
        let (addr, v) = (con(self.locals[a as usize])?, con(self.locals[v as usize])?);
        self.write(addr + u64::from(offset), size, v)
            .then_some(())?;
        self.ran::<3>()
    }

    #[inline(always)]
    pub(super) fn br(&mut self, t: &Target) -> Option<()> {
        self.fits(1)?;
        let next = self.branch(t);
        self.ran_to::<1>(next)
    }

    #[inline(always)]
    pub(super) fn br_if(&mut self, t: &Target) -> Option<()> {
        self.fits(1)?;
        let c = con(self.stack[self.sp - 1])?;
        self.sp -= 1;
        let next = if c != 0 { self.branch(t) } else { self.pc + 1 };
        self.ran_to::<1>(next)
    }

    /// `op; br_if` to `target`, a branch without stack repair.
    #[inline(always)]
    pub(super) fn bin_br_if(&mut self, alu: &Alu, target: u32) -> Option<()> {
        self.fits(2)?;
        let sp = self.sp;
        let (a, b) = (con(self.stack[sp - 2])?, con(self.stack[sp - 1])?);
        self.sp -= 2;
        let next = if alu.bits(a, b) != 0 {
            target
        } else {
            self.pc + 2
        };
        self.ran_to::<2>(next)
    }

    /// `k; op; br_if` to `target`, a branch without stack repair.
    #[inline(always)]
    pub(super) fn bin_imm_br_if(&mut self, alu: &Alu, k: u64, target: u32) -> Option<()> {
        self.fits(3)?;
        let a = con(self.stack[self.sp - 1])?;
        self.sp -= 1;
        let next = if alu.bits(a, k) != 0 {
            target
        } else {
            self.pc + 3
        };
        self.ran_to::<3>(next)
    }

    /// `local.get l; k; step; local.tee l; n; cmp; br_if` to `target`, a
    /// branch without stack repair: the usual loop end.
    #[inline(always)]
    pub(super) fn step_br_if(
        &mut self,
        step: &Alu,
        cmp: &Alu,
        l: u32,
        target: u32,
        k: u64,
        n: u64,
    ) -> Option<()> {
        self.fits(7)?;
        let a = con(self.locals[l as usize])?;
        let v = step.bits(a, k);
        self.locals[l as usize] = step.val(v);
        let next = if cmp.bits(v, n) != 0 {
            target
        } else {
            self.pc + 7
        };
        self.ran_to::<7>(next)
    }
}
