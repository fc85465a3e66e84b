//! Rules for the boolean connectives, `ite` and equality.

use super::rewrite::Rewriter;
use crate::expr::{BvBinOp, BvCmp, Node, Sort, TermId};

impl Rewriter<'_> {
    pub(super) fn mk_not(&mut self, a: TermId) -> TermId {
        match *self.store.node(a) {
            Node::BoolConst(b) => self.store.bool_const(!b),
            Node::Not(inner) => inner,
            // `not (x < y)` is `y <= x`, and `not (x <= y)` is `y < x`.
            Node::BvCmp(op, x, y) => {
                let flipped = match op {
                    BvCmp::Ult => BvCmp::Ule,
                    BvCmp::Ule => BvCmp::Ult,
                    BvCmp::Slt => BvCmp::Sle,
                    BvCmp::Sle => BvCmp::Slt,
                };
                self.mk_cmp(flipped, y, x)
            }
            _ => self.store.not(a),
        }
    }

    pub(super) fn mk_and(&mut self, a: TermId, b: TermId) -> TermId {
        let (a, b) = self.commutative_order(a, b);
        match self.store.as_bool_const(a) {
            Some(false) => return a,
            Some(true) => return b,
            None => {}
        }
        if a == b {
            return a;
        }
        if self.negate_each_other(a, b) {
            return self.store.fls();
        }
        self.store.and(a, b)
    }

    pub(super) fn mk_or(&mut self, a: TermId, b: TermId) -> TermId {
        let (a, b) = self.commutative_order(a, b);
        match self.store.as_bool_const(a) {
            Some(true) => return a,
            Some(false) => return b,
            None => {}
        }
        if a == b {
            return a;
        }
        if self.negate_each_other(a, b) {
            return self.store.tru();
        }
        self.store.or(a, b)
    }

    pub(super) fn mk_xor(&mut self, a: TermId, b: TermId) -> TermId {
        let (a, b) = self.commutative_order(a, b);
        match self.store.as_bool_const(a) {
            Some(false) => return b,
            Some(true) => return self.mk_not(b),
            None => {}
        }
        if a == b {
            return self.store.fls();
        }
        if self.negate_each_other(a, b) {
            return self.store.tru();
        }
        self.store.xor(a, b)
    }

    fn negate_each_other(&self, a: TermId, b: TermId) -> bool {
        *self.store.node(a) == Node::Not(b) || *self.store.node(b) == Node::Not(a)
    }

    pub(super) fn mk_ite(&mut self, c: TermId, t: TermId, e: TermId) -> TermId {
        let (mut c, mut t, mut e) = (c, t, e);
        while let Node::Not(inner) = *self.store.node(c) {
            c = inner;
            std::mem::swap(&mut t, &mut e);
        }
        match self.store.as_bool_const(c) {
            Some(true) => return t,
            Some(false) => return e,
            None => {}
        }
        // A branch that tests `c` again knows its outcome.
        if let Node::Ite(c2, t2, _) = *self.store.node(t) {
            if c2 == c {
                t = t2;
            }
        }
        if let Node::Ite(c2, _, e2) = *self.store.node(e) {
            if c2 == c {
                e = e2;
            }
        }
        if t == e {
            return t;
        }
        if self.store.sort(t) == Sort::Bool {
            if let Some(boolean) = self.boolean_ite(c, t, e) {
                return boolean;
            }
        }
        self.store.ite(c, t, e)
    }

    /// A boolean `ite` with a constant branch, or a branch equal to the
    /// condition, as a connective.
    fn boolean_ite(&mut self, c: TermId, t: TermId, e: TermId) -> Option<TermId> {
        // Where `t` is taken `c` is true, and where `e` is taken it is false.
        let then_value = if t == c {
            Some(true)
        } else {
            self.store.as_bool_const(t)
        };
        let else_value = if e == c {
            Some(false)
        } else {
            self.store.as_bool_const(e)
        };
        Some(match (then_value, else_value) {
            (Some(true), Some(false)) => c,
            (Some(false), Some(true)) => self.mk_not(c),
            (Some(true), _) => self.mk_or(c, e),
            (Some(false), _) => {
                let not_c = self.mk_not(c);
                self.mk_and(not_c, e)
            }
            (_, Some(true)) => {
                let not_c = self.mk_not(c);
                self.mk_or(not_c, t)
            }
            (_, Some(false)) => self.mk_and(c, t),
            (None, None) => return None,
        })
    }

    pub(super) fn mk_eq(&mut self, a: TermId, b: TermId) -> TermId {
        let (a, b) = self.commutative_order(a, b);
        if a == b {
            return self.store.tru();
        }
        if self.is_constant(a) && self.is_constant(b) {
            // Hash-consing makes equal constants one term.
            return self.store.fls();
        }
        if self.store.sort(a) == Sort::Bool {
            return match self.store.as_bool_const(a) {
                Some(true) => b,
                Some(false) => self.mk_not(b),
                None if self.negate_each_other(a, b) => self.store.fls(),
                None => self.store.eq(a, b),
            };
        }
        if self.is_constant(a) {
            return self.mk_eq_constant(a, b);
        }
        self.store.eq(a, b)
    }

    /// `k = b` for a bit-vector constant `k`: peels invertible operators
    /// off `b` (`c + x = k` is `x = k - c`) and decides `ite`s of constants.
    fn mk_eq_constant(&mut self, k: TermId, b: TermId) -> TermId {
        let (mut k, mut b) = (k, b);
        loop {
            let node = *self.store.node(b);
            let (next_k, next_b) = match node {
                Node::BvBin(BvBinOp::Add, c, x) if self.is_constant(c) => {
                    (self.fold_constants(Node::BvBin(BvBinOp::Sub, k, c)), x)
                }
                Node::BvBin(BvBinOp::Sub, c, x) if self.is_constant(c) => {
                    (self.fold_constants(Node::BvBin(BvBinOp::Sub, c, k)), x)
                }
                Node::BvBin(BvBinOp::Xor, c, x) if self.is_constant(c) => {
                    (self.fold_constants(Node::BvBin(BvBinOp::Xor, c, k)), x)
                }
                // `bvnot` and `bvneg` are their own inverses.
                Node::BvUn(op, x) => (self.fold_constants(Node::BvUn(op, k)), x),
                Node::ZeroExt(extra, x) if extra > 0 => {
                    let width = self.store.width(x);
                    let high = Node::Extract {
                        hi: self.store.width(b) - 1,
                        lo: width,
                        arg: k,
                    };
                    let high = self.fold_constants(high);
                    if !self.is_zero(high) {
                        return self.store.fls();
                    }
                    let low = Node::Extract {
                        hi: width - 1,
                        lo: 0,
                        arg: k,
                    };
                    (self.fold_constants(low), x)
                }
                _ => break,
            };
            k = next_k;
            b = next_b;
        }
        if self.is_constant(b) {
            return self.store.bool_const(k == b);
        }
        self.eq_constant_ite(k, b)
    }

    /// `k = b` where `b` may be a chain of `ite`s with a constant arm each
    /// (`c1 ? -1 : (c2 ? 1 : 0)`, as optimised code computes a result):
    /// decided arm by arm into a condition on the `c`s, walking the chain
    /// with a loop.
    fn eq_constant_ite(&mut self, k: TermId, b: TermId) -> TermId {
        // Each link: its condition, whether its constant arm is the `then`
        // arm, and whether that constant is `k`.
        let mut chain = Vec::new();
        let mut rest = b;
        while let Node::Ite(c, t, e) = *self.store.node(rest) {
            let (constant_then, other) = match (self.is_constant(t), self.is_constant(e)) {
                (true, true) => {
                    let decided = match (t == k, e == k) {
                        (true, true) => self.store.tru(),
                        (true, false) => c,
                        (false, true) => self.mk_not(c),
                        (false, false) => self.store.fls(),
                    };
                    return self.close_chain(&chain, decided);
                }
                (true, false) => (true, e),
                (false, true) => (false, t),
                (false, false) => break,
            };
            let constant = if constant_then { t } else { e };
            chain.push((c, constant_then, constant == k));
            rest = other;
        }
        let last = if self.is_constant(rest) {
            self.store.bool_const(rest == k)
        } else {
            self.store.eq(k, rest)
        };
        self.close_chain(&chain, last)
    }

    /// The condition of a chain of `ite` links (innermost last) whose
    /// innermost arm's condition is `inner`.
    fn close_chain(&mut self, chain: &[(TermId, bool, bool)], inner: TermId) -> TermId {
        let mut acc = inner;
        for &(c, constant_then, is_k) in chain.iter().rev() {
            let constant = self.store.bool_const(is_k);
            acc = if constant_then {
                self.mk_ite(c, constant, acc)
            } else {
                self.mk_ite(c, acc, constant)
            };
        }
        acc
    }
}
