//! The circuit literals of translated terms, kept in one arena.

use super::aig::AigLit;
use crate::expr::TermId;
use rustc_hash::FxHashMap;

/// The bits of each translated term: one literal for a boolean, `width` for
/// a bit-vector, least significant first. Array terms have none; they are
/// only ever read through `select`.
#[derive(Default)]
pub struct TermBits {
    arena: Vec<AigLit>,
    spans: FxHashMap<TermId, (usize, u8)>,
}

impl TermBits {
    pub fn get(&self, t: TermId) -> Option<&[AigLit]> {
        let &(start, len) = self.spans.get(&t)?;
        Some(&self.arena[start..start + usize::from(len)])
    }

    /// The bits of a term whose translation must already exist.
    pub fn word(&self, t: TermId) -> &[AigLit] {
        self.get(t)
            .expect("terms are translated after the terms they contain")
    }

    pub(super) fn insert(&mut self, t: TermId, bits: &[AigLit]) {
        let len = u8::try_from(bits.len()).expect("terms are at most 64 bits wide");
        self.spans.insert(t, (self.arena.len(), len));
        self.arena.extend_from_slice(bits);
    }

    pub(super) fn num_lits(&self) -> usize {
        self.arena.len()
    }
}
