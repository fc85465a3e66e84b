//! Symbolic sizes under the run's size mode (`symbolic_size.md` §1.3):
//! an object of symbolic size (an allocation, a sized input buffer) is
//! made with its size kept symbolic (fork-lazy), pinned to its largest
//! value (base), or forked over every value (fork-eager); and the least
//! and greatest size a path allows.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::expr::{BvCmp, TermId};
use crate::memory::{Size, SizeMode};
use crate::state::State;

/// A continuation run in every state an operation leaves.
pub(crate) type Then<'a, T> = dyn FnMut(&mut Executor<'_>, &mut State, T) -> Result<Flow, End> + 'a;

impl Executor<'_> {
    /// Runs `then` with the size of an object of symbolic size `sigma` (at
    /// most `capacity` on the path) under the run's size mode, in every
    /// state that leaves.
    pub(crate) fn sized(
        &mut self,
        s: &mut State,
        sigma: TermId,
        capacity: u64,
        then: &mut Then<'_, Size>,
    ) -> Result<Flow, End> {
        if let Some(n) = self.cx.terms.as_bv_const(sigma) {
            return then(self, s, Size::Con(n));
        }
        let c = self.cx.terms.bv_const(32, capacity);
        let fits = self.cx.terms.cmp(BvCmp::Ule, sigma, c);
        self.fork(s, &[fits])?;
        match self.program.roles.heap.size_mode {
            SizeMode::ForkLazy => {
                self.cx.merging.taint_size(&self.cx.terms, sigma);
                then(self, s, Size::Sym(sigma))
            }
            SizeMode::Base => {
                let max = self.largest(s, sigma, capacity)?;
                let value = self.cx.terms.bv_const(32, max);
                let smaller = self.cx.terms.cmp(BvCmp::Ult, sigma, value);
                // The smaller sizes are left out, which the path records.
                if self.model_value(s, &[smaller], sigma)?.is_some() {
                    s.note(format!(
                        "the symbolic size at {} is pinned to its largest value {max} (size mode base)",
                        self.program.location_text(s.at)
                    ));
                    let what = "a symbolic size, pinned to its largest value (size mode base)";
                    s.mark_concretised(what.to_string(), s.at);
                }
                let pinned = self.cx.terms.eq(sigma, value);
                self.fork(s, &[pinned])?;
                then(self, s, Size::Con(max))
            }
            SizeMode::ForkEager => {
                let mut values = Vec::new();
                let mut excluded = Vec::new();
                while let Some(v) = self.model_value(s, &excluded, sigma)? {
                    values.push(v);
                    let value = self.cx.terms.bv_const(32, v);
                    let same = self.cx.terms.eq(sigma, value);
                    excluded.push(self.cx.terms.not(same));
                }
                values.sort_unstable();
                let conds: Vec<TermId> = values
                    .iter()
                    .map(|&v| {
                        let value = self.cx.terms.bv_const(32, v);
                        self.cx.terms.eq(sigma, value)
                    })
                    .collect();
                let (chosen, siblings) = self.fork(s, &conds)?;
                self.each_alternative(s, chosen, siblings, &mut |exec, s, i| {
                    then(exec, s, Size::Con(values[i]))
                })
            }
        }
    }

    /// The smallest value of `sigma` the path allows.
    pub(crate) fn smallest(&mut self, s: &mut State, sigma: TermId) -> Result<u64, End> {
        let mut hi = self.value_now(s, sigma)?;
        let mut lo = 0;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let m = self.cx.terms.bv_const(32, mid);
            let at_most = self.cx.terms.cmp(BvCmp::Ule, sigma, m);
            match self.model_value(s, &[at_most], sigma)? {
                Some(v) => hi = v.max(lo),
                None => lo = mid + 1,
            }
        }
        Ok(lo)
    }

    /// The largest value of `sigma` the path allows, at most `capacity`.
    pub(crate) fn largest(
        &mut self,
        s: &mut State,
        sigma: TermId,
        capacity: u64,
    ) -> Result<u64, End> {
        let mut lo = self.value_now(s, sigma)?;
        let mut hi = capacity;
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            let m = self.cx.terms.bv_const(32, mid);
            let at_least = self.cx.terms.cmp(BvCmp::Ule, m, sigma);
            match self.model_value(s, &[at_least], sigma)? {
                Some(v) => lo = v.min(hi),
                None => hi = mid - 1,
            }
        }
        Ok(lo)
    }
}
