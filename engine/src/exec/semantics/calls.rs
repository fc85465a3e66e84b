//! Calls and returns: a call of a function of the store (the heap
//! model's allocator, a Rust panic function, a host function, or code,
//! which gets a frame), an indirect call through a table, and a return.

use crate::exec::executor::Executor;
use crate::exec::fork::Decision;
use crate::exec::outcome::{End, Flow};
use crate::report::Trap;
use crate::state::value::Val;
use crate::state::{Frame, State};
use std::collections::BTreeMap;
use symplay_wasm::FuncBody;

/// Deepest call stack; one more call traps with `stack_exhausted`.
pub const MAX_FRAMES: usize = 1024;

impl Executor<'_> {
    /// `call` of function `index` of the running instance.
    pub(super) fn call(&mut self, s: &mut State, index: u32) -> Result<Flow, End> {
        let func = self.program.links_of(s).funcs[index as usize];
        self.call_func(s, func)
    }

    /// Returns from the top frame: its results replace its operands; the
    /// last frame's end the path.
    pub(super) fn return_from(&mut self, s: &mut State) -> Result<Flow, End> {
        let frame = s.frames.pop().expect("a running state has a frame");
        self.bury_frame(s, &frame);
        let arity = self
            .program
            .func_type(frame.func)
            .map_or(0, |t| t.results.len());
        let results = s.stack.split_off(s.stack.len() - arity);
        s.stack.truncate(frame.base);
        if s.frames.is_empty() {
            return self.end_with_results(s, results, End::Returned);
        }
        s.stack.extend(results);
        Ok(Flow::Next)
    }

    /// Calls store function `func` with the arguments on the stack; the
    /// heap model runs the allocator's functions, a call of one of Rust's
    /// panic functions ends the path as a panic, and an import is a host
    /// call.
    pub(crate) fn call_func(&mut self, s: &mut State, func: u32) -> Result<Flow, End> {
        if let Some(f) = self.program.roles.allocator(func) {
            return self.call_allocator(s, f);
        }
        let Some((module, index)) = self.program.func_at(func) else {
            return Err(End::Trap(Trap::IndirectCall));
        };
        let f = &module.funcs[index as usize];
        let params = module.func_type(index).map_or(0, |t| t.params.len());
        if let Some(panic) = self.program.roles.panic_fn(func) {
            // The message's numbers and text pointer are numbers.
            for i in s.stack.len().saturating_sub(params)..s.stack.len() {
                s.stack[i] = self.unfolded_val(s, s.stack[i]);
            }
            return Err(self.rust_panic(s, panic, params));
        }
        match &f.body {
            FuncBody::Import(import) => {
                let flow = self.call_host(s, func, import)?;
                if self.cx.records.trace.is_some() {
                    self.trace_host_results(s, func);
                }
                Ok(flow)
            }
            FuncBody::Defined(code) => {
                let bounds = &self.cx.bounds;
                if s.frames.len() >= bounds.max_frames {
                    return Err(if bounds.frames_trap {
                        End::Trap(Trap::StackExhausted)
                    } else {
                        End::CallDepthLimit(bounds.max_frames)
                    });
                }
                let mut locals = s.stack.split_off(s.stack.len() - params);
                locals.extend(code.locals.iter().map(|&t| Val::zero(t)));
                let base = s.stack.len();
                s.frames.push(Frame {
                    func,
                    pc: 0,
                    locals,
                    base,
                });
                Ok(Flow::Next)
            }
        }
    }

    /// `call_indirect` through `table`: one successor per feasible callee,
    /// and a trapping path for null, mistyped or out-of-range entries.
    pub(super) fn call_indirect(
        &mut self,
        s: &mut State,
        type_index: u32,
        table: u32,
    ) -> Result<Flow, End> {
        let symbolic = match s.stack.last() {
            Some(&Val::Sym(t)) => Some(t),
            _ => None,
        };
        let index = self.decide_top(s, Decision::Value);
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
                    Some(f) if callee_ok(f) => {
                        if let Some(slot) = symbolic {
                            self.trace_indirect_call(s, f, slot);
                        }
                        self.call_func(s, f)
                    }
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
            match self.call_func(&mut sibling, f) {
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
        self.trace_indirect_call(s, f, t);
        match self.call_func(s, f)? {
            Flow::Next => {}
            Flow::Fork(more) => continuing.extend(more),
        }
        Ok(Flow::Fork(continuing))
    }
}
