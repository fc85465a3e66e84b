//! Counts of operator kinds in generated terms, so a test can show that its
//! random corpus exercised every operator.

use std::collections::BTreeMap;
use std::fmt;
use symplay_engine::expr::{BvUnOp, Node, Sort, TermId, TermStore};

/// Every kind [`OperatorCounts`] distinguishes. `implies` and the swapped
/// comparisons (`bvugt`, ...) are built from these, so they have no kind.
pub const ALL_KINDS: &[&str] = &[
    "bool-const",
    "bv-const",
    "bool-symbol",
    "bv-symbol",
    "array-symbol",
    "not",
    "and",
    "or",
    "xor",
    "ite-bool",
    "ite-bv",
    "ite-array",
    "eq-bool",
    "eq-bv",
    "bvnot",
    "bvneg",
    "bvadd",
    "bvsub",
    "bvmul",
    "bvudiv",
    "bvurem",
    "bvsdiv",
    "bvsrem",
    "bvsmod",
    "bvshl",
    "bvlshr",
    "bvashr",
    "bvand",
    "bvor",
    "bvxor",
    "bvult",
    "bvule",
    "bvslt",
    "bvsle",
    "extract",
    "concat",
    "zero_extend",
    "sign_extend",
    "rotate_left",
    "rotate_right",
    "select",
    "store-constant-index",
    "store-symbolic-index",
    "store-nested",
    "const-array",
    "forall",
    "bound-variable",
];

#[derive(Clone, Debug, Default)]
pub struct OperatorCounts {
    counts: BTreeMap<&'static str, u64>,
}

impl OperatorCounts {
    /// Counts each distinct term reachable from `roots` once.
    pub fn add(&mut self, store: &TermStore, roots: &[TermId]) {
        for t in store.reachable(roots) {
            for kind in kinds_of(store, t) {
                *self.counts.entry(kind).or_default() += 1;
            }
        }
    }

    pub fn count(&self, kind: &str) -> u64 {
        self.counts.get(kind).copied().unwrap_or(0)
    }

    /// The kinds seen fewer than `min` times.
    pub fn rarer_than(&self, min: u64) -> Vec<&'static str> {
        ALL_KINDS
            .iter()
            .copied()
            .filter(|k| self.count(k) < min)
            .collect()
    }
}

impl fmt::Display for OperatorCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, kind) in ALL_KINDS.iter().enumerate() {
            let sep = if i % 6 == 5 { "\n" } else { "  " };
            write!(f, "{kind}={}{sep}", self.count(kind))?;
        }
        Ok(())
    }
}

/// The kinds one term counts as: one, plus the store refinements.
fn kinds_of(store: &TermStore, t: TermId) -> Vec<&'static str> {
    let sorted = |bool_kind, bv_kind, array_kind| match store.sort(t) {
        Sort::Bool => bool_kind,
        Sort::Bv(_) => bv_kind,
        Sort::Array => array_kind,
    };
    match *store.node(t) {
        Node::BoolConst(_) => vec!["bool-const"],
        Node::BvConst { .. } => vec!["bv-const"],
        Node::Symbol(_) => vec![sorted("bool-symbol", "bv-symbol", "array-symbol")],
        Node::Not(_) => vec!["not"],
        Node::And(..) => vec!["and"],
        Node::Or(..) => vec!["or"],
        Node::Xor(..) => vec!["xor"],
        Node::Ite(..) => vec![sorted("ite-bool", "ite-bv", "ite-array")],
        Node::Eq(a, _) => vec![if store.sort(a) == Sort::Bool {
            "eq-bool"
        } else {
            "eq-bv"
        }],
        Node::BvUn(BvUnOp::Not, _) => vec!["bvnot"],
        Node::BvUn(BvUnOp::Neg, _) => vec!["bvneg"],
        Node::BvBin(op, ..) => vec![op.smtlib_name()],
        Node::BvCmp(op, ..) => vec![op.smtlib_name()],
        Node::Extract { .. } => vec!["extract"],
        Node::Concat(..) => vec!["concat"],
        Node::ZeroExt(..) => vec!["zero_extend"],
        Node::SignExt(..) => vec!["sign_extend"],
        Node::RotateLeft(..) => vec!["rotate_left"],
        Node::RotateRight(..) => vec!["rotate_right"],
        Node::Select(..) => vec!["select"],
        Node::Store(base, index, _) => {
            let mut kinds = vec![if store.as_bv_const(index).is_some() {
                "store-constant-index"
            } else {
                "store-symbolic-index"
            }];
            if matches!(store.node(base), Node::Store(..)) {
                kinds.push("store-nested");
            }
            kinds
        }
        Node::ConstArray(_) => vec!["const-array"],
        Node::Forall(..) => vec!["forall"],
        Node::Bound(_) => vec!["bound-variable"],
    }
}
