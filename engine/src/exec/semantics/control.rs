//! Control instructions: branches, `if`, `br_table` and the jumps of
//! lowered blocks. A concrete condition takes its side; a symbolic one
//! forks, one successor per feasible side.

use crate::exec::executor::Executor;
use crate::exec::fork::{Decision, Truth};
use crate::exec::outcome::{End, Flow};
use crate::expr::{BvCmp, TermId};
use crate::report::ForkKind;
use crate::state::value::Val;
use crate::state::State;
use std::collections::BTreeMap;
use symplay_wasm::ir::{BrTable, Target};

impl Executor<'_> {
    pub(super) fn br(&mut self, s: &mut State, t: Target) -> Result<Flow, End> {
        s.jump(t);
        Ok(Flow::Next)
    }

    /// A jump of a lowered block, to `pc` in the same function.
    pub(super) fn jump(&mut self, s: &mut State, pc: u32) -> Result<Flow, End> {
        s.set_pc(pc);
        Ok(Flow::Next)
    }

    pub(super) fn br_if(&mut self, s: &mut State, t: Target) -> Result<Flow, End> {
        // A concrete condition needs none of the fork machinery.
        match self.decide_top(s, Decision::Truth) {
            Val::Con { bits, .. } => {
                if bits != 0 {
                    s.jump(t)
                }
                Ok(Flow::Next)
            }
            c => {
                let (func, pc) = s.at;
                let leaves = |to| {
                    self.program
                        .code(func)
                        .is_some_and(|c| c.leaves_loop(pc, to))
                };
                let leaving = match (leaves(t.pc), leaves(pc + 1)) {
                    (true, _) => Some(true),
                    (false, true) => Some(false),
                    (false, false) => None,
                };
                self.branch_if(s, c, ForkKind::Branch, leaving, |s, taken| {
                    if taken {
                        s.jump(t)
                    }
                })
            }
        }
    }

    /// `if`, which goes on past its `then` arm's start or at `else_pc`.
    pub(super) fn if_then(&mut self, s: &mut State, else_pc: u32) -> Result<Flow, End> {
        match self.decide_top(s, Decision::Truth) {
            Val::Con { bits, .. } => {
                if bits == 0 {
                    s.set_pc(else_pc)
                }
                Ok(Flow::Next)
            }
            c => self.branch_if(s, c, ForkKind::Branch, None, |s, taken| {
                if !taken {
                    s.set_pc(else_pc)
                }
            }),
        }
    }

    /// `br_if`, `if` and a forking `select`, a fork of `kind`:
    /// `then(state, taken)` applies the chosen side. `leaving`: whether the
    /// taken side (`Some(true)`) or the other one leaves a loop, when that
    /// is known.
    pub(super) fn branch_if(
        &mut self,
        s: &mut State,
        c: Val,
        kind: ForkKind,
        leaving: Option<bool>,
        then: impl Fn(&mut State, bool),
    ) -> Result<Flow, End> {
        let c = match self.truth(c) {
            Truth::Known(b) => {
                then(s, b);
                return Ok(Flow::Next);
            }
            Truth::Sym(c) => c,
        };
        let not_c = self.cx.terms.not(c);
        let leaving = leaving.map(|taken| usize::from(!taken));
        let (chosen, siblings) = self.fork_as(s, &[c, not_c], kind, leaving)?;
        then(s, chosen == 0);
        if siblings.is_empty() {
            return Ok(Flow::Next);
        }
        let siblings = siblings
            .into_iter()
            .map(|(i, mut sibling)| {
                then(&mut sibling, i == 0);
                sibling
            })
            .collect();
        Ok(Flow::Fork(siblings))
    }

    /// Disjunction of `index = k` over `ks`, plus `index >= from` when given.
    pub(super) fn index_in(&mut self, index: TermId, ks: &[u32], from: Option<u32>) -> TermId {
        let mut c = self.cx.terms.fls();
        for &k in ks {
            let kt = self.cx.terms.bv_const(32, u64::from(k));
            let eq = self.cx.terms.eq(index, kt);
            c = self.cx.terms.or(c, eq);
        }
        if let Some(from) = from {
            let bound = self.cx.terms.bv_const(32, u64::from(from));
            let ge = self.cx.terms.cmp(BvCmp::Ule, bound, index);
            c = self.cx.terms.or(c, ge);
        }
        c
    }

    /// `br_table`: one successor per feasible distinct target.
    pub(super) fn br_table(&mut self, s: &mut State, table: &BrTable) -> Result<Flow, End> {
        let t = match self.decide_top(s, Decision::Value) {
            Val::Con { bits, .. } => {
                s.jump(*table.targets.get(bits as usize).unwrap_or(&table.default));
                return Ok(Flow::Next);
            }
            Val::Sym(t) => t,
        };
        let mut groups: BTreeMap<Target, Vec<u32>> = BTreeMap::new();
        for (k, target) in table.targets.iter().enumerate() {
            groups.entry(*target).or_default().push(k as u32);
        }
        groups.entry(table.default).or_default();
        let n = table.targets.len() as u32;
        let mut targets = Vec::new();
        let mut conds = Vec::new();
        for (&target, ks) in &groups {
            let from = (target == table.default).then_some(n);
            conds.push(self.index_in(t, ks, from));
            targets.push(target);
        }
        let (func, pc) = s.at;
        let code = self.program.code(func);
        let leaving = (targets.iter()).position(|t| code.is_some_and(|c| c.leaves_loop(pc, t.pc)));
        let (chosen, siblings) = self.fork_as(s, &conds, ForkKind::Branch, leaving)?;
        s.jump(targets[chosen]);
        Ok(Flow::Fork(
            siblings
                .into_iter()
                .map(|(i, mut sibling)| {
                    sibling.jump(targets[i]);
                    sibling
                })
                .collect(),
        ))
    }
}
