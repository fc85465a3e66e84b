//! The built-in function symbols of SMT-LIB's Core, FixedSizeBitVectors and
//! ArraysEx theories, and how each is built from its arguments. Operators the
//! term graph lacks are desugared: `bvugt` and friends swap the operands of
//! `bvult`, `bvnand` is `bvnot` of `bvand`, `distinct` is pairwise `not =`,
//! `repeat` is `concat`, chains and n-ary forms fold.

use crate::expr::{
    sort_to_smtlib, BvBinOp, BvCmp, BvUnOp, Node, Sort, TermId, TermStore, MAX_WIDTH,
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Builtin {
    Not,
    Implies,
    And,
    Or,
    Xor,
    Eq,
    Distinct,
    Ite,
    BvNot,
    BvNeg,
    Bin(BvBinOp),
    Nand,
    Nor,
    Xnor,
    Comp,
    Concat,
    Cmp(BvCmp),
    /// `bvugt`, `bvuge`, `bvsgt`, `bvsge`: the comparison with swapped operands.
    SwappedCmp(BvCmp),
    Extract(u64, u64),
    ZeroExtend(u64),
    SignExtend(u64),
    RotateLeft(u64),
    RotateRight(u64),
    Repeat(u64),
    Select,
    Store,
    /// `(as const (Array (_ BitVec 32) (_ BitVec 8)))`.
    ConstArray,
}

/// Symbols without indices that name a built-in function.
const PLAIN: &[(&str, Builtin)] = &[
    ("not", Builtin::Not),
    ("=>", Builtin::Implies),
    ("and", Builtin::And),
    ("or", Builtin::Or),
    ("xor", Builtin::Xor),
    ("=", Builtin::Eq),
    ("distinct", Builtin::Distinct),
    ("ite", Builtin::Ite),
    ("bvnot", Builtin::BvNot),
    ("bvneg", Builtin::BvNeg),
    ("bvnand", Builtin::Nand),
    ("bvnor", Builtin::Nor),
    ("bvxnor", Builtin::Xnor),
    ("bvcomp", Builtin::Comp),
    ("concat", Builtin::Concat),
    ("bvugt", Builtin::SwappedCmp(BvCmp::Ult)),
    ("bvuge", Builtin::SwappedCmp(BvCmp::Ule)),
    ("bvsgt", Builtin::SwappedCmp(BvCmp::Slt)),
    ("bvsge", Builtin::SwappedCmp(BvCmp::Sle)),
    ("select", Builtin::Select),
    ("store", Builtin::Store),
];

/// Symbols that can never name a user's constant or function.
const RESERVED: &[&str] = &[
    "true", "false", "let", "!", "_", "as", "forall", "exists", "match", "par",
];

/// Whether `name` is taken by SMT-LIB itself.
pub fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name) || Builtin::plain(name).is_some()
}

/// How many arguments an operator takes.
enum Arity {
    Exactly(usize),
    AtLeast(usize),
}

impl Builtin {
    /// The built-in function a plain symbol names.
    pub fn plain(name: &str) -> Option<Builtin> {
        if let Some(&(_, b)) = PLAIN.iter().find(|(n, _)| *n == name) {
            return Some(b);
        }
        if let Some(&op) = BvBinOp::ALL.iter().find(|op| op.smtlib_name() == name) {
            return Some(Builtin::Bin(op));
        }
        BvCmp::ALL
            .iter()
            .find(|op| op.smtlib_name() == name)
            .map(|&op| Builtin::Cmp(op))
    }

    /// The built-in function `(_ name indices...)` names: `None` when `name`
    /// is not an indexed function, an error when the index count is wrong.
    pub fn indexed(name: &str, indices: &[u64]) -> Option<Result<Builtin, String>> {
        let one = |make: fn(u64) -> Builtin| match indices {
            &[k] => Ok(make(k)),
            _ => Err(format!(
                "(_ {name} ...) takes 1 index, got {}",
                indices.len()
            )),
        };
        Some(match name {
            "extract" => match indices {
                &[hi, lo] => Ok(Builtin::Extract(hi, lo)),
                _ => Err(format!(
                    "(_ extract ...) takes 2 indices, got {}",
                    indices.len()
                )),
            },
            "zero_extend" => one(Builtin::ZeroExtend),
            "sign_extend" => one(Builtin::SignExtend),
            "rotate_left" => one(Builtin::RotateLeft),
            "rotate_right" => one(Builtin::RotateRight),
            "repeat" => one(Builtin::Repeat),
            _ => return None,
        })
    }

    /// The operator as SMT-LIB writes it.
    pub fn name(self) -> String {
        match self {
            Builtin::Bin(op) => op.smtlib_name().to_string(),
            Builtin::Cmp(op) => op.smtlib_name().to_string(),
            Builtin::Extract(hi, lo) => format!("(_ extract {hi} {lo})"),
            Builtin::ZeroExtend(k) => format!("(_ zero_extend {k})"),
            Builtin::SignExtend(k) => format!("(_ sign_extend {k})"),
            Builtin::RotateLeft(k) => format!("(_ rotate_left {k})"),
            Builtin::RotateRight(k) => format!("(_ rotate_right {k})"),
            Builtin::Repeat(k) => format!("(_ repeat {k})"),
            Builtin::ConstArray => "(as const (Array (_ BitVec 32) (_ BitVec 8)))".to_string(),
            plain => PLAIN
                .iter()
                .find(|(_, b)| *b == plain)
                .map(|(n, _)| n.to_string())
                .expect("every other builtin is in PLAIN"),
        }
    }

    fn arity(self) -> Arity {
        match self {
            Builtin::And | Builtin::Or => Arity::AtLeast(0),
            Builtin::Implies | Builtin::Xor | Builtin::Eq | Builtin::Distinct | Builtin::Concat => {
                Arity::AtLeast(2)
            }
            Builtin::Bin(op) if left_associative(op) => Arity::AtLeast(2),
            Builtin::Ite | Builtin::Store => Arity::Exactly(3),
            Builtin::Bin(_)
            | Builtin::Nand
            | Builtin::Nor
            | Builtin::Xnor
            | Builtin::Comp
            | Builtin::Cmp(_)
            | Builtin::SwappedCmp(_)
            | Builtin::Select => Arity::Exactly(2),
            Builtin::Not
            | Builtin::BvNot
            | Builtin::BvNeg
            | Builtin::Extract(..)
            | Builtin::ZeroExtend(_)
            | Builtin::SignExtend(_)
            | Builtin::RotateLeft(_)
            | Builtin::RotateRight(_)
            | Builtin::Repeat(_)
            | Builtin::ConstArray => Arity::Exactly(1),
        }
    }

    /// Builds the application of this operator to `args`; the error says
    /// what is wrong with the arguments.
    pub fn build(self, store: &mut TermStore, args: &[TermId]) -> Result<TermId, String> {
        self.check_arity(args.len())?;
        let name = self.name();
        match self {
            Builtin::Not => {
                check_bools(store, &name, args)?;
                mk(store, Node::Not(args[0]))
            }
            Builtin::Implies => {
                check_bools(store, &name, args)?;
                let (&last, init) = args.split_last().expect("arity checked");
                init.iter().rev().try_fold(last, |acc, &a| {
                    let not_a = mk(store, Node::Not(a))?;
                    mk(store, Node::Or(not_a, acc))
                })
            }
            Builtin::And | Builtin::Or | Builtin::Xor => {
                check_bools(store, &name, args)?;
                let Some((&first, rest)) = args.split_first() else {
                    return mk(store, Node::BoolConst(self == Builtin::And));
                };
                rest.iter().try_fold(first, |acc, &a| {
                    let node = match self {
                        Builtin::And => Node::And(acc, a),
                        Builtin::Or => Node::Or(acc, a),
                        _ => Node::Xor(acc, a),
                    };
                    mk(store, node)
                })
            }
            Builtin::Eq => {
                let links = args
                    .windows(2)
                    .map(|pair| mk(store, Node::Eq(pair[0], pair[1])))
                    .collect::<Result<Vec<_>, _>>()?;
                conjunction(store, &links)
            }
            Builtin::Distinct => {
                check_same_sort(store, &name, args)?;
                let mut differences = Vec::new();
                for (i, &a) in args.iter().enumerate() {
                    for &b in &args[i + 1..] {
                        let equal = mk(store, Node::Eq(a, b))?;
                        differences.push(mk(store, Node::Not(equal))?);
                    }
                }
                conjunction(store, &differences)
            }
            Builtin::Ite => mk(store, Node::Ite(args[0], args[1], args[2])),
            Builtin::BvNot => mk(store, Node::BvUn(BvUnOp::Not, args[0])),
            Builtin::BvNeg => mk(store, Node::BvUn(BvUnOp::Neg, args[0])),
            Builtin::Bin(op) => fold_left(store, args, |a, b| Node::BvBin(op, a, b)),
            Builtin::Nand | Builtin::Nor | Builtin::Xnor => {
                check_same_width(store, &name, args)?;
                let op = match self {
                    Builtin::Nand => BvBinOp::And,
                    Builtin::Nor => BvBinOp::Or,
                    _ => BvBinOp::Xor,
                };
                let inner = mk(store, Node::BvBin(op, args[0], args[1]))?;
                mk(store, Node::BvUn(BvUnOp::Not, inner))
            }
            Builtin::Comp => {
                check_same_width(store, &name, args)?;
                let equal = mk(store, Node::Eq(args[0], args[1]))?;
                let one = mk(store, Node::BvConst { width: 1, value: 1 })?;
                let zero = mk(store, Node::BvConst { width: 1, value: 0 })?;
                mk(store, Node::Ite(equal, one, zero))
            }
            Builtin::Concat => fold_left(store, args, Node::Concat),
            Builtin::Cmp(op) => mk(store, Node::BvCmp(op, args[0], args[1])),
            Builtin::SwappedCmp(op) => {
                check_same_width(store, &name, args)?;
                mk(store, Node::BvCmp(op, args[1], args[0]))
            }
            Builtin::Extract(hi, lo) => {
                let width = bit_vector_width(store, &name, args[0])?;
                if lo > hi || hi >= u64::from(width) {
                    return Err(format!("{name} is out of range for (_ BitVec {width})"));
                }
                let (hi, lo) = (hi as u8, lo as u8);
                mk(
                    store,
                    Node::Extract {
                        hi,
                        lo,
                        arg: args[0],
                    },
                )
            }
            Builtin::ZeroExtend(extra) | Builtin::SignExtend(extra) => {
                let width = bit_vector_width(store, &name, args[0])?;
                let extra = checked_extra_width(&name, width, extra)?;
                let node = match self {
                    Builtin::ZeroExtend(_) => Node::ZeroExt(extra, args[0]),
                    _ => Node::SignExt(extra, args[0]),
                };
                mk(store, node)
            }
            Builtin::RotateLeft(amount) | Builtin::RotateRight(amount) => {
                let width = bit_vector_width(store, &name, args[0])?;
                // Rotating by the width is the identity, so the amount fits a u8.
                let amount = (amount % u64::from(width)) as u8;
                let node = match self {
                    Builtin::RotateLeft(_) => Node::RotateLeft(amount, args[0]),
                    _ => Node::RotateRight(amount, args[0]),
                };
                mk(store, node)
            }
            Builtin::Repeat(count) => {
                let width = bit_vector_width(store, &name, args[0])?;
                if count == 0 {
                    return Err(format!(
                        "{name} is not allowed: the count must be at least 1"
                    ));
                }
                let extra = (count - 1).saturating_mul(u64::from(width));
                checked_extra_width(&name, width, extra)?;
                (1..count).try_fold(args[0], |acc, _| mk(store, Node::Concat(acc, args[0])))
            }
            Builtin::Select => mk(store, Node::Select(args[0], args[1])),
            Builtin::Store => mk(store, Node::Store(args[0], args[1], args[2])),
            Builtin::ConstArray => mk(store, Node::ConstArray(args[0])),
        }
    }

    fn check_arity(self, given: usize) -> Result<(), String> {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match self.arity() {
            Arity::Exactly(n) if given != n => Err(format!(
                "{} expects {n} argument{}, got {given}",
                self.name(),
                plural(n)
            )),
            Arity::AtLeast(n) if given < n => Err(format!(
                "{} expects at least {n} argument{}, got {given}",
                self.name(),
                plural(n)
            )),
            _ => Ok(()),
        }
    }
}

/// The operators SMT-LIB (and z3) let take more than two arguments, folded
/// from the left.
fn left_associative(op: BvBinOp) -> bool {
    matches!(
        op,
        BvBinOp::Add | BvBinOp::Sub | BvBinOp::Mul | BvBinOp::And | BvBinOp::Or | BvBinOp::Xor
    )
}

fn mk(store: &mut TermStore, node: Node) -> Result<TermId, String> {
    store.try_mk(node).map_err(|e| e.0)
}

fn fold_left(
    store: &mut TermStore,
    args: &[TermId],
    combine: impl Fn(TermId, TermId) -> Node,
) -> Result<TermId, String> {
    let (&first, rest) = args.split_first().expect("arity checked");
    rest.iter()
        .try_fold(first, |acc, &a| mk(store, combine(acc, a)))
}

/// The conjunction of `terms`, `true` when there are none.
fn conjunction(store: &mut TermStore, terms: &[TermId]) -> Result<TermId, String> {
    match terms.split_first() {
        None => mk(store, Node::BoolConst(true)),
        Some((&first, rest)) => rest
            .iter()
            .try_fold(first, |acc, &t| mk(store, Node::And(acc, t))),
    }
}

// The checks below run before desugaring so that errors name the operator
// the script wrote, not the one it became.

fn check_bools(store: &TermStore, name: &str, args: &[TermId]) -> Result<(), String> {
    match args
        .iter()
        .map(|&a| store.sort(a))
        .find(|&s| s != Sort::Bool)
    {
        Some(other) => Err(format!(
            "{name} expects Bool arguments, got {}",
            sort_to_smtlib(other)
        )),
        None => Ok(()),
    }
}

fn check_same_sort(store: &TermStore, name: &str, args: &[TermId]) -> Result<(), String> {
    let first = store.sort(args[0]);
    match args.iter().map(|&a| store.sort(a)).find(|&s| s != first) {
        Some(other) => Err(format!(
            "{name} expects operands of one sort, got {} and {}",
            sort_to_smtlib(first),
            sort_to_smtlib(other)
        )),
        None => Ok(()),
    }
}

fn check_same_width(store: &TermStore, name: &str, args: &[TermId]) -> Result<(), String> {
    for &a in args {
        bit_vector_width(store, name, a)?;
    }
    check_same_sort(store, name, args).map_err(|_| {
        format!(
            "{name} expects operands of one width, got {} and {}",
            sort_to_smtlib(store.sort(args[0])),
            sort_to_smtlib(store.sort(args[1]))
        )
    })
}

fn bit_vector_width(store: &TermStore, name: &str, t: TermId) -> Result<u8, String> {
    match store.sort(t) {
        Sort::Bv(w) => Ok(w),
        other => Err(format!(
            "{name} expects a bit-vector, got {}",
            sort_to_smtlib(other)
        )),
    }
}

/// `extra` as a `u8` when `width + extra` is a width the engine represents.
fn checked_extra_width(name: &str, width: u8, extra: u64) -> Result<u8, String> {
    let total = extra.saturating_add(u64::from(width));
    if total > u64::from(MAX_WIDTH) {
        return Err(format!(
            "{name} gives width {total}; bit-vectors have widths 1 to {MAX_WIDTH}"
        ));
    }
    Ok(extra as u8)
}
