//! One rewriting step: builds a node whose children are already simplified,
//! applying the local rules of its operator.
//!
//! The rules live in one module per family (`boolean`, `bitvec`, `bits`,
//! `arrays`) as `mk_*` methods of [`Rewriter`]; a rule may call another
//! family's `mk_*` on the parts it produces, but only on smaller or fixed
//! shapes, and walks along chains (nested stores, extracts of concats) with
//! loops, so no rule recurses on term depth.

use super::fold::fold;
use crate::expr::{mask, Node, TermId, TermStore};

pub(super) struct Rewriter<'a> {
    pub(super) store: &'a mut TermStore,
}

impl<'a> Rewriter<'a> {
    pub(super) fn new(store: &'a mut TermStore) -> Rewriter<'a> {
        Rewriter { store }
    }

    /// The simplified term for `node`, whose children are simplified.
    pub(super) fn rewrite(&mut self, node: Node) -> TermId {
        if let Some(constant) = fold(self.store, &node) {
            return constant;
        }
        match node {
            // A forall is expanded or kept by the simplifier itself
            // (`Simplifier::forall`): its instances need simplifying too.
            Node::BoolConst(_)
            | Node::BvConst { .. }
            | Node::Symbol(_)
            | Node::Bound(_)
            | Node::Forall(..) => self.store.mk(node),
            Node::Not(a) => self.mk_not(a),
            Node::And(a, b) => self.mk_and(a, b),
            Node::Or(a, b) => self.mk_or(a, b),
            Node::Xor(a, b) => self.mk_xor(a, b),
            Node::Ite(c, t, e) => self.mk_ite(c, t, e),
            Node::Eq(a, b) => self.mk_eq(a, b),
            Node::BvUn(op, a) => self.mk_unary(op, a),
            Node::BvBin(op, a, b) => self.mk_binary(op, a, b),
            Node::BvCmp(op, a, b) => self.mk_cmp(op, a, b),
            Node::Extract { hi, lo, arg } => self.mk_extract(hi, lo, arg),
            Node::Concat(high, low) => self.mk_concat(high, low),
            Node::ZeroExt(extra, a) => self.mk_zero_ext(extra, a),
            Node::SignExt(extra, a) => self.mk_sign_ext(extra, a),
            Node::RotateLeft(k, a) => self.mk_rotate_left(k, a),
            Node::RotateRight(k, a) => self.mk_rotate_right(k, a),
            Node::Select(array, index) => self.mk_select(array, index),
            Node::Store(array, index, value) => self.mk_store(array, index, value),
            Node::ConstArray(value) => self.store.const_array(value),
        }
    }

    /// The constant `node` evaluates to; its children must be constants.
    /// Falls back to building the node, which is always correct.
    pub(super) fn fold_constants(&mut self, node: Node) -> TermId {
        match fold(self.store, &node) {
            Some(constant) => constant,
            None => self.store.mk(node),
        }
    }

    pub(super) fn is_constant(&self, t: TermId) -> bool {
        matches!(
            self.store.node(t),
            Node::BoolConst(_) | Node::BvConst { .. }
        )
    }

    /// The value of a bit-vector constant.
    pub(super) fn bv_value(&self, t: TermId) -> Option<u64> {
        self.store.as_bv_const(t)
    }

    pub(super) fn is_zero(&self, t: TermId) -> bool {
        self.bv_value(t) == Some(0)
    }

    pub(super) fn is_one(&self, t: TermId) -> bool {
        self.bv_value(t) == Some(1)
    }

    pub(super) fn is_ones(&self, t: TermId) -> bool {
        self.bv_value(t) == Some(mask(self.store.width(t)))
    }

    pub(super) fn zero(&mut self, width: u8) -> TermId {
        self.store.bv_const(width, 0)
    }

    pub(super) fn ones(&mut self, width: u8) -> TermId {
        self.store.bv_const(width, mask(width))
    }

    /// The operands of a commutative operator in canonical order: constants
    /// first, then by id, so `x + y` and `y + x` build the same term.
    pub(super) fn commutative_order(&self, a: TermId, b: TermId) -> (TermId, TermId) {
        let key = |t: TermId| (!self.is_constant(t), t);
        if key(b) < key(a) {
            (b, a)
        } else {
            (a, b)
        }
    }
}
