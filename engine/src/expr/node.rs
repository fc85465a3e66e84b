//! What a term is: its sort, its operators and its node, named by ids into
//! a [`TermStore`](super::TermStore).

/// Index of a term in its [`TermStore`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TermId(pub(super) u32);

impl TermId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a declared symbol (an uninterpreted constant) in its [`TermStore`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SymbolId(pub(super) u32);

impl SymbolId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Width of array indices: Wasm addresses.
pub const ARRAY_INDEX_WIDTH: u8 = 32;
/// Width of array values: bytes.
pub const ARRAY_VALUE_WIDTH: u8 = 8;
/// Widest bit-vector the engine represents.
pub const MAX_WIDTH: u8 = 64;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Sort {
    Bool,
    /// Bit-vector of the given width, 1..=64.
    Bv(u8),
    /// `(Array (_ BitVec 32) (_ BitVec 8))`.
    Array,
}

/// The sort as SMT-LIB writes it.
pub fn sort_to_smtlib(sort: Sort) -> String {
    match sort {
        Sort::Bool => "Bool".to_string(),
        Sort::Bv(w) => format!("(_ BitVec {w})"),
        Sort::Array => "(Array (_ BitVec 32) (_ BitVec 8))".to_string(),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BvUnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BvBinOp {
    Add,
    Sub,
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Smod,
    Shl,
    Lshr,
    Ashr,
    And,
    Or,
    Xor,
}

impl BvBinOp {
    pub const ALL: [BvBinOp; 14] = [
        BvBinOp::Add,
        BvBinOp::Sub,
        BvBinOp::Mul,
        BvBinOp::Udiv,
        BvBinOp::Urem,
        BvBinOp::Sdiv,
        BvBinOp::Srem,
        BvBinOp::Smod,
        BvBinOp::Shl,
        BvBinOp::Lshr,
        BvBinOp::Ashr,
        BvBinOp::And,
        BvBinOp::Or,
        BvBinOp::Xor,
    ];

    pub fn smtlib_name(self) -> &'static str {
        match self {
            BvBinOp::Add => "bvadd",
            BvBinOp::Sub => "bvsub",
            BvBinOp::Mul => "bvmul",
            BvBinOp::Udiv => "bvudiv",
            BvBinOp::Urem => "bvurem",
            BvBinOp::Sdiv => "bvsdiv",
            BvBinOp::Srem => "bvsrem",
            BvBinOp::Smod => "bvsmod",
            BvBinOp::Shl => "bvshl",
            BvBinOp::Lshr => "bvlshr",
            BvBinOp::Ashr => "bvashr",
            BvBinOp::And => "bvand",
            BvBinOp::Or => "bvor",
            BvBinOp::Xor => "bvxor",
        }
    }
}

/// Comparisons kept in the term graph; `bvugt`, `bvuge`, `bvsgt` and `bvsge`
/// are built by swapping the operands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BvCmp {
    Ult,
    Ule,
    Slt,
    Sle,
}

impl BvCmp {
    pub const ALL: [BvCmp; 4] = [BvCmp::Ult, BvCmp::Ule, BvCmp::Slt, BvCmp::Sle];

    pub fn smtlib_name(self) -> &'static str {
        match self {
            BvCmp::Ult => "bvult",
            BvCmp::Ule => "bvule",
            BvCmp::Slt => "bvslt",
            BvCmp::Sle => "bvsle",
        }
    }
}

/// One node of the term graph. Children are [`TermId`]s of the same store.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    BoolConst(bool),
    /// A bit-vector constant; `value` has no bits set above `width`.
    BvConst {
        width: u8,
        value: u64,
    },
    Symbol(SymbolId),
    Not(TermId),
    And(TermId, TermId),
    Or(TermId, TermId),
    /// Boolean exclusive or.
    Xor(TermId, TermId),
    /// `ite(cond, then, else)` over booleans, bit-vectors or arrays.
    Ite(TermId, TermId, TermId),
    /// Equality of two booleans or two bit-vectors of one width.
    Eq(TermId, TermId),
    BvUn(BvUnOp, TermId),
    BvBin(BvBinOp, TermId, TermId),
    BvCmp(BvCmp, TermId, TermId),
    Extract {
        hi: u8,
        lo: u8,
        arg: TermId,
    },
    /// `concat(high, low)`.
    Concat(TermId, TermId),
    ZeroExt(u8, TermId),
    SignExt(u8, TermId),
    RotateLeft(u8, TermId),
    RotateRight(u8, TermId),
    /// `select(array, index)`.
    Select(TermId, TermId),
    /// `store(array, index, value)`.
    Store(TermId, TermId, TermId),
    /// The array that maps every index to the given byte.
    ConstArray(TermId),
    /// `forall i in [lo, hi]. body` (`Forall(lo, hi, body)`): the body
    /// holds at every `i` from `lo` to `hi`, unsigned, both included (true
    /// when `lo > hi`). `i` is the [`Node::Bound`] of the bound's width in
    /// the body; the bounds have no free one, so a bound variable is
    /// always that of the nearest forall above it.
    Forall(TermId, TermId, TermId),
    /// The variable of the nearest [`Node::Forall`] above, of this width.
    Bound(u8),
}

impl Node {
    /// The children of this node, in order.
    pub fn children(&self) -> impl Iterator<Item = TermId> {
        let (a, b, c) = match *self {
            Node::BoolConst(_) | Node::BvConst { .. } | Node::Symbol(_) | Node::Bound(_) => {
                (None, None, None)
            }
            Node::Not(a)
            | Node::BvUn(_, a)
            | Node::Extract { arg: a, .. }
            | Node::ZeroExt(_, a)
            | Node::SignExt(_, a)
            | Node::RotateLeft(_, a)
            | Node::RotateRight(_, a)
            | Node::ConstArray(a) => (Some(a), None, None),
            Node::And(a, b)
            | Node::Or(a, b)
            | Node::Xor(a, b)
            | Node::Eq(a, b)
            | Node::BvBin(_, a, b)
            | Node::BvCmp(_, a, b)
            | Node::Concat(a, b)
            | Node::Select(a, b) => (Some(a), Some(b), None),
            Node::Ite(a, b, c) | Node::Store(a, b, c) | Node::Forall(a, b, c) => {
                (Some(a), Some(b), Some(c))
            }
        };
        a.into_iter().chain(b).chain(c)
    }

    /// The children whose value does not depend on a bound variable of
    /// this node: all but a forall's body.
    pub fn outer_children(&self) -> impl Iterator<Item = TermId> {
        let skip_body = matches!(self, Node::Forall(..));
        self.children().take(if skip_body { 2 } else { 3 })
    }

    /// The same node with each child replaced by `f(child)`.
    pub fn map_children(&self, mut f: impl FnMut(TermId) -> TermId) -> Node {
        match *self {
            Node::BoolConst(_) | Node::BvConst { .. } | Node::Symbol(_) | Node::Bound(_) => *self,
            Node::Not(a) => Node::Not(f(a)),
            Node::And(a, b) => Node::And(f(a), f(b)),
            Node::Or(a, b) => Node::Or(f(a), f(b)),
            Node::Xor(a, b) => Node::Xor(f(a), f(b)),
            Node::Ite(a, b, c) => Node::Ite(f(a), f(b), f(c)),
            Node::Eq(a, b) => Node::Eq(f(a), f(b)),
            Node::BvUn(op, a) => Node::BvUn(op, f(a)),
            Node::BvBin(op, a, b) => Node::BvBin(op, f(a), f(b)),
            Node::BvCmp(op, a, b) => Node::BvCmp(op, f(a), f(b)),
            Node::Extract { hi, lo, arg } => Node::Extract {
                hi,
                lo,
                arg: f(arg),
            },
            Node::Concat(a, b) => Node::Concat(f(a), f(b)),
            Node::ZeroExt(k, a) => Node::ZeroExt(k, f(a)),
            Node::SignExt(k, a) => Node::SignExt(k, f(a)),
            Node::RotateLeft(k, a) => Node::RotateLeft(k, f(a)),
            Node::RotateRight(k, a) => Node::RotateRight(k, f(a)),
            Node::Select(a, i) => Node::Select(f(a), f(i)),
            Node::Store(a, i, v) => Node::Store(f(a), f(i), f(v)),
            Node::ConstArray(v) => Node::ConstArray(f(v)),
            Node::Forall(lo, hi, body) => Node::Forall(f(lo), f(hi), f(body)),
        }
    }
}

/// Mask with the low `width` bits set.
pub fn mask(width: u8) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Sign-extends the low `width` bits of `value` to an `i64`.
pub fn to_signed(width: u8, value: u64) -> i64 {
    let shift = 64 - u32::from(width);
    ((value << shift) as i64) >> shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_view_of_narrow_values() {
        assert_eq!(to_signed(8, 0xff), -1);
        assert_eq!(to_signed(8, 0x7f), 127);
        assert_eq!(to_signed(1, 1), -1);
        assert_eq!(to_signed(64, u64::MAX), -1);
        assert_eq!(mask(3), 7);
        assert_eq!(mask(64), u64::MAX);
    }
}
