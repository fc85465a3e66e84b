//! Word-level simplification (placeholder until the simplifier lands).
use crate::expr::{TermId, TermStore};

#[derive(Default)]
pub struct Simplifier {}

impl Simplifier {
    pub fn new() -> Simplifier {
        Simplifier::default()
    }
    pub fn simplify(&mut self, _store: &mut TermStore, t: TermId) -> TermId {
        t
    }
    pub fn simplify_constraints(&mut self, _store: &mut TermStore, cs: &[TermId]) -> Vec<TermId> {
        cs.to_vec()
    }
}
