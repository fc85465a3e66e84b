//! The joins of one merge, as they are made: the terms (for the merge's
//! report), the states' values each came from (for validation), and the
//! run's limits looked at as they go, so that a merge over a large group
//! stops within milliseconds of the interrupt, the deadline or the memory
//! limit (its states then go on unmerged, and the run stops).

use crate::expr::{Join, TermId, TermStore};
use crate::limits::{Checkpoint, Limits, Reached};

/// A [`Join`] that keeps what it joined and looks at the run's limits.
pub(super) struct Recorded {
    inner: Box<dyn Join>,
    joined: Vec<TermId>,
    joins: Option<Vec<(TermId, Vec<TermId>)>>,
    checkpoint: Checkpoint,
    stopped: Option<Reached>,
}

impl Recorded {
    /// `inner`, keeping each join with the values it came from when
    /// `validate` asks for them.
    pub(super) fn new(inner: Box<dyn Join>, validate: bool, limits: Limits) -> Recorded {
        Recorded {
            inner,
            joined: Vec::new(),
            joins: validate.then(Vec::new),
            checkpoint: Checkpoint::new(limits),
            stopped: None,
        }
    }

    /// The terms made.
    pub(super) fn terms(&self) -> &[TermId] {
        &self.joined
    }

    /// Each term made with the values it came from (when validating).
    pub(super) fn joins(&self) -> &[(TermId, Vec<TermId>)] {
        self.joins.as_deref().unwrap_or_default()
    }

    /// The limit that stopped the merge, if one did.
    pub(super) fn stopped(&self) -> Option<Reached> {
        self.stopped
    }
}

impl Join for Recorded {
    fn join(&mut self, store: &mut TermStore, values: &[TermId]) -> TermId {
        if self.stopped.is_some() {
            // The merge is given up: any term of the sort will do.
            return values[0];
        }
        let joined = self.inner.join(store, values);
        self.joined.push(joined);
        if let Some(joins) = &mut self.joins {
            joins.push((joined, values.to_vec()));
        }
        self.stopped = self.checkpoint.after(values.len() as u64);
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Guarded, Sort};
    use crate::limits::Interrupt;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn an_interrupt_gives_the_merge_up_within_a_checkpoints_work() {
        static STOP: AtomicBool = AtomicBool::new(true);
        let mut st = TermStore::new();
        let c = st.declare("c", Sort::Bool).unwrap();
        let x = st.declare("x", Sort::Bv(8)).unwrap();
        let one = st.bv_const(8, 1);
        let limits = Limits {
            interrupt: Some(Interrupt(&STOP)),
            ..Limits::default()
        };
        let mut recorded = Recorded::new(Box::new(Guarded(vec![c])), true, limits);
        let mut joins = 0;
        while recorded.stopped.is_none() {
            recorded.join(&mut st, &[x, one]);
            joins += 1;
            assert!(joins <= Checkpoint::WORK, "never stopped");
        }
        // Past the stop, nothing more is made.
        assert_eq!(recorded.join(&mut st, &[one, x]), one);
        assert_eq!(recorded.stopped(), Some(Reached::Interrupt));
        assert_eq!(
            (recorded.terms().len(), recorded.joins().len()),
            (joins as usize, joins as usize)
        );
    }
}
