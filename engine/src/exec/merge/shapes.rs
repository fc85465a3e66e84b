//! The shape of a condition, for regular patterns
//! (`../shared/design/quantified_merging.md` §2.1): a hash of its term with
//! every constant's value left out, so that `n > 0` and `n > 1`, or
//! `s[0] = 97` and `s[1] = 97`, are alike, while a condition and its
//! negation are not. As the seed's prototype does, an addition of a
//! constant, or a subtraction of one, hashes as its other operand (`x + 1`
//! and `x - 1` as `x`; not `1 - x`).

use crate::expr::{BvBinOp, Node, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// Shapes of terms, each term's hashed once.
#[derive(Default)]
pub(super) struct Shapes {
    known: FxHashMap<TermId, u64>,
}

impl Shapes {
    /// The shape of `t`, its subterms' first (without recursion: a term may
    /// be as deep as a loop ran).
    pub(super) fn of(&mut self, store: &TermStore, t: TermId) -> u64 {
        let mut stack = vec![(t, false)];
        while let Some((u, children_done)) = stack.pop() {
            if self.known.contains_key(&u) {
                continue;
            }
            let node = store.node(u);
            if !children_done {
                stack.push((u, true));
                stack.extend(node.children().map(|c| (c, false)));
                continue;
            }
            let children: Vec<u64> = node.children().map(|c| self.known[&c]).collect();
            let shape = match *node {
                Node::BvBin(op @ (BvBinOp::Add | BvBinOp::Sub), a, b) => {
                    match (store.as_bv_const(a), store.as_bv_const(b)) {
                        (Some(_), None) if op == BvBinOp::Add => children[1],
                        (None, Some(_)) => children[0],
                        _ => combine(own(node), &children),
                    }
                }
                _ => combine(own(node), &children),
            };
            self.known.insert(u, shape);
        }
        self.known[&t]
    }
}

fn combine(own: u64, children: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    own.hash(&mut h);
    children.hash(&mut h);
    h.finish()
}

/// What a node is without its children: its operator and parameters; a
/// constant's width, not its value.
fn own(node: &Node) -> u64 {
    let mut h = FxHasher::default();
    match *node {
        Node::BvConst { width, .. } => (0u8, width).hash(&mut h),
        Node::BoolConst(b) => (1u8, b).hash(&mut h),
        Node::Symbol(s) => (2u8, s).hash(&mut h),
        Node::Not(_) => 3u8.hash(&mut h),
        Node::And(..) => 4u8.hash(&mut h),
        Node::Or(..) => 5u8.hash(&mut h),
        Node::Xor(..) => 6u8.hash(&mut h),
        Node::Ite(..) => 7u8.hash(&mut h),
        Node::Eq(..) => 8u8.hash(&mut h),
        Node::BvUn(op, _) => (9u8, op).hash(&mut h),
        Node::BvBin(op, ..) => (10u8, op).hash(&mut h),
        Node::BvCmp(op, ..) => (11u8, op).hash(&mut h),
        Node::Extract { hi, lo, .. } => (12u8, hi, lo).hash(&mut h),
        Node::Concat(..) => 13u8.hash(&mut h),
        Node::ZeroExt(w, _) => (14u8, w).hash(&mut h),
        Node::SignExt(w, _) => (15u8, w).hash(&mut h),
        Node::RotateLeft(n, _) => (16u8, n).hash(&mut h),
        Node::RotateRight(n, _) => (17u8, n).hash(&mut h),
        Node::Select(..) => 18u8.hash(&mut h),
        Node::Store(..) => 19u8.hash(&mut h),
        Node::ConstArray(_) => 20u8.hash(&mut h),
        Node::Forall(..) => 21u8.hash(&mut h),
        Node::Bound(width) => (22u8, width).hash(&mut h),
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Sort};

    #[test]
    fn conditions_alike_but_for_constants_share_a_shape_and_a_negation_does_not() {
        let mut st = TermStore::new();
        let n = st.declare("n", Sort::Bv(32)).unwrap();
        let s = st.declare("s", Sort::Array).unwrap();
        let [zero, one] = [0, 1].map(|k| st.bv_const(32, k));
        let a = st.bv_const(8, 97);
        let mut shapes = Shapes::default();
        let mut shape = |st: &mut TermStore, t| shapes.of(st, t);
        // n > 0 and n > 1.
        let (g0, g1) = (st.cmp(BvCmp::Ult, zero, n), st.cmp(BvCmp::Ult, one, n));
        assert_eq!(shape(&mut st, g0), shape(&mut st, g1));
        let r0 = st.not(g0);
        assert_ne!(shape(&mut st, g0), shape(&mut st, r0));
        // s[0] = 97 and s[1] = 97; s[n] = 97 is another shape.
        let (s0, s1, sn) = (st.select(s, zero), st.select(s, one), st.select(s, n));
        let (b0, b1, bn) = (st.eq(s0, a), st.eq(s1, a), st.eq(sn, a));
        assert_eq!(shape(&mut st, b0), shape(&mut st, b1));
        assert_ne!(shape(&mut st, b0), shape(&mut st, bn));
        // s[n + 1] = 97 is s[n]'s shape; a constant of another width is not
        // alike.
        let n1 = st.bin(BvBinOp::Add, n, one);
        let sn1 = st.select(s, n1);
        let bn1 = st.eq(sn1, a);
        assert_eq!(shape(&mut st, bn), shape(&mut st, bn1));
        let wide = st.bv_const(64, 0);
        let n64 = st.declare("m", Sort::Bv(64)).unwrap();
        let g64 = st.cmp(BvCmp::Ult, wide, n64);
        assert_ne!(shape(&mut st, g0), shape(&mut st, g64));
    }
}
