//! A path's condition: the constraints that hold on it, in the order they
//! were added (the order the solver sees them in), the facts among them,
//! and the witnesses they were added with, which make a model of the
//! whole condition without asking the solver again. All are [`Chain`]s
//! that a fork shares: the path condition grows by a constraint right
//! after most forks, so a state pays for what it added since its last
//! fork only.

use super::chain::{Chain, Part};
use crate::expr::{Model, TermId, TermStore};
use crate::solver::simplify::Simplifier;
use crate::solver::Witness;
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
    /// For each constraint the solver found satisfiable beside the ones
    /// before it, the values a model of its slice gives the atoms they
    /// read, in the order of the constraints.
    witnesses: Chain<Vec<Witness>>,
    /// Under address-aware caching, each constraint over pointers to its
    /// base form: the same condition over the base symbols of the blocks
    /// (`relocatable_and_caching.md` §4), which the cache's key is made of.
    forms: Chain<FxHashMap<TermId, TermId>>,
    /// Whether a constraint was added without a witness (a value made
    /// concrete, a side the solver could not decide, or past
    /// [`WITNESS_ATOMS`]): the witnesses then make no model of the
    /// condition, and no more are kept.
    unwitnessed: bool,
    /// The atoms the witnesses give values, all told.
    witness_atoms: usize,
}

/// The atoms a path's witnesses may give values, all told. A witness holds
/// its whole slice, which grows with the constraints connected to it: a
/// path whose conditions all read one growing set of bytes (a hash over
/// its input) would hold a number of atoms quadratic in its length. Past
/// this, the path's model is asked of the solver at its end.
const WITNESS_ATOMS: usize = 4096;

/// An entry of a log kept as a vector: the constraints, the witnesses.
trait LogEntry: Clone + std::fmt::Debug {
    /// Bytes it holds on the heap beside itself.
    fn heap_bytes(&self) -> usize {
        0
    }
}

impl LogEntry for TermId {}

impl LogEntry for Witness {
    fn heap_bytes(&self) -> usize {
        Witness::heap_bytes(self)
    }
}

impl<T: LogEntry> Part for Vec<T> {
    /// Walked only to copy the entries out (the constraints for the
    /// solver, the witnesses where the path ends), so a long chain costs
    /// little; the bound keeps dropping one shallow.
    const MAX_DEPTH: u32 = 64;

    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }

    fn extend_with(&mut self, newer: &Self) {
        self.extend_from_slice(newer);
    }

    fn heap_bytes(&self) -> usize {
        self.capacity() * std::mem::size_of::<T>()
            + self.iter().map(LogEntry::heap_bytes).sum::<usize>()
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
    /// symbol or an input byte that no earlier fact fixes; `witness` is
    /// what the solver's answer that `c` holds beside the constraints
    /// before it gave the atoms of its slice, if it was asked.
    pub fn assume(&mut self, terms: &mut TermStore, c: TermId, witness: Option<Witness>) {
        if terms.as_bool_const(c) == Some(true) {
            return;
        }
        match witness {
            Some(w) if !self.unwitnessed && self.witness_atoms + w.atoms() <= WITNESS_ATOMS => {
                self.witness_atoms += w.atoms();
                self.witnesses.tail_mut().push(w);
            }
            _ => self.unwitnessed = true,
        }
        if let Some((symbol, value)) = Simplifier::fact(terms, c) {
            if self.fact(symbol).is_none() {
                self.facts.tail_mut().insert(symbol, value);
            }
        }
        self.constraints.tail_mut().push(c);
    }

    /// Records `form` as the base form of the constraint `c`.
    pub fn set_form(&mut self, c: TermId, form: TermId) {
        self.forms.tail_mut().insert(c, form);
    }

    /// The base form of the constraint `c`, if it has one apart from
    /// itself.
    pub fn form(&self, c: TermId) -> Option<TermId> {
        self.forms.parts().find_map(|part| part.get(&c).copied())
    }

    /// The constraints, oldest first: what the solver is asked about.
    pub fn constraints(&self) -> Vec<TermId> {
        let parts = self.constraints.parts_oldest_first();
        let mut all = Vec::with_capacity(parts.iter().map(|p| p.len()).sum());
        for part in parts {
            all.extend_from_slice(part);
        }
        all
    }

    /// A model of the whole condition from the witnesses of its
    /// constraints, each applied over the older ones; `None` when a
    /// constraint was added without one.
    pub fn model(&self) -> Option<Model> {
        if self.unwitnessed {
            return None;
        }
        let mut model = Model::new();
        for witness in self.witnesses.parts_oldest_first().into_iter().flatten() {
            witness.apply(&mut model);
        }
        Some(model)
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
        self.forms.freeze();
        self.witnesses.freeze();
    }

    /// Bytes no other state shares.
    pub(super) fn own_bytes(&self) -> usize {
        self.constraints.own_bytes()
            + self.facts.own_bytes()
            + self.forms.own_bytes()
            + self.witnesses.own_bytes()
    }

    /// Bytes, a part that `n` states share counting `1 / n`.
    pub(super) fn shared_bytes(&self) -> usize {
        self.constraints.shared_bytes()
            + self.facts.shared_bytes()
            + self.forms.shared_bytes()
            + self.witnesses.shared_bytes()
    }

    /// Whether `other` shares both chains' frozen links with this one.
    #[cfg(test)]
    pub(super) fn shares_with(&self, other: &Self) -> bool {
        self.constraints.shares_with(&other.constraints)
            && self.facts.shares_with(&other.facts)
            && self.witnesses.shares_with(&other.witnesses)
    }
}
