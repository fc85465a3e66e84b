//! The concrete fast path: runs a function for as long as its operands are
//! concrete and its instructions simple, with the semantics of
//! `Executor::step` (results, instruction count, coverage, `State::at`).
//!
//! Each function gets a side table, built on first use, holding at every pc
//! the longest fused op (a superinstruction) that starts there, so one
//! dispatch runs a common sequence such as `local.get; i32.const; i32.add;
//! local.set`. A branch into the middle of a sequence lands on the op of its
//! suffix, so fusing needs no knowledge of branch targets. Anything else (a
//! symbolic operand, a trap, an out-of-bounds access, a call, the end of the
//! slice) leaves the fast path at the first pc of the op, for `step`.

use super::interp::{load_shape, store_size, Executor};
use super::memops::{load_concrete, store_concrete};
use super::ops::{concrete_binary, Alu};
use super::state::{Frame, State};
use super::value::Val;
use crate::memory::MemoryModel;
use symplay_wasm::ir::{BinaryOp, Code, Instr, MemArg, Target};

/// Operand-stack slots made available on entry; an op that would push past
/// them leaves the fast path, and `step` grows the stack.
const HEADROOM: usize = 8;

/// The fused ops of each function, built on first use.
#[derive(Default)]
pub(crate) struct FastCode {
    funcs: Vec<Option<Box<[Op]>>>,
}

impl FastCode {
    fn ops(&mut self, func: u32, code: &Code) -> &[Op] {
        let i = func as usize;
        if self.funcs.len() <= i {
            self.funcs.resize_with(i + 1, || None);
        }
        self.funcs[i].get_or_insert_with(|| {
            (0..code.instrs.len())
                .map(|pc| fuse(&code.instrs[pc..]))
                .collect()
        })
    }
}

/// A load's static offset and shape, with the extension precomputed.
#[derive(Clone, Copy, Debug)]
struct Access {
    offset: u32,
    size: u8,
    width: u8,
    /// `64 - 8 * size` for a sign-extending load, else 0.
    sign_shift: u8,
    /// The bits of a value of width `width`.
    mask: u64,
}

/// One fused op; the comment gives the instructions it stands for (`op` is
/// an integer binary operator, `k` a constant).
#[derive(Clone, Copy, Debug)]
enum Op {
    /// Anything that `step` runs.
    Slow,
    LocalGet(u32),
    LocalSet(u32),
    LocalTee(u32),
    Const(Val),
    /// Any integer binary operator, division included: a trap leaves.
    Bin(BinaryOp),
    /// `k; op`
    BinImm {
        alu: Alu,
        k: u64,
    },
    /// `local.get l; op`
    BinLocal {
        alu: Alu,
        l: u32,
    },
    /// `op; local.set x`
    BinSet {
        alu: Alu,
        x: u32,
    },
    /// `local.get l; k; op`
    LocalBinImm {
        alu: Alu,
        l: u32,
        k: u64,
    },
    /// `local.get a; local.get b; op`
    LocalBinLocal {
        alu: Alu,
        a: u32,
        b: u32,
    },
    /// `local.get l; k; op; local.set x`
    LocalBinImmSet {
        alu: Alu,
        l: u32,
        k: u64,
        x: u32,
    },
    /// `local.get l; k; op; local.tee x`
    LocalBinImmTee {
        alu: Alu,
        l: u32,
        k: u64,
        x: u32,
    },
    /// `local.get a; local.get b; k; inner; outer`: `a outer (b inner k)`,
    /// as in `x ^ (x << 13)` or `base + (i << 2)`.
    LocalLocalImm2 {
        inner: Alu,
        outer: Alu,
        a: u32,
        b: u32,
        k: u64,
    },
    /// `local.get a; local.get b; k; inner; outer; local.set x`
    LocalLocalImm2Set {
        inner: Alu,
        outer: Alu,
        a: u32,
        b: u32,
        x: u32,
        k: u64,
    },
    Load(Access),
    /// `local.get a; load`
    LocalLoad {
        a: u32,
        access: Access,
    },
    Store {
        size: u8,
        offset: u32,
    },
    /// `local.get a; local.get v; store`
    LocalLocalStore {
        a: u32,
        v: u32,
        size: u8,
        offset: u32,
    },
    Br(Target),
    BrIf(Target),
    /// `op; br_if` to `pc`, a branch without stack repair.
    BinBrIf {
        alu: Alu,
        pc: u32,
    },
    /// `k; op; br_if` to `pc`, a branch without stack repair.
    BinImmBrIf {
        alu: Alu,
        k: u64,
        pc: u32,
    },
    /// `local.get l; k; step; local.tee l; n; cmp; br_if` to `pc`, a branch
    /// without stack repair: the usual loop end.
    StepBrIf {
        step: Alu,
        cmp: Alu,
        l: u32,
        pc: u32,
        k: u64,
        n: u64,
    },
}

/// The op that starts with `is[0]`.
fn fuse(is: &[Instr]) -> Op {
    let at = |n: usize| is.get(n).copied();
    let imm = |n: usize| match at(n) {
        Some(Instr::I32Const(c)) => Some(u64::from(c as u32)),
        Some(Instr::I64Const(c)) => Some(c as u64),
        _ => None,
    };
    let alu = |n: usize| match at(n) {
        Some(Instr::Binary(op)) => Alu::new(op),
        _ => None,
    };
    let local = |n: usize| match at(n) {
        Some(Instr::LocalGet(l)) => Some(l),
        _ => None,
    };
    let plain_br_if = |n: usize| match at(n) {
        Some(Instr::BrIf(t)) if t.drop == 0 => Some(t.pc),
        _ => None,
    };
    if let (Some(l), Some(k), Some(step)) = (local(0), imm(1), alu(2)) {
        return match (at(3), imm(4), alu(5), plain_br_if(6)) {
            (Some(Instr::LocalTee(x)), Some(n), Some(cmp), Some(pc)) if x == l => Op::StepBrIf {
                step,
                cmp,
                l,
                pc,
                k,
                n,
            },
            (Some(Instr::LocalSet(x)), ..) => Op::LocalBinImmSet { alu: step, l, k, x },
            (Some(Instr::LocalTee(x)), ..) => Op::LocalBinImmTee { alu: step, l, k, x },
            _ => Op::LocalBinImm { alu: step, l, k },
        };
    }
    if let (Some(a), Some(b), Some(k), Some(inner), Some(outer)) =
        (local(0), local(1), imm(2), alu(3), alu(4))
    {
        return match at(5) {
            Some(Instr::LocalSet(x)) => Op::LocalLocalImm2Set {
                inner,
                outer,
                a,
                b,
                x,
                k,
            },
            _ => Op::LocalLocalImm2 {
                inner,
                outer,
                a,
                b,
                k,
            },
        };
    }
    if let (Some(a), Some(b)) = (local(0), local(1)) {
        if let Some(alu) = alu(2) {
            return Op::LocalBinLocal { alu, a, b };
        }
        if let Some(Instr::Store { kind, memarg }) = at(2) {
            let (size, offset) = (store_size(kind) as u8, memarg.offset);
            return Op::LocalLocalStore {
                a,
                v: b,
                size,
                offset,
            };
        }
    }
    if let (Some(k), Some(alu)) = (imm(0), alu(1)) {
        return match plain_br_if(2) {
            Some(pc) => Op::BinImmBrIf { alu, k, pc },
            None => Op::BinImm { alu, k },
        };
    }
    if let Some(l) = local(0) {
        if let Some(alu) = alu(1) {
            return Op::BinLocal { alu, l };
        }
        if let Some(Instr::Load { kind, memarg }) = at(1) {
            let access = access(kind, memarg);
            return Op::LocalLoad { a: l, access };
        }
    }
    if let Some(alu) = alu(0) {
        if let Some(Instr::LocalSet(x)) = at(1) {
            return Op::BinSet { alu, x };
        }
        if let Some(pc) = plain_br_if(1) {
            return Op::BinBrIf { alu, pc };
        }
    }
    match is[0] {
        Instr::LocalGet(l) => Op::LocalGet(l),
        Instr::LocalSet(l) => Op::LocalSet(l),
        Instr::LocalTee(l) => Op::LocalTee(l),
        Instr::I32Const(c) => Op::Const(Val::i32(c as u32)),
        Instr::I64Const(c) => Op::Const(Val::i64(c as u64)),
        Instr::Binary(op) if concrete_binary(op, 0, 1).is_some() => Op::Bin(op),
        Instr::Load { kind, memarg } => Op::Load(access(kind, memarg)),
        Instr::Store { kind, memarg } => Op::Store {
            size: store_size(kind) as u8,
            offset: memarg.offset,
        },
        Instr::Br(t) => Op::Br(t),
        Instr::BrIf(t) => Op::BrIf(t),
        _ => Op::Slow,
    }
}

fn access(kind: symplay_wasm::ir::LoadKind, memarg: MemArg) -> Access {
    let (size, width, signed) = load_shape(kind);
    Access {
        offset: memarg.offset,
        size: size as u8,
        width,
        sign_shift: if signed { 64 - 8 * size as u8 } else { 0 },
        mask: crate::expr::mask(width),
    }
}

impl Executor<'_> {
    /// Runs at most `max` instructions of the current frame on the fast path
    /// and returns how many ran.
    pub(super) fn run_fast(&mut self, s: &mut State, max: u64) -> u64 {
        let memory_index = self.links_of(s).memory;
        let State {
            frames,
            stack,
            memories,
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
        let Some(code) = self.code(func) else {
            return 0;
        };
        let ops = self.fast.ops(func, code);
        let covered = &mut self.covered[func as usize][..];
        let terms = &mut self.store;
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
                    let Some(v) = load(memory.as_deref(), addr, access) else {
                        break;
                    };
                    buf[sp - 1] = v;
                    ran!(1);
                }
                Op::LocalLoad { a, access } => {
                    fits!(2);
                    room!();
                    let addr = con!(locals[a as usize]);
                    let Some(v) = load(memory.as_deref(), addr, access) else {
                        break;
                    };
                    buf[sp] = v;
                    sp += 1;
                    ran!(2);
                }
                Op::Store { size, offset } => {
                    fits!(1);
                    let (addr, v) = (con!(buf[sp - 2]), con!(buf[sp - 1]));
                    if !store_concrete(
                        memory.as_deref_mut(),
                        terms,
                        addr + u64::from(offset),
                        u32::from(size),
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
                    if !store_concrete(
                        memory.as_deref_mut(),
                        terms,
                        addr + u64::from(offset),
                        u32::from(size),
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
        self.instructions += ran;
        ran
    }
}

/// A load of concrete bytes at a concrete address in bounds.
#[inline(always)]
fn load(memory: Option<&MemoryModel>, addr: u64, a: Access) -> Option<Val> {
    let raw = load_concrete(memory, addr + u64::from(a.offset), u32::from(a.size))?;
    let extended = ((raw << a.sign_shift) as i64 >> a.sign_shift) as u64;
    Some(Val::Con {
        width: a.width,
        bits: extended & a.mask,
    })
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
