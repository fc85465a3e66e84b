//! Base forms for address-aware caching (`--aa-cache`,
//! `relocatable_and_caching.md` §4): the conditions the solver is asked
//! about are settled (hidden addresses put in), and the same condition
//! over the blocks' base symbols is the one the cache keys on. A base form
//! is recorded where a settled term is made from a state's term: a
//! decision's value (`decide_top`), and a symbolic access's case in the
//! block of its pointer's own base (`place`, for `β + k`). A condition
//! made from such terms in the same instruction is lifted to its base
//! form, kept beside the constraint in the path condition, and a branch's
//! query goes through the cache with the base forms of its slice.

use crate::exec::executor::Executor;
use crate::expr::{Node, TermId, TermStore};
use crate::memory::{effective_address, within, AaCacheMode, Case, Place};
use crate::solver::address_aware::{self, within_base};
use crate::solver::simplify::Simplifier;
use crate::solver::Beside;
use crate::state::value::Val;
use crate::state::State;
use rustc_hash::FxHashMap;
use std::cell::Cell;

/// Base forms recorded in the instruction under way, by settled term.
#[derive(Default)]
pub(crate) struct PendingForms {
    /// The instruction count they were recorded at: forms of another
    /// instruction (another state's, perhaps) are not used.
    instruction: u64,
    forms: FxHashMap<TermId, TermId>,
    /// Whether the instruction decides on a value (a branch, a select):
    /// only such a query goes through the cache; where a pointer lands is
    /// the engine's own question (§7.4).
    decision: bool,
}

impl Executor<'_> {
    fn aa_mode(&self) -> AaCacheMode {
        self.program.roles.heap.aa_cache
    }

    /// The forms of this instruction, emptied first if they are older.
    fn pending_forms(&mut self, decision: bool) -> &mut FxHashMap<TermId, TermId> {
        let now = self.cx.counters.instructions;
        let pending = &mut self.cx.caches.forms;
        if pending.instruction != now || pending.decision != decision {
            pending.forms.clear();
            pending.instruction = now;
            pending.decision = decision;
        }
        &mut pending.forms
    }

    /// `t` with the constants the path fixes, base symbols kept.
    pub(super) fn with_facts_only(&mut self, s: &State, t: TermId) -> TermId {
        if !s.condition.has_facts() {
            return t;
        }
        Simplifier::substitute(&mut self.cx.terms, |u| s.condition.fact(u), t)
    }

    /// Under `--aa-cache`, marks this instruction as a decision on `raw`
    /// (settled to `settled`), and records the base form of a value over
    /// base symbols, and of the comparison it holds (`ite(c, 1, 0)`), each
    /// only where settling it gives the settled term.
    pub(crate) fn record_decision(&mut self, s: &State, raw: Val, settled: Val) {
        if self.aa_mode().is_off() {
            return;
        }
        self.pending_forms(true);
        let (Val::Sym(raw), Val::Sym(flat)) = (raw, settled) else {
            return;
        };
        if !self.cx.terms.has_base(raw) {
            return;
        }
        let form = self.with_facts_only(s, raw);
        if self.with_facts(s, form) != flat {
            return;
        }
        let mut pairs = vec![(flat, form)];
        let terms = &self.cx.terms;
        if let (Node::Ite(c, ..), Node::Ite(c_form, ..)) = (*terms.node(flat), *terms.node(form)) {
            // The rewriter may have turned `ite(¬c, a, b)` into `ite(c, b,
            // a)` on one side only: the pair must settle alike too.
            if self.with_facts(s, c_form) == c {
                pairs.push((c, c_form));
            }
        }
        self.pending_forms(true).extend(pairs);
    }

    /// Under `--aa-cache`, the case of a symbolic access at `addr + plus`
    /// (`width` bytes checked) in the block of the pointer's own base
    /// (`β + k`, of concrete size) is asked in its base form,
    /// `within_base`, settled: the same condition as the model's, whose
    /// base form the path condition then keeps. A pointer over other bases
    /// (loaded from memory, chosen among blocks) keeps the model's case:
    /// whether it lands in a block may depend on where the others lie.
    pub(crate) fn record_case_forms(
        &mut self,
        s: &State,
        addr: Val,
        (plus, width): (u32, u64),
        cases: &mut [Case],
    ) {
        let Val::Sym(raw) = addr else {
            return;
        };
        if self.aa_mode().is_off() || !self.cx.terms.has_base(raw) {
            return;
        }
        // Wasm adds the memory argument's offset past the 32-bit pointer:
        // one larger than some block's address could take a pointer that
        // wrapped below 0 back into it in one layout and not in another.
        // Every block lies above the heap start.
        let below_blocks = self.program.memory(s).and_then(|m| m.heap_start());
        if below_blocks.is_none_or(|start| u64::from(plus) > start) {
            return;
        }
        let raw = self.with_facts_only(s, raw);
        let Some(own) = self.only_base(raw) else {
            return;
        };
        for case in cases.iter_mut() {
            let Ok(Place::Symbolic {
                object, pointer, ..
            }) = case.target
            else {
                continue;
            };
            let Some(memory) = self.program.memory(s) else {
                return;
            };
            let Some((beta, hidden)) = memory.base_of(object).filter(|&(b, _)| b == own) else {
                continue;
            };
            let Some(size) = memory.base_size(beta) else {
                continue;
            };
            // Only a case that is the bound check alone (not one that must
            // also stay apart from an input buffer inside the block).
            let terms = &mut self.cx.terms;
            let a = effective_address(terms, pointer, plus);
            if case.condition != within(terms, a, width, hidden, hidden + size) {
                continue;
            }
            let form = within_base(terms, (raw, plus), beta, size, width);
            let flat = self.with_facts(s, form);
            case.condition = flat;
            self.pending_forms(false).insert(flat, form);
        }
    }

    /// The base form of the settled condition `c`, when this instruction
    /// recorded forms of terms it is made of.
    pub(super) fn form_of(&mut self, c: TermId) -> Option<TermId> {
        let now = self.cx.counters.instructions;
        let pending = &self.cx.caches.forms;
        if self.aa_mode().is_off() || pending.instruction != now || pending.forms.is_empty() {
            return None;
        }
        let forms = &pending.forms;
        let form = Simplifier::substitute(&mut self.cx.terms, |u| forms.get(&u).copied(), c);
        (form != c).then_some(form)
    }

    /// Whether `extra` holds beside the path condition of `s`, asked
    /// through the address-aware cache with the base forms of its slice
    /// (`form` its own, if it has one), when it is a decision's and some
    /// constraint of the slice has a base form; `None` when it is not.
    pub(super) fn beside_with_form(
        &mut self,
        s: &State,
        extra: TermId,
        form: Option<TermId>,
    ) -> Option<Beside> {
        let now = self.cx.counters.instructions;
        let pending = &self.cx.caches.forms;
        if self.aa_mode().is_off() || !pending.decision || pending.instruction != now {
            return None;
        }
        // Blocks that moved (into a segment, or out of a freed slot a
        // later block took) keep their forms: an unsat answer is given
        // again only for a key of own-block offsets and NULL checks, true
        // in every layout, and a decision that depended on where a block
        // lies pinned it, so it did not move after that decision.
        let memory = self.program.memory(s)?;
        let check = self.aa_mode() == AaCacheMode::Check;
        let condition = &s.condition;
        let form = form.unwrap_or(extra);
        let mut key_of = |store: &mut TermStore, query: &[TermId]| {
            // A block pinned after it moved is its new address
            // in forms recorded at its old one: such a key is trusted
            // with models only.
            let pinned_after_move = Cell::new(false);
            let pinned = |u| {
                let hidden = memory.pinned_hidden(u);
                if hidden.is_some() && memory.base_moved(u) {
                    pinned_after_move.set(true);
                }
                hidden
            };
            let forms: Vec<TermId> = query
                .iter()
                .map(|&c| {
                    let f = match c == extra {
                        true => form,
                        false => condition.form(c).unwrap_or(c),
                    };
                    // A pinned block's base is its address.
                    match store.has_base(f) {
                        true => Simplifier::substitute(store, pinned, f),
                        false => f,
                    }
                })
                .collect();
            let keyed = address_aware::key(store, &forms, |beta| memory.base_size(beta));
            keyed.map(|(key, reusable)| (key, reusable && !pinned_after_move.get()))
        };
        Some(self.cx.solver.check_beside_aware(
            &mut self.cx.terms,
            (&condition.constraints(), &[extra]),
            &self.cx.bounds.limits,
            &mut key_of,
            check,
        ))
    }
}
