//! Bit-blasting (placeholder until the bit-blaster lands).

use super::sat::{SatBackend, VarisatBackend};
use super::Budget;
use crate::expr::{Model, TermId, TermStore};

/// The answer of the SAT layer to a conjunction of constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlastAnswer {
    /// A model that gives every symbol of the constraints a value.
    Sat(Model),
    /// Unsatisfiable; `core` is a subset of the constraints that is already unsatisfiable.
    Unsat {
        core: Vec<TermId>,
    },
    Unknown(String),
}

/// Turns terms into CNF in one incremental SAT instance and solves
/// conjunctions of them under assumptions.
pub struct BitBlaster<B: SatBackend = VarisatBackend> {
    sat: B,
}

impl BitBlaster<VarisatBackend> {
    pub fn new() -> Self {
        BitBlaster {
            sat: VarisatBackend::new(),
        }
    }
}

impl Default for BitBlaster<VarisatBackend> {
    fn default() -> Self {
        BitBlaster::new()
    }
}

impl<B: SatBackend> BitBlaster<B> {
    /// Solves the conjunction of the boolean terms `constraints`.
    pub fn solve(
        &mut self,
        _store: &TermStore,
        _constraints: &[TermId],
        _budget: &Budget,
    ) -> BlastAnswer {
        BlastAnswer::Unknown("bit-blaster not built yet".into())
    }

    pub fn num_vars(&self) -> usize {
        self.sat.num_vars()
    }

    pub fn num_clauses(&self) -> usize {
        self.sat.num_clauses()
    }
}
