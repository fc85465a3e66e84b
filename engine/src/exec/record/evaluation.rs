//! The values of an ended path under the model of its condition: its
//! results, test input, object sizes, leaked blocks, a panic's numbers, a
//! replay's trace. They are evaluated within the run's limits (a term over
//! a large array can take long); once a limit is reached, the values left
//! are 0 and the path says so, so that no path is lost to a limit.

use crate::expr::{Model, TermId, TermStore, Value};
use crate::limits::{Checkpoint, Limits, Reached};
use crate::state::value::Val;

pub(crate) struct Evaluation<'a> {
    terms: &'a TermStore,
    model: &'a Model,
    checkpoint: Checkpoint,
    /// The limit reached while evaluating, if one was.
    stopped: Option<Reached>,
}

impl<'a> Evaluation<'a> {
    pub(crate) fn new(terms: &'a TermStore, model: &'a Model, limits: Limits) -> Self {
        Evaluation {
            terms,
            model,
            checkpoint: Checkpoint::new(limits),
            stopped: None,
        }
    }

    /// The values of `terms`, or `None` once a limit is reached.
    pub(crate) fn values(&mut self, terms: &[TermId]) -> Option<Vec<Value>> {
        if self.stopped.is_some() {
            return None;
        }
        let values = self
            .terms
            .eval_each_within(terms, self.model, &mut self.checkpoint);
        values.map_err(|limit| self.stopped = Some(limit)).ok()
    }

    /// The bits of `v` (0 for a boolean, or past a limit).
    pub(crate) fn bits(&mut self, v: Val) -> u64 {
        match v {
            Val::Con { bits, .. } => bits,
            Val::Sym(t) => self
                .values(&[t])
                .and_then(|values| values[0].as_bv())
                .unwrap_or(0),
        }
    }

    /// The values of byte terms, evaluated together: a buffer's bytes share
    /// their array.
    pub(crate) fn bytes(&mut self, bytes: &[TermId]) -> Vec<u8> {
        match self.values(bytes) {
            Some(values) => values
                .iter()
                .map(|v| v.as_bv().unwrap_or(0) as u8)
                .collect(),
            None => vec![0; bytes.len()],
        }
    }

    /// The limit reached while evaluating, if one was.
    pub(crate) fn stopped(&self) -> Option<Reached> {
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvBinOp, Sort, Value};
    use web_time::{Duration, Instant};

    #[test]
    fn past_a_limit_the_values_left_are_zero_and_the_limit_is_kept() {
        let mut terms = TermStore::new();
        let x = terms.declare("x", Sort::Bv(32)).unwrap();
        let one = terms.bv_const(32, 1);
        let mut sum = x;
        for _ in 0..100_000 {
            sum = terms.bin(BvBinOp::Add, sum, one);
        }
        let mut model = Model::new();
        let symbol = terms.symbol_named("x").unwrap();
        model.set(
            symbol,
            Value::Bv {
                width: 32,
                value: 5,
            },
        );
        let within = Evaluation::new(&terms, &model, Limits::default()).bits(Val::Sym(sum));
        assert_eq!(within, 100_005);
        let past = Limits {
            deadline: Some(Instant::now() - Duration::from_millis(1)),
            ..Limits::default()
        };
        let mut eval = Evaluation::new(&terms, &model, past);
        // A symbol is read from the model without a walk.
        assert_eq!(eval.bits(Val::Sym(x)), 5);
        assert_eq!(eval.stopped(), None);
        assert_eq!(eval.bits(Val::Sym(sum)), 0);
        assert_eq!(eval.stopped(), Some(Reached::Time));
        // Once stopped, nothing more is evaluated; constants stay.
        assert_eq!(eval.bits(Val::Sym(x)), 0);
        assert_eq!(eval.bytes(&[x, x]), [0, 0]);
        assert_eq!(eval.bits(Val::Con { width: 32, bits: 9 }), 9);
    }
}
