//! Address-aware query caching (`relocatable_and_caching.md` §4, §7.4):
//! a query is also known by its *base form*, where pointers are terms over
//! the base symbols β of their blocks instead of their hidden addresses.
//! Two queries whose base forms differ only by which blocks they name
//! (two sides of a branch that allocated differently before making the
//! same blocks) have one key: it renames the bases in order of first
//! occurrence and keeps each one's block size.
//!
//! A sat answer is given again only when its model satisfies the new
//! query, which needs no argument. An unsat one is kept only for a key
//! the guard ([`unsat_reusable`]) finds the same wherever the blocks lie:
//! every base occurs as the offset of a pointer `β + k` into its own
//! block (`(β + k) − β`, which is `k` in any layout that keeps the block
//! inside memory), or in a NULL check of a block's address.
//!
//! The cache stands in front of SAT, after the exact caches
//! ([`Solver::check_beside_aware`](super::Solver::check_beside_aware)):
//! what they answer keeps their answer (and its model, which later
//! queries of the path are checked against), and every answer is kept
//! under its key, whichever layer gave it.

use crate::expr::{BvBinOp, BvCmp, Model, Node, TermId, TermStore};
use crate::solver::simplify::Simplifier;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// A query's base form with its bases renamed in order of first
/// occurrence, and each base's block size in that order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AaKey {
    constraints: Box<[TermId]>,
    sizes: Box<[u64]>,
}

impl AaKey {
    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.constraints) + std::mem::size_of_val(&*self.sizes)
    }
}

/// What gives a query's key from its constraints (as the solver slices
/// them), and whether its unsat answer may be given again: the caller
/// knows their base forms.
pub type KeyOf<'a> = dyn FnMut(&mut TermStore, &[TermId]) -> Result<(AaKey, bool), NoKey> + 'a;

/// Why a query gets no key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoKey {
    /// No constraint of it has a base symbol: the exact caches key it
    /// as well.
    NoBase,
    /// A base's block has a symbolic size, or is not the state's.
    Unsized,
}

/// The key of the query whose constraints have the base forms `forms`,
/// where `size_of` gives each base's block size, and whether its unsat
/// answer may be given to another query with that key.
pub fn key(
    store: &mut TermStore,
    forms: &[TermId],
    size_of: impl Fn(TermId) -> Option<u64>,
) -> Result<(AaKey, bool), NoKey> {
    let bases = bases_in_order(store, forms);
    if bases.is_empty() {
        return Err(NoKey::NoBase);
    }
    let sizes = bases
        .iter()
        .map(|&b| size_of(b))
        .collect::<Option<Box<[u64]>>>()
        .ok_or(NoKey::Unsized)?;
    let reusable = unsat_reusable(store, forms);
    // Canonical bases, one per position; an input symbol of the same name
    // (a program's own) would clash: no key then.
    let canonical: Vec<TermId> = (0..bases.len())
        .map(|k| store.declare_base(&format!("@aa{k}")))
        .collect::<Option<_>>()
        .ok_or(NoKey::Unsized)?;
    let renamed = forms
        .iter()
        .map(|&c| {
            Simplifier::substitute(
                store,
                |u| bases.iter().position(|&b| b == u).map(|k| canonical[k]),
                c,
            )
        })
        .collect();
    let key = AaKey {
        constraints: renamed,
        sizes,
    };
    Ok((key, reusable))
}

/// The base symbols of `forms`, each once, in the order a walk of the
/// constraints in order, children left to right, first meets them: the
/// same order for two queries that differ only by their bases' names.
fn bases_in_order(store: &TermStore, forms: &[TermId]) -> Vec<TermId> {
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    let mut stack: Vec<TermId> = forms.iter().rev().copied().collect();
    while let Some(t) = stack.pop() {
        if !store.has_base(t) || !seen.insert(t) {
            continue;
        }
        match store.node(t) {
            Node::Symbol(_) => out.push(t),
            node => {
                let children: Vec<TermId> = node.children().collect();
                stack.extend(children.into_iter().rev());
            }
        }
    }
    out
}

/// The guard of §7.4, as strict as it can be checked by shape alone:
/// every base symbol in `forms` occurs in an offset `(β + k) − β` of a
/// pointer into its own block (compared with a constant, or taken apart
/// further only as data), or as `β = 0`. Anything else (an order of
/// blocks, a distance between two, the bits of an address, a pointer
/// loaded from memory, which may be any block's) may answer otherwise
/// elsewhere.
pub fn unsat_reusable(store: &TermStore, forms: &[TermId]) -> bool {
    let mut guard = Guard {
        store,
        memo: FxHashMap::default(),
    };
    forms.iter().all(|&c| guard.condition(c))
}

struct Guard<'a> {
    store: &'a TermStore,
    memo: FxHashMap<TermId, bool>,
}

impl Guard<'_> {
    fn condition(&mut self, t: TermId) -> bool {
        let store = self.store;
        if !store.has_base(t) {
            return true;
        }
        if let Some(&ok) = self.memo.get(&t) {
            return ok;
        }
        let ok = match *store.node(t) {
            Node::Not(a) => self.condition(a),
            Node::And(a, b) | Node::Or(a, b) | Node::Xor(a, b) => {
                self.condition(a) && self.condition(b)
            }
            Node::Ite(c, a, b) => self.condition(c) && self.condition(a) && self.condition(b),
            Node::Eq(a, b) => {
                let null_check = |p: TermId, z: TermId| {
                    matches!(store.node(p), Node::Symbol(_)) && store.as_bv_const(z) == Some(0)
                };
                null_check(a, b) || null_check(b, a)
            }
            Node::BvCmp(_, a, b) => {
                (store.as_bv_const(b).is_some() && own_offset(store, a))
                    || (store.as_bv_const(a).is_some() && own_offset(store, b))
            }
            _ => false,
        };
        self.memo.insert(t, ok);
        ok
    }
}

/// `(zext(β + k) + c) − zext(β)` (or without the widening or the `c`):
/// the offset of a pointer into its own block β, `k` holding no base. It
/// is `k + c` wherever the block lies for `c` no larger than the block's
/// address (the engine records such forms only for `c` up to the heap
/// start, below every block).
fn own_offset(store: &TermStore, t: TermId) -> bool {
    let Node::BvBin(BvBinOp::Sub, p, beta) = *store.node(t) else {
        return false;
    };
    let beta = strip_zext(store, beta);
    if !matches!(store.node(beta), Node::Symbol(_)) {
        return false;
    }
    let mut p = p;
    if let Node::BvBin(BvBinOp::Add, a, c) = *store.node(p) {
        if store.as_bv_const(c).is_some() && matches!(store.node(a), Node::ZeroExt(..)) {
            p = a;
        }
    }
    match *store.node(strip_zext(store, p)) {
        Node::Symbol(_) => strip_zext(store, p) == beta,
        Node::BvBin(BvBinOp::Add, a, b) => {
            (a == beta && !store.has_base(b)) || (b == beta && !store.has_base(a))
        }
        _ => false,
    }
}

fn strip_zext(store: &TermStore, mut t: TermId) -> TermId {
    while let Node::ZeroExt(_, a) = *store.node(t) {
        t = a;
    }
    t
}

/// A bound check `(zext(p) + plus) − zext(β) ≤ last`: the pointer lies in
/// β's block of `size` bytes for an access of `width` bytes (the base form
/// of a symbolic access's case in that block).
pub fn within_base(
    store: &mut TermStore,
    (pointer, plus): (TermId, u32),
    beta: TermId,
    size: u64,
    width: u64,
) -> TermId {
    if size < width {
        return store.fls();
    }
    let wide = store.zero_ext(32, pointer);
    let plus = store.bv_const(64, u64::from(plus));
    let a = store.bin(BvBinOp::Add, wide, plus);
    let base = store.zero_ext(32, beta);
    let offset = store.bin(BvBinOp::Sub, a, base);
    let last = store.bv_const(64, size - width);
    store.cmp(BvCmp::Ule, offset, last)
}

/// A cached answer.
#[derive(Clone, Debug)]
pub enum AaAnswer {
    Sat(Rc<Model>),
    Unsat,
}

/// The answers of the queries asked, by key.
#[derive(Default)]
pub struct AaCache {
    entries: FxHashMap<AaKey, AaAnswer>,
    bytes: usize,
}

impl AaCache {
    pub fn get(&self, key: &AaKey) -> Option<&AaAnswer> {
        self.entries.get(key)
    }

    pub fn insert(&mut self, key: AaKey, answer: AaAnswer) {
        let model_bytes = |a: &AaAnswer| match a {
            AaAnswer::Sat(model) => model.heap_bytes(),
            AaAnswer::Unsat => 0,
        };
        let (key_bytes, added) = (key.heap_bytes(), model_bytes(&answer));
        match self.entries.insert(key, answer) {
            Some(old) => self.bytes = self.bytes - model_bytes(&old) + added,
            None => self.bytes += std::mem::size_of::<(AaKey, AaAnswer)>() + key_bytes + added,
        }
    }

    /// How many answers it holds.
    pub fn entries(&self) -> usize {
        self.entries.len()
    }

    /// Bytes the entries hold, keys and models.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

#[cfg(test)]
mod tests;
