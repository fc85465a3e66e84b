//! The store that owns every term and symbol: hash-consing, sort checking
//! and the walks over a term's children.

use super::node::{
    mask, sort_to_smtlib, BvBinOp, BvCmp, BvUnOp, Node, Sort, SymbolId, TermId, ARRAY_INDEX_WIDTH,
    ARRAY_VALUE_WIDTH, MAX_WIDTH,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// Why a node could not be built: its children have the wrong sorts or widths.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SortError(pub String);

impl fmt::Display for SortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SortError {}

#[derive(Clone, Debug)]
struct SymbolInfo {
    name: String,
    sort: Sort,
    term: TermId,
    /// The base of a relocatable memory object: its value is the object's
    /// hidden address in a state, never an input.
    base: bool,
}

/// [`TermStore`]'s flags of a term.
const BASE: u8 = 1;
const OPEN: u8 = 2;
const FORALL: u8 = 4;

/// The arena that owns every term and symbol.
#[derive(Clone, Debug, Default)]
pub struct TermStore {
    nodes: Vec<Node>,
    sorts: Vec<Sort>,
    /// Per term: whether a base symbol occurs in it ([`BASE`]), so that
    /// terms without one skip unfolding at no cost; whether a bound
    /// variable occurs free in it ([`OPEN`]).
    flags: Vec<u8>,
    table: FxHashMap<Node, TermId>,
    symbols: Vec<SymbolInfo>,
    symbol_by_name: FxHashMap<String, SymbolId>,
}

impl TermStore {
    pub fn new() -> TermStore {
        TermStore::default()
    }

    /// Number of distinct terms built so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Bytes the store allocates at once if it grows by `terms` more: its
    /// vectors and its table double when full, the old ones kept until
    /// the new ones are filled.
    pub fn growth_bytes(&self, terms: usize) -> u64 {
        let doubled = |capacity: usize, len: usize, entry: usize| {
            if capacity - len < terms {
                2 * capacity.max(1) * entry
            } else {
                0
            }
        };
        let (len, table) = (self.nodes.len(), self.table.capacity());
        // A table entry, its control byte, and its buckets' spare eighth.
        let entry = (std::mem::size_of::<(Node, TermId)>() + 1) * 8 / 7;
        (doubled(self.nodes.capacity(), len, std::mem::size_of::<Node>())
            + doubled(self.sorts.capacity(), len, std::mem::size_of::<Sort>())
            + doubled(self.flags.capacity(), len, 1)
            + doubled(table, self.table.len(), entry)) as u64
    }

    pub fn node(&self, t: TermId) -> &Node {
        &self.nodes[t.index()]
    }

    pub fn sort(&self, t: TermId) -> Sort {
        self.sorts[t.index()]
    }

    /// Whether a base symbol ([`TermStore::declare_base`]) occurs in `t`.
    pub fn has_base(&self, t: TermId) -> bool {
        self.flags[t.index()] & BASE != 0
    }

    /// Whether a forall occurs in `t`.
    pub fn has_forall(&self, t: TermId) -> bool {
        self.flags[t.index()] & FORALL != 0
    }

    /// Whether a bound variable occurs in `t` outside any forall of `t`:
    /// `t` has a value only under a forall that binds it.
    pub fn is_open(&self, t: TermId) -> bool {
        self.flags[t.index()] & OPEN != 0
    }

    /// Width of a bit-vector term; 0 for booleans and arrays.
    pub fn width(&self, t: TermId) -> u8 {
        match self.sort(t) {
            Sort::Bv(w) => w,
            Sort::Bool | Sort::Array => 0,
        }
    }

    /// The constant value of `t`, if it is a bit-vector constant.
    pub fn as_bv_const(&self, t: TermId) -> Option<u64> {
        match *self.node(t) {
            Node::BvConst { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The constant value of `t`, if it is a boolean constant.
    pub fn as_bool_const(&self, t: TermId) -> Option<bool> {
        match *self.node(t) {
            Node::BoolConst(b) => Some(b),
            _ => None,
        }
    }

    /// Builds `node`, or returns the existing term equal to it, after checking
    /// the sorts of its children.
    pub fn try_mk(&mut self, node: Node) -> Result<TermId, SortError> {
        if let Some(&t) = self.table.get(&node) {
            return Ok(t);
        }
        let sort = self.sort_of_node(&node)?;
        let id = TermId(u32::try_from(self.nodes.len()).expect("more than 2^32 terms"));
        let flags = match node {
            Node::Symbol(s) if self.symbols[s.index()].base => BASE,
            Node::Bound(_) => OPEN,
            _ => {
                let own = if let Node::Forall(..) = node {
                    FORALL
                } else {
                    0
                };
                let inherited =
                    (node.children()).fold(own, |f, c| f | self.flags[c.index()] & (BASE | FORALL));
                // A forall's body is open in its variable; the forall is not.
                (node.outer_children()).fold(inherited, |f, c| f | self.flags[c.index()] & OPEN)
            }
        };
        self.nodes.push(node);
        self.sorts.push(sort);
        self.flags.push(flags);
        self.table.insert(node, id);
        Ok(id)
    }

    /// Builds a node the caller knows to be well sorted.
    ///
    /// Panics on a sort error: that is a bug in the caller, never bad input.
    /// Code that builds terms from user input calls [`TermStore::try_mk`].
    pub fn mk(&mut self, node: Node) -> TermId {
        match self.try_mk(node) {
            Ok(t) => t,
            Err(e) => panic!("ill-sorted term built by the engine: {e}"),
        }
    }

    pub(super) fn sort_of_node(&self, node: &Node) -> Result<Sort, SortError> {
        let err = |msg: String| Err(SortError(msg));
        let bv = |t: TermId, what: &str| match self.sort(t) {
            Sort::Bv(w) => Ok(w),
            s => Err(SortError(format!(
                "{what} expects a bit-vector, got {}",
                sort_to_smtlib(s)
            ))),
        };
        let boolean = |t: TermId, what: &str| match self.sort(t) {
            Sort::Bool => Ok(()),
            s => Err(SortError(format!(
                "{what} expects a Bool, got {}",
                sort_to_smtlib(s)
            ))),
        };
        let array = |t: TermId, what: &str| match self.sort(t) {
            Sort::Array => Ok(()),
            s => Err(SortError(format!(
                "{what} expects an array, got {}",
                sort_to_smtlib(s)
            ))),
        };
        let same_bv = |a: TermId, b: TermId, what: &str| {
            let (wa, wb) = (bv(a, what)?, bv(b, what)?);
            if wa == wb {
                Ok(wa)
            } else {
                Err(SortError(format!(
                    "{what} expects operands of one width, got (_ BitVec {wa}) and (_ BitVec {wb})"
                )))
            }
        };
        let check_width = |w: u32, what: &str| {
            if (1..=u32::from(MAX_WIDTH)).contains(&w) {
                Ok(w as u8)
            } else {
                Err(SortError(format!(
                    "{what} gives width {w}; bit-vectors have widths 1 to {MAX_WIDTH}"
                )))
            }
        };
        match *node {
            Node::BoolConst(_) => Ok(Sort::Bool),
            Node::BvConst { width, value } => {
                check_width(u32::from(width), "constant")?;
                if value & !mask(width) != 0 {
                    return err(format!("constant {value} does not fit in {width} bits"));
                }
                Ok(Sort::Bv(width))
            }
            Node::Symbol(s) => match self.symbols.get(s.index()) {
                Some(info) => Ok(info.sort),
                None => err(format!("unknown symbol id {}", s.index())),
            },
            Node::Not(a) => boolean(a, "not").map(|_| Sort::Bool),
            Node::And(a, b) | Node::Or(a, b) | Node::Xor(a, b) => {
                boolean(a, "boolean connective")?;
                boolean(b, "boolean connective")?;
                Ok(Sort::Bool)
            }
            Node::Ite(c, t, e) => {
                boolean(c, "ite condition")?;
                let (st, se) = (self.sort(t), self.sort(e));
                if st != se {
                    return err(format!(
                        "ite branches have different sorts: {} and {}",
                        sort_to_smtlib(st),
                        sort_to_smtlib(se)
                    ));
                }
                Ok(st)
            }
            Node::Eq(a, b) => match (self.sort(a), self.sort(b)) {
                (Sort::Bool, Sort::Bool) => Ok(Sort::Bool),
                (Sort::Bv(_), Sort::Bv(_)) => same_bv(a, b, "=").map(|_| Sort::Bool),
                (Sort::Array, Sort::Array) => {
                    err("equality between arrays is not supported".into())
                }
                (sa, sb) => err(format!(
                    "= expects operands of one sort, got {} and {}",
                    sort_to_smtlib(sa),
                    sort_to_smtlib(sb)
                )),
            },
            Node::BvUn(_, a) => bv(a, "bit-vector operator").map(Sort::Bv),
            Node::BvBin(op, a, b) => same_bv(a, b, op.smtlib_name()).map(Sort::Bv),
            Node::BvCmp(op, a, b) => same_bv(a, b, op.smtlib_name()).map(|_| Sort::Bool),
            Node::Extract { hi, lo, arg } => {
                let w = bv(arg, "extract")?;
                if lo > hi || hi >= w {
                    return err(format!(
                        "(_ extract {hi} {lo}) is out of range for (_ BitVec {w})"
                    ));
                }
                Ok(Sort::Bv(hi - lo + 1))
            }
            Node::Concat(a, b) => {
                let w = u32::from(bv(a, "concat")?) + u32::from(bv(b, "concat")?);
                check_width(w, "concat").map(Sort::Bv)
            }
            Node::ZeroExt(k, a) | Node::SignExt(k, a) => {
                let w = u32::from(bv(a, "extend")?) + u32::from(k);
                check_width(w, "extend").map(Sort::Bv)
            }
            Node::RotateLeft(_, a) | Node::RotateRight(_, a) => bv(a, "rotate").map(Sort::Bv),
            Node::Select(a, i) => {
                array(a, "select")?;
                if bv(i, "select index")? != ARRAY_INDEX_WIDTH {
                    return err(format!(
                        "select index must be (_ BitVec {ARRAY_INDEX_WIDTH})"
                    ));
                }
                Ok(Sort::Bv(ARRAY_VALUE_WIDTH))
            }
            Node::Store(a, i, v) => {
                array(a, "store")?;
                if bv(i, "store index")? != ARRAY_INDEX_WIDTH {
                    return err(format!(
                        "store index must be (_ BitVec {ARRAY_INDEX_WIDTH})"
                    ));
                }
                if bv(v, "store value")? != ARRAY_VALUE_WIDTH {
                    return err(format!(
                        "store value must be (_ BitVec {ARRAY_VALUE_WIDTH})"
                    ));
                }
                Ok(Sort::Array)
            }
            Node::Bound(width) => check_width(u32::from(width), "bound variable").map(Sort::Bv),
            Node::Forall(lo, hi, body) => {
                same_bv(lo, hi, "forall's bounds")?;
                boolean(body, "forall's body")?;
                if self.is_open(lo) || self.is_open(hi) {
                    return err("a forall's bounds may not use a bound variable".into());
                }
                Ok(Sort::Bool)
            }
            Node::ConstArray(v) => {
                if bv(v, "constant array")? != ARRAY_VALUE_WIDTH {
                    return err(format!(
                        "constant array value must be (_ BitVec {ARRAY_VALUE_WIDTH})"
                    ));
                }
                Ok(Sort::Array)
            }
        }
    }

    // ----- symbols -----

    /// Declares a symbol, or returns the existing one of that name and sort.
    pub fn declare(&mut self, name: &str, sort: Sort) -> Result<TermId, SortError> {
        self.declare_as(name, sort, false)
    }

    /// Declares the 32-bit base symbol `name` of a relocatable memory
    /// object, or returns it when it exists; `None` when an input symbol
    /// has that name.
    pub fn declare_base(&mut self, name: &str) -> Option<TermId> {
        match self.symbol_by_name.get(name) {
            Some(&s) => self.symbols[s.index()]
                .base
                .then_some(self.symbols[s.index()].term),
            None => self.declare_as(name, Sort::Bv(32), true).ok(),
        }
    }

    fn declare_as(&mut self, name: &str, sort: Sort, base: bool) -> Result<TermId, SortError> {
        if let Some(&s) = self.symbol_by_name.get(name) {
            let info = &self.symbols[s.index()];
            if info.sort != sort {
                return Err(SortError(format!(
                    "symbol {name} is already declared with sort {}",
                    sort_to_smtlib(info.sort)
                )));
            }
            if info.base != base {
                return Err(SortError(format!(
                    "symbol {name} is already declared as a memory object's base"
                )));
            }
            return Ok(info.term);
        }
        if let Sort::Bv(w) = sort {
            if !(1..=MAX_WIDTH).contains(&w) {
                return Err(SortError(format!(
                    "symbol {name} has width {w}; bit-vectors have widths 1 to {MAX_WIDTH}"
                )));
            }
        }
        let id = SymbolId(u32::try_from(self.symbols.len()).expect("more than 2^32 symbols"));
        self.symbols.push(SymbolInfo {
            name: name.to_string(),
            sort,
            term: TermId(0),
            base,
        });
        self.symbol_by_name.insert(name.to_string(), id);
        let term = self.mk(Node::Symbol(id));
        self.symbols[id.index()].term = term;
        Ok(term)
    }

    /// Declares a symbol with a new name that starts with `prefix`.
    pub fn fresh(&mut self, prefix: &str, sort: Sort) -> TermId {
        let mut n = self.symbols.len();
        loop {
            let name = format!("{prefix}!{n}");
            if !self.symbol_by_name.contains_key(&name) {
                return self
                    .declare(&name, sort)
                    .expect("a fresh name has no earlier declaration");
            }
            n += 1;
        }
    }

    pub fn symbol_named(&self, name: &str) -> Option<SymbolId> {
        self.symbol_by_name.get(name).copied()
    }

    pub fn symbol_name(&self, s: SymbolId) -> &str {
        &self.symbols[s.index()].name
    }

    pub fn symbol_sort(&self, s: SymbolId) -> Sort {
        self.symbols[s.index()].sort
    }

    pub fn symbol_term(&self, s: SymbolId) -> TermId {
        self.symbols[s.index()].term
    }

    /// All symbols, in declaration order.
    pub fn symbols(&self) -> impl Iterator<Item = SymbolId> {
        (0..self.symbols.len() as u32).map(SymbolId)
    }

    // ----- traversal -----

    /// Every term reachable from `roots`, children before parents, each once.
    /// Costs what it visits, not the size of the store: it runs on every
    /// query, and the store only grows.
    pub fn reachable(&self, roots: &[TermId]) -> Vec<TermId> {
        let mut seen = FxHashSet::default();
        let mut stack: Vec<TermId> = roots.to_vec();
        let mut out = Vec::new();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            out.push(t);
            stack.extend(self.node(t).children());
        }
        // Children have smaller ids than their parents.
        out.sort_unstable();
        out
    }

    /// The base symbols that occur in `t`, sorted: the walk enters only
    /// subterms holding one, so a pointer `β + i` costs two nodes however
    /// large `i` is.
    pub fn bases_in(&self, t: TermId) -> Vec<TermId> {
        let mut seen = FxHashSet::default();
        let mut stack = vec![t];
        let mut out = Vec::new();
        while let Some(u) = stack.pop() {
            if !self.has_base(u) || !seen.insert(u) {
                continue;
            }
            match self.node(u) {
                Node::Symbol(_) => out.push(u),
                node => stack.extend(node.children()),
            }
        }
        out.sort_unstable();
        out
    }

    /// The symbols that occur in `roots`, sorted.
    pub fn symbols_in(&self, roots: &[TermId]) -> Vec<SymbolId> {
        self.reachable(roots)
            .into_iter()
            .filter_map(|t| match *self.node(t) {
                Node::Symbol(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    // ----- constructors -----

    pub fn bool_const(&mut self, b: bool) -> TermId {
        self.mk(Node::BoolConst(b))
    }

    pub fn tru(&mut self) -> TermId {
        self.bool_const(true)
    }

    pub fn fls(&mut self) -> TermId {
        self.bool_const(false)
    }

    /// A bit-vector constant; bits of `value` above `width` are dropped.
    pub fn bv_const(&mut self, width: u8, value: u64) -> TermId {
        self.mk(Node::BvConst {
            width,
            value: value & mask(width),
        })
    }

    pub fn not(&mut self, a: TermId) -> TermId {
        self.mk(Node::Not(a))
    }

    pub fn and(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Node::And(a, b))
    }

    /// Conjunction of any number of booleans; `true` when empty.
    pub fn and_all(&mut self, terms: &[TermId]) -> TermId {
        match terms.split_first() {
            None => self.tru(),
            Some((&first, rest)) => rest.iter().fold(first, |acc, &t| self.and(acc, t)),
        }
    }

    pub fn or(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Node::Or(a, b))
    }

    /// Disjunction of any number of booleans; `false` when empty.
    pub fn or_all(&mut self, terms: &[TermId]) -> TermId {
        match terms.split_first() {
            None => self.fls(),
            Some((&first, rest)) => rest.iter().fold(first, |acc, &t| self.or(acc, t)),
        }
    }

    /// `values[i]` under `guards[i]`, the first guard that holds, and the
    /// last value where none does: `ite(g0, v0, ite(g1, v1, .. vk))`.
    /// `values` has one more entry than the guards used.
    pub fn ite_chain(&mut self, guards: &[TermId], values: &[TermId]) -> TermId {
        let (&last, guarded) = values.split_last().expect("a value at least");
        (guarded.iter().zip(guards).rev()).fold(last, |rest, (&v, &g)| self.ite(g, v, rest))
    }

    pub fn xor(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Node::Xor(a, b))
    }

    pub fn implies(&mut self, a: TermId, b: TermId) -> TermId {
        let na = self.not(a);
        self.or(na, b)
    }

    pub fn ite(&mut self, c: TermId, t: TermId, e: TermId) -> TermId {
        self.mk(Node::Ite(c, t, e))
    }

    pub fn eq(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk(Node::Eq(a, b))
    }

    pub fn bvnot(&mut self, a: TermId) -> TermId {
        self.mk(Node::BvUn(BvUnOp::Not, a))
    }

    pub fn neg(&mut self, a: TermId) -> TermId {
        self.mk(Node::BvUn(BvUnOp::Neg, a))
    }

    pub fn bin(&mut self, op: BvBinOp, a: TermId, b: TermId) -> TermId {
        self.mk(Node::BvBin(op, a, b))
    }

    pub fn cmp(&mut self, op: BvCmp, a: TermId, b: TermId) -> TermId {
        self.mk(Node::BvCmp(op, a, b))
    }

    pub fn extract(&mut self, hi: u8, lo: u8, arg: TermId) -> TermId {
        self.mk(Node::Extract { hi, lo, arg })
    }

    pub fn concat(&mut self, high: TermId, low: TermId) -> TermId {
        self.mk(Node::Concat(high, low))
    }

    pub fn zero_ext(&mut self, extra: u8, a: TermId) -> TermId {
        self.mk(Node::ZeroExt(extra, a))
    }

    pub fn sign_ext(&mut self, extra: u8, a: TermId) -> TermId {
        self.mk(Node::SignExt(extra, a))
    }

    pub fn select(&mut self, array: TermId, index: TermId) -> TermId {
        self.mk(Node::Select(array, index))
    }

    pub fn store(&mut self, array: TermId, index: TermId, value: TermId) -> TermId {
        self.mk(Node::Store(array, index, value))
    }

    /// The variable of the forall to be built around it, of `width` bits.
    pub fn bound(&mut self, width: u8) -> TermId {
        self.mk(Node::Bound(width))
    }

    /// `forall i in [lo, hi]. body`, `i` being `body`'s [`TermStore::bound`]
    /// of the bounds' width; a sort error if the bounds differ in width,
    /// use a bound variable, or the body is not a Bool.
    pub fn forall(&mut self, lo: TermId, hi: TermId, body: TermId) -> Result<TermId, SortError> {
        self.try_mk(Node::Forall(lo, hi, body))
    }

    /// `body` (open in a forall's variable) with `value` for the
    /// variable: its free bound variables replaced, not those of the
    /// foralls inside it. Builds terms as they are, without simplifying.
    pub fn instantiate(&mut self, body: TermId, value: TermId) -> TermId {
        self.replace(body, |store, t| match *store.node(t) {
            _ if !store.is_open(t) => Some(t),
            Node::Bound(_) => Some(value),
            _ => None,
        })
    }

    /// `body` with the variable of a forall to be built around it, of
    /// `x`'s width, in place of the term `x`: what
    /// [`TermStore::instantiate`] at `x` undoes. `None` where `body` holds
    /// a forall or a bound variable already, which would capture or
    /// confuse it.
    pub fn abstract_over(&mut self, body: TermId, x: TermId) -> Option<TermId> {
        if self.has_forall(body) || self.is_open(body) {
            return None;
        }
        let bound = self.bound(self.width(x));
        Some(self.replace(body, |_, t| (t == x).then_some(bound)))
    }

    /// `body` rebuilt bottom up, each subterm that `at` gives a term for
    /// replaced by it (and not entered), the others rebuilt from their
    /// children (not entering a forall's body).
    fn replace(
        &mut self,
        body: TermId,
        at: impl Fn(&TermStore, TermId) -> Option<TermId>,
    ) -> TermId {
        let mut done: FxHashMap<TermId, TermId> = FxHashMap::default();
        let mut stack = vec![(body, false)];
        while let Some((t, children_done)) = stack.pop() {
            if done.contains_key(&t) {
                continue;
            }
            if let Some(replaced) = at(self, t) {
                done.insert(t, replaced);
                continue;
            }
            let node = *self.node(t);
            if !children_done {
                stack.push((t, true));
                stack.extend(node.outer_children().map(|c| (c, false)));
                continue;
            }
            let built = node.map_children(|c| done.get(&c).copied().unwrap_or(c));
            let term = match built == node {
                true => t,
                false => self.mk(built),
            };
            done.insert(t, term);
        }
        done[&body]
    }

    /// The values from `lo` to `hi` where both are constants (none where
    /// `lo > hi`); `None` where either is not a constant.
    pub fn constant_range(&self, lo: TermId, hi: TermId) -> Option<std::ops::RangeInclusive<u64>> {
        Some(self.as_bv_const(lo)?..=self.as_bv_const(hi)?)
    }

    /// `body` instantiated at each value of `range`, of the bound
    /// variable's `width`.
    pub fn instances(
        &mut self,
        body: TermId,
        width: u8,
        range: std::ops::RangeInclusive<u64>,
    ) -> Vec<TermId> {
        range
            .map(|i| {
                let at = self.bv_const(width, i);
                self.instantiate(body, at)
            })
            .collect()
    }

    pub fn const_array(&mut self, value: TermId) -> TermId {
        self.mk(Node::ConstArray(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Model, Value};

    #[test]
    fn a_forall_binds_its_variable_and_an_instance_replaces_only_that() {
        let mut s = TermStore::new();
        let n = s.declare("n", Sort::Bv(32)).unwrap();
        let i = s.bound(32);
        let [one, two, three] = [1, 2, 3].map(|k| s.bv_const(32, k));
        let body = s.cmp(BvCmp::Ult, i, n);
        // Bounds of two widths, a body that is no Bool, bounds using i.
        let narrow = s.bv_const(8, 3);
        assert!(s.forall(one, narrow, body).is_err());
        assert!(s.forall(one, three, n).is_err());
        let open = s.bin(BvBinOp::Add, i, one);
        let refused = s.forall(one, open, body).unwrap_err();
        assert_eq!(refused.0, "a forall's bounds may not use a bound variable");
        // forall i in [1, 3]. i < n: closed, though its body is open.
        let all = s.forall(one, three, body).unwrap();
        assert!(s.is_open(body) && !s.is_open(all));
        assert!(s.has_forall(all) && !s.has_forall(body));
        // An instance replaces the free i, not the forall's inside.
        let both = s.and(body, all);
        let at_two = s.cmp(BvCmp::Ult, two, n);
        let want = s.and(at_two, all);
        assert_eq!(s.instantiate(both, two), want);
        // Its value: the body at 1, 2 and 3; an empty range holds.
        let n_symbol = s.symbol_named("n").unwrap();
        let model = |value| {
            let mut m = Model::new();
            m.set(n_symbol, Value::Bv { width: 32, value });
            m
        };
        assert_eq!(s.eval(all, &model(4)), Value::Bool(true));
        assert_eq!(s.eval(all, &model(3)), Value::Bool(false));
        let fls = s.fls();
        let empty = s.forall(three, one, fls).unwrap();
        assert_eq!(s.eval(empty, &model(0)), Value::Bool(true));
        // A free variable, with no forall above, has no value of its own.
        assert_eq!(s.eval(body, &model(4)), Value::Bool(true));
    }

    #[test]
    fn abstracting_a_term_undoes_an_instance_and_refuses_what_would_capture() {
        let mut s = TermStore::new();
        let [n, k] = ["n", "k"].map(|name| s.declare(name, Sort::Bv(32)).unwrap());
        let one = s.bv_const(32, 1);
        let i = s.bound(32);
        // n < k - 1 over k, and n < i - 1 over i.
        let k_less = s.bin(BvBinOp::Sub, k, one);
        let over_k = s.cmp(BvCmp::Ult, n, k_less);
        let i_less = s.bin(BvBinOp::Sub, i, one);
        let over_i = s.cmp(BvCmp::Ult, n, i_less);
        assert_eq!(s.abstract_over(over_k, k), Some(over_i));
        assert_eq!(s.instantiate(over_i, k), over_k);
        // Where k does not occur the term is itself; open terms and
        // foralls are refused.
        let no_k = s.cmp(BvCmp::Ult, n, one);
        assert_eq!(s.abstract_over(no_k, k), Some(no_k));
        assert_eq!(s.abstract_over(over_i, k), None);
        let all = s.forall(one, k, over_i).unwrap();
        assert_eq!(s.abstract_over(all, k), None);
    }

    #[test]
    fn equal_structure_gives_equal_ids() {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let one = s.bv_const(8, 1);
        let a = s.bin(BvBinOp::Add, x, one);
        let b = s.bin(BvBinOp::Add, x, one);
        assert_eq!(a, b);
        let c = s.bin(BvBinOp::Add, one, x);
        assert_ne!(a, c);
    }

    #[test]
    fn a_term_holds_a_base_symbol_when_one_occurs_in_it() {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(32)).unwrap();
        let beta = s.declare_base("&obj1").unwrap();
        assert_eq!(s.declare_base("&obj1"), Some(beta), "declared once");
        assert_eq!(s.declare_base("x"), None, "an input of that name");
        assert!(
            s.declare("&obj1", Sort::Bv(32)).is_err(),
            "a base of that name"
        );
        let eight = s.bv_const(32, 8);
        let field = s.bin(BvBinOp::Add, beta, eight);
        let index = s.bin(BvBinOp::Add, x, eight);
        let both = s.cmp(BvCmp::Ult, field, index);
        assert!(s.has_base(beta) && s.has_base(field) && s.has_base(both));
        assert!(!s.has_base(x) && !s.has_base(index) && !s.has_base(eight));
    }

    #[test]
    fn ill_sorted_nodes_are_rejected_with_a_reason() {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let y = s.declare("y", Sort::Bv(16)).unwrap();
        let e = s.try_mk(Node::BvBin(BvBinOp::Add, x, y)).unwrap_err();
        assert!(e.0.contains("(_ BitVec 8) and (_ BitVec 16)"), "{e}");
        let e = s
            .try_mk(Node::Extract {
                hi: 8,
                lo: 0,
                arg: x,
            })
            .unwrap_err();
        assert!(e.0.contains("out of range"), "{e}");
        let z = s.declare("z", Sort::Bv(40)).unwrap();
        let e = s.try_mk(Node::Concat(z, z)).unwrap_err();
        assert!(e.0.contains("width 80"), "{e}");
        assert!(s.declare("x", Sort::Bool).is_err());
    }

    #[test]
    fn reachable_lists_children_first() {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let y = s.declare("y", Sort::Bv(8)).unwrap();
        let sum = s.bin(BvBinOp::Add, x, y);
        let prod = s.bin(BvBinOp::Mul, sum, sum);
        let order = s.reachable(&[prod]);
        assert_eq!(order.len(), 4);
        assert_eq!(*order.last().unwrap(), prod);
        let pos = |t| order.iter().position(|&u| u == t).unwrap();
        assert!(pos(x) < pos(sum) && pos(sum) < pos(prod));
        assert_eq!(s.symbols_in(&[prod]).len(), 2);
    }
}
