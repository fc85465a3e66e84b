//! Recording a replay's trace (into the context's
//! [`Trace`](crate::exec::context::records::Trace)): what each instruction
//! about to run decides, calls with their arguments, host calls with their
//! results.

use crate::exec::context::records::Slot;
use crate::exec::executor::Executor;
use crate::expr::TermId;
use crate::report::{Number, TraceEvent};
use crate::state::value::{number, Val};
use crate::state::State;
use symplay_wasm::ir::Instr;
use symplay_wasm::{FuncBody, ValType};

/// Values of an event that are still symbols (in a guided replay), which
/// the path's model gives values when it ends.
type Unknown = Vec<(Slot, TermId, ValType)>;

/// The top `types.len()` operands, typed; a symbol stands as 0 until
/// resolved, and is added to `unknown`.
fn operands(s: &State, types: &[ValType], below: usize, unknown: &mut Unknown) -> Vec<Number> {
    let end = s.stack.len().saturating_sub(below);
    let start = end.saturating_sub(types.len());
    s.stack[start..end]
        .iter()
        .zip(types)
        .enumerate()
        .map(|(i, (v, &ty))| match *v {
            Val::Con { bits, .. } => number(ty, bits),
            Val::Sym(t) => {
                unknown.push((Slot::Value(i), t, ty));
                number(ty, 0)
            }
        })
        .collect()
}

/// The top operand, an `i32`; a symbol is added to `unknown` as `slot`.
fn top(s: &State, slot: Slot, unknown: &mut Unknown) -> u64 {
    match s.stack.last() {
        Some(&Val::Con { bits, .. }) => bits,
        Some(&Val::Sym(t)) => {
            unknown.push((slot, t, ValType::I32));
            0
        }
        None => 0,
    }
}

impl Executor<'_> {
    /// Records what `instr`, about to run at `at`, decides.
    pub(crate) fn trace_step(&mut self, s: &State, at: (u32, u32), instr: Instr) {
        let depth = s.frames.len();
        let mut unknown = Unknown::new();
        let event = match instr {
            Instr::BrIf(_) | Instr::If { .. } => TraceEvent::Branch {
                at: self.program.location(at),
                instruction: if matches!(instr, Instr::If { .. }) {
                    "if"
                } else {
                    "br_if"
                }
                .to_string(),
                taken: top(s, Slot::Taken, &mut unknown) != 0,
                depth,
            },
            Instr::BrTable { .. } => TraceEvent::BrTable {
                at: self.program.location(at),
                index: top(s, Slot::Index, &mut unknown) as u32,
                depth,
            },
            Instr::Call { func } => {
                let func = self.program.links_of(s).funcs[func as usize];
                let Some(event) = self.call_event(s, at, func, None, 0, &mut unknown) else {
                    return;
                };
                event
            }
            Instr::CallIndirect { type_index, table } => {
                // A call through a symbolic slot is recorded when it runs,
                // with its callee (`trace_indirect_call`).
                let Some(slot) = s.stack.last().and_then(|v| v.concrete()) else {
                    return;
                };
                let table: &[Option<u32>] = self
                    .program
                    .table_index(s, table)
                    .map_or(&[], |t| &s.tables[t].entries);
                let callee = table.get(slot as usize).copied().flatten();
                let expected = self.program.module_of(s).types.get(type_index as usize);
                match callee {
                    Some(f) if expected.is_some() && self.program.func_type(f) == expected => {
                        match self.call_event(s, at, f, Some(slot as u32), 1, &mut unknown) {
                            Some(event) => event,
                            None => return,
                        }
                    }
                    // The call traps; the outcome says so.
                    _ => return,
                }
            }
            Instr::Return => {
                let results = self
                    .program
                    .func_type(at.0)
                    .map(|t| t.results.clone())
                    .unwrap_or_default();
                TraceEvent::Return {
                    at: self.program.location(at),
                    values: operands(s, &results, 0, &mut unknown),
                    depth,
                }
            }
            _ => return,
        };
        let unknown = self.unfolded_unknowns(s, unknown);
        if let Some(trace) = &mut self.cx.records.trace {
            trace.push(event, unknown);
        }
    }

    /// A call of store function `func` whose arguments lie `below` operands
    /// under the top.
    fn call_event(
        &self,
        s: &State,
        at: (u32, u32),
        func: u32,
        table_slot: Option<u32>,
        below: usize,
        unknown: &mut Unknown,
    ) -> Option<TraceEvent> {
        let params = self
            .program
            .func_type(func)
            .map(|t| t.params.clone())
            .unwrap_or_default();
        let (module, index) = self.program.func_at(func)?;
        let f = &module.funcs[index as usize];
        let (at, callee, args, depth) = (
            self.program.location(at),
            f.name.clone(),
            operands(s, &params, below, unknown),
            s.frames.len(),
        );
        Some(match f.body {
            FuncBody::Import(_) => TraceEvent::HostCall {
                at,
                callee,
                args,
                results: Vec::new(),
                depth,
            },
            FuncBody::Defined(_) => TraceEvent::Call {
                at,
                callee,
                args,
                table_slot,
                depth,
            },
        })
    }

    /// A call of `func` through the symbolic table slot `slot` (its
    /// arguments on top), once the slot's callee is known; the path's
    /// model gives the slot.
    pub(crate) fn trace_indirect_call(&mut self, s: &State, func: u32, slot: TermId) {
        if self.cx.records.trace.is_none() {
            return;
        }
        let mut unknown = vec![(Slot::Table, slot, ValType::I32)];
        let Some(event) = self.call_event(s, s.at, func, Some(0), 0, &mut unknown) else {
            return;
        };
        let unknown = self.unfolded_unknowns(s, unknown);
        if let Some(trace) = &mut self.cx.records.trace {
            trace.push(event, unknown);
        }
    }

    /// Fills in the results of the host call just made by `func`.
    pub(crate) fn trace_host_results(&mut self, s: &State, func: u32) {
        let results = self
            .program
            .func_type(func)
            .map(|t| t.results.clone())
            .unwrap_or_default();
        let mut unknown = Unknown::new();
        let values = operands(s, &results, 0, &mut unknown);
        let unknown = self.unfolded_unknowns(s, unknown);
        if let Some(trace) = &mut self.cx.records.trace {
            trace.fill_host_results(values, unknown);
        }
    }

    /// `unknown` with the hidden addresses of the base symbols in its
    /// values: the path's model, which gives them their values at its
    /// end, knows inputs only.
    fn unfolded_unknowns(&mut self, s: &State, unknown: Unknown) -> Unknown {
        unknown
            .into_iter()
            .map(|(slot, t, ty)| (slot, self.unfolded(s, t), ty))
            .collect()
    }
}
