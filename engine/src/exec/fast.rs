//! The concrete fast path: runs a function for as long as its operands are
//! concrete and its instructions simple, with the semantics of
//! `Executor::step` (results, instruction count, coverage, `State::at`),
//! one dispatch per fused op (see `fused.rs`). Anything else (a symbolic
//! operand, a trap, an out-of-bounds access or one to a returned frame's
//! variable, a call, the end of the slice)
//! leaves the fast path at the first pc of the op, for `step`.

use super::alu::concrete_binary;
use super::executor::Executor;
use super::fused::{Access, Op};
use crate::expr::TermStore;
use crate::memory::{DeadStack, MemoryModel};
use crate::state::value::Val;
use crate::state::{Frame, State};
use symplay_wasm::ir::Target;

/// Operand-stack slots made available on entry; an op that would push past
/// them leaves the fast path, and `step` grows the stack.
const HEADROOM: usize = 8;

impl Executor<'_> {
    /// Runs at most `max` instructions of the current frame on the fast path
    /// and returns how many ran.
    pub(super) fn run_fast(&mut self, s: &mut State, max: u64) -> u64 {
        let memory_index = self.program.links_of(s).memory;
        let State {
            frames,
            stack,
            memories,
            dead_stack,
            at,
            ..
        } = s;
        let mut memory = memory_index.and_then(|m| memories.get_mut(m as usize));
        let Some(Frame {
            func,
            pc: frame_pc,
            locals,
            ..
        }) = frames.last_mut()
        else {
            return 0;
        };
        let func = *func;
        let Some(code) = self.program.code(func) else {
            return 0;
        };
        let ops = self.cx.fast.ops(func, code);
        let covered = &mut self.cx.covered[func as usize][..];
        let terms = &mut self.cx.terms;
        let locals = &mut locals[..];
        let base = stack.len();
        stack.resize(base + HEADROOM, Val::i32(0));
        let buf = &mut stack[..];
        let mut sp = base;
        let mut pc = *frame_pc;
        let mut left = max;
        // The last taken branch, `(from, to)`: unless it was the last op run,
        // the last instruction run is the one before `pc`, since only a
        // branch gets back to a pc after running it.
        let mut jump = None;
        loop {
            // Leaves the fast path unless `n` more instructions fit the slice.
            macro_rules! fits {
                ($n:expr) => {
                    if left < $n {
                        break;
                    }
                };
            }
            // Leaves unless there is a free stack slot.
            macro_rules! room {
                () => {
                    if sp == buf.len() {
                        break;
                    }
                };
            }
            // The bits of a concrete value; leaves on a symbolic one.
            macro_rules! con {
                ($v:expr) => {
                    match $v {
                        Val::Con { bits, .. } => bits,
                        Val::Sym(_) => break,
                    }
                };
            }
            // Accounts for the `n` instructions of the op just run, which
            // continues at `next` (after the op, unless given).
            macro_rules! ran {
                ($n:expr) => {
                    ran!($n, pc + $n)
                };
                ($n:expr, $next:expr) => {
                    let first = pc as usize;
                    // A constant length: a few plain stores, not a `memset`.
                    covered[first..first + $n].fill(true);
                    left -= $n;
                    pc = $next;
                };
            }
            match ops[pc as usize] {
                Op::Slow => break,
                Op::LocalGet(l) => {
                    fits!(1);
                    room!();
                    buf[sp] = locals[l as usize];
                    sp += 1;
                    ran!(1);
                }
                Op::LocalSet(l) => {
                    fits!(1);
                    sp -= 1;
                    locals[l as usize] = buf[sp];
                    ran!(1);
                }
                Op::LocalTee(l) => {
                    fits!(1);
                    locals[l as usize] = buf[sp - 1];
                    ran!(1);
                }
                Op::Const(v) => {
                    fits!(1);
                    room!();
                    buf[sp] = v;
                    sp += 1;
                    ran!(1);
                }
                Op::Bin(op) => {
                    fits!(1);
                    let (a, b) = (con!(buf[sp - 2]), con!(buf[sp - 1]));
                    let Some(Ok(v)) = concrete_binary(op, a, b) else {
                        break;
                    };
                    sp -= 1;
                    buf[sp - 1] = v;
                    ran!(1);
                }
                Op::BinImm { alu, k } => {
                    fits!(2);
                    let a = con!(buf[sp - 1]);
                    buf[sp - 1] = alu.eval(a, k);
                    ran!(2);
                }
                Op::BinLocal { alu, l } => {
                    fits!(2);
                    let (a, b) = (con!(buf[sp - 1]), con!(locals[l as usize]));
                    buf[sp - 1] = alu.eval(a, b);
                    ran!(2);
                }
                Op::BinSet { alu, x } => {
                    fits!(2);
                    let (a, b) = (con!(buf[sp - 2]), con!(buf[sp - 1]));
                    locals[x as usize] = alu.eval(a, b);
                    sp -= 2;
                    ran!(2);
                }
                Op::LocalBinImm { alu, l, k } => {
                    fits!(3);
                    room!();
                    let a = con!(locals[l as usize]);
                    buf[sp] = alu.eval(a, k);
                    sp += 1;
                    ran!(3);
                }
                Op::LocalBinLocal { alu, a, b } => {
                    fits!(3);
                    room!();
                    let (a, b) = (con!(locals[a as usize]), con!(locals[b as usize]));
                    buf[sp] = alu.eval(a, b);
                    sp += 1;
                    ran!(3);
                }
                Op::LocalBinImmSet { alu, l, k, x } => {
                    fits!(4);
                    let a = con!(locals[l as usize]);
                    locals[x as usize] = alu.eval(a, k);
                    ran!(4);
                }
                Op::LocalBinImmTee { alu, l, k, x } => {
                    fits!(4);
                    room!();
                    let a = con!(locals[l as usize]);
                    let v = alu.eval(a, k);
                    locals[x as usize] = v;
                    buf[sp] = v;
                    sp += 1;
                    ran!(4);
                }
                Op::LocalLocalImm2 {
                    inner,
                    outer,
                    a,
                    b,
                    k,
                } => {
                    fits!(5);
                    room!();
                    let (a, b) = (con!(locals[a as usize]), con!(locals[b as usize]));
                    buf[sp] = outer.eval(a, inner.bits(b, k));
                    sp += 1;
                    ran!(5);
                }
                Op::LocalLocalImm2Set {
                    inner,
                    outer,
                    a,
                    b,
                    x,
                    k,
                } => {
                    fits!(6);
                    let (a, b) = (con!(locals[a as usize]), con!(locals[b as usize]));
                    locals[x as usize] = outer.eval(a, inner.bits(b, k));
                    ran!(6);
                }
                Op::Load(access) => {
                    fits!(1);
                    let addr = con!(buf[sp - 1]);
                    let Some(v) = load(memory.as_deref(), dead_stack, addr, access) else {
                        break;
                    };
                    buf[sp - 1] = v;
                    ran!(1);
                }
                Op::LocalLoad { a, access } => {
                    fits!(2);
                    room!();
                    let addr = con!(locals[a as usize]);
                    let Some(v) = load(memory.as_deref(), dead_stack, addr, access) else {
                        break;
                    };
                    buf[sp] = v;
                    sp += 1;
                    ran!(2);
                }
                Op::Store { size, offset } => {
                    fits!(1);
                    let (addr, v) = (con!(buf[sp - 2]), con!(buf[sp - 1]));
                    if !store(
                        memory.as_deref_mut(),
                        terms,
                        dead_stack,
                        addr + u64::from(offset),
                        size,
                        v,
                    ) {
                        break;
                    }
                    sp -= 2;
                    ran!(1);
                }
                Op::LocalLocalStore { a, v, size, offset } => {
                    fits!(3);
                    let (addr, v) = (con!(locals[a as usize]), con!(locals[v as usize]));
                    if !store(
                        memory.as_deref_mut(),
                        terms,
                        dead_stack,
                        addr + u64::from(offset),
                        size,
                        v,
                    ) {
                        break;
                    }
                    ran!(3);
                }
                Op::Br(t) => {
                    fits!(1);
                    jump = Some((pc, t.pc));
                    ran!(1, branch(buf, &mut sp, t));
                }
                Op::BrIf(t) => {
                    fits!(1);
                    let c = con!(buf[sp - 1]);
                    sp -= 1;
                    if c != 0 {
                        jump = Some((pc, t.pc));
                    }
                    ran!(
                        1,
                        if c != 0 {
                            branch(buf, &mut sp, t)
                        } else {
                            pc + 1
                        }
                    );
                }
                Op::BinBrIf { alu, pc: target } => {
                    fits!(2);
                    let (a, b) = (con!(buf[sp - 2]), con!(buf[sp - 1]));
                    sp -= 2;
                    let taken = alu.bits(a, b) != 0;
                    if taken {
                        jump = Some((pc + 1, target));
                    }
                    ran!(2, if taken { target } else { pc + 2 });
                }
                Op::BinImmBrIf { alu, k, pc: target } => {
                    fits!(3);
                    let a = con!(buf[sp - 1]);
                    sp -= 1;
                    let taken = alu.bits(a, k) != 0;
                    if taken {
                        jump = Some((pc + 2, target));
                    }
                    ran!(3, if taken { target } else { pc + 3 });
                }
                Op::StepBrIf {
                    step,
                    cmp,
                    l,
                    pc: target,
                    k,
                    n,
                } => {
                    fits!(7);
                    let a = con!(locals[l as usize]);
                    let v = step.bits(a, k);
                    locals[l as usize] = step.val(v);
                    let taken = cmp.bits(v, n) != 0;
                    if taken {
                        jump = Some((pc + 6, target));
                    }
                    ran!(7, if taken { target } else { pc + 7 });
                }
            }
        }
        stack.truncate(sp);
        *frame_pc = pc;
        let ran = max - left;
        if ran > 0 {
            let last = match jump {
                Some((from, to)) if to == pc => from,
                _ => pc - 1,
            };
            *at = (func, last);
        }
        self.cx.instructions += ran;
        ran
    }
}

/// A load of concrete bytes at a concrete address in bounds, but for the
/// variables of returned frames, which `step` checks.
#[inline(always)]
fn load(memory: Option<&MemoryModel>, dead: &DeadStack, addr: u64, a: Access) -> Option<Val> {
    let address = addr + u64::from(a.offset);
    if dead.overlaps(address, address + u64::from(a.size)) {
        return None;
    }
    let raw = memory?.read_concrete_at(address, u32::from(a.size))?;
    let extended = ((raw << a.sign_shift) as i64 >> a.sign_shift) as u64;
    Some(Val::Con {
        width: a.width,
        bits: extended & a.mask,
    })
}

/// A store at a concrete address in bounds (`false` otherwise), but for
/// the variables of returned frames, which `step` checks.
#[inline(always)]
fn store(
    memory: Option<&mut MemoryModel>,
    terms: &mut TermStore,
    dead: &DeadStack,
    address: u64,
    size: u8,
    v: u64,
) -> bool {
    !dead.overlaps(address, address + u64::from(size))
        && memory.is_some_and(|m| m.write_concrete_at(terms, address, u32::from(size), v))
}

/// A taken branch: keeps the top `keep` values, removes `drop` beneath them.
fn branch(buf: &mut [Val], sp: &mut usize, t: Target) -> u32 {
    if t.drop > 0 {
        let (keep, drop) = (t.keep as usize, t.drop as usize);
        buf.copy_within(*sp - keep..*sp, *sp - keep - drop);
        *sp -= drop;
    }
    t.pc
}
