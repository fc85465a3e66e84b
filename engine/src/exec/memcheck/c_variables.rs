//! The C variable an access was meant for. Global variables and the
//! variables of stack frames lie side by side in linear memory, with no
//! gap between them, so an index past the end of one lands in the next
//! and the address alone says nothing is wrong. But compiled code keeps
//! the variable's address as the constant part of the address it computes
//! (`table[k]` is `1040 + 4k`, `buf[k]` is `frame + 8 + k`): the variable
//! that constant lies in is the one the access was meant for, and a
//! symbolic address that may leave it is an overflow of it. The variables
//! come from the module's DWARF ([`symplay_wasm::Variables`]); a frame's
//! come to life where its frame base (a Wasm local or global) holds its
//! address.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, VariableFault};
use crate::expr::{BvBinOp, Node, TermId, TermStore};
use crate::memory::{effective_address, within, Case, Fault, Resolution};
use crate::state::value::Val;
use crate::state::{Frame, State};
use symplay_wasm::{FrameBase, FrameVariables, Variable};

/// A variable on this path: where it is, and whose.
#[derive(Clone, Debug)]
pub(crate) struct Meant<'m> {
    pub base: u64,
    pub variable: &'m Variable,
    /// The store function whose frame holds it; `None` for a global.
    pub frame_of: Option<u32>,
    /// `pointer + plus` lies inside it.
    inside: TermId,
}

impl<'m> Executor<'m> {
    /// The variable the symbolic address `pointer + plus` was computed
    /// from, when it may lie inside it on this path (else the constant was
    /// not its base: `a[k - 1]` is `&a[0] − 4 + 4k`, which starts in
    /// whatever precedes `a`).
    pub(crate) fn meant_variable(
        &mut self,
        s: &State,
        pointer: TermId,
        plus: u32,
        width: u64,
    ) -> Result<Option<Meant<'m>>, End> {
        let Some(variables) = self.program.modules[0].variables.as_ref() else {
            return Ok(None);
        };
        let Some(c) = constant_part(&self.cx.terms, pointer) else {
            return Ok(None);
        };
        let c = (c + u64::from(plus)) & 0xffff_ffff;
        let found = match variables.global_at(c) {
            Some((base, variable)) => Some((base, variable, None)),
            None => self.frame_variable_at(s, c),
        };
        let Some((base, variable, frame_of)) = found else {
            return Ok(None);
        };
        let inside = inside(
            &mut self.cx.terms,
            pointer,
            plus,
            width,
            base,
            variable.size,
        );
        if self.feasible(s, inside)? != Some(true) {
            return Ok(None);
        }
        Ok(Some(Meant {
            base,
            variable,
            frame_of,
            inside,
        }))
    }

    /// The variable of a live frame (the innermost first) whose bytes hold
    /// `address`: the largest, where slots are shared by variables whose
    /// lives do not overlap.
    fn frame_variable_at(
        &self,
        s: &State,
        address: u64,
    ) -> Option<(u64, &'m Variable, Option<u32>)> {
        s.frames.iter().rev().find_map(|frame| {
            let vars = self.frame_variables(frame.func)?;
            let base = self.frame_base(s, frame, vars.base)?;
            vars.variables
                .iter()
                .filter_map(|(offset, v)| {
                    let start = base.checked_add_signed(*offset)? & 0xffff_ffff;
                    (start <= address && address < start + v.size).then_some((start, v))
                })
                .max_by_key(|(_, v)| v.size)
                .map(|(start, v)| (start, v, Some(frame.func)))
        })
    }

    /// The variables of store function `func`'s frames, from DWARF (of the
    /// explored module's own functions only).
    pub(super) fn frame_variables(&self, func: u32) -> Option<&'m FrameVariables> {
        let (module, index) = self.program.func_at(func)?;
        let own = self.program.modules[0];
        if !std::ptr::eq(module, own) {
            return None;
        }
        own.variables.as_ref()?.frames.get(&index)
    }

    /// Where the frame base of `frame` points in `s`, when it is concrete:
    /// its local, or the stack pointer global of a function that never
    /// moves it.
    pub(super) fn frame_base(&self, s: &State, frame: &Frame, base: FrameBase) -> Option<u64> {
        let base = match base {
            FrameBase::Local(l) => frame.locals.get(l as usize).copied(),
            FrameBase::Global(g) => {
                let at = *self
                    .program
                    .links
                    .instances
                    .first()?
                    .globals
                    .get(g as usize)?;
                s.globals.get(at as usize).copied()
            }
        };
        match base {
            Some(Val::Con { bits, .. }) => Some(bits),
            _ => None,
        }
    }
}

impl Meant<'_> {
    /// The variable, for the memory error of an access outside it.
    pub(crate) fn fault_variable(&self) -> VariableFault {
        VariableFault {
            base: self.base,
            variable: self.variable.clone(),
            frame_of: self.frame_of,
            returned_at: None,
        }
    }

    /// That the byte at `pointer + plus` lies inside the variable (the
    /// last byte of a range whose first was meant for it).
    pub(crate) fn holds(&self, terms: &mut TermStore, pointer: TermId, plus: u32) -> TermId {
        inside(terms, pointer, plus, 1, self.base, self.variable.size)
    }

    /// The cases of `resolution` where the access lies inside the variable,
    /// its cases past the end of linear memory (Wasm traps there first),
    /// and a fault everywhere else.
    pub(crate) fn restrict(&self, terms: &mut TermStore, resolution: Resolution) -> Resolution {
        let cases = resolution.into_cases(terms);
        let mut restricted = Vec::with_capacity(cases.len() + 1);
        let mut elsewhere = terms.not(self.inside);
        for c in cases {
            if c.target == Err(Fault::OutOfBounds) {
                let inside_memory = terms.not(c.condition);
                elsewhere = terms.and(elsewhere, inside_memory);
                restricted.push(c);
            } else {
                restricted.push(Case {
                    condition: terms.and(c.condition, self.inside),
                    ..c
                });
            }
        }
        restricted.push(Case {
            condition: elsewhere,
            target: Err(Fault::Variable),
        });
        Resolution::Cases(restricted)
    }
}

/// The sum of the constant addends of the 32-bit `t` (wrapping), when it
/// has one.
pub(super) fn constant_part(terms: &TermStore, t: TermId) -> Option<u64> {
    match terms.node(t) {
        Node::BvConst { value, .. } => Some(*value),
        Node::BvBin(BvBinOp::Add, a, b) => {
            match (constant_part(terms, *a), constant_part(terms, *b)) {
                (None, None) => None,
                (x, y) => Some(x.unwrap_or(0).wrapping_add(y.unwrap_or(0)) & 0xffff_ffff),
            }
        }
        _ => None,
    }
}

/// `width` bytes at the 32-bit `pointer + plus` (no wrap-around) lie in
/// `[base, base + size)`.
pub(super) fn inside(
    terms: &mut TermStore,
    pointer: TermId,
    plus: u32,
    width: u64,
    base: u64,
    size: u64,
) -> TermId {
    let a = effective_address(terms, pointer, plus);
    within(terms, a, width, base, base + size)
}
