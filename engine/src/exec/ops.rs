//! Integer instructions over concrete or symbolic operands. Concrete operands
//! give concrete results without building terms; division traps become
//! guarded forks.

use super::interp::{End, Executor};
use super::state::State;
use super::value::Val;
use crate::expr::{mask, to_signed, BvBinOp, BvCmp, TermId};
use crate::report::Trap;
use symplay_wasm::ir::{BinaryOp, UnaryOp};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IntOp {
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
fn int_op(op: BinaryOp) -> Option<(u8, IntOp)> {
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
    pub(crate) fn bits(self, a: u64, b: u64) -> u64 {
        concrete(self.op, self.width, a, b)
    }

    #[inline(always)]
    pub(crate) fn eval(self, a: u64, b: u64) -> Val {
        self.val(self.bits(a, b))
    }

    /// The result `bits` of this operator as a value.
    #[inline(always)]
    pub(crate) fn val(self, bits: u64) -> Val {
        Val::Con {
            width: self.result_width,
            bits,
        }
    }
}

/// `Executor::extend` on concrete bits.
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

impl Executor<'_> {
    fn finish(&mut self, t: TermId) -> Val {
        let t = self.simplifier.simplify(&mut self.store, t);
        Val::from_term(&self.store, t)
    }

    fn bool_to_i32(&mut self, c: TermId) -> Val {
        let (one, zero) = (self.store.bv_const(32, 1), self.store.bv_const(32, 0));
        let t = self.store.ite(c, one, zero);
        self.finish(t)
    }

    /// An integer binary instruction; `None` for float instructions.
    pub(crate) fn int_binary(
        &mut self,
        s: &mut State,
        op: BinaryOp,
        a: Val,
        b: Val,
    ) -> Result<Option<Val>, End> {
        if let (Val::Con { bits: x, .. }, Val::Con { bits: y, .. }) = (a, b) {
            return concrete_binary(op, x, y).transpose().map_err(End::Trap);
        }
        let Some((w, op)) = int_op(op) else {
            return Ok(None);
        };
        use IntOp::*;
        let divides = matches!(op, DivS | DivU | RemS | RemU);
        let (ta, tb) = (a.term(&mut self.store), b.term(&mut self.store));
        if divides {
            let zero = self.store.bv_const(w, 0);
            let is_zero = self.store.eq(tb, zero);
            self.guard(s, is_zero, End::Trap(Trap::DivByZero))?;
            if op == DivS {
                let (min, minus_one) = (
                    self.store.bv_const(w, 1 << (w - 1)),
                    self.store.bv_const(w, mask(w)),
                );
                let (a_min, b_neg) = (self.store.eq(ta, min), self.store.eq(tb, minus_one));
                let overflow = self.store.and(a_min, b_neg);
                self.guard(s, overflow, End::Trap(Trap::IntOverflow))?;
            }
        }
        let st = &mut self.store;
        let bin = |st: &mut crate::expr::TermStore, o: BvBinOp| st.bin(o, ta, tb);
        let amount = |st: &mut crate::expr::TermStore| {
            let m = st.bv_const(w, u64::from(w) - 1);
            st.bin(BvBinOp::And, tb, m)
        };
        let cmp = |st: &mut crate::expr::TermStore, c: BvCmp, x: TermId, y: TermId| st.cmp(c, x, y);
        let t = match op {
            Add => bin(st, BvBinOp::Add),
            Sub => bin(st, BvBinOp::Sub),
            Mul => bin(st, BvBinOp::Mul),
            DivU => bin(st, BvBinOp::Udiv),
            RemU => bin(st, BvBinOp::Urem),
            DivS => bin(st, BvBinOp::Sdiv),
            RemS => bin(st, BvBinOp::Srem),
            And => bin(st, BvBinOp::And),
            Or => bin(st, BvBinOp::Or),
            Xor => bin(st, BvBinOp::Xor),
            Shl | ShrU | ShrS => {
                let k = amount(st);
                let o = match op {
                    Shl => BvBinOp::Shl,
                    ShrU => BvBinOp::Lshr,
                    _ => BvBinOp::Ashr,
                };
                st.bin(o, ta, k)
            }
            Rotl | Rotr => {
                // (a << k) | (a >> (w - k)); a shift by w gives 0, so k = 0 works.
                let k = amount(st);
                let width = st.bv_const(w, u64::from(w));
                let back = st.bin(BvBinOp::Sub, width, k);
                let (first, second) = if op == Rotl {
                    (BvBinOp::Shl, BvBinOp::Lshr)
                } else {
                    (BvBinOp::Lshr, BvBinOp::Shl)
                };
                let x = st.bin(first, ta, k);
                let y = st.bin(second, ta, back);
                st.bin(BvBinOp::Or, x, y)
            }
            Eq | Ne | LtS | LtU | GtS | GtU | LeS | LeU | GeS | GeU => {
                let c = match op {
                    Eq => st.eq(ta, tb),
                    Ne => {
                        let e = st.eq(ta, tb);
                        st.not(e)
                    }
                    LtS => cmp(st, BvCmp::Slt, ta, tb),
                    LtU => cmp(st, BvCmp::Ult, ta, tb),
                    GtS => cmp(st, BvCmp::Slt, tb, ta),
                    GtU => cmp(st, BvCmp::Ult, tb, ta),
                    LeS => cmp(st, BvCmp::Sle, ta, tb),
                    LeU => cmp(st, BvCmp::Ule, ta, tb),
                    GeS => cmp(st, BvCmp::Sle, tb, ta),
                    _ => cmp(st, BvCmp::Ule, tb, ta),
                };
                return Ok(Some(self.bool_to_i32(c)));
            }
        };
        Ok(Some(self.finish(t)))
    }

    /// An integer unary instruction; `None` for float-related ones.
    pub(crate) fn int_unary(&mut self, op: UnaryOp, a: Val) -> Option<Val> {
        use UnaryOp::*;
        let v = match op {
            I32Eqz | I64Eqz => match a {
                Val::Con { bits, .. } => Val::bool(bits == 0),
                Val::Sym(t) => {
                    let zero = self.store.bv_const(self.store.width(t), 0);
                    let c = self.store.eq(t, zero);
                    self.bool_to_i32(c)
                }
            },
            I32Clz | I64Clz | I32Ctz | I64Ctz | I32Popcnt | I64Popcnt => {
                let w = if matches!(op, I32Clz | I32Ctz | I32Popcnt) {
                    32
                } else {
                    64
                };
                match a {
                    Val::Con { bits, .. } => {
                        let x = bits << (64 - u32::from(w)) >> (64 - u32::from(w));
                        let r = match op {
                            I32Clz | I64Clz => x.leading_zeros() - (64 - u32::from(w)),
                            I32Ctz | I64Ctz => x.trailing_zeros().min(u32::from(w)),
                            _ => x.count_ones(),
                        };
                        Val::con(w, u64::from(r))
                    }
                    Val::Sym(t) => {
                        let t = self.bit_count(op, w, t);
                        self.finish(t)
                    }
                }
            }
            I32WrapI64 => self.extend(a, 32, 32, false),
            I64ExtendI32S => self.extend(a, 32, 64, true),
            I64ExtendI32U => self.extend(a, 32, 64, false),
            I32Extend8S => self.extend(a, 8, 32, true),
            I32Extend16S => self.extend(a, 16, 32, true),
            I64Extend8S => self.extend(a, 8, 64, true),
            I64Extend16S => self.extend(a, 16, 64, true),
            I64Extend32S => self.extend(a, 32, 64, true),
            _ => return None,
        };
        Some(v)
    }

    /// clz, ctz or popcnt of a symbolic value, bit by bit.
    fn bit_count(&mut self, op: UnaryOp, w: u8, t: TermId) -> TermId {
        use UnaryOp::*;
        let st = &mut self.store;
        let one_bit = st.bv_const(1, 1);
        if matches!(op, I32Popcnt | I64Popcnt) {
            let mut sum = st.bv_const(w, 0);
            for i in 0..w {
                let bit = st.extract(i, i, t);
                let wide = st.zero_ext(w - 1, bit);
                sum = st.bin(BvBinOp::Add, sum, wide);
            }
            return sum;
        }
        // Nested ite from the far end: the first set bit seen decides.
        let mut r = st.bv_const(w, u64::from(w));
        for k in (0..w).rev() {
            let bit = if matches!(op, I32Clz | I64Clz) {
                w - 1 - k
            } else {
                k
            };
            let b = st.extract(bit, bit, t);
            let set = st.eq(b, one_bit);
            let count = st.bv_const(w, u64::from(k));
            r = st.ite(set, count, r);
        }
        r
    }

    /// The low `from` bits of `v`, extended to `to` bits (or wrapped).
    #[inline]
    pub(crate) fn extend(&mut self, v: Val, from: u32, to: u8, signed: bool) -> Val {
        match v {
            Val::Con { bits, .. } => extend_bits(bits, from, to, signed),
            Val::Sym(t) => self.extend_term(t, from, to, signed),
        }
    }

    fn extend_term(&mut self, t: TermId, from: u32, to: u8, signed: bool) -> Val {
        let w = u32::from(self.store.width(t));
        let low = if w > from {
            self.store.extract(from as u8 - 1, 0, t)
        } else {
            t
        };
        let r = if u32::from(to) > from {
            let extra = to - from as u8;
            if signed {
                self.store.sign_ext(extra, low)
            } else {
                self.store.zero_ext(extra, low)
            }
        } else {
            low
        };
        self.finish(r)
    }
}

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
