//! Rules for bit-vector arithmetic, bitwise operators, shifts and
//! comparisons.

use super::rewrite::Rewriter;
use crate::expr::{mask, BvBinOp, BvCmp, BvUnOp, Node, TermId};

impl Rewriter<'_> {
    pub(super) fn mk_unary(&mut self, op: BvUnOp, a: TermId) -> TermId {
        match *self.store.node(a) {
            Node::BvConst { .. } => self.fold_constants(Node::BvUn(op, a)),
            // Both operators are their own inverses.
            Node::BvUn(inner_op, x) if inner_op == op => x,
            _ => self.store.mk(Node::BvUn(op, a)),
        }
    }

    pub(super) fn mk_binary(&mut self, op: BvBinOp, a: TermId, b: TermId) -> TermId {
        if self.is_constant(a) && self.is_constant(b) {
            return self.fold_constants(Node::BvBin(op, a, b));
        }
        match op {
            BvBinOp::Add => self.mk_add(a, b),
            BvBinOp::Sub => self.mk_sub(a, b),
            BvBinOp::Mul => self.mk_mul(a, b),
            BvBinOp::And | BvBinOp::Or | BvBinOp::Xor => self.mk_bitwise(op, a, b),
            BvBinOp::Udiv | BvBinOp::Urem | BvBinOp::Sdiv | BvBinOp::Srem | BvBinOp::Smod => {
                self.mk_division(op, a, b)
            }
            BvBinOp::Shl | BvBinOp::Lshr | BvBinOp::Ashr => self.mk_shift(op, a, b),
        }
    }

    /// `c1 op (c2 op x)` for an associative `op` becomes `(c1 op c2) op x`:
    /// the constant of the result gathers all constants of the chain.
    fn gather_constants(&mut self, op: BvBinOp, c: TermId, x: TermId) -> (TermId, TermId) {
        let (mut c, mut x) = (c, x);
        while let Node::BvBin(inner_op, c2, y) = *self.store.node(x) {
            if inner_op != op || !self.is_constant(c2) {
                break;
            }
            c = self.fold_constants(Node::BvBin(op, c, c2));
            x = y;
        }
        (c, x)
    }

    fn mk_add(&mut self, a: TermId, b: TermId) -> TermId {
        let (mut a, mut b) = self.commutative_order(a, b);
        if self.is_constant(a) {
            (a, b) = self.gather_constants(BvBinOp::Add, a, b);
            if self.is_zero(a) {
                return b;
            }
        }
        self.store.bin(BvBinOp::Add, a, b)
    }

    fn mk_sub(&mut self, a: TermId, b: TermId) -> TermId {
        if a == b {
            return self.zero(self.store.width(a));
        }
        if self.is_constant(b) {
            // `x - c` is `-c + x`, so constants gather in additions.
            let minus_b = self.fold_constants(Node::BvUn(BvUnOp::Neg, b));
            return self.mk_add(minus_b, a);
        }
        if self.is_zero(a) {
            return self.mk_unary(BvUnOp::Neg, b);
        }
        self.store.bin(BvBinOp::Sub, a, b)
    }

    fn mk_mul(&mut self, a: TermId, b: TermId) -> TermId {
        let (mut a, mut b) = self.commutative_order(a, b);
        if self.is_constant(a) {
            (a, b) = self.gather_constants(BvBinOp::Mul, a, b);
            if self.is_zero(a) {
                return a;
            }
            if self.is_one(a) {
                return b;
            }
            if self.is_ones(a) {
                return self.mk_unary(BvUnOp::Neg, b);
            }
        }
        self.store.bin(BvBinOp::Mul, a, b)
    }

    /// `and`, `or` and `xor`.
    fn mk_bitwise(&mut self, op: BvBinOp, a: TermId, b: TermId) -> TermId {
        let width = self.store.width(a);
        let (mut a, mut b) = self.commutative_order(a, b);
        if a == b {
            return match op {
                BvBinOp::Xor => self.zero(width),
                _ => a,
            };
        }
        let complements = *self.store.node(a) == Node::BvUn(BvUnOp::Not, b)
            || *self.store.node(b) == Node::BvUn(BvUnOp::Not, a);
        if complements {
            return match op {
                BvBinOp::And => self.zero(width),
                _ => self.ones(width),
            };
        }
        if self.is_constant(a) {
            (a, b) = self.gather_constants(op, a, b);
            match op {
                BvBinOp::And if self.is_zero(a) => return a,
                BvBinOp::And if self.is_ones(a) => return b,
                BvBinOp::And => {
                    if let Some(kept) = self.low_mask_width(a) {
                        // Masking the low bits is slicing them, which later
                        // extracts and concatenations see through.
                        let low = self.mk_extract(kept - 1, 0, b);
                        return self.mk_zero_ext(width - kept, low);
                    }
                }
                BvBinOp::Or if self.is_zero(a) => return b,
                BvBinOp::Or if self.is_ones(a) => return a,
                BvBinOp::Xor if self.is_zero(a) => return b,
                BvBinOp::Xor if self.is_ones(a) => return self.mk_unary(BvUnOp::Not, b),
                _ => {}
            }
        }
        self.store.bin(op, a, b)
    }

    /// `k` if the constant `c` is `2^k - 1` with `0 < k < width`.
    fn low_mask_width(&self, c: TermId) -> Option<u8> {
        let value = self.bv_value(c)?;
        let kept = value.trailing_ones() as u8;
        let is_low_mask = value != 0 && mask(kept) == value && kept < self.store.width(c);
        is_low_mask.then_some(kept)
    }

    /// The divisions and remainders, with SMT-LIB's results for a zero
    /// divisor (`x udiv 0` is all ones, the remainders of `x` by 0 are `x`).
    fn mk_division(&mut self, op: BvBinOp, a: TermId, b: TermId) -> TermId {
        let width = self.store.width(a);
        match op {
            BvBinOp::Udiv | BvBinOp::Sdiv if self.is_one(b) => return a,
            BvBinOp::Udiv if self.is_zero(b) => return self.ones(width),
            BvBinOp::Urem | BvBinOp::Srem | BvBinOp::Smod => {
                // `x rem x` is 0 also for x = 0, where it is x.
                if self.is_one(b) || self.is_zero(a) || a == b {
                    return self.zero(width);
                }
                if self.is_zero(b) {
                    return a;
                }
            }
            _ => {}
        }
        self.store.bin(op, a, b)
    }

    fn mk_shift(&mut self, op: BvBinOp, a: TermId, b: TermId) -> TermId {
        let width = self.store.width(a);
        if self.is_zero(b) || self.is_zero(a) || (op == BvBinOp::Ashr && self.is_ones(a)) {
            return a;
        }
        let Some(amount) = self.bv_value(b) else {
            return self.store.bin(op, a, b);
        };
        // A shift by a constant moves slices, which later extracts and
        // concatenations see through.
        if amount >= u64::from(width) {
            return match op {
                BvBinOp::Ashr => self.sign_fill(a),
                _ => self.zero(width),
            };
        }
        let amount = amount as u8;
        match op {
            BvBinOp::Shl => {
                let kept = self.mk_extract(width - 1 - amount, 0, a);
                let zeros = self.zero(amount);
                self.mk_concat(kept, zeros)
            }
            BvBinOp::Lshr => {
                let kept = self.mk_extract(width - 1, amount, a);
                self.mk_zero_ext(amount, kept)
            }
            _ => {
                let kept = self.mk_extract(width - 1, amount, a);
                self.mk_sign_ext(amount, kept)
            }
        }
    }

    /// Every bit of `a` set to its sign bit.
    fn sign_fill(&mut self, a: TermId) -> TermId {
        let width = self.store.width(a);
        let sign = self.mk_extract(width - 1, width - 1, a);
        self.mk_sign_ext(width - 1, sign)
    }

    pub(super) fn mk_cmp(&mut self, op: BvCmp, a: TermId, b: TermId) -> TermId {
        if self.is_constant(a) && self.is_constant(b) {
            return self.fold_constants(Node::BvCmp(op, a, b));
        }
        if a == b {
            return self.store.bool_const(matches!(op, BvCmp::Ule | BvCmp::Sle));
        }
        let width = self.store.width(a);
        let ones = mask(width);
        let signed_min = 1u64 << (width - 1);
        let signed_max = signed_min - 1;
        let (va, vb) = (self.bv_value(a), self.bv_value(b));
        match op {
            BvCmp::Ult if vb == Some(0) || va == Some(ones) => self.store.fls(),
            BvCmp::Ult if vb == Some(1) => {
                let zero = self.zero(width);
                self.mk_eq(zero, a)
            }
            BvCmp::Ult if va == Some(0) => {
                let zero = self.zero(width);
                let is_zero = self.mk_eq(zero, b);
                self.mk_not(is_zero)
            }
            BvCmp::Ule if va == Some(0) || vb == Some(ones) => self.store.tru(),
            BvCmp::Ule if vb == Some(0) || va == Some(ones) => self.mk_eq(a, b),
            BvCmp::Slt if vb == Some(signed_min) || va == Some(signed_max) => self.store.fls(),
            BvCmp::Sle if va == Some(signed_min) || vb == Some(signed_max) => self.store.tru(),
            _ => self.store.cmp(op, a, b),
        }
    }
}
