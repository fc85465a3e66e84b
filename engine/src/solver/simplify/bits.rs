//! Rules for slicing and widening: extract, concat, zero and sign
//! extension, rotations.

use super::rewrite::Rewriter;
use crate::expr::{Node, TermId};

impl Rewriter<'_> {
    pub(super) fn mk_extract(&mut self, hi: u8, lo: u8, arg: TermId) -> TermId {
        let (mut hi, mut lo, mut arg) = (hi, lo, arg);
        // Zero bits above the slice, from a zero extension it straddled.
        let mut zeros_above = 0;
        let slice = loop {
            if lo == 0 && hi == self.store.width(arg) - 1 {
                break arg;
            }
            match *self.store.node(arg) {
                Node::BvConst { .. } => break self.fold_constants(Node::Extract { hi, lo, arg }),
                Node::Extract {
                    lo: inner_lo,
                    arg: inner,
                    ..
                } => {
                    hi += inner_lo;
                    lo += inner_lo;
                    arg = inner;
                }
                Node::Concat(high, low) => {
                    let low_width = self.store.width(low);
                    if hi < low_width {
                        arg = low;
                    } else if lo >= low_width {
                        hi -= low_width;
                        lo -= low_width;
                        arg = high;
                    } else {
                        break self.store.extract(hi, lo, arg);
                    }
                }
                Node::ZeroExt(_, inner) => {
                    let inner_width = self.store.width(inner);
                    if lo >= inner_width {
                        break self.zero(hi - lo + 1);
                    }
                    if hi >= inner_width {
                        zeros_above += hi + 1 - inner_width;
                        hi = inner_width - 1;
                    }
                    arg = inner;
                }
                Node::SignExt(_, inner) if hi < self.store.width(inner) => arg = inner,
                _ => break self.store.extract(hi, lo, arg),
            }
        };
        self.mk_zero_ext(zeros_above, slice)
    }

    pub(super) fn mk_concat(&mut self, high: TermId, low: TermId) -> TermId {
        if self.is_constant(high) && self.is_constant(low) {
            return self.fold_constants(Node::Concat(high, low));
        }
        if self.is_zero(high) {
            return self.mk_zero_ext(self.store.width(high), low);
        }
        if let Some(merged) = self.merge_slices(high, low) {
            return merged;
        }
        // Adjacent slices also merge across one level of nesting.
        if let Node::Concat(low_high, low_low) = *self.store.node(low) {
            if let Some(merged) = self.merge_slices(high, low_high) {
                return self.store.concat(merged, low_low);
            }
        }
        if let Node::Concat(high_high, high_low) = *self.store.node(high) {
            if let Some(merged) = self.merge_slices(high_low, low) {
                return self.store.concat(high_high, merged);
            }
        }
        self.store.concat(high, low)
    }

    /// `concat(x[h:m+1], x[m:l])` is `x[h:l]`.
    fn merge_slices(&mut self, high: TermId, low: TermId) -> Option<TermId> {
        let Node::Extract {
            hi,
            lo: high_lo,
            arg: high_arg,
        } = *self.store.node(high)
        else {
            return None;
        };
        let Node::Extract {
            hi: low_hi,
            lo,
            arg: low_arg,
        } = *self.store.node(low)
        else {
            return None;
        };
        let adjacent = high_arg == low_arg && u16::from(high_lo) == u16::from(low_hi) + 1;
        adjacent.then(|| self.mk_extract(hi, lo, high_arg))
    }

    pub(super) fn mk_zero_ext(&mut self, extra: u8, a: TermId) -> TermId {
        if extra == 0 {
            return a;
        }
        match *self.store.node(a) {
            Node::BvConst { .. } => self.fold_constants(Node::ZeroExt(extra, a)),
            Node::ZeroExt(inner_extra, inner) => self.store.zero_ext(extra + inner_extra, inner),
            _ => self.store.zero_ext(extra, a),
        }
    }

    pub(super) fn mk_sign_ext(&mut self, extra: u8, a: TermId) -> TermId {
        if extra == 0 {
            return a;
        }
        match *self.store.node(a) {
            Node::BvConst { .. } => self.fold_constants(Node::SignExt(extra, a)),
            Node::SignExt(inner_extra, inner) => self.store.sign_ext(extra + inner_extra, inner),
            // The sign bit of a zero extension is 0.
            Node::ZeroExt(inner_extra, inner) if inner_extra > 0 => {
                self.store.zero_ext(extra + inner_extra, inner)
            }
            _ => self.store.sign_ext(extra, a),
        }
    }

    /// Rotations by any amount become left rotations by less than the
    /// width, and nested ones combine.
    pub(super) fn mk_rotate_left(&mut self, amount: u8, a: TermId) -> TermId {
        let width = self.store.width(a);
        let mut amount = amount % width;
        let mut a = a;
        if let Node::RotateLeft(inner_amount, inner) = *self.store.node(a) {
            amount = ((u16::from(amount) + u16::from(inner_amount)) % u16::from(width)) as u8;
            a = inner;
        }
        if amount == 0 {
            return a;
        }
        if self.is_constant(a) {
            return self.fold_constants(Node::RotateLeft(amount, a));
        }
        self.store.mk(Node::RotateLeft(amount, a))
    }

    pub(super) fn mk_rotate_right(&mut self, amount: u8, a: TermId) -> TermId {
        let width = self.store.width(a);
        let amount = amount % width;
        self.mk_rotate_left((width - amount) % width, a)
    }
}
