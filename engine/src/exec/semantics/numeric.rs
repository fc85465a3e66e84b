//! Numeric instructions on the state's values. Concrete operands give
//! concrete results without building terms (`arith/`); symbolic integer
//! operands give terms, a division's traps guarded by forks; floats are
//! made concrete first, as the engine keeps them.

use crate::exec::arith::float;
use crate::exec::arith::int::{concrete_binary, extend_bits, int_op, IntOp};
use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::expr::{mask, BvBinOp, BvCmp, TermId};
use crate::report::Trap;
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::ir::{BinaryOp, UnaryOp};

impl Executor<'_> {
    pub(super) fn unary(&mut self, s: &mut State, op: UnaryOp) -> Result<Flow, End> {
        let a = s.pop();
        let v = match self.int_unary(op, a) {
            Some(v) => v,
            None => {
                let bits = self.concretize_kept(s, a, "a float operand")?;
                let (width, bits) = float::unary(op, bits)
                    .expect("every unary operator is integer or float")
                    .map_err(End::Trap)?;
                Val::con(width, bits)
            }
        };
        s.stack.push(v);
        Ok(Flow::Next)
    }

    pub(super) fn binary(&mut self, s: &mut State, op: BinaryOp) -> Result<Flow, End> {
        let b = s.pop();
        let a = s.pop();
        let v = match self.int_binary(s, op, a, b)? {
            Some(v) => v,
            None => {
                let a = self.concretize_kept(s, a, "a float operand")?;
                let b = self.concretize_kept(s, b, "a float operand")?;
                let (width, bits) =
                    float::binary(op, a, b).expect("every binary operator is integer or float");
                Val::con(width, bits)
            }
        };
        s.stack.push(v);
        Ok(Flow::Next)
    }

    fn finish(&mut self, t: TermId) -> Val {
        let t = self.cx.caches.simplifier.simplify(&mut self.cx.terms, t);
        Val::from_term(&self.cx.terms, t)
    }

    fn bool_to_i32(&mut self, c: TermId) -> Val {
        let (one, zero) = (self.cx.terms.bv_const(32, 1), self.cx.terms.bv_const(32, 0));
        let t = self.cx.terms.ite(c, one, zero);
        self.finish(t)
    }

    /// An integer binary instruction; `None` for float instructions.
    fn int_binary(
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
        let (ta, tb) = (a.term(&mut self.cx.terms), b.term(&mut self.cx.terms));
        if divides {
            let zero = self.cx.terms.bv_const(w, 0);
            let is_zero = self.cx.terms.eq(tb, zero);
            self.guard(s, is_zero, End::Trap(Trap::DivByZero))?;
            if op == DivS {
                let (min, minus_one) = (
                    self.cx.terms.bv_const(w, 1 << (w - 1)),
                    self.cx.terms.bv_const(w, mask(w)),
                );
                let (a_min, b_neg) = (self.cx.terms.eq(ta, min), self.cx.terms.eq(tb, minus_one));
                let overflow = self.cx.terms.and(a_min, b_neg);
                self.guard(s, overflow, End::Trap(Trap::IntOverflow))?;
            }
        }
        let st = &mut self.cx.terms;
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
    fn int_unary(&mut self, op: UnaryOp, a: Val) -> Option<Val> {
        use UnaryOp::*;
        let v = match op {
            I32Eqz | I64Eqz => match a {
                Val::Con { bits, .. } => Val::bool(bits == 0),
                Val::Sym(t) => {
                    let zero = self.cx.terms.bv_const(self.cx.terms.width(t), 0);
                    let c = self.cx.terms.eq(t, zero);
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
        let st = &mut self.cx.terms;
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
    pub(super) fn extend(&mut self, v: Val, from: u32, to: u8, signed: bool) -> Val {
        match v {
            Val::Con { bits, .. } => extend_bits(bits, from, to, signed),
            Val::Sym(t) => self.extend_term(t, from, to, signed),
        }
    }

    fn extend_term(&mut self, t: TermId, from: u32, to: u8, signed: bool) -> Val {
        let w = u32::from(self.cx.terms.width(t));
        let low = if w > from {
            self.cx.terms.extract(from as u8 - 1, 0, t)
        } else {
            t
        };
        let r = if u32::from(to) > from {
            let extra = to - from as u8;
            if signed {
                self.cx.terms.sign_ext(extra, low)
            } else {
                self.cx.terms.zero_ext(extra, low)
            }
        } else {
            low
        };
        self.finish(r)
    }
}
