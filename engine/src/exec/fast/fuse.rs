//! The code the fast path runs: fused ops (superinstructions). Each
//! function gets a side table, built on first use, holding at every pc the
//! longest fused op that starts there, so one dispatch runs a common sequence
//! such as `local.get; i32.const; i32.add; local.set`. A branch into the
//! middle of a sequence lands on the op of its suffix, so fusing needs no
//! knowledge of branch targets; it only never runs past a loop's end.

use crate::exec::arith::int::{concrete_binary, Alu};
use crate::state::value::Val;
use symplay_wasm::ir::{BinaryOp, Code, Instr, MemArg, Target};

/// The fused ops of each function, built on first use.
#[derive(Default)]
pub(crate) struct FastCode {
    funcs: Vec<Option<Box<[Op]>>>,
}

impl FastCode {
    pub(super) fn ops(&mut self, func: u32, code: &Code) -> &[Op] {
        let i = func as usize;
        if self.funcs.len() <= i {
            self.funcs.resize_with(i + 1, || None);
        }
        self.funcs[i].get_or_insert_with(|| {
            (0..code.instrs.len())
                .map(|pc| fuse(&code.instrs[pc..straight_until(code, pc)]))
                .collect()
        })
    }
}

/// Where a fused op starting at `pc` must end: at the end of the innermost
/// loop around it, so that a state falling through a loop's end stops
/// there, on the exit a merging context waits for.
fn straight_until(code: &Code, pc: usize) -> usize {
    let end = code
        .loop_around(pc as u32)
        .map(|l| code.blocks[l.block as usize].end);
    end.map_or(code.instrs.len(), |end| end as usize)
}

/// A load's static offset and shape, with the extension precomputed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Access {
    pub(super) offset: u32,
    pub(super) size: u8,
    pub(super) width: u8,
    /// `64 - 8 * size` for a sign-extending load, else 0.
    pub(super) sign_shift: u8,
    /// The bits of a value of width `width`.
    pub(super) mask: u64,
}

/// One fused op; the comment gives the instructions it stands for (`op` is
/// an integer binary operator, `k` a constant).
#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
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
            let (size, offset) = (kind.size() as u8, memarg.offset);
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
            size: kind.size() as u8,
            offset: memarg.offset,
        },
        Instr::Br(t) => Op::Br(t),
        Instr::BrIf(t) => Op::BrIf(t),
        _ => Op::Slow,
    }
}

fn access(kind: symplay_wasm::ir::LoadKind, memarg: MemArg) -> Access {
    let (size, width, signed) = kind.shape();
    Access {
        offset: memarg.offset,
        size: size as u8,
        width,
        sign_shift: if signed { 64 - 8 * size as u8 } else { 0 },
        mask: crate::expr::mask(width),
    }
}
