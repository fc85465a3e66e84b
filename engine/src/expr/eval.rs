//! Concrete semantics of every operator, and evaluation of terms under a model.
//!
//! The `apply_*` functions are the one definition of each operator's meaning:
//! the evaluator, the simplifier's constant folding and the tests all use them.

use super::node::{mask, to_signed, BvBinOp, BvCmp, BvUnOp, Node, Sort, SymbolId, TermId};
use super::store::TermStore;
use crate::limits::{Checkpoint, Limits, Reached};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A concrete array: every index maps to `default` except those in `entries`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ArrayValue {
    pub default: u8,
    pub entries: BTreeMap<u32, u8>,
}

impl ArrayValue {
    pub fn get(&self, index: u32) -> u8 {
        self.entries.get(&index).copied().unwrap_or(self.default)
    }

    /// Sets one index, keeping `entries` free of entries equal to `default`.
    pub fn set(&mut self, index: u32, value: u8) {
        if value == self.default {
            self.entries.remove(&index);
        } else {
            self.entries.insert(index, value);
        }
    }
}

/// The value of a term.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Value {
    Bool(bool),
    Bv { width: u8, value: u64 },
    Array(Rc<ArrayValue>),
}

impl Value {
    /// The value every symbol of `sort` has when a model does not mention it.
    pub fn default_of(sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::Bv(width) => Value::Bv { width, value: 0 },
            Sort::Array => Value::Array(Rc::default()),
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_bv(&self) -> Option<u64> {
        match *self {
            Value::Bv { value, .. } => Some(value),
            _ => None,
        }
    }
}

/// An assignment of values to symbols; unmentioned symbols take
/// [`Value::default_of`] their sort.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Model {
    values: BTreeMap<SymbolId, Value>,
}

impl Model {
    pub fn new() -> Model {
        Model::default()
    }

    pub fn set(&mut self, symbol: SymbolId, value: Value) {
        self.values.insert(symbol, value);
    }

    pub fn get(&self, symbol: SymbolId) -> Option<&Value> {
        self.values.get(&symbol)
    }

    /// The value of `symbol`, of `sort`: its own, or the default of its
    /// sort when the model leaves it out.
    pub fn value_of(&self, symbol: SymbolId, sort: Sort) -> Value {
        self.get(symbol)
            .cloned()
            .unwrap_or_else(|| Value::default_of(sort))
    }

    /// Gives byte `index` of the array symbol `array` the value `byte`; its
    /// other bytes stay as they were (all zero without a value before).
    pub fn set_byte(&mut self, array: SymbolId, index: u32, byte: u8) {
        let value = self
            .values
            .entry(array)
            .or_insert_with(|| Value::Array(Rc::default()));
        if let Value::Array(contents) = value {
            // Copied at most once, when shared: a model takes an input
            // buffer's bytes one by one, from one group of constraints each.
            Rc::make_mut(contents).set(index, byte);
        }
    }

    /// The assigned symbols, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (SymbolId, &Value)> {
        self.values.iter().map(|(&s, v)| (s, v))
    }

    /// Bytes its assignments hold on the heap, estimated: an entry of the
    /// map with its node's share (an array's bytes not counted).
    pub fn heap_bytes(&self) -> usize {
        const NODE_SHARE: usize = 16;
        self.values.len()
            * (std::mem::size_of::<SymbolId>() + std::mem::size_of::<Value>() + NODE_SHARE)
    }

    /// Adds every assignment of `other`, overriding this model's.
    pub fn extend(&mut self, other: &Model) {
        for (s, v) in other.iter() {
            self.values.insert(s, v.clone());
        }
    }
}

pub fn apply_unary(op: BvUnOp, width: u8, a: u64) -> u64 {
    match op {
        BvUnOp::Not => !a & mask(width),
        BvUnOp::Neg => a.wrapping_neg() & mask(width),
    }
}

/// SMT-LIB semantics, including division by zero: `bvudiv x 0` is all ones,
/// `bvurem x 0` is `x`, `bvsdiv x 0` is 1 for negative `x` and all ones
/// otherwise, `bvsrem x 0` and `bvsmod x 0` are `x`.
pub fn apply_binary(op: BvBinOp, width: u8, a: u64, b: u64) -> u64 {
    let m = mask(width);
    let w = u64::from(width);
    let r = match op {
        BvBinOp::Add => a.wrapping_add(b),
        BvBinOp::Sub => a.wrapping_sub(b),
        BvBinOp::Mul => a.wrapping_mul(b),
        BvBinOp::Udiv => a.checked_div(b).unwrap_or(m),
        BvBinOp::Urem => a.checked_rem(b).unwrap_or(a),
        BvBinOp::Sdiv => {
            let (sa, sb) = (to_signed(width, a), to_signed(width, b));
            if sb == 0 {
                if sa < 0 {
                    1
                } else {
                    m
                }
            } else {
                sa.wrapping_div(sb) as u64
            }
        }
        BvBinOp::Srem => {
            let (sa, sb) = (to_signed(width, a), to_signed(width, b));
            if sb == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u64
            }
        }
        BvBinOp::Smod => {
            let (sa, sb) = (to_signed(width, a), to_signed(width, b));
            if sb == 0 {
                a
            } else {
                // The remainder takes the sign of the divisor.
                let r = sa.wrapping_rem(sb);
                if r != 0 && ((r < 0) != (sb < 0)) {
                    r.wrapping_add(sb) as u64
                } else {
                    r as u64
                }
            }
        }
        BvBinOp::Shl => {
            if b >= w {
                0
            } else {
                a << b
            }
        }
        BvBinOp::Lshr => {
            if b >= w {
                0
            } else {
                a >> b
            }
        }
        BvBinOp::Ashr => {
            let sa = to_signed(width, a);
            (sa >> b.min(63)) as u64
        }
        BvBinOp::And => a & b,
        BvBinOp::Or => a | b,
        BvBinOp::Xor => a ^ b,
    };
    r & m
}

pub fn apply_cmp(op: BvCmp, width: u8, a: u64, b: u64) -> bool {
    match op {
        BvCmp::Ult => a < b,
        BvCmp::Ule => a <= b,
        BvCmp::Slt => to_signed(width, a) < to_signed(width, b),
        BvCmp::Sle => to_signed(width, a) <= to_signed(width, b),
    }
}

pub fn apply_rotate_left(width: u8, amount: u8, a: u64) -> u64 {
    let k = u32::from(amount) % u32::from(width);
    if k == 0 {
        return a;
    }
    ((a << k) | (a >> (u32::from(width) - k))) & mask(width)
}

pub fn apply_rotate_right(width: u8, amount: u8, a: u64) -> u64 {
    let k = u32::from(amount) % u32::from(width);
    apply_rotate_left(width, ((u32::from(width) - k) % u32::from(width)) as u8, a)
}

pub fn apply_extract(hi: u8, lo: u8, a: u64) -> u64 {
    (a >> lo) & mask(hi - lo + 1)
}

pub fn apply_sign_ext(from_width: u8, extra: u8, a: u64) -> u64 {
    (to_signed(from_width, a) as u64) & mask(from_width + extra)
}

impl TermStore {
    /// The value of `t` under `model`.
    pub fn eval(&self, t: TermId, model: &Model) -> Value {
        let unlimited = &mut Checkpoint::new(Limits::default());
        self.eval_within(t, model, unlimited).expect("no limits")
    }

    /// The values of `terms` under `model`, in order, shared subterms
    /// evaluated once, stopping at the limit `checkpoint` reaches.
    pub fn eval_each_within(
        &self,
        terms: &[TermId],
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<Vec<Value>, Reached> {
        let leaves: Vec<Option<Value>> = terms.iter().map(|&t| self.eval_leaf(t, model)).collect();
        let walked: Vec<TermId> = terms
            .iter()
            .zip(&leaves)
            .filter(|(_, leaf)| leaf.is_none())
            .map(|(&t, _)| t)
            .collect();
        let values = if walked.is_empty() {
            FxHashMap::default()
        } else {
            self.eval_all_within(&walked, model, checkpoint)?
        };
        Ok(terms
            .iter()
            .zip(leaves)
            .map(|(t, leaf)| leaf.unwrap_or_else(|| values[t].clone()))
            .collect())
    }

    /// The value of `t` when it is a constant, a symbol or a byte of an
    /// array symbol at a constant index (what inputs are made of), without
    /// the walk and the tables a term's evaluation needs; `None` for any
    /// other term.
    fn eval_leaf(&self, t: TermId, model: &Model) -> Option<Value> {
        let symbol = |s: SymbolId| model.value_of(s, self.symbol_sort(s));
        match *self.node(t) {
            Node::BoolConst(b) => Some(Value::Bool(b)),
            Node::BvConst { width, value } => Some(Value::Bv { width, value }),
            Node::Symbol(s) => Some(symbol(s)),
            Node::Select(array, index) => match (self.node(array), self.as_bv_const(index)) {
                (&Node::Symbol(s), Some(i)) => match symbol(s) {
                    Value::Array(a) => Some(Value::Bv {
                        width: 8,
                        value: u64::from(a.get(i as u32)),
                    }),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// As [`TermStore::eval`], stopping at the limit `checkpoint` reaches.
    pub fn eval_within(
        &self,
        t: TermId,
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<Value, Reached> {
        if let Some(value) = self.eval_leaf(t, model) {
            return Ok(value);
        }
        let mut values = self.eval_all_within(&[t], model, checkpoint)?;
        Ok(values.remove(&t).expect("the root is evaluated"))
    }

    /// The value of `t`, open in a forall's variable, under `model` with
    /// `bound` for the variable.
    pub fn eval_bound(&self, t: TermId, model: &Model, bound: u64) -> Value {
        let unlimited = &mut Checkpoint::new(Limits::default());
        let mut values =
            (self.eval_all_bound(&[t], model, Some(bound), unlimited)).expect("no limits");
        values.remove(&t).expect("the root is evaluated")
    }

    /// Whether every boolean term in `terms` is true under `model`.
    pub fn satisfies(&self, terms: &[TermId], model: &Model) -> bool {
        let unlimited = &mut Checkpoint::new(Limits::default());
        self.satisfies_within(terms, model, unlimited)
            .expect("no limits")
    }

    /// As [`TermStore::satisfies`], stopping at the limit `checkpoint`
    /// reaches.
    pub fn satisfies_within(
        &self,
        terms: &[TermId],
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<bool, Reached> {
        let values = self.eval_all_within(terms, model, checkpoint)?;
        Ok(terms.iter().all(|t| values[t] == Value::Bool(true)))
    }

    /// The values of `roots`. A value is dropped after its last use, and a
    /// store takes over its array when nothing else reads it, so a chain of
    /// n stores costs O(n) and not O(n^2).
    fn eval_all_within(
        &self,
        roots: &[TermId],
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<FxHashMap<TermId, Value>, Reached> {
        self.eval_all_bound(roots, model, None, checkpoint)
    }

    /// [`TermStore::eval_all_within`] with `bound` the value of the bound
    /// variable free in `roots` (a forall's body, at one of its values).
    /// A forall's body is evaluated at each value of its range in turn, so
    /// the walk stops at it.
    fn eval_all_bound(
        &self,
        roots: &[TermId],
        model: &Model,
        bound: Option<u64>,
        checkpoint: &mut Checkpoint,
    ) -> Result<FxHashMap<TermId, Value>, Reached> {
        let order = self.reachable_outside_foralls(roots);
        let mut uses: FxHashMap<TermId, u32> = FxHashMap::default();
        for &t in roots {
            *uses.entry(t).or_default() += 1;
        }
        for &t in &order {
            for c in self.node(t).outer_children() {
                *uses.entry(c).or_default() += 1;
            }
        }
        let mut values: FxHashMap<TermId, Value> = FxHashMap::default();
        for t in order {
            if let Some(limit) = checkpoint.after(1) {
                return Err(limit);
            }
            let mut take = |c: TermId| {
                let left = uses.get_mut(&c).expect("counted child");
                *left -= 1;
                if *left == 0 {
                    values.remove(&c).expect("children evaluate first")
                } else {
                    values[&c].clone()
                }
            };
            let v = match *self.node(t) {
                Node::Forall(lo, hi, body) => {
                    let (lo, hi) = (take(lo).as_bv(), take(hi).as_bv());
                    let (lo, hi) = (lo.expect("bit-vector bound"), hi.expect("bit-vector bound"));
                    let mut holds = true;
                    for i in lo..=hi {
                        let inside = self.eval_all_bound(&[body], model, Some(i), checkpoint)?;
                        if inside[&body] != Value::Bool(true) {
                            holds = false;
                            break;
                        }
                    }
                    Value::Bool(holds)
                }
                Node::Bound(width) => Value::Bv {
                    width,
                    // Free, with no forall above: as a symbol the model
                    // leaves out.
                    value: bound.unwrap_or(0),
                },
                ref node => self.eval_node(node, self.sort(t), model, &mut take),
            };
            values.insert(t, v);
        }
        Ok(values)
    }

    /// [`TermStore::reachable`] without entering foralls' bodies.
    fn reachable_outside_foralls(&self, roots: &[TermId]) -> Vec<TermId> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack: Vec<TermId> = roots.to_vec();
        let mut out = Vec::new();
        while let Some(t) = stack.pop() {
            if seen.insert(t) {
                out.push(t);
                stack.extend(self.node(t).outer_children());
            }
        }
        out.sort_unstable();
        out
    }

    /// The value of `node` when every child is a boolean or bit-vector
    /// constant and its own value is not an array; `None` otherwise. The node
    /// need not be in the store: constant folding asks before building it.
    pub fn fold_constants(&self, node: &Node) -> Option<Value> {
        let constant = |c: TermId| match *self.node(c) {
            Node::BoolConst(b) => Some(Value::Bool(b)),
            Node::BvConst { width, value } => Some(Value::Bv { width, value }),
            _ => None,
        };
        if node.children().next().is_none() || !node.children().all(|c| constant(c).is_some()) {
            return None;
        }
        // A forall's constant body is the simplifier's to fold.
        if let Node::Forall(..) = node {
            return None;
        }
        let sort = self.sort_of_node(node).ok()?;
        if sort == Sort::Array {
            return None;
        }
        let mut value_of = |c: TermId| constant(c).expect("checked constant");
        Some(self.eval_node(node, sort, &Model::new(), &mut value_of))
    }

    fn eval_node(
        &self,
        node: &Node,
        sort: Sort,
        model: &Model,
        value_of: &mut dyn FnMut(TermId) -> Value,
    ) -> Value {
        // Every child is fetched once per occurrence: a fetch consumes a use.
        let mut args = [None, None, None];
        for (slot, c) in args.iter_mut().zip(node.children()) {
            *slot = Some(value_of(c));
        }
        let [a0, a1, a2] = args;
        let arg = |v: Option<Value>| v.expect("child fetched");
        let b = |v: Option<Value>| arg(v).as_bool().expect("well-sorted boolean");
        let n = |v: Option<Value>| arg(v).as_bv().expect("well-sorted bit-vector");
        let width = match sort {
            Sort::Bv(w) => w,
            Sort::Bool | Sort::Array => 0,
        };
        let bv = |value: u64| Value::Bv { width, value };
        match *node {
            Node::BoolConst(v) => Value::Bool(v),
            Node::BvConst { width, value } => Value::Bv { width, value },
            Node::Symbol(s) => model.value_of(s, self.symbol_sort(s)),
            Node::Not(_) => Value::Bool(!b(a0)),
            Node::And(..) => Value::Bool(b(a0) & b(a1)),
            Node::Or(..) => Value::Bool(b(a0) | b(a1)),
            Node::Xor(..) => Value::Bool(b(a0) ^ b(a1)),
            Node::Ite(..) => arg(if b(a0) { a1 } else { a2 }),
            Node::Eq(..) => Value::Bool(arg(a0) == arg(a1)),
            Node::BvUn(op, _) => bv(apply_unary(op, width, n(a0))),
            Node::BvBin(op, ..) => bv(apply_binary(op, width, n(a0), n(a1))),
            Node::BvCmp(op, x, _) => Value::Bool(apply_cmp(op, self.width(x), n(a0), n(a1))),
            Node::Extract { hi, lo, .. } => bv(apply_extract(hi, lo, n(a0))),
            Node::Concat(_, low) => bv((n(a0) << self.width(low)) | n(a1)),
            Node::ZeroExt(..) => bv(n(a0)),
            Node::SignExt(extra, x) => bv(apply_sign_ext(self.width(x), extra, n(a0))),
            Node::RotateLeft(k, _) => bv(apply_rotate_left(width, k, n(a0))),
            Node::RotateRight(k, _) => bv(apply_rotate_right(width, k, n(a0))),
            Node::Select(..) => match arg(a0) {
                Value::Array(array) => bv(u64::from(array.get(n(a1) as u32))),
                _ => unreachable!("well-sorted array"),
            },
            Node::Store(..) => match arg(a0) {
                Value::Array(mut array) => {
                    Rc::make_mut(&mut array).set(n(a1) as u32, n(a2) as u8);
                    Value::Array(array)
                }
                _ => unreachable!("well-sorted array"),
            },
            Node::ConstArray(_) => Value::Array(Rc::new(ArrayValue {
                default: n(a0) as u8,
                entries: BTreeMap::new(),
            })),
            Node::Forall(..) | Node::Bound(_) => {
                unreachable!("eval_all_bound evaluates foralls and their variables")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SMT-LIB's division-by-zero results, for every division operator.
    #[test]
    fn division_by_zero_follows_smtlib() {
        for width in [1u8, 7, 8, 32, 64] {
            let m = mask(width);
            let min = 1u64 << (width - 1);
            for x in [0, 1, 5 & m, m, min, min.wrapping_sub(1) & m] {
                assert_eq!(
                    apply_binary(BvBinOp::Udiv, width, x, 0),
                    m,
                    "udiv {x}/0 w{width}"
                );
                assert_eq!(
                    apply_binary(BvBinOp::Urem, width, x, 0),
                    x,
                    "urem {x}%0 w{width}"
                );
                let expected_sdiv = if to_signed(width, x) < 0 { 1 } else { m };
                assert_eq!(apply_binary(BvBinOp::Sdiv, width, x, 0), expected_sdiv);
                assert_eq!(apply_binary(BvBinOp::Srem, width, x, 0), x);
                assert_eq!(apply_binary(BvBinOp::Smod, width, x, 0), x);
            }
        }
    }

    #[test]
    fn signed_division_overflow_wraps() {
        // INT_MIN / -1 = INT_MIN, INT_MIN rem -1 = 0.
        assert_eq!(apply_binary(BvBinOp::Sdiv, 8, 0x80, 0xff), 0x80);
        assert_eq!(apply_binary(BvBinOp::Srem, 8, 0x80, 0xff), 0);
        assert_eq!(apply_binary(BvBinOp::Smod, 8, 0x80, 0xff), 0);
        assert_eq!(apply_binary(BvBinOp::Sdiv, 64, 1 << 63, u64::MAX), 1 << 63);
    }

    #[test]
    fn signed_remainder_and_modulus_take_different_signs() {
        // -7 srem 2 = -1 (sign of dividend); -7 smod 2 = 1 (sign of divisor).
        let m7 = (-7i64 as u64) & 0xff;
        assert_eq!(apply_binary(BvBinOp::Srem, 8, m7, 2), 0xff);
        assert_eq!(apply_binary(BvBinOp::Smod, 8, m7, 2), 1);
        // 7 smod -2 = -1.
        assert_eq!(apply_binary(BvBinOp::Smod, 8, 7, 0xfe), 0xff);
        assert_eq!(apply_binary(BvBinOp::Sdiv, 8, m7, 2), 0xfd);
    }

    #[test]
    fn shifts_past_the_width() {
        assert_eq!(apply_binary(BvBinOp::Shl, 8, 1, 8), 0);
        assert_eq!(apply_binary(BvBinOp::Lshr, 8, 0x80, 200), 0);
        assert_eq!(apply_binary(BvBinOp::Ashr, 8, 0x80, 200), 0xff);
        assert_eq!(apply_binary(BvBinOp::Ashr, 8, 0x40, 200), 0);
        assert_eq!(apply_binary(BvBinOp::Shl, 64, 1, u64::MAX), 0);
    }

    #[test]
    fn rotations_and_extensions() {
        assert_eq!(apply_rotate_left(8, 1, 0x81), 0x03);
        assert_eq!(apply_rotate_right(8, 1, 0x81), 0xc0);
        assert_eq!(apply_rotate_left(8, 9, 0x81), 0x03);
        assert_eq!(apply_rotate_left(1, 3, 1), 1);
        assert_eq!(apply_sign_ext(4, 4, 0x8), 0xf8);
        assert_eq!(apply_extract(7, 4, 0xab), 0xa);
    }

    #[test]
    fn evaluation_under_a_model() {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let mem = s.declare("mem", Sort::Array).unwrap();
        let i = s.bv_const(32, 4);
        let stored = s.store(mem, i, x);
        let read = s.select(stored, i);
        let other = s.bv_const(32, 5);
        let read_other = s.select(stored, other);
        let sum = s.bin(BvBinOp::Add, read, read_other);
        let mut model = Model::new();
        model.set(
            s.symbol_named("x").unwrap(),
            Value::Bv {
                width: 8,
                value: 200,
            },
        );
        let mut array = ArrayValue::default();
        array.set(5, 100);
        model.set(s.symbol_named("mem").unwrap(), Value::Array(Rc::new(array)));
        assert_eq!(
            s.eval(sum, &model),
            Value::Bv {
                width: 8,
                value: 44
            }
        );
        let lt = s.cmp(BvCmp::Slt, sum, x);
        assert_eq!(s.eval(lt, &model), Value::Bool(false));
    }

    #[test]
    fn long_store_chains_evaluate_in_linear_space() {
        // Copying the array at every store would need 100k maps of up to 100k entries.
        let mut s = TermStore::new();
        let mem = s.declare("mem", Sort::Array).unwrap();
        let mut array = mem;
        for i in 0..100_000u64 {
            let (index, byte) = (s.bv_const(32, i), s.bv_const(8, i % 251));
            array = s.store(array, index, byte);
        }
        let probe = s.bv_const(32, 77_777);
        let read = s.select(array, probe);
        assert_eq!(
            s.eval(read, &Model::new()),
            Value::Bv {
                width: 8,
                value: 77_777 % 251
            }
        );
    }
}
