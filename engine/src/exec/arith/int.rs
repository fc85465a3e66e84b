//! Integer instructions on concrete bits: their results (and traps) as
//! Wasm defines them, which the fast path and the interpreter both compute
//! without building terms, and [`Alu`], an operator decoded once for the
//! fast path's fused ops.

use crate::expr::{mask, to_signed};
use crate::report::Trap;
use crate::state::value::Val;
use symplay_wasm::ir::BinaryOp;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntOp {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
    Rotl,
    Rotr,
    Eq,
    Ne,
    LtS,
    LtU,
    GtS,
    GtU,
    LeS,
    LeU,
    GeS,
    GeU,
}

// Inlined into the concrete fast path, where it is measurably faster.
#[inline(always)]
pub(crate) fn int_op(op: BinaryOp) -> Option<(u8, IntOp)> {
    use BinaryOp as B;
    use IntOp::*;
    Some(match op {
        B::I32Eq => (32, Eq),
        B::I32Ne => (32, Ne),
        B::I32LtS => (32, LtS),
        B::I32LtU => (32, LtU),
        B::I32GtS => (32, GtS),
        B::I32GtU => (32, GtU),
        B::I32LeS => (32, LeS),
        B::I32LeU => (32, LeU),
        B::I32GeS => (32, GeS),
        B::I32GeU => (32, GeU),
        B::I64Eq => (64, Eq),
        B::I64Ne => (64, Ne),
        B::I64LtS => (64, LtS),
        B::I64LtU => (64, LtU),
        B::I64GtS => (64, GtS),
        B::I64GtU => (64, GtU),
        B::I64LeS => (64, LeS),
        B::I64LeU => (64, LeU),
        B::I64GeS => (64, GeS),
        B::I64GeU => (64, GeU),
        B::I32Add => (32, Add),
        B::I32Sub => (32, Sub),
        B::I32Mul => (32, Mul),
        B::I32DivS => (32, DivS),
        B::I32DivU => (32, DivU),
        B::I32RemS => (32, RemS),
        B::I32RemU => (32, RemU),
        B::I32And => (32, And),
        B::I32Or => (32, Or),
        B::I32Xor => (32, Xor),
        B::I32Shl => (32, Shl),
        B::I32ShrS => (32, ShrS),
        B::I32ShrU => (32, ShrU),
        B::I32Rotl => (32, Rotl),
        B::I32Rotr => (32, Rotr),
        B::I64Add => (64, Add),
        B::I64Sub => (64, Sub),
        B::I64Mul => (64, Mul),
        B::I64DivS => (64, DivS),
        B::I64DivU => (64, DivU),
        B::I64RemS => (64, RemS),
        B::I64RemU => (64, RemU),
        B::I64And => (64, And),
        B::I64Or => (64, Or),
        B::I64Xor => (64, Xor),
        B::I64Shl => (64, Shl),
        B::I64ShrS => (64, ShrS),
        B::I64ShrU => (64, ShrU),
        B::I64Rotl => (64, Rotl),
        B::I64Rotr => (64, Rotr),
        _ => return None,
    })
}

/// An integer binary instruction on concrete operands, or its trap; `None`
/// for float instructions.
pub(crate) fn concrete_binary(op: BinaryOp, x: u64, y: u64) -> Option<Result<Val, Trap>> {
    use IntOp::*;
    let (w, op) = int_op(op)?;
    if matches!(op, DivS | DivU | RemS | RemU) && y == 0 {
        return Some(Err(Trap::DivByZero));
    }
    if op == DivS && to_signed(w, x) == to_signed(w, 1 << (w - 1)) && y == mask(w) {
        return Some(Err(Trap::IntOverflow));
    }
    Some(Ok(Val::con(result_width(w, op), concrete(op, w, x, y))))
}

/// Comparisons give an i32 whatever the operand width.
fn result_width(w: u8, op: IntOp) -> u8 {
    use IntOp::*;
    match op {
        Eq | Ne | LtS | LtU | GtS | GtU | LeS | LeU | GeS | GeU => 32,
        _ => w,
    }
}

/// An integer binary operator that cannot trap (no division or remainder),
/// decoded once so the fast path does not decode a `BinaryOp` per run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Alu {
    width: u8,
    result_width: u8,
    op: IntOp,
}

impl Alu {
    pub(crate) fn new(op: BinaryOp) -> Option<Alu> {
        use IntOp::*;
        let (width, op) = int_op(op)?;
        (!matches!(op, DivS | DivU | RemS | RemU)).then_some(Alu {
            width,
            result_width: result_width(width, op),
            op,
        })
    }

    /// Wasm semantics on concrete operands of the operator's width.
    #[inline(always)]
    pub(crate) fn bits(&self, a: u64, b: u64) -> u64 {
        concrete(self.op, self.width, a, b)
    }

    #[inline(always)]
    pub(crate) fn eval(&self, a: u64, b: u64) -> Val {
        self.val(self.bits(a, b))
    }

    /// The result `bits` of this operator as a value.
    #[inline(always)]
    pub(crate) fn val(&self, bits: u64) -> Val {
        Val::Con {
            width: self.result_width,
            bits,
        }
    }
}

/// The low `from` bits of `bits`, extended to `to` bits (or wrapped).
pub(crate) fn extend_bits(bits: u64, from: u32, to: u8, signed: bool) -> Val {
    let low = bits & mask(from as u8);
    let r = if signed {
        to_signed(from as u8, low) as u64
    } else {
        low
    };
    Val::con(to, r)
}

/// Wasm semantics on concrete bits; division by zero and overflow are
/// checked by the caller first.
#[inline(always)]
fn concrete(op: IntOp, w: u8, a: u64, b: u64) -> u64 {
    if w == 32 {
        u64::from(concrete32(op, a as u32, b as u32))
    } else {
        concrete64(op, a, b)
    }
}

/// `concrete` at one width, on native integers: the concrete fast path.
macro_rules! concrete_at {
    ($name:ident, $u:ty, $s:ty) => {
        #[inline(always)]
        fn $name(op: IntOp, a: $u, b: $u) -> $u {
            use IntOp::*;
            let (sa, sb) = (a as $s, b as $s);
            // Shift and rotate amounts are taken modulo the width, as in Wasm.
            let k = b as u32;
            match op {
                Add => a.wrapping_add(b),
                Sub => a.wrapping_sub(b),
                Mul => a.wrapping_mul(b),
                DivU => a / b,
                RemU => a % b,
                DivS => sa.wrapping_div(sb) as $u,
                RemS => sa.wrapping_rem(sb) as $u,
                And => a & b,
                Or => a | b,
                Xor => a ^ b,
                Shl => a.wrapping_shl(k),
                ShrU => a.wrapping_shr(k),
                ShrS => sa.wrapping_shr(k) as $u,
                Rotl => a.rotate_left(k),
                Rotr => a.rotate_right(k),
                Eq => <$u>::from(a == b),
                Ne => <$u>::from(a != b),
                LtS => <$u>::from(sa < sb),
                LtU => <$u>::from(a < b),
                GtS => <$u>::from(sa > sb),
                GtU => <$u>::from(a > b),
                LeS => <$u>::from(sa <= sb),
                LeU => <$u>::from(a <= b),
                GeS => <$u>::from(sa >= sb),
                GeU => <$u>::from(a >= b),
            }
        }
    };
}

concrete_at!(concrete32, u32, i32);
concrete_at!(concrete64, u64, i64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concrete_semantics_follow_wasm() {
        assert_eq!(concrete(IntOp::RemS, 32, 0x8000_0000, 0xffff_ffff), 0);
        assert_eq!(concrete(IntOp::Shl, 32, 1, 33), 2);
        assert_eq!(concrete(IntOp::ShrS, 32, 0x8000_0000, 31), 0xffff_ffff);
        assert_eq!(concrete(IntOp::Rotl, 32, 0x8000_0001, 1), 3);
        assert_eq!(concrete(IntOp::Rotr, 32, 3, 0x21), 0x8000_0001);
        assert_eq!(concrete(IntOp::Shl, 64, 1, 65), 2);
        assert_eq!(concrete(IntOp::ShrS, 64, 1 << 63, 0x7f), u64::MAX);
        assert_eq!(concrete(IntOp::Rotl, 64, 1 << 63, 0x41), 1);
        assert_eq!(concrete(IntOp::LtS, 64, u64::MAX, 0), 1);
        assert_eq!(concrete(IntOp::DivS, 32, 0xffff_fff9, 2), 0xffff_fffd);
    }
}
