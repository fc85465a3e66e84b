//! Values and conditions as the path fixes them: a value made of symbols
//! the path condition pins is concrete again, and an `i32` used as a
//! condition is known or a boolean term ([`Truth`]).

use crate::exec::executor::Executor;
use crate::expr::{BvBinOp, Node, TermId};
use crate::memory::{BaseMode, ObjectId};
use crate::solver::simplify::Simplifier;
use crate::state::value::Val;
use crate::state::State;

/// The mirror of hidden addresses a decision is tried under: 16-aligned,
/// above every address a 32-bit memory holds.
const MIRROR: u64 = 0xFFFF_FFF0;

/// How much further apart the moved layout puts each block from the one
/// below it: more than a block's slot is likely to be, and 16-aligned.
const SPREAD: u64 = 0x1_0000;

/// What a decision takes of a value: whether it is zero (a branch), or
/// the value itself (a table index).
#[derive(Clone, Copy)]
pub(crate) enum Decision {
    Truth,
    Value,
}

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

    /// `t` with the constants the path condition fixes its symbols to,
    /// and the hidden addresses of the heap objects' base symbols in it
    /// (unfolded, `relocatable_and_caching.md` §1): decisions, addresses
    /// and queries see numbers, while the state keeps the terms over the
    /// base symbols.
    pub(super) fn with_facts(&mut self, s: &State, t: TermId) -> TermId {
        let constant = matches!(
            self.cx.terms.node(t),
            Node::BvConst { .. } | Node::BoolConst(_)
        );
        let bases = self.cx.terms.has_base(t);
        if constant || !(bases || s.condition.has_facts()) {
            return t;
        }
        let memory = self.program.memory(s).filter(|_| bases);
        Simplifier::substitute(
            &mut self.cx.terms,
            |u| {
                s.condition
                    .fact(u)
                    .or_else(|| memory.and_then(|m| m.hidden(u)))
            },
            t,
        )
    }

    /// `v` as the path condition fixes it: concrete again when it is made
    /// of symbols the path fixed (a branch on `x == 5`, a value concretised
    /// before, an argument a store call pins), so that a branch on it needs
    /// no query and an address on it no symbolic access. A pointer to a
    /// heap object is its hidden address here.
    pub(crate) fn settle(&mut self, s: &State, v: Val) -> Val {
        match v {
            Val::Sym(t) if s.condition.has_facts() || self.cx.terms.has_base(t) => {
                let t = self.with_facts(s, t);
                Val::from_term(&self.cx.terms, t)
            }
            _ => v,
        }
    }

    /// Pops the top operand, settled for a `decision` (a branch, a
    /// select, an assumption or assertion by its truth; a `br_table` or an
    /// indirect call by its value): where the hidden addresses of base
    /// symbols decided it, their blocks are pinned.
    pub(crate) fn decide_top(&mut self, s: &mut State, decision: Decision) -> Val {
        let v = s.pop();
        let settled = self.settle(s, v);
        if let Val::Sym(t) = v {
            if self.cx.terms.has_base(t) {
                self.pin_observed(s, t, settled, decision);
            }
        }
        self.record_decision(s, v, settled);
        settled
    }

    /// Whether a decision on `settled` is the one on `elsewhere` (the
    /// same value under another layout of the blocks) on every input the
    /// path of `s` allows: at once when both are numbers, else when the
    /// solver finds no input on which they differ (a NULL check on a
    /// pointer loaded at a symbolic index, which any layout decides alike,
    /// is a term of the input).
    fn decided_alike(
        &mut self,
        s: &State,
        settled: Val,
        elsewhere: Val,
        decision: Decision,
    ) -> bool {
        let differ = match decision {
            Decision::Truth => {
                let [here, there] = [settled, elsewhere].map(|v| match self.truth(v) {
                    Truth::Known(b) => self.cx.terms.bool_const(b),
                    Truth::Sym(c) => c,
                });
                self.cx.terms.xor(here, there)
            }
            Decision::Value => {
                if settled == elsewhere {
                    return true;
                }
                let terms = &mut self.cx.terms;
                let (a, b) = (settled.term(terms), elsewhere.term(terms));
                let same = terms.eq(a, b);
                terms.not(same)
            }
        };
        let differ = self
            .cx
            .caches
            .simplifier
            .simplify(&mut self.cx.terms, differ);
        match self.cx.terms.as_bool_const(differ) {
            Some(differ) => !differ,
            // A query that is cut off, or undecided, pins.
            None => matches!(self.feasible(s, differ), Ok(Some(false))),
        }
    }

    /// Pins the blocks whose base symbols `t` holds, unless `settled` (`t`
    /// unfolded) is what any layout gives: a decision that comes out the
    /// same under each of [`layouts`] does not depend on where
    /// the blocks are. A NULL check or an alignment test to 16 pins
    /// nothing; an order between blocks, a distance between them or a
    /// hash of an address pins them.
    fn pin_observed(&mut self, s: &mut State, t: TermId, settled: Val, decision: Decision) {
        let bases = self.hidden_bases(s, t);
        for layout in layouts(&bases) {
            let elsewhere = self.laid_out(s, t, &bases, &layout);
            if !self.decided_alike(s, settled, elsewhere, decision) {
                let symbols: Vec<TermId> = bases.iter().map(|&(beta, _)| beta).collect();
                let at = s.at;
                if let Some(memory) = self.program.memory_mut(s) {
                    memory.pin_met(&symbols, None, at);
                }
                return;
            }
        }
    }

    /// The base symbols in `t` with the path's facts put in, each with its
    /// hidden address, lowest first.
    fn hidden_bases(&mut self, s: &State, t: TermId) -> Vec<(TermId, u64)> {
        let t = self.with_facts_only(s, t);
        let Some(memory) = self.program.memory(s) else {
            return Vec::new();
        };
        let terms = &self.cx.terms;
        let mut bases: Vec<(TermId, u64)> = terms
            .bases_in(t)
            .into_iter()
            .filter_map(|u| Some((u, terms.as_bv_const(memory.hidden(u)?)?)))
            .collect();
        bases.sort_by_key(|&(_, c)| c);
        bases
    }

    /// `t` with the path's facts, and each of `bases` at the hidden
    /// address `layout` gives it.
    fn laid_out(&mut self, s: &State, t: TermId, bases: &[(TermId, u64)], layout: &[u64]) -> Val {
        let terms = &mut self.cx.terms;
        let at: Vec<(TermId, TermId)> = bases
            .iter()
            .zip(layout)
            .map(|(&(beta, _), &c)| (beta, terms.bv_const(32, c)))
            .collect();
        let elsewhere = Simplifier::substitute(
            terms,
            |u| {
                s.condition
                    .fact(u)
                    .or_else(|| at.iter().find(|&&(beta, _)| beta == u).map(|&(_, c)| c))
            },
            t,
        );
        Val::from_term(terms, elsewhere)
    }

    /// Pins what an access or a free through the address `raw` met in
    /// `target` (a block, a segment, `None` for no block), unless it is
    /// the block of its only base symbol at an offset no layout changes
    /// (`β + k`, not `(β + 63) & ~63`), or a segment holding the blocks of
    /// all its base symbols. Only under symbolic bases, where a block may
    /// move into a segment and a freed one's slot be taken again: pinned,
    /// it keeps its place, which the path's constraints fix.
    pub(crate) fn pin_stray(&mut self, s: &mut State, raw: Val, target: Option<ObjectId>) {
        let Val::Sym(t) = raw else {
            return;
        };
        if self.program.roles.heap.bases != BaseMode::Symbolic || !self.cx.terms.has_base(t) {
            return;
        }
        // Most accesses are `β + k`: at offset k of β's block anywhere.
        if let (Some(beta), Some(target)) = (self.only_base(t), target) {
            if self
                .program
                .memory(s)
                .is_some_and(|m| m.holds(target, &[beta]))
            {
                return;
            }
        }
        let bases = self.hidden_bases(s, t);
        let symbols: Vec<TermId> = bases.iter().map(|&(beta, _)| beta).collect();
        let Some(memory) = self.program.memory(s).filter(|_| !bases.is_empty()) else {
            return;
        };
        let own = match target {
            Some(target) if memory.segment(target).is_some() => memory.holds(target, &symbols),
            Some(target) => {
                memory.holds(target, &symbols) && self.offset_kept(s, t, bases[0].0, &bases)
            }
            None => false,
        };
        if own {
            return;
        }
        let at = s.at;
        if let Some(memory) = self.program.memory_mut(s) {
            memory.pin_met(&symbols, target, at);
        }
    }

    /// `β` when `t` is `β` or `β + k` with no base symbol in `k`.
    pub(crate) fn only_base(&self, t: TermId) -> Option<TermId> {
        let terms = &self.cx.terms;
        match *terms.node(t) {
            Node::Symbol(_) => Some(t),
            Node::BvBin(BvBinOp::Add, a, b) => match (terms.has_base(a), terms.has_base(b)) {
                (true, false) if matches!(terms.node(a), Node::Symbol(_)) => Some(a),
                (false, true) if matches!(terms.node(b), Node::Symbol(_)) => Some(b),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether `t - beta` is the same under every layout of `bases`.
    fn offset_kept(&mut self, s: &State, t: TermId, beta: TermId, bases: &[(TermId, u64)]) -> bool {
        let offset = self.cx.terms.bin(BvBinOp::Sub, t, beta);
        let here = self.with_facts(s, offset);
        let here = self.cx.caches.simplifier.simplify(&mut self.cx.terms, here);
        layouts(bases).iter().all(|layout| {
            let there = match self.laid_out(s, offset, bases, layout) {
                Val::Sym(u) => self.cx.caches.simplifier.simplify(&mut self.cx.terms, u),
                v => v.term(&mut self.cx.terms),
            };
            there == here
        })
    }

    /// Pins the blocks of the base symbols in `raw`, a value the host or
    /// a bulk operation takes as a number (`value` on this path), and the
    /// block whose slot holds `value`: unless the value is the block's own
    /// address, no other layout would give it. Only under symbolic bases
    /// ([`pin_stray`](Self::pin_stray)).
    pub(crate) fn pin_number(&mut self, s: &mut State, raw: Val, value: u64) {
        let Val::Sym(t) = raw else {
            return;
        };
        if self.program.roles.heap.bases != BaseMode::Symbolic || !self.cx.terms.has_base(t) {
            return;
        }
        let target = self.program.memory(s).and_then(|m| m.block_holding(value));
        self.pin_stray(s, raw, target);
    }

    /// Pins the blocks of every base symbol in `raw`, a value the program
    /// keeps as a number (`value` on this path: a float made of a
    /// pointer), and the block whose slot holds `value`, their own block
    /// too: one that moved later would leave the number behind.
    pub(crate) fn pin_kept_number(&mut self, s: &mut State, raw: Val, value: u64) {
        let Val::Sym(t) = raw else {
            return;
        };
        if self.program.roles.heap.bases != BaseMode::Symbolic || !self.cx.terms.has_base(t) {
            return;
        }
        let symbols: Vec<TermId> = (self.hidden_bases(s, t).into_iter())
            .map(|(beta, _)| beta)
            .collect();
        let at = s.at;
        if let Some(memory) = self.program.memory_mut(s) {
            let target = memory.block_holding(value);
            memory.pin_met(&symbols, target, at);
        }
    }
}

/// The layouts a decision or an access is tried under besides the actual
/// one (`bases` with their hidden addresses, lowest first): the mirrored
/// layout (each `c` at `MIRROR - c`, which reverses their order and keeps
/// their alignment to 16 and their distinctness), and a moved one (the
/// k-th block `k * SPREAD + 16 * (k + 1)` further up, which keeps their
/// order and changes their distances and the address bits from 4 up that
/// the mirror keeps).
fn layouts(bases: &[(TermId, u64)]) -> [Vec<u64>; 2] {
    let mirrored = bases.iter().map(|&(_, c)| MIRROR.wrapping_sub(c)).collect();
    let moved = (0u64..)
        .zip(bases)
        .map(|(k, &(_, c))| c.wrapping_add(k * SPREAD + 16 * (k + 1)) & 0xFFFF_FFFF)
        .collect();
    [mirrored, moved]
}
