//! Simplification of a conjunction of constraints.
//!
//! The constraints are split at top-level `and`s, simplified one by one and
//! deduplicated; `true` ones are dropped and a `false` one decides the whole
//! conjunction. A constraint that fixes a symbol to a constant (`x = 5`, a
//! bare boolean symbol `b`, or `not b`), or a byte of an array symbol at a
//! constant index (`select(text, 3) = 97`), is a *fact*: the constant
//! replaces that term in every other constraint. That keeps the models, because the
//! fact itself stays in the result and still fixes the symbol. Substitution
//! can expose new facts (`x + y = 7` becomes `y = 2`), so it repeats for a
//! bounded number of rounds.

use super::rewrite::Rewriter;
use super::substitute::Substitution;
use crate::expr::{Node, Sort, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rounds of fact substitution; each round needs a fact the previous one
/// exposed, so long chains are rare and this only bounds the worst case.
const MAX_ROUNDS: usize = 16;

/// `simplified` holds the constraints each simplified on its own.
pub(super) fn simplify_conjunction(store: &mut TermStore, simplified: &[TermId]) -> Vec<TermId> {
    let mut constraints = flatten(store, simplified);
    // The constraints that facts come from: they stay as they are.
    let mut sources: FxHashSet<TermId> = FxHashSet::default();
    let mut fixed: FxHashSet<TermId> = FxHashSet::default();
    for _ in 0..MAX_ROUNDS {
        if is_false(store, &constraints) {
            break;
        }
        let mut new_facts = FxHashMap::default();
        for &c in &constraints {
            if let Some((symbol, value)) = as_fact(store, c) {
                if fixed.insert(symbol) {
                    new_facts.insert(symbol, value);
                    sources.insert(c);
                }
            }
        }
        if new_facts.is_empty() {
            break;
        }
        // Symbols fixed in earlier rounds are already gone from the other
        // constraints, so only the new facts need substituting.
        let mut substitution = Substitution::new(|t| new_facts.get(&t).copied());
        let rewritten: Vec<TermId> = constraints
            .iter()
            .map(|&c| {
                if sources.contains(&c) {
                    c
                } else {
                    substitution.apply(store, c)
                }
            })
            .collect();
        constraints = flatten(store, &rewritten);
    }
    if is_false(store, &constraints) {
        return vec![store.fls()];
    }
    constraints
}

/// Splits `and`s and negated `or`s into their parts, keeping the order of
/// first occurrence, dropping `true` and duplicates.
fn flatten(store: &mut TermStore, constraints: &[TermId]) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<TermId> = constraints.iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        if let Some((a, b)) = conjunction_parts(store, c) {
            stack.extend([b, a]);
        } else if store.as_bool_const(c) != Some(true) && seen.insert(c) {
            out.push(c);
        }
    }
    out
}

/// The two conjuncts of `c`, if it is an `and` or a negated `or`.
fn conjunction_parts(store: &mut TermStore, c: TermId) -> Option<(TermId, TermId)> {
    match *store.node(c) {
        Node::And(a, b) => Some((a, b)),
        Node::Not(inner) => match *store.node(inner) {
            Node::Or(a, b) => {
                let mut rewriter = Rewriter::new(store);
                Some((rewriter.mk_not(a), rewriter.mk_not(b)))
            }
            _ => None,
        },
        _ => None,
    }
}

fn is_false(store: &TermStore, constraints: &[TermId]) -> bool {
    constraints
        .iter()
        .any(|&c| store.as_bool_const(c) == Some(false))
}

/// The term `c` fixes and the constant it must equal, if `c` is a fact.
pub(super) fn as_fact(store: &mut TermStore, c: TermId) -> Option<(TermId, TermId)> {
    let is_symbol = |store: &TermStore, t: TermId| matches!(store.node(t), Node::Symbol(_));
    let is_constant = |store: &TermStore, t: TermId| {
        matches!(store.node(t), Node::BvConst { .. } | Node::BoolConst(_))
    };
    let fixable = |store: &TermStore, t: TermId| is_symbol(store, t) || is_symbol_byte(store, t);
    match *store.node(c) {
        Node::Symbol(_) if store.sort(c) == Sort::Bool => Some((c, store.tru())),
        Node::Not(b) if is_symbol(store, b) => Some((b, store.fls())),
        Node::Eq(a, b) if fixable(store, a) && is_constant(store, b) => Some((a, b)),
        Node::Eq(a, b) if is_constant(store, a) && fixable(store, b) => Some((b, a)),
        _ => None,
    }
}

/// Whether `t` reads an array symbol at a constant index (an input's
/// byte): like a symbol, it has one value in a model wherever it occurs.
fn is_symbol_byte(store: &TermStore, t: TermId) -> bool {
    match *store.node(t) {
        Node::Select(array, index) => {
            matches!(store.node(array), Node::Symbol(_)) && store.as_bv_const(index).is_some()
        }
        _ => false,
    }
}
