//! Substitution of constants for symbols, simplifying what changes.

use super::rewrite::Rewriter;
use super::walk::pending_terms;
use crate::expr::{TermId, TermStore};
use crate::limits::{Checkpoint, Limits};
use rustc_hash::FxHashMap;

/// Replaces symbols by constants and simplifies what changes as a result.
/// One instance serves one substitution, sharing its work across terms.
pub(super) struct Substitution<F> {
    /// Symbol term to the constant that replaces it, if any.
    values: F,
    /// Every term rewritten so far, to its rewritten form.
    done: FxHashMap<TermId, TermId>,
}

impl<F: Fn(TermId) -> Option<TermId>> Substitution<F> {
    pub(super) fn new(values: F) -> Substitution<F> {
        Substitution {
            values,
            done: FxHashMap::default(),
        }
    }

    pub(super) fn apply(&mut self, store: &mut TermStore, t: TermId) -> TermId {
        if let Some(&done) = self.done.get(&t) {
            return done;
        }
        let unlimited = &mut Checkpoint::new(Limits::default());
        let pending = pending_terms(store, t, |u| self.done.contains_key(&u), unlimited);
        for u in pending.expect("no limits") {
            let rewritten = match (self.values)(u) {
                Some(value) => value,
                None => {
                    let old = *store.node(u);
                    let new = old.map_children(|c| self.done.get(&c).copied().unwrap_or(c));
                    if new == old {
                        u
                    } else {
                        Rewriter::new(store).rewrite(new)
                    }
                }
            };
            self.done.insert(u, rewritten);
        }
        self.done.get(&t).copied().unwrap_or(t)
    }
}
