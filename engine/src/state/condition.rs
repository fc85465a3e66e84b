//! A path's condition: the constraints that hold on it, in the order they
//! were added (the order the solver sees them in), and the facts among
//! them. Both are [`Chain`]s that a fork shares: the path condition grows
//! by a constraint right after most forks, so a state pays for the
//! constraints it added since its last fork only.

use super::chain::{Chain, Part};
use crate::expr::{TermId, TermStore};
use crate::solver::simplify::Simplifier;
use rustc_hash::FxHashMap;

#[derive(Clone, Debug, Default)]
pub struct PathCondition {
    /// Boolean terms that all hold on this path.
    constraints: Chain<Vec<TermId>>,
    /// The symbols and input bytes the path condition fixes to a constant
    /// (`x = 5`, `text[3] = 97`), to that constant: conditions and
    /// addresses are rewritten with them before the solver is asked
    /// (KLEE's equality rewriting), so a pinned input costs no query.
    facts: Chain<FxHashMap<TermId, TermId>>,
}

impl Part for Vec<TermId> {
    /// Walked only to copy the constraints out, so a long chain costs
    /// little; the bound keeps dropping one shallow.
    const MAX_DEPTH: u32 = 64;

    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }

    fn extend_with(&mut self, newer: &Self) {
        self.extend_from_slice(newer);
    }

    fn heap_bytes(&self) -> usize {
        self.capacity() * std::mem::size_of::<TermId>()
    }
}

impl Part for FxHashMap<TermId, TermId> {
    /// A look-up tries every link, and every symbol of a condition is
    /// looked up.
    const MAX_DEPTH: u32 = 8;

    fn is_empty(&self) -> bool {
        FxHashMap::is_empty(self)
    }

    fn extend_with(&mut self, newer: &Self) {
        self.extend(newer.iter().map(|(&k, &v)| (k, v)));
    }

    fn heap_bytes(&self) -> usize {
        // An entry and its control byte.
        self.capacity() * (2 * std::mem::size_of::<TermId>() + 1)
    }
}

impl PathCondition {
    /// Adds `c` (unless it is `true`), and to the facts if it fixes a
    /// symbol or an input byte that no earlier fact fixes.
    pub fn assume(&mut self, terms: &mut TermStore, c: TermId) {
        if terms.as_bool_const(c) == Some(true) {
            return;
        }
        if let Some((symbol, value)) = Simplifier::fact(terms, c) {
            if self.fact(symbol).is_none() {
                self.facts.tail_mut().insert(symbol, value);
            }
        }
        self.constraints.tail_mut().push(c);
    }

    /// The constraints, oldest first: what the solver is asked about.
    pub fn constraints(&self) -> Vec<TermId> {
        let mut parts: Vec<&Vec<TermId>> = self.constraints.parts().collect();
        let mut all = Vec::with_capacity(parts.iter().map(|p| p.len()).sum());
        parts.reverse();
        for part in parts {
            all.extend_from_slice(part);
        }
        all
    }

    /// The constant the path fixes `t` to, if it is a fact's term.
    pub fn fact(&self, t: TermId) -> Option<TermId> {
        self.facts.parts().find_map(|part| part.get(&t).copied())
    }

    pub fn has_facts(&self) -> bool {
        self.facts.parts().any(|part| !part.is_empty())
    }

    /// Makes what was added since the last fork shared with the next one.
    pub(super) fn freeze(&mut self) {
        self.constraints.freeze();
        self.facts.freeze();
    }

    /// Bytes no other state shares.
    pub(super) fn own_bytes(&self) -> usize {
        self.constraints.own_bytes() + self.facts.own_bytes()
    }

    /// Bytes, a part that `n` states share counting `1 / n`.
    pub(super) fn shared_bytes(&self) -> usize {
        self.constraints.shared_bytes() + self.facts.shared_bytes()
    }

    /// Whether `other` shares both chains' frozen links with this one.
    #[cfg(test)]
    pub(super) fn shares_with(&self, other: &Self) -> bool {
        self.constraints.shares_with(&other.constraints) && self.facts.shares_with(&other.facts)
    }
}
