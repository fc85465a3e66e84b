//! Where forks are decided: a symbolic condition asks the solver which sides
//! are feasible under the path condition, and the state splits into one
//! successor per feasible side, each recorded as a child in the tree.

use super::executor::Executor;
use super::outcome::{End, Flow};
use crate::expr::{BvCmp, Node, TermId};
use crate::report::{DropCause, NodeMemory, Trap, MAX_OBJECTS};
use crate::solver::simplify::Simplifier;
use crate::solver::SolveResult;
use crate::state::value::Val;
use crate::state::State;
use std::collections::BTreeMap;
use symplay_wasm::ir::{BrTable, Target};

/// An i32 used as a condition: known, or a boolean term.
pub enum Truth {
    Known(bool),
    Sym(TermId),
}

impl Executor<'_> {
    /// `v != 0` as a condition; a comparison result `ite(c, 1, 0)` gives `c`.
    pub(crate) fn truth(&mut self, v: Val) -> Truth {
        let t = match v {
            Val::Con { bits, .. } => return Truth::Known(bits != 0),
            Val::Sym(t) => t,
        };
        if let Node::Ite(c, one, zero) = *self.cx.terms.node(t) {
            if self.cx.terms.as_bv_const(one) == Some(1)
                && self.cx.terms.as_bv_const(zero) == Some(0)
            {
                return Truth::Sym(c);
            }
        }
        let zero = self.cx.terms.bv_const(self.cx.terms.width(t), 0);
        let is_zero = self.cx.terms.eq(t, zero);
        let c = self.cx.terms.not(is_zero);
        let c = self.cx.caches.simplifier.simplify(&mut self.cx.terms, c);
        match self.cx.terms.as_bool_const(c) {
            Some(b) => Truth::Known(b),
            None => Truth::Sym(c),
        }
    }

    /// `t` with the constants the path condition fixes its symbols to.
    fn with_facts(&mut self, s: &State, t: TermId) -> TermId {
        let constant = matches!(
            self.cx.terms.node(t),
            Node::BvConst { .. } | Node::BoolConst(_)
        );
        if s.facts.is_empty() || constant {
            return t;
        }
        Simplifier::substitute(&mut self.cx.terms, &s.facts, t)
    }

    /// `v` as the path condition fixes it: concrete again when it is made
    /// of symbols the path fixed (a branch on `x == 5`, a value concretised
    /// before, an argument a store call pins), so that a branch on it needs
    /// no query and an address on it no symbolic access.
    pub(crate) fn settle(&mut self, s: &State, v: Val) -> Val {
        match v {
            Val::Sym(t) if !s.facts.is_empty() => {
                let t = self.with_facts(s, t);
                Val::from_term(&self.cx.terms, t)
            }
            _ => v,
        }
    }

    /// Pops the top operand, settled.
    pub(crate) fn settle_top(&mut self, s: &mut State) -> Val {
        let v = s.pop();
        self.settle(s, v)
    }

    /// A solver query, cut off by the run's limits: one hard query must not
    /// keep a run going past its time or memory limit or a stop.
    pub(crate) fn check(&mut self, constraints: &[TermId]) -> SolveResult {
        self.cx
            .solver
            .check_within(&mut self.cx.terms, constraints, &self.cx.bounds.limits)
    }

    /// Whether a limit of the run is reached (an `unknown` came from it, or
    /// a host call must stop): the state is then left unexplored, not
    /// dropped as undecidable, and the run ends.
    pub(crate) fn cut_off(&mut self) -> bool {
        let reached = self
            .cx
            .solver
            .take_stopped_by()
            .or_else(|| self.cx.bounds.limits.reached());
        if let Some(limit) = reached {
            self.cx.bounds.stopped_by.get_or_insert(limit);
        }
        reached.is_some()
    }

    /// Is the path condition of `s` together with `extra` satisfiable?
    /// `None` when the solver cannot tell; a cut-off query ends the state.
    pub(super) fn feasible(&mut self, s: &State, extra: TermId) -> Result<Option<bool>, End> {
        let mut query = s.constraints.clone();
        query.push(extra);
        match self.check(&query) {
            SolveResult::Sat(_) => Ok(Some(true)),
            SolveResult::Unsat => Ok(Some(false)),
            SolveResult::Unknown(_) if self.cut_off() => Err(End::CutOff),
            SolveResult::Unknown(_) => Ok(None),
        }
    }

    /// Splits `s` over the alternatives `conds` (pairwise disjoint; several
    /// alternatives cover every case, a single one is a condition to assume).
    /// `s` continues with the first feasible one; the returned siblings carry
    /// the others. Each result names its alternative by index.
    pub(crate) fn fork(
        &mut self,
        s: &mut State,
        conds: &[TermId],
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        self.fork_leaving(s, conds, None)
    }

    /// [`fork`](Self::fork), where alternative `leaving` (if any) leaves a
    /// loop: past the path limit, a state takes it, so that it ends.
    pub(crate) fn fork_leaving(
        &mut self,
        s: &mut State,
        conds: &[TermId],
        leaving: Option<usize>,
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        let mut feasible = Vec::new();
        let mut undecided = false;
        for (i, &c) in conds.iter().enumerate() {
            let c = self.cx.caches.simplifier.simplify(&mut self.cx.terms, c);
            let c = self.with_facts(s, c);
            match self.cx.terms.as_bool_const(c) {
                Some(false) => {}
                Some(true) => feasible.push((i, c)),
                None => match self.feasible(s, c)? {
                    Some(true) => feasible.push((i, c)),
                    Some(false) => {}
                    None => undecided = true,
                },
            }
        }
        if feasible.is_empty() {
            // A single alternative is an assumption, which fails here. Of
            // several, one always holds, since the path condition holds:
            // only the solver's not knowing which can leave none.
            return Err(End::Dropped(if conds.len() == 1 && !undecided {
                DropCause::Assumption
            } else {
                DropCause::Undecided
            }));
        }
        if feasible.len() > 1 && !self.cx.guidance.guide.is_empty() {
            // A guided replay takes the side of the test's values, with
            // the condition the exploration recorded there.
            let mut taken = feasible[0];
            let guide = self.cx.terms.and_all(&self.cx.guidance.guide.clone());
            for &(i, c) in &feasible {
                let on_guide = self.cx.terms.and(guide, c);
                if self.feasible(s, on_guide)? == Some(true) {
                    taken = (i, c);
                    break;
                }
            }
            s.assume(&mut self.cx.terms, taken.1);
            return Ok((taken.0, Vec::new()));
        }
        // A guided replay took its side above; past the path limit, an
        // exploration takes one side here.
        let split = feasible.len() > 1;
        if let Some(max) = self.cx.bounds.max_paths {
            // The pending count includes `s` itself.
            let coming = self.cx.records.paths.len() as u64
                + u64::from(self.cx.records.tree.node(0).pending);
            let room = max.saturating_sub(coming) as usize;
            if feasible.len() > room + 1 {
                self.past_path_limit(s, &mut feasible, room + 1, leaving);
            }
        }
        let (first, first_cond) = feasible[0];
        if feasible.len() == 1 && !split {
            // When the other cases are proven infeasible, the path condition
            // implies this one already; adding it would only lengthen every
            // later query (a loop over a symbolic counter would grow it by a
            // constraint per iteration).
            if conds.len() == 1 || undecided {
                s.assume(&mut self.cx.terms, first_cond);
            }
            return Ok((first, Vec::new()));
        }
        if s.depth >= self.cx.bounds.max_depth {
            return Err(End::DepthLimit);
        }
        self.cx.counters.forks += 1;
        let parent = s.node;
        let at = self.program.location(s.at);
        let memory = self
            .program
            .memory(s)
            .and_then(|m| m.objects())
            .map(|objects| objects.made_and_freed(MAX_OBJECTS))
            .filter(|&(made, _)| made > 0)
            .map(|(made, freed)| NodeMemory {
                objects: made,
                freed,
            });
        self.cx.records.tree.set_fork(parent, at, memory);
        let mut siblings = Vec::new();
        for &(i, c) in &feasible[1..] {
            let mut sibling = s.clone();
            self.enter_child(&mut sibling, parent, c);
            siblings.push((i, sibling));
        }
        self.enter_child(s, parent, first_cond);
        Ok((first, siblings))
    }

    /// Keeps `keep` of the `feasible` alternatives of a fork past the path
    /// limit: first the one that leaves a loop, else the one a model of
    /// the path takes, so that a state that no longer splits still ends.
    fn past_path_limit(
        &mut self,
        s: &State,
        feasible: &mut Vec<(usize, TermId)>,
        keep: usize,
        leaving: Option<usize>,
    ) {
        let mut first = leaving.and_then(|l| feasible.iter().position(|&(i, _)| i == l));
        if first.is_none() {
            if let SolveResult::Sat(model) = self.check(&s.constraints) {
                first = feasible
                    .iter()
                    .position(|&(_, c)| self.cx.terms.eval(c, &model).as_bool() == Some(true));
            }
        }
        if let Some(m) = first {
            let taken = feasible.remove(m);
            feasible.insert(0, taken);
        }
        self.cx.counters.unforked += (feasible.len() - keep) as u64;
        feasible.truncate(keep);
    }

    /// Runs `then` in `s`, which took alternative `chosen` of a fork, and
    /// in each sibling with its own; a state whose `then` fails ends, and
    /// every state that goes on is in the flow (`s` first, or a sibling in
    /// its place).
    pub(crate) fn each_alternative(
        &mut self,
        s: &mut State,
        chosen: usize,
        siblings: Vec<(usize, State)>,
        then: &mut dyn FnMut(&mut Self, &mut State, usize) -> Result<Flow, End>,
    ) -> Result<Flow, End> {
        let mut going_on = Vec::new();
        for (i, mut sibling) in siblings {
            match then(self, &mut sibling, i) {
                Ok(flow) => {
                    going_on.push(sibling);
                    if let Flow::Fork(more) = flow {
                        going_on.extend(more);
                    }
                }
                Err(end) => self.end_path(sibling, end),
            }
        }
        match then(self, s, chosen) {
            Ok(Flow::Fork(more)) => going_on.extend(more),
            Ok(Flow::Next) => {}
            Err(end) => {
                let Some(next) = going_on.pop() else {
                    return Err(end);
                };
                let ended = std::mem::replace(s, next);
                self.end_path(ended, end);
            }
        }
        Ok(if going_on.is_empty() {
            Flow::Next
        } else {
            Flow::Fork(going_on)
        })
    }

    fn enter_child(&mut self, s: &mut State, parent: usize, cond: TermId) {
        s.node = self.cx.records.tree.add_child(parent, cond);
        s.depth += 1;
        s.assume(&mut self.cx.terms, cond);
    }

    /// Where `bad` can hold, a path ends with `end`; `s` continues where it
    /// cannot (or ends with `end` if it must hold).
    pub(crate) fn guard(&mut self, s: &mut State, bad: TermId, end: End) -> Result<(), End> {
        let ok = self.cx.terms.not(bad);
        let (chosen, siblings) = self.fork(s, &[ok, bad])?;
        for (_, sibling) in siblings {
            self.end_path(sibling, end.clone());
        }
        if chosen == 1 {
            return Err(end);
        }
        Ok(())
    }

    /// The value of `v` on this path: a symbolic value is fixed to a model
    /// value, with that equality added to the path condition and a note.
    pub(crate) fn concretize(&mut self, s: &mut State, v: Val, what: &str) -> Result<u64, End> {
        let t = match self.settle(s, v) {
            Val::Con { bits, .. } => return Ok(bits),
            Val::Sym(t) => t,
        };
        let value = self.pin(s, t)?;
        s.notes.push(format!(
            "concretised {what} to {value} at {}",
            self.program.location_text(s.at)
        ));
        s.concretised.push((what.to_string(), s.at));
        Ok(value)
    }

    /// Fixes the term `t` to its value in a model of the path condition,
    /// and returns it (where the path ends there, or every value is
    /// explored elsewhere, so nothing is lost).
    pub(crate) fn pin(&mut self, s: &mut State, t: TermId) -> Result<u64, End> {
        let value = self.value_now(s, t)?;
        let c = self.cx.terms.bv_const(self.cx.terms.width(t), value);
        let eq = self.cx.terms.eq(t, c);
        s.assume(&mut self.cx.terms, eq);
        Ok(value)
    }

    /// The value of `t` in a model of the path condition.
    pub(crate) fn value_now(&mut self, s: &State, t: TermId) -> Result<u64, End> {
        // Unsat cannot be: every constraint was added as satisfiable. A
        // guided replay takes the test's values.
        let guide = self.cx.guidance.guide.clone();
        self.model_value(s, &guide, t)?
            .ok_or(End::Dropped(DropCause::Undecided))
    }

    /// The value of `t` in a model of the path condition with `extra`, or
    /// `None` when there is none (or the solver cannot tell); a cut-off
    /// query ends the state.
    pub(crate) fn model_value(
        &mut self,
        s: &State,
        extra: &[TermId],
        t: TermId,
    ) -> Result<Option<u64>, End> {
        let mut query = s.constraints.clone();
        query.extend_from_slice(extra);
        match self.check(&query) {
            SolveResult::Sat(model) => Ok(self.cx.terms.eval(t, &model).as_bv()),
            SolveResult::Unknown(_) if self.cut_off() => Err(End::CutOff),
            SolveResult::Unsat | SolveResult::Unknown(_) => Ok(None),
        }
    }

    /// `br_if` and `if`: `then(state, taken)` applies the chosen side.
    /// `leaving`: whether the taken side (`Some(true)`) or the other one
    /// leaves a loop, when that is known.
    pub(crate) fn branch_if(
        &mut self,
        s: &mut State,
        c: Val,
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
        let (chosen, siblings) = self.fork_leaving(s, &[c, not_c], leaving)?;
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
    fn index_in(&mut self, index: TermId, ks: &[u32], from: Option<u32>) -> TermId {
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
    pub(crate) fn br_table(
        &mut self,
        s: &mut State,
        index: Val,
        table: &BrTable,
    ) -> Result<Flow, End> {
        let t = match index {
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
        let (chosen, siblings) = self.fork(s, &conds)?;
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

    /// `call_indirect` through `table`: one successor per feasible callee,
    /// and a trapping path for null, mistyped or out-of-range entries.
    pub(crate) fn call_indirect(
        &mut self,
        s: &mut State,
        index: Val,
        type_index: u32,
        table: u32,
    ) -> Result<Flow, End> {
        let expected = self.program.module_of(s).types.get(type_index as usize);
        // Types compare structurally: the callee may come from another module.
        let callee_ok = |f: u32| expected.is_some() && self.program.func_type(f) == expected;
        let table: &[Option<u32>] = self
            .program
            .table_index(s, table)
            .map_or(&[], |t| &s.tables[t].entries);
        let t = match index {
            Val::Con { bits, .. } => {
                return match table.get(bits as usize).copied().flatten() {
                    Some(f) if callee_ok(f) => self.call(s, f),
                    _ => Err(End::Trap(Trap::IndirectCall)),
                };
            }
            Val::Sym(t) => t,
        };
        let len = table.len() as u32;
        let mut callees: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        let mut bad = Vec::new();
        for (k, entry) in table.iter().enumerate() {
            match entry {
                Some(f) if callee_ok(*f) => callees.entry(*f).or_default().push(k as u32),
                _ => bad.push(k as u32),
            }
        }
        let mut conds = Vec::new();
        let mut funcs = Vec::new();
        for (f, ks) in &callees {
            conds.push(self.index_in(t, ks, None));
            funcs.push(Some(*f));
        }
        conds.push(self.index_in(t, &bad, Some(len)));
        funcs.push(None);
        let (chosen, siblings) = self.fork(s, &conds)?;
        let mut continuing = Vec::new();
        for (i, mut sibling) in siblings {
            let Some(f) = funcs[i] else {
                self.end_path(sibling, End::Trap(Trap::IndirectCall));
                continue;
            };
            match self.call(&mut sibling, f) {
                Ok(Flow::Next) => continuing.push(sibling),
                Ok(Flow::Fork(more)) => {
                    continuing.push(sibling);
                    continuing.extend(more);
                }
                Err(end) => self.end_path(sibling, end),
            }
        }
        let Some(f) = funcs[chosen] else {
            return Err(End::Trap(Trap::IndirectCall));
        };
        match self.call(s, f)? {
            Flow::Next => {}
            Flow::Fork(more) => continuing.extend(more),
        }
        Ok(Flow::Fork(continuing))
    }

    /// `select` with a symbolic condition is an `ite`, without forking; floats
    /// (always concrete) need a concrete condition.
    pub(crate) fn select(&mut self, c: Val, a: Val, b: Val) -> Val {
        let c = match self.truth(c) {
            Truth::Known(true) => return a,
            Truth::Known(false) => return b,
            Truth::Sym(c) => c,
        };
        if a == b {
            return a;
        }
        let (ta, tb) = (a.term(&mut self.cx.terms), b.term(&mut self.cx.terms));
        let ite = self.cx.terms.ite(c, ta, tb);
        let ite = self.cx.caches.simplifier.simplify(&mut self.cx.terms, ite);
        Val::from_term(&self.cx.terms, ite)
    }
}
