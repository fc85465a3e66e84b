//! Rules for array reads and writes.

use super::rewrite::Rewriter;
use crate::expr::{BvBinOp, Node, TermId};

impl Rewriter<'_> {
    /// Read-over-write: a read looks through the writes to indices that
    /// provably differ from its own, and stops at one to the same index.
    pub(super) fn mk_select(&mut self, array: TermId, index: TermId) -> TermId {
        let mut array = array;
        loop {
            match *self.store.node(array) {
                Node::ConstArray(value) => return value,
                Node::Store(inner, written, value) => {
                    if written == index {
                        return value;
                    }
                    if !self.provably_distinct(written, index) {
                        break;
                    }
                    array = inner;
                }
                _ => break,
            }
        }
        self.store.select(array, index)
    }

    pub(super) fn mk_store(&mut self, array: TermId, index: TermId, value: TermId) -> TermId {
        let mut array = array;
        // A write to the same index hides the earlier ones.
        while let Node::Store(inner, written, _) = *self.store.node(array) {
            if written != index {
                break;
            }
            array = inner;
        }
        // Writing back what the array holds changes nothing.
        if *self.store.node(value) == Node::Select(array, index) {
            return array;
        }
        self.store.store(array, index, value)
    }

    /// Whether two indices differ under every model: they are distinct
    /// constants, or the same term plus distinct constant offsets.
    fn provably_distinct(&self, i: TermId, j: TermId) -> bool {
        let (base_i, offset_i) = self.base_and_offset(i);
        let (base_j, offset_j) = self.base_and_offset(j);
        base_i == base_j && offset_i != offset_j
    }

    /// `t` as `base + offset`; a constant has no base.
    fn base_and_offset(&self, t: TermId) -> (Option<TermId>, u64) {
        match *self.store.node(t) {
            Node::BvConst { value, .. } => (None, value),
            Node::BvBin(BvBinOp::Add, c, x) => match self.bv_value(c) {
                Some(offset) => (Some(x), offset),
                None => (Some(t), 0),
            },
            _ => (Some(t), 0),
        }
    }
}
