//! One step of the interpreter: the next instruction of a state, counted,
//! marked covered and (in a traced replay) traced, then run, one call per
//! instruction.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::report::Trap;
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::ir::{Code, Instr};

impl Executor<'_> {
    /// Runs the next instruction of `s`; a state without frames has
    /// returned.
    pub(crate) fn step(&mut self, s: &mut State) -> Result<Flow, End> {
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
        self.execute(s, code, instr)
    }

    /// What `instr`, of `code`, does to `s`.
    fn execute(&mut self, s: &mut State, code: &Code, instr: Instr) -> Result<Flow, End> {
        match instr {
            Instr::Unreachable => Err(End::Trap(Trap::Unreachable)),
            Instr::Nop => Ok(Flow::Next),
            Instr::Br(t) => self.br(s, t),
            Instr::BrIf(t) => self.br_if(s, t),
            Instr::If { else_pc } => self.if_then(s, else_pc),
            Instr::BrTable { table } => self.br_table(s, &code.br_tables[table as usize]),
            Instr::Jump { pc } => self.jump(s, pc),
            Instr::Return => self.return_from(s),
            Instr::Call { func } => self.call(s, func),
            Instr::CallIndirect { type_index, table } => self.call_indirect(s, type_index, table),
            Instr::Drop => self.drop_operand(s),
            Instr::Select => self.select(s),
            Instr::SelectRef => self.select_by_fork(s),
            Instr::RefNull => self.ref_null(s),
            Instr::RefIsNull => self.ref_is_null(s),
            Instr::RefFunc(f) => self.ref_func(s, f),
            Instr::TableGet(table) => self.table_get(s, table),
            Instr::TableSet(table) => self.table_set(s, table),
            Instr::TableSize(table) => self.table_size(s, table),
            Instr::TableGrow(table) => self.table_grow(s, table),
            Instr::TableFill(table) => self.table_fill(s, table),
            Instr::TableInit { elem, table } => self.table_init(s, elem, table),
            Instr::TableCopy { dst, src } => self.table_copy(s, dst, src),
            Instr::ElemDrop { elem } => self.elem_drop(s, elem),
            Instr::LocalGet(i) => self.local_get(s, i),
            Instr::LocalSet(i) => self.local_set(s, i),
            Instr::LocalTee(i) => self.local_tee(s, i),
            Instr::GlobalGet(i) => self.global_get(s, i),
            Instr::GlobalSet(i) => self.global_set(s, i),
            Instr::Load { kind, memarg } => self.load(s, kind, memarg),
            Instr::Store { kind, memarg } => self.store(s, kind, memarg),
            Instr::MemorySize => self.memory_size(s),
            Instr::MemoryGrow => self.memory_grow(s),
            Instr::MemoryCopy => self.memory_copy(s),
            Instr::MemoryFill => self.memory_fill(s),
            Instr::MemoryInit { data } => self.memory_init(s, data),
            Instr::DataDrop { data } => self.data_drop(s, data),
            Instr::I32Const(c) => push(s, Val::i32(c as u32)),
            Instr::I64Const(c) => push(s, Val::i64(c as u64)),
            Instr::F32Const(bits) => push(s, Val::i32(bits)),
            Instr::F64Const(bits) => push(s, Val::i64(bits)),
            Instr::Unary(op) => self.unary(s, op),
            Instr::Binary(op) => self.binary(s, op),
        }
    }
}

/// A constant pushed.
fn push(s: &mut State, v: Val) -> Result<Flow, End> {
    s.stack.push(v);
    Ok(Flow::Next)
}
