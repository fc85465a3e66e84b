//! Word-level simplification: constant folding, algebraic identities,
//! read-over-write and boolean normalisation, applied bottom-up; and, for a
//! conjunction of constraints, substitution of the constants that some
//! constraints fix (`x = 5`) into the others.
//!
//! Every pass walks terms in id order (children before parents) with a map
//! of simplified children, never recursing on term depth.

mod arrays;
mod bits;
mod bitvec;
mod boolean;
mod constraints;
mod fold;
mod rewrite;
mod substitute;
#[cfg(test)]
mod tests;
mod walk;

use crate::expr::{BvCmp, Node, TermId, TermStore};
use crate::limits::{Checkpoint, Limits, Reached};
use rewrite::Rewriter;
use substitute::Substitution;
use walk::pending_terms;

/// The widest range of a forall with constant bounds that simplification
/// expands into its instances.
pub const MAX_EXPANDED: u64 = 64;

/// Simplifies terms of one [`TermStore`], remembering every result, so it is
/// meant to live as long as that store.
#[derive(Default)]
pub struct Simplifier {
    /// The simplified form of each term simplified so far, by term index.
    memo: Vec<Option<TermId>>,
}

impl Simplifier {
    pub fn new() -> Simplifier {
        Simplifier::default()
    }

    /// An equivalent, simpler term (same value under every model).
    pub fn simplify(&mut self, store: &mut TermStore, t: TermId) -> TermId {
        let unlimited = &mut Checkpoint::new(Limits::default());
        self.simplify_within(store, t, unlimited)
            .expect("no limits")
    }

    /// As [`Simplifier::simplify`], stopping at the limit `checkpoint`
    /// reaches (what was simplified so far stays remembered).
    pub fn simplify_within(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        checkpoint: &mut Checkpoint,
    ) -> Result<TermId, Reached> {
        if let Some(done) = self.memoized(t) {
            return Ok(done);
        }
        for u in pending_terms(store, t, |u| self.memoized(u).is_some(), checkpoint)? {
            if let Some(limit) = checkpoint.after(1) {
                return Err(limit);
            }
            let node = store
                .node(u)
                .map_children(|c| self.memoized(c).unwrap_or(c));
            let simplified = match node {
                Node::Forall(lo, hi, body) => self.forall(store, lo, hi, body, checkpoint)?,
                _ => Rewriter::new(store).rewrite(node),
            };
            self.remember(u, simplified);
            // A result is its own simplified form; later queries reuse it as is.
            if self.memoized(simplified).is_none() {
                self.remember(simplified, simplified);
            }
        }
        Ok(self.memoized(t).unwrap_or(t))
    }

    /// `forall i in [lo, hi]. body` of simplified parts: true where the
    /// body is or the range is empty, the range empty where the body is
    /// false; expanded into its instances' conjunction, each simplified,
    /// where the bounds are constants at most [`MAX_EXPANDED`] apart.
    fn forall(
        &mut self,
        store: &mut TermStore,
        lo: TermId,
        hi: TermId,
        body: TermId,
        checkpoint: &mut Checkpoint,
    ) -> Result<TermId, Reached> {
        match store.as_bool_const(body) {
            Some(true) => return Ok(store.tru()),
            Some(false) => {
                let empty = store.cmp(BvCmp::Ult, hi, lo);
                return self.simplify_within(store, empty, checkpoint);
            }
            None => {}
        }
        match store.constant_range(lo, hi) {
            // (An empty range has no instances: true.)
            Some(range) if range.end().saturating_sub(*range.start()) < MAX_EXPANDED => {
                let width = store.width(lo);
                let instances = (store.instances(body, width, range).into_iter())
                    .map(|instance| self.simplify_within(store, instance, checkpoint))
                    .collect::<Result<Vec<_>, _>>()?;
                let all = store.and_all(&instances);
                self.simplify_within(store, all, checkpoint)
            }
            _ => Ok(store.mk(Node::Forall(lo, hi, body))),
        }
    }

    /// Simplifies a conjunction of boolean constraints into an equivalent
    /// one (the same models over the input's symbols): flattened, each
    /// constraint simplified, `true` dropped, duplicates removed, a single
    /// `false` if any is false, and the constants that facts like `x = 5`
    /// fix substituted into the other constraints.
    pub fn simplify_constraints(&mut self, store: &mut TermStore, cs: &[TermId]) -> Vec<TermId> {
        let unlimited = &mut Checkpoint::new(Limits::default());
        self.simplify_constraints_within(store, cs, unlimited)
            .expect("no limits")
    }

    /// As [`Simplifier::simplify_constraints`], stopping at the limit
    /// `checkpoint` reaches.
    pub fn simplify_constraints_within(
        &mut self,
        store: &mut TermStore,
        cs: &[TermId],
        checkpoint: &mut Checkpoint,
    ) -> Result<Vec<TermId>, Reached> {
        let simplified = cs
            .iter()
            .map(|&c| self.simplify_within(store, c, checkpoint))
            .collect::<Result<Vec<TermId>, Reached>>()?;
        Ok(constraints::simplify_conjunction(store, &simplified))
    }

    /// The term a constraint fixes and the constant it fixes it to, if
    /// the constraint is such a fact (`x = 5`, `b`, `not b`, or
    /// `select(text, 3) = 97` for a byte of an array symbol).
    pub fn fact(store: &mut TermStore, c: TermId) -> Option<(TermId, TermId)> {
        constraints::as_fact(store, c)
    }

    /// `t` with the constants `facts` gives (a fixed term to its constant)
    /// in place of those terms, simplified where that changes it.
    pub fn substitute(
        store: &mut TermStore,
        facts: impl Fn(TermId) -> Option<TermId>,
        t: TermId,
    ) -> TermId {
        Substitution::new(facts).apply(store, t)
    }

    fn memoized(&self, t: TermId) -> Option<TermId> {
        self.memo.get(t.index()).copied().flatten()
    }

    fn remember(&mut self, t: TermId, simplified: TermId) {
        if self.memo.len() <= t.index() {
            self.memo.resize(t.index() + 1, None);
        }
        self.memo[t.index()] = Some(simplified);
    }
}
