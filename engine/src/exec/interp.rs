//! Executes IR instructions of one state until it forks, ends, or has used its
//! slice of instructions.

use super::arith::float;
use super::executor::Executor;
use super::fast;
use super::outcome::{End, Flow, Ran};
use crate::report::Trap;
use crate::state::value::Val;
use crate::state::{Frame, State};
use symplay_wasm::ir::{Instr, LoadKind};
use symplay_wasm::FuncBody;

/// Deepest call stack; one more call traps with `stack_exhausted`.
pub const MAX_FRAMES: usize = 1024;

impl Executor<'_> {
    /// Runs `state` for at most `slice` instructions; with `to_fork`, only
    /// until it moves to another tree node (a fork whose other sides ended
    /// at once), as step mode's branch steps stop there.
    pub fn run(&mut self, mut state: State, slice: u64, to_fork: bool) -> Ran {
        let mut left = slice;
        let node = state.node;
        while left > 0 {
            // A traced replay records every branch, so it runs through `step`.
            if self.cx.records.trace.is_none() {
                left -= self.run_fast(&mut state, left);
            }
            if left == 0 {
                break;
            }
            left -= 1;
            match self.step(&mut state) {
                Ok(Flow::Next) if to_fork && state.node != node => break,
                Ok(Flow::Next) => {}
                Ok(Flow::Fork(mut siblings)) => {
                    siblings.insert(0, state);
                    return Ran::Forked(siblings);
                }
                Err(end) => {
                    let node = state.node;
                    self.end_path(state, end);
                    return Ran::Ended(node);
                }
            }
        }
        Ran::Paused(Box::new(state))
    }

    /// [`fast::run`] on `s`, counted.
    fn run_fast(&mut self, s: &mut State, max: u64) -> u64 {
        let cx = &mut *self.cx;
        let ran = fast::run(
            &self.program,
            &mut cx.caches.fast,
            &mut cx.records.covered,
            &mut cx.terms,
            s,
            max,
        );
        cx.counters.instructions += ran;
        ran
    }

    fn step(&mut self, s: &mut State) -> Result<Flow, End> {
        let Some(frame) = s.frames.last_mut() else {
            return Err(End::Returned(Vec::new()));
        };
        let (func, pc) = (frame.func, frame.pc);
        let Some(code) = self.program.code(func) else {
            return Err(End::Trap(Trap::Unreachable));
        };
        let instr = code.instrs[pc as usize];
        frame.pc += 1;
        s.at = (func, pc);
        self.cx.records.covered[func as usize][pc as usize] = true;
        self.cx.counters.instructions += 1;
        if self.cx.records.trace.is_some() {
            self.trace_step(s, (func, pc), instr);
        }
        match instr {
            Instr::Unreachable => return Err(End::Trap(Trap::Unreachable)),
            Instr::Nop => {}
            Instr::Br(t) => s.jump(t),
            // A concrete condition needs none of the fork machinery.
            Instr::BrIf(t) => match self.settle_top(s) {
                Val::Con { bits, .. } => {
                    if bits != 0 {
                        s.jump(t)
                    }
                }
                c => {
                    // A branch back is a loop's next round; one forward
                    // leaves a block, as a loop's exit does.
                    let forward = t.pc > s.at.1;
                    return self.branch_if(s, c, Some(forward), |s, taken| {
                        if taken {
                            s.jump(t)
                        }
                    });
                }
            },
            Instr::If { else_pc } => match self.settle_top(s) {
                Val::Con { bits, .. } => {
                    if bits == 0 {
                        s.set_pc(else_pc)
                    }
                }
                c => {
                    return self.branch_if(s, c, None, |s, taken| {
                        if !taken {
                            s.set_pc(else_pc)
                        }
                    })
                }
            },
            Instr::BrTable { table } => {
                let index = self.settle_top(s);
                let table = &code.br_tables[table as usize];
                return self.br_table(s, index, table);
            }
            Instr::Jump { pc } => s.set_pc(pc),
            Instr::Return => return self.return_from(s),
            Instr::Call { func } => {
                let func = self.program.links_of(s).funcs[func as usize];
                return self.call(s, func);
            }
            Instr::CallIndirect { type_index, table } => {
                let index = self.settle_top(s);
                return self.call_indirect(s, index, type_index, table);
            }
            Instr::Drop => {
                s.pop();
            }
            Instr::Select => {
                let c = self.settle_top(s);
                let b = s.pop();
                let a = s.pop();
                let v = self.select(c, a, b);
                s.stack.push(v);
            }
            Instr::SelectRef => {
                let c = self.settle_top(s);
                let b = s.pop();
                let a = s.pop();
                // A known condition takes its side without a fork.
                return self.branch_if(s, c, None, |s, taken| {
                    s.stack.push(if taken { a } else { b })
                });
            }
            Instr::RefNull => s.stack.push(Val::reference(None)),
            Instr::RefIsNull => {
                let r = s.pop();
                s.stack.push(Val::bool(r.as_reference().is_none()));
            }
            Instr::RefFunc(f) => {
                let func = self.program.links_of(s).funcs[f as usize];
                s.stack.push(Val::reference(Some(func)));
            }
            Instr::TableGet(table) => {
                let index = s.pop();
                let r = self.table_get(s, table, index)?;
                s.stack.push(r);
            }
            Instr::TableSet(table) => {
                let value = s.pop();
                let index = s.pop();
                self.table_set(s, table, index, value)?;
            }
            Instr::TableSize(table) => {
                let len = self
                    .program
                    .table_index(s, table)
                    .map_or(0, |t| s.tables[t].entries.len());
                s.stack.push(Val::i32(len as u32));
            }
            Instr::TableGrow(table) => {
                let n = s.pop();
                let init = s.pop();
                let old = self.table_grow(s, table, init, n)?;
                s.stack.push(old);
            }
            Instr::TableFill(table) => {
                let n = s.pop();
                let value = s.pop();
                let dst = s.pop();
                self.table_fill(s, table, dst, value, n)?;
            }
            Instr::LocalGet(i) => {
                let v = s
                    .frames
                    .last()
                    .map_or(Val::i32(0), |f| f.locals[i as usize]);
                s.stack.push(v);
            }
            Instr::LocalSet(i) => {
                let v = s.pop();
                s.set_local(i, v);
            }
            Instr::LocalTee(i) => {
                let v = *s.stack.last().expect("validated code has an operand");
                s.set_local(i, v);
            }
            Instr::GlobalGet(i) => {
                let g = self.program.links_of(s).globals[i as usize];
                s.stack.push(s.globals[g as usize]);
            }
            Instr::GlobalSet(i) => {
                let g = self.program.links_of(s).globals[i as usize];
                let v = s.pop();
                if let Some(stack) = self.program.roles.stack.filter(|st| st.global == g) {
                    self.check_stack(s, v, stack.bottom)?;
                }
                s.globals[g as usize] = v;
            }
            Instr::Load { kind, memarg } => {
                let addr = self.settle_top(s);
                let (size, result_width, signed) = kind.shape();
                return self.load(s, addr, memarg.offset, size, |exec, s, raw| {
                    let v = exec.extend(raw, size * 8, result_width, signed);
                    let v = if matches!(kind, LoadKind::F32 | LoadKind::F64) {
                        Val::con(
                            result_width,
                            exec.concretize(s, v, "a float loaded from memory")?,
                        )
                    } else {
                        v
                    };
                    s.stack.push(v);
                    Ok(())
                });
            }
            Instr::Store { kind, memarg } => {
                let value = s.pop();
                let addr = self.settle_top(s);
                let size = kind.size();
                return self.store_value(s, addr, memarg.offset, size, value);
            }
            Instr::MemorySize => {
                let pages = self.program.memory(s).map_or(0, |m| m.pages());
                s.stack.push(Val::i32(pages));
            }
            Instr::MemoryGrow => {
                let delta = s.pop();
                let delta = self.concretize(s, delta, "the memory.grow size")?;
                let old = self
                    .program
                    .memory_mut(s)
                    .and_then(|m| m.grow(delta as u32))
                    .unwrap_or(u32::MAX);
                s.stack.push(Val::i32(old));
            }
            Instr::MemoryCopy => {
                let n = s.pop();
                let src = s.pop();
                let dst = s.pop();
                self.memory_copy(s, dst, src, n)?;
            }
            Instr::MemoryFill => {
                let n = s.pop();
                let value = s.pop();
                let dst = s.pop();
                self.memory_fill(s, dst, value, n)?;
            }
            Instr::MemoryInit { data } => {
                let n = s.pop();
                let src = s.pop();
                let dst = s.pop();
                self.memory_init(s, data, dst, src, n)?;
            }
            Instr::DataDrop { data } => {
                let instance = self.program.instance(s);
                s.dropped_data[instance][data as usize] = true;
            }
            Instr::TableInit { elem, table } => {
                let n = s.pop();
                let src = s.pop();
                let dst = s.pop();
                self.table_init(s, table, elem, [dst, src, n])?;
            }
            Instr::TableCopy { dst, src } => {
                let n = s.pop();
                let from = s.pop();
                let to = s.pop();
                self.table_copy(s, [dst, src], [to, from, n])?;
            }
            Instr::ElemDrop { elem } => {
                let instance = self.program.instance(s);
                s.dropped_elems[instance][elem as usize] = true;
            }
            Instr::I32Const(c) => s.stack.push(Val::i32(c as u32)),
            Instr::I64Const(c) => s.stack.push(Val::i64(c as u64)),
            Instr::F32Const(bits) => s.stack.push(Val::i32(bits)),
            Instr::F64Const(bits) => s.stack.push(Val::i64(bits)),
            Instr::Unary(op) => {
                let a = s.pop();
                let v = match self.int_unary(op, a) {
                    Some(v) => v,
                    None => {
                        let bits = self.concretize(s, a, "a float operand")?;
                        let (width, bits) = float::unary(op, bits)
                            .expect("every unary operator is integer or float")
                            .map_err(End::Trap)?;
                        Val::con(width, bits)
                    }
                };
                s.stack.push(v);
            }
            Instr::Binary(op) => {
                let b = s.pop();
                let a = s.pop();
                let v = match self.int_binary(s, op, a, b)? {
                    Some(v) => v,
                    None => {
                        let a = self.concretize(s, a, "a float operand")?;
                        let b = self.concretize(s, b, "a float operand")?;
                        let (width, bits) = float::binary(op, a, b)
                            .expect("every binary operator is integer or float");
                        Val::con(width, bits)
                    }
                };
                s.stack.push(v);
            }
        }
        Ok(Flow::Next)
    }

    fn return_from(&mut self, s: &mut State) -> Result<Flow, End> {
        let frame = s.frames.pop().expect("a running state has a frame");
        self.bury_frame(s, &frame);
        let arity = self
            .program
            .func_type(frame.func)
            .map_or(0, |t| t.results.len());
        let results = s.stack.split_off(s.stack.len() - arity);
        s.stack.truncate(frame.base);
        if s.frames.is_empty() {
            return Err(End::Returned(results));
        }
        s.stack.extend(results);
        Ok(Flow::Next)
    }

    /// Calls store function `func` with the arguments on the stack; the
    /// model runs the allocator's functions.
    pub(crate) fn call(&mut self, s: &mut State, func: u32) -> Result<Flow, End> {
        if let Some(f) = self.program.roles.allocator(func) {
            return self.call_allocator(s, f);
        }
        let Some((module, index)) = self.program.func_at(func) else {
            return Err(End::Trap(Trap::IndirectCall));
        };
        let f = &module.funcs[index as usize];
        let params = module.func_type(index).map_or(0, |t| t.params.len());
        if let Some(panic) = self.program.roles.panic_fn(func) {
            return Err(self.rust_panic(s, panic, params));
        }
        match &f.body {
            FuncBody::Import(import) => {
                let flow = self.call_host(s, import.class)?;
                if self.cx.records.trace.is_some() {
                    self.trace_host_results(s, func);
                }
                Ok(flow)
            }
            FuncBody::Defined(code) => {
                if s.frames.len() >= MAX_FRAMES {
                    return Err(End::Trap(Trap::StackExhausted));
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
}
