//! How the values of merged states join into one term: the state merge
//! (`state/merge.rs`) and the memory merge ask a [`Join`] for each value
//! that differs, so that the formulas' shape (SM's guards over each
//! state's suffix, SMOpt's over the forks between the states,
//! `exec/merge/`) is chosen in one place.

use super::{TermId, TermStore};

/// The term that is each merged state's value on that state's path.
pub trait Join {
    /// `values[i]` is state `i`'s value (in the order the states were
    /// given to the merge), all of one sort.
    fn join(&mut self, store: &mut TermStore, values: &[TermId]) -> TermId;
}

/// `values[i]` under `guards[i]`, the first guard that holds, the last
/// value where none does: `ite(guards[0], values[0], ite(guards[1], ..))`.
pub struct Guarded(pub Vec<TermId>);

impl Join for Guarded {
    fn join(&mut self, store: &mut TermStore, values: &[TermId]) -> TermId {
        store.ite_chain(&self.0, values)
    }
}
