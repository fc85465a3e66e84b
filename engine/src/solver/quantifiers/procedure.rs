//! The solving procedure of `quantified_merging.md` §6 (Alg. 7) for a
//! query whose foralls have symbolic bounds, as a quantified merge's path
//! condition `∀i ∈ [1, k]: φ2[i]` has. It asks the quantifier-free solver
//! (the chain) up to three times, and returns a model only once the model
//! satisfies the whole query:
//! - strip (S): the query weakened to its quantifier-free clauses, each
//!   forall's first instance, and the instances its clauses refute; unsat
//!   is the query's answer, and a model may already satisfy it;
//! - duplicate (D): the array cell each forall's first instance reads is
//!   copied to the cell each later instance reads, without a solver call;
//! - repair (R): strip again, with the instances that read the cells the
//!   model got wrong and every scalar pinned to its value, then duplicate;
//! - fallback (F): each forall expanded over the constant bound the query
//!   puts on its upper bound (or every value of a narrow one's width), a
//!   quantifier-free query equivalent to it.

use crate::expr::{BvBinOp, BvCmp, Model, Node, Sort, SymbolId, TermId, TermStore, Value};
use crate::solver::SolveResult;
use std::collections::BTreeSet;
use std::ops::RangeInclusive;

/// The stage that answered a quantified query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Strip,
    Duplicate,
    Repair,
    Fallback,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Strip => "strip",
            Stage::Duplicate => "duplicate",
            Stage::Repair => "repair",
            Stage::Fallback => "fallback",
        }
    }
}

/// The most values of a forall's range a model is checked at, and the
/// most instances the fallback expands into in all.
pub const MAX_INSTANCES: u64 = 4096;

/// The quantifier-free solver the procedure asks: the chain.
pub type QfSolve<'a> = dyn FnMut(&mut TermStore, &[TermId]) -> SolveResult + 'a;

/// One clause `∀i ∈ [lo, hi]: body` of a query, its body no conjunction.
struct Quantified {
    lo: TermId,
    hi: TermId,
    body: TermId,
    width: u8,
    /// The body's reads of array symbols at an index that uses the
    /// variable, in term order.
    reads: Vec<Read>,
}

/// An array symbol's cell: the seed's semantic access pair.
pub type Cell = (SymbolId, u32);

/// Where a model's cells came from, beside the quantifier-free solver:
/// those duplication copied from a forall's first instance, and those it
/// left as they were because repair found them in conflict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellOrigins {
    pub duplicated: BTreeSet<Cell>,
    pub protected: BTreeSet<Cell>,
}

/// A read `array[index]` of an array symbol (through any stores).
#[derive(Clone, Copy)]
struct Read {
    select: TermId,
    root: SymbolId,
    index: TermId,
}

/// A query as the procedure sees it: quantifier-free clauses and foralls.
pub struct Query {
    assertions: Vec<TermId>,
    free: Vec<TermId>,
    quantified: Vec<Quantified>,
}

impl Query {
    /// `assertions` as clauses, or why they are outside the fragment the
    /// procedure solves (a forall that is not a conjunct, or a nested one).
    pub fn of(store: &mut TermStore, assertions: &[TermId]) -> Result<Query, String> {
        let mut query = Query {
            assertions: assertions.to_vec(),
            free: Vec::new(),
            quantified: Vec::new(),
        };
        let mut todo: Vec<TermId> = assertions.iter().rev().copied().collect();
        while let Some(t) = todo.pop() {
            if !store.has_forall(t) {
                query.free.push(t);
                continue;
            }
            match *store.node(t) {
                Node::And(a, b) => todo.extend([b, a]),
                Node::Forall(lo, hi, body) => query.split(store, lo, hi, body)?,
                _ => {
                    return Err(
                        "a forall under a negation, a disjunction or an ite (only conjuncts are solved)"
                            .into(),
                    )
                }
            }
        }
        Ok(query)
    }

    /// `∀i.(A ∧ B)` as `∀i.A ∧ ∀i.B`; a conjunct without `i` holds where the
    /// range is not empty.
    fn split(
        &mut self,
        store: &mut TermStore,
        lo: TermId,
        hi: TermId,
        body: TermId,
    ) -> Result<(), String> {
        if store.has_forall(body) {
            return Err("a forall inside a forall's body".into());
        }
        let mut parts = vec![body];
        while let Some(part) = parts.pop() {
            match *store.node(part) {
                Node::And(a, b) => parts.extend([b, a]),
                _ if !store.is_open(part) => {
                    let empty = store.cmp(BvCmp::Ult, hi, lo);
                    self.free.push(store.or(empty, part));
                }
                _ => self.quantified.push(Quantified {
                    lo,
                    hi,
                    body: part,
                    width: store.width(lo),
                    reads: open_reads(store, part),
                }),
            }
        }
        Ok(())
    }

    /// The foralls' upper bounds, each once, in order.
    pub fn upper_bounds(&self) -> Vec<TermId> {
        let mut bounds: Vec<TermId> = Vec::new();
        for q in &self.quantified {
            if !bounds.contains(&q.hi) {
                bounds.push(q.hi);
            }
        }
        bounds
    }

    /// The query weakened: its quantifier-free clauses; each forall's first
    /// instance where its range is not empty; and, for a clause that says
    /// the body fails at some `t` (matched with the variable as `t`, or as
    /// `t ± c`), that `t` is outside the range.
    pub fn strip(&self, store: &mut TermStore) -> Vec<TermId> {
        let mut out = self.free.clone();
        for q in &self.quantified {
            let nonempty = store.cmp(BvCmp::Ule, q.lo, q.hi);
            let first = store.instantiate(q.body, q.lo);
            out.push(store.implies(nonempty, first));
            let fails = match *store.node(q.body) {
                Node::Not(inner) => inner,
                _ => store.not(q.body),
            };
            for &clause in &self.free {
                if let Some(t) = matching(store, fails, clause) {
                    let from = store.cmp(BvCmp::Ule, q.lo, t);
                    let to = store.cmp(BvCmp::Ule, t, q.hi);
                    let inside = store.and(from, to);
                    out.push(store.not(inside));
                }
            }
        }
        out
    }

    /// The values of `q`'s range under `m`: `None` where it is empty.
    fn range(&self, store: &TermStore, q: &Quantified, m: &Model) -> Option<RangeInclusive<u64>> {
        let lo = store.eval(q.lo, m).as_bv().expect("a bit-vector bound");
        let hi = store.eval(q.hi, m).as_bv().expect("a bit-vector bound");
        (lo <= hi).then_some(lo..=hi)
    }

    /// Whether every range under `m` is small enough to check one by one.
    fn checkable(&self, store: &TermStore, m: &Model) -> bool {
        (self.quantified.iter())
            .filter_map(|q| self.range(store, q, m))
            .all(|r| r.end() - r.start() < MAX_INSTANCES)
    }

    /// Whether `m` satisfies the whole query.
    fn holds(&self, store: &TermStore, m: &Model) -> bool {
        self.checkable(store, m) && store.satisfies(&self.assertions, m)
    }

    /// `m` with each forall's later instances reading the value its first
    /// instance reads: the cell of the body's first read of an array
    /// symbol at the variable, at each value of the range, gets the value
    /// it has at the first, except the cells in `keep`.
    fn duplicate(&self, store: &TermStore, m: &mut Model, keep: &BTreeSet<Cell>) -> CellOrigins {
        let mut set = CellOrigins::default();
        if !self.checkable(store, m) {
            return set;
        }
        for q in &self.quantified {
            let (Some(range), Some(read)) = (self.range(store, q, m), q.reads.first().copied())
            else {
                continue;
            };
            let first = *range.start();
            let value = bv(store.eval_bound(read.select, m, first)) as u8;
            for n in first + 1..=*range.end() {
                let cell = (read.root, bv(store.eval_bound(read.index, m, n)) as u32);
                if keep.contains(&cell) {
                    set.protected.insert(cell);
                } else {
                    m.set_byte(cell.0, cell.1, value);
                    set.duplicated.insert(cell);
                }
            }
        }
        set
    }

    /// Strip again with what `m` got wrong: the cells read by the instances
    /// and clauses it breaks (conflicts), each instance that reads one,
    /// every scalar pinned to its value in `m`, and every read of an array
    /// no forall reads at its variable pinned too; the answer, duplicated
    /// around the conflicts. `None` where that query has no model (the pins
    /// make it stronger than the query: the fallback decides).
    fn repair(
        &self,
        store: &mut TermStore,
        stripped: &[TermId],
        m: &Model,
        qf: &mut QfSolve,
    ) -> Option<(Model, CellOrigins)> {
        // Each instance under m: the forall, its value, whether it holds,
        // and the cells its reads reach.
        let mut instances: Vec<(&Quantified, u64, bool, Vec<Cell>)> = Vec::new();
        for q in &self.quantified {
            for n in self.range(store, q, m).into_iter().flatten() {
                let holds = store.eval_bound(q.body, m, n) == Value::Bool(true);
                let cells = (q.reads.iter())
                    .map(|r| (r.root, bv(store.eval_bound(r.index, m, n)) as u32))
                    .collect();
                instances.push((q, n, holds, cells));
            }
        }
        let mut conflicts: BTreeSet<Cell> = (instances.iter())
            .filter(|(_, _, holds, _)| !holds)
            .flat_map(|(_, _, _, cells)| cells.iter().copied())
            .collect();
        for &clause in &self.free {
            if store.eval(clause, m) != Value::Bool(true) {
                conflicts.extend(
                    (closed_reads(store, &[clause]).iter())
                        .map(|r| (r.root, bv(store.eval(r.index, m)) as u32)),
                );
            }
        }
        let mut asked = stripped.to_vec();
        for (q, n, _, cells) in &instances {
            if cells.iter().any(|c| conflicts.contains(c)) {
                let at = store.bv_const(q.width, *n);
                asked.push(store.instantiate(q.body, at));
            }
        }
        let quantified_arrays: BTreeSet<SymbolId> = (self.quantified.iter())
            .flat_map(|q| q.reads.iter().map(|r| r.root))
            .collect();
        for s in store.symbols_in(&self.assertions) {
            let sort = store.symbol_sort(s);
            if sort != Sort::Array {
                let (symbol, value) = (
                    store.symbol_term(s),
                    value_term(store, &m.value_of(s, sort)),
                );
                asked.push(store.eq(symbol, value));
            }
        }
        for r in closed_reads(store, &self.assertions) {
            if !quantified_arrays.contains(&r.root) {
                let value = value_term(store, &store.eval(r.select, m));
                asked.push(store.eq(r.select, value));
            }
        }
        match qf(store, &asked) {
            SolveResult::Sat(mut repaired) => {
                let set = self.duplicate(store, &mut repaired, &conflicts);
                Some((repaired, set))
            }
            _ => None,
        }
    }

    /// The query with each forall expanded over the values its upper bound
    /// may take: `∧_c (lo ≤ c ≤ hi → body[c])` for `c` from the lower
    /// bound (0 where it is symbolic) to the constant bound on `hi` among
    /// the clauses. Equivalent to the query, as that bound is one of them.
    fn expand(&self, store: &mut TermStore) -> Result<Vec<TermId>, String> {
        let mut expanded = self.free.clone();
        let mut instances = 0u64;
        for q in &self.quantified {
            let top = self.upper_bound(store, q.hi).ok_or_else(|| {
                format!(
                    "a forall whose upper bound {} has no constant bound in the query",
                    store.to_readable(q.hi)
                )
            })?;
            let start = store.as_bv_const(q.lo).unwrap_or(0);
            if start > top {
                continue;
            }
            instances = instances.saturating_add(top - start + 1);
            if instances > MAX_INSTANCES {
                return Err(format!(
                    "foralls of more than {MAX_INSTANCES} instances in all"
                ));
            }
            for c in start..=top {
                let at = store.bv_const(q.width, c);
                let from = store.cmp(BvCmp::Ule, q.lo, at);
                let to = store.cmp(BvCmp::Ule, at, q.hi);
                let inside = store.and(from, to);
                let instance = store.instantiate(q.body, at);
                expanded.push(store.implies(inside, instance));
            }
        }
        Ok(expanded)
    }

    /// The least constant the clauses' conjuncts bound `hi` by: `hi ≤ c`, `hi < c`,
    /// `¬(c < hi)`, `hi = c`, or a disjunction of `hi = c_j` (a merge's k);
    /// else the largest value of a width narrow enough to expand over.
    fn upper_bound(&self, store: &TermStore, hi: TermId) -> Option<u64> {
        if let Some(c) = store.as_bv_const(hi) {
            return Some(c);
        }
        let constant = |t: TermId| store.as_bv_const(t);
        let bound_of = |clause: TermId| -> Option<u64> {
            match *store.node(clause) {
                Node::BvCmp(BvCmp::Ule, a, c) if a == hi => constant(c),
                Node::BvCmp(BvCmp::Ult, a, c) if a == hi => constant(c)?.checked_sub(1),
                Node::Not(inner) => match *store.node(inner) {
                    Node::BvCmp(BvCmp::Ult, c, a) if a == hi => constant(c),
                    _ => None,
                },
                Node::Eq(a, c) | Node::Eq(c, a) if a == hi => constant(c),
                Node::Or(..) => {
                    let mut cases = vec![clause];
                    let mut most = 0;
                    while let Some(case) = cases.pop() {
                        match *store.node(case) {
                            Node::Or(a, b) => cases.extend([a, b]),
                            Node::Eq(a, c) | Node::Eq(c, a) if a == hi => {
                                most = most.max(constant(c)?)
                            }
                            _ => return None,
                        }
                    }
                    Some(most)
                }
                _ => None,
            }
        };
        let narrow = (store.width(hi) < 64)
            .then(|| crate::expr::mask(store.width(hi)))
            .filter(|&largest| largest < MAX_INSTANCES);
        // The clauses' conjuncts, however nested.
        let mut conjuncts = self.free.clone();
        let mut least: Option<u64> = None;
        while let Some(c) = conjuncts.pop() {
            match *store.node(c) {
                Node::And(a, b) => conjuncts.extend([a, b]),
                _ => least = least.into_iter().chain(bound_of(c)).min(),
            }
        }
        least.or(narrow)
    }
}

/// The query's answer, the stage that gave it (none for unknown), and
/// where a model's cells came from.
pub fn solve(
    store: &mut TermStore,
    query: &Query,
    qf: &mut QfSolve,
) -> (SolveResult, Option<Stage>, CellOrigins) {
    let none = CellOrigins::default;
    let stripped = query.strip(store);
    let model = match qf(store, &stripped) {
        SolveResult::Sat(model) => model,
        SolveResult::Unsat => return (SolveResult::Unsat, Some(Stage::Strip), none()),
        unknown => return (unknown, None, none()),
    };
    if query.holds(store, &model) {
        return (SolveResult::Sat(model), Some(Stage::Strip), none());
    }
    let mut duplicated = model;
    let set = query.duplicate(store, &mut duplicated, &BTreeSet::new());
    if query.holds(store, &duplicated) {
        return (SolveResult::Sat(duplicated), Some(Stage::Duplicate), set);
    }
    if query.checkable(store, &duplicated) {
        if let Some((repaired, set)) = query.repair(store, &stripped, &duplicated, qf) {
            if query.holds(store, &repaired) {
                return (SolveResult::Sat(repaired), Some(Stage::Repair), set);
            }
        }
    }
    match query.expand(store) {
        Ok(expanded) => match qf(store, &expanded) {
            SolveResult::Unknown(why) => (SolveResult::Unknown(why), None, none()),
            answer => (answer, Some(Stage::Fallback), none()),
        },
        Err(why) => (SolveResult::Unknown(why), None, none()),
    }
}

/// The `t` at which `pattern` (open in a forall's variable) is `target`:
/// the variable as `t`, or as `t - c` where the pattern has `i + c`, and
/// so on; `None` where the two differ otherwise. A missed match only
/// weakens strip.
fn matching(store: &mut TermStore, pattern: TermId, target: TermId) -> Option<TermId> {
    let mut at: Option<TermId> = None;
    let mut todo = vec![(pattern, target)];
    while let Some((p, q)) = todo.pop() {
        if !store.is_open(p) {
            if p != q {
                return None;
            }
            continue;
        }
        if let Some(t) = inverted(store, p, q) {
            match at {
                None => at = Some(t),
                Some(earlier) if earlier == t => {}
                Some(_) => return None,
            }
            continue;
        }
        let (pn, qn) = (*store.node(p), *store.node(q));
        // The same operator and parameters: the nodes with their children
        // all replaced by one term compare equal.
        if pn.map_children(|_| p) != qn.map_children(|_| p) {
            return None;
        }
        todo.extend(pn.children().zip(qn.children()));
    }
    at
}

/// The `t` with `p[t/i] = q` where `p` is the variable `i`, `i + c` or
/// `i - c` for a closed `c`.
fn inverted(store: &mut TermStore, p: TermId, q: TermId) -> Option<TermId> {
    let is_variable = |store: &TermStore, t: TermId| matches!(store.node(t), Node::Bound(_));
    match *store.node(p) {
        Node::Bound(_) => Some(q),
        Node::BvBin(BvBinOp::Add, a, c) if is_variable(store, a) && !store.is_open(c) => {
            Some(store.bin(BvBinOp::Sub, q, c))
        }
        Node::BvBin(BvBinOp::Add, c, a) if is_variable(store, a) && !store.is_open(c) => {
            Some(store.bin(BvBinOp::Sub, q, c))
        }
        Node::BvBin(BvBinOp::Sub, a, c) if is_variable(store, a) && !store.is_open(c) => {
            Some(store.bin(BvBinOp::Add, q, c))
        }
        _ => None,
    }
}

/// The array symbol `array` reads, through its stores; `None` for a
/// constant array or an `ite` of arrays.
fn root_symbol(store: &TermStore, mut array: TermId) -> Option<SymbolId> {
    loop {
        match *store.node(array) {
            Node::Symbol(s) => return Some(s),
            Node::Store(base, ..) => array = base,
            _ => return None,
        }
    }
}

/// The reads of array symbols in `roots` whose index `keep` accepts, in
/// term order.
fn reads(store: &TermStore, roots: &[TermId], keep: impl Fn(TermId) -> bool) -> Vec<Read> {
    let mut reachable = store.reachable(roots);
    reachable.sort_unstable();
    (reachable.into_iter())
        .filter_map(|t| match *store.node(t) {
            Node::Select(array, index) if keep(index) => Some(Read {
                select: t,
                root: root_symbol(store, array)?,
                index,
            }),
            _ => None,
        })
        .collect()
}

/// The reads in a forall's `body` at an index that uses its variable.
fn open_reads(store: &TermStore, body: TermId) -> Vec<Read> {
    reads(store, &[body], |index| store.is_open(index))
}

/// The reads in `roots` at an index that uses no forall's variable.
fn closed_reads(store: &TermStore, roots: &[TermId]) -> Vec<Read> {
    reads(store, roots, |index| !store.is_open(index))
}

fn bv(value: Value) -> u64 {
    value.as_bv().expect("a bit-vector value")
}

/// The constant term of a scalar value.
fn value_term(store: &mut TermStore, value: &Value) -> TermId {
    match *value {
        Value::Bool(b) => store.bool_const(b),
        Value::Bv { width, value } => store.bv_const(width, value),
        Value::Array(_) => unreachable!("scalars and bytes only"),
    }
}

#[cfg(test)]
mod tests;
