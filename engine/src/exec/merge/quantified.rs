//! The pattern-based merged state (`../shared/design/quantified_merging.md`
//! §3): the states of a regular partition, whose branches match a formula
//! pattern (φ1, φ2(x), φ3(x)) each at its own k_j, merge into one over a
//! new 32-bit `k`. Its condition past the prefix is
//! `k ∈ {k_j} ∧ φ1 ∧ ∀i ∈ [1, k]: φ2[i] ∧ φ3[k]`, which is satisfiable
//! exactly where the disjunction of theirs is (Thm 6.2.7: it is each
//! state's condition at `k = k_j`); each value that differs is `t[k/x]`
//! where one `t` fits every state's (§4), else
//! `ite(k = k_1, v_1, ite(k = k_2, …))`, which under that condition picks
//! the state whose k it is (§3.3: guards over k rather than over each
//! state's condition).
//!
//! The pattern speaks of the branches the states took; a state's condition
//! is what it assumed. So a partition merges this way only where each
//! state assumed nothing but branches (a value made concrete, say, is no
//! branch), and then the two say the same: a branch not assumed is one the
//! path implied.

use super::partitions::Pattern;
use super::synthesis::{self, FormulaPattern};
use crate::expr::{BvCmp, Join, TermId, TermStore};
use crate::report::RegularPartition;
use crate::state::Taken;

/// The states of a regular partition, in order: each one's branches, word
/// and k, the letters the words are made of, and the pattern.
pub(super) struct Partitioned {
    pub(super) letters: Vec<Taken>,
    pub(super) pattern: Pattern,
    pub(super) branches: Vec<Vec<Taken>>,
    pub(super) words: Vec<Vec<u32>>,
    pub(super) ks: Vec<u32>,
}

impl Partitioned {
    /// The first `n` states' share, taken out of it.
    pub(super) fn split_front(&mut self, n: usize) -> Partitioned {
        let n = n.min(self.ks.len());
        Partitioned {
            letters: self.letters.clone(),
            pattern: self.pattern.clone(),
            branches: self.branches.drain(..n).collect(),
            words: self.words.drain(..n).collect(),
            ks: self.ks.drain(..n).collect(),
        }
    }

    /// Its states as the report's partition, by their index among them.
    pub(super) fn partition(&self) -> RegularPartition {
        RegularPartition {
            prefix: self.pattern.prefix.clone(),
            unit: self.pattern.unit.clone(),
            suffix: self.pattern.suffix.clone(),
            members: self.ks.iter().copied().enumerate().collect(),
            synthesis: Default::default(),
        }
    }

    /// The formula pattern of its states over `k`, or why there is none:
    /// a state assumed what was no branch (`suffixes`, what each state
    /// assumed inside the loop), or synthesis found none.
    pub(super) fn formula_pattern(
        &self,
        store: &mut TermStore,
        k: TermId,
        suffixes: &[&[TermId]],
    ) -> Result<FormulaPattern, String> {
        let unbranched = (suffixes.iter().zip(&self.branches)).any(|(suffix, taken)| {
            suffix
                .iter()
                .any(|c| !taken.iter().any(|t| t.condition == *c))
        });
        if unbranched {
            return Err(
                "a state assumed a condition that was no branch (a value made concrete)".into(),
            );
        }
        synthesis::formula_pattern(store, k, &self.partition(), &self.branches)
    }
}

/// `k ∈ {ks} ∧ φ1 ∧ ∀i ∈ [1, k]: φ2[i] ∧ φ3[k]`, the pattern over `k`; the
/// range of k as `min ≤ k ≤ max` where the ks are every value between
/// (the bound the quantified procedure's fallback finds), else as
/// `k = k_1 ∨ k = k_2 ∨ …`.
pub(super) fn condition(
    store: &mut TermStore,
    k: TermId,
    ks: &[u32],
    pattern: &FormulaPattern,
) -> Result<TermId, String> {
    let mut sorted = ks.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let (Some(&min), Some(&max)) = (sorted.first(), sorted.last()) else {
        return Err("a partition with no states".into());
    };
    let mut parts = Vec::new();
    if (max - min) as usize + 1 == sorted.len() {
        if min > 0 {
            let min = store.bv_const(32, u64::from(min));
            parts.push(store.cmp(BvCmp::Ule, min, k));
        }
        let max = store.bv_const(32, u64::from(max));
        parts.push(store.cmp(BvCmp::Ule, k, max));
    } else {
        let cases: Vec<TermId> = (sorted.iter())
            .map(|&kj| {
                let kj = store.bv_const(32, u64::from(kj));
                store.eq(k, kj)
            })
            .collect();
        parts.push(store.or_all(&cases));
    }
    parts.extend(&pattern.first);
    if !pattern.repeated.terms.is_empty() {
        let repeated = store.and_all(&pattern.repeated.terms);
        let body = (store.abstract_over(repeated, k))
            .ok_or("an iteration's conditions hold a forall already")?;
        let one = store.bv_const(32, 1);
        parts.push(store.forall(one, k, body).map_err(|e| e.0)?);
    }
    parts.extend(&pattern.last.terms);
    Ok(store.and_all(&parts))
}

/// Values joined as terms of `k`: `t[k/x]` where one `t` fits the states'
/// values at their `ks`, else an `ite` chain over `k = k_j`.
pub(super) struct ByK {
    k: TermId,
    ks: Vec<u32>,
    guards: Vec<TermId>,
}

impl ByK {
    pub(super) fn new(store: &mut TermStore, k: TermId, ks: &[u32]) -> ByK {
        let guards = (ks.iter())
            .map(|&kj| {
                let kj = store.bv_const(32, u64::from(kj));
                store.eq(k, kj)
            })
            .collect();
        ByK {
            k,
            ks: ks.to_vec(),
            guards,
        }
    }
}

impl Join for ByK {
    fn join(&mut self, store: &mut TermStore, values: &[TermId]) -> TermId {
        let instances: Vec<Vec<TermId>> = values.iter().map(|&v| vec![v]).collect();
        match synthesis::synthesize(store, self.k, &self.ks, &instances) {
            Ok(fitted) => fitted.terms[0],
            Err(_) => store.ite_chain(&self.guards, values),
        }
    }
}
