//! The fast path's loop: the top frame of a state in registers, one
//! dispatch per fused op, each op one call ([`Registers`]), until an op
//! leaves; then the registers go back into the state.

use super::fuse::{FastCode, Op};
use super::registers::Registers;
use crate::exec::program::Program;
use crate::expr::TermStore;
use crate::state::value::Val;
use crate::state::{Frame, State};
use std::ops::Range;

/// Operand-stack slots made available on entry; an op that would push past
/// them leaves the fast path, and `step` grows the stack.
const HEADROOM: usize = 8;

/// Runs at most `max` instructions of the top frame of `s` on the fast
/// path, marking them in `covered` (by store function and pc), and returns
/// how many ran. With `stay`, it stops where control leaves that range of
/// pcs (a loop whose exits a merging context waits at).
pub(crate) fn run(
    program: &Program<'_>,
    fast: &mut FastCode,
    covered: &mut [Vec<bool>],
    terms: &mut TermStore,
    s: &mut State,
    max: u64,
    stay: Option<Range<u32>>,
) -> u64 {
    let memory_index = program.links_of(s).memory;
    let State {
        frames,
        stack,
        memories,
        dead_stack,
        at,
        ..
    } = s;
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
    let Some(code) = program.code(func) else {
        return 0;
    };
    let ops = fast.ops(func, code);
    let base = stack.len();
    stack.resize(base + HEADROOM, Val::i32(0));
    let mut r = Registers {
        stack: &mut stack[..],
        sp: base,
        locals: &mut locals[..],
        pc: *frame_pc,
        left: max,
        last: 0,
        covered: &mut covered[func as usize][..],
        memory: memory_index.and_then(|m| memories.get_mut(m as usize)),
        dead: dead_stack,
        terms,
    };
    match stay {
        None => run_ops(&mut r, ops, |_| true),
        Some(range) => run_ops(&mut r, ops, |pc| range.contains(&pc)),
    }
    let (sp, pc, last) = (r.sp, r.pc, r.last);
    let ran = max - r.left;
    stack.truncate(sp);
    *frame_pc = pc;
    if ran > 0 {
        *at = (func, last);
    }
    ran
}

/// Runs ops from `r.pc` until one leaves the fast path or `stays` says
/// the pc it went to is out of bounds.
#[inline(always)]
fn run_ops(r: &mut Registers<'_>, ops: &[Op], stays: impl Fn(u32) -> bool) {
    // The op by reference: each arm reads the fields it needs.
    loop {
        let op = &ops[r.pc as usize];
        if execute(r, op).is_none() || !stays(r.pc) {
            break;
        }
    }
}

/// Runs `op`; `None` leaves the fast path at its first pc, for `step`.
#[inline(always)]
fn execute(r: &mut Registers<'_>, op: &Op) -> Option<()> {
    match *op {
        Op::Slow => None,
        Op::LocalGet(l) => r.local_get(l),
        Op::LocalSet(l) => r.local_set(l),
        Op::LocalTee(l) => r.local_tee(l),
        Op::Const(v) => r.constant(v),
        Op::Bin(op) => r.bin(op),
        Op::BinImm { ref alu, k } => r.bin_imm(alu, k),
        Op::BinLocal { ref alu, l } => r.bin_local(alu, l),
        Op::BinSet { ref alu, x } => r.bin_set(alu, x),
        Op::LocalBinImm { ref alu, l, k } => r.local_bin_imm(alu, l, k),
        Op::LocalBinLocal { ref alu, a, b } => r.local_bin_local(alu, a, b),
        Op::LocalBinImmSet { ref alu, l, k, x } => r.local_bin_imm_set(alu, l, k, x),
        Op::LocalBinImmTee { ref alu, l, k, x } => r.local_bin_imm_tee(alu, l, k, x),
        Op::LocalLocalImm2 {
            ref inner,
            ref outer,
            a,
            b,
            k,
        } => r.local_local_imm2(inner, outer, a, b, k),
        Op::LocalLocalImm2Set {
            ref inner,
            ref outer,
            a,
            b,
            x,
            k,
        } => r.local_local_imm2_set(inner, outer, a, b, x, k),
        Op::Load(ref access) => r.load(access),
        Op::LocalLoad { a, ref access } => r.local_load(a, access),
        Op::Store { size, offset } => r.store(size, offset),
        Op::LocalLocalStore { a, v, size, offset } => r.local_local_store(a, v, size, offset),
        Op::Br(ref t) => r.br(t),
        Op::BrIf(ref t) => r.br_if(t),
        Op::BinBrIf { ref alu, pc } => r.bin_br_if(alu, pc),
        Op::BinImmBrIf { ref alu, k, pc } => r.bin_imm_br_if(alu, k, pc),
        Op::StepBrIf {
            ref step,
            ref cmp,
            l,
            pc,
            k,
            n,
        } => r.step_br_if(step, cmp, l, pc, k, n),
    }
}
