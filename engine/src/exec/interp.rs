//! Executes IR instructions of one state until it forks, ends, or has used its
//! slice of instructions.

use super::float;
use super::link::{InstanceLinks, Links};
use super::sites::SiteCounts;
use super::state::{Frame, State};
use super::trace::Trace;
use super::value::Val;
use crate::expr::TermStore;
use crate::limits::{Limits, Reached};
use crate::memory::MemoryModel;
use crate::report::{DropCause, PathReport, Trap, TreeNode};
use crate::solver::simplify::Simplifier;
use crate::solver::Solver;
use symplay_wasm::ir::{Code, Instr, LoadKind, StoreKind, Target};
use symplay_wasm::{FuncBody, FuncType, Module, ValType};

/// Deepest call stack; one more call traps with `stack_exhausted`.
pub const MAX_FRAMES: usize = 1024;

/// How a path ended (or stopped being explored).
#[derive(Clone, Debug)]
pub enum End {
    Returned(Vec<Val>),
    Exited(Val),
    Trap(Trap),
    AssertFailed,
    /// An `assume` that cannot hold, or a path the solver could not decide.
    Dropped(DropCause),
    DepthLimit,
    /// A solver query was cut off by the deadline or the interrupt: the
    /// state stays unexplored.
    CutOff,
}

/// What an instruction did to control: continue, or the state forked and the
/// siblings (already constrained and placed in the tree) join the search.
pub enum Flow {
    Next,
    Fork(Vec<State>),
}

/// The result of running a state for a while.
pub enum Ran {
    /// The state used its instruction slice and can continue.
    Paused(Box<State>),
    /// The state forked: these states (itself included) continue later.
    Forked(Vec<State>),
    Ended,
}

/// Where the values of symbolic inputs come from.
#[derive(Clone, Debug)]
pub enum InputSource {
    /// Fresh symbols: exploration.
    Symbolic,
    /// Concrete values of a test input: replay.
    Concrete(crate::report::TestInput),
}

/// Everything shared by the states of one exploration.
pub struct Executor<'m> {
    /// The module of each instance of the store.
    pub modules: Vec<&'m Module>,
    pub links: &'m Links,
    pub store: TermStore,
    pub solver: Solver,
    pub(crate) simplifier: Simplifier,
    pub tree: Vec<TreeNode>,
    pub paths: Vec<PathReport>,
    pub instructions: u64,
    pub forks: u64,
    /// Paths dropped, by cause and place.
    pub drops: SiteCounts<DropCause>,
    /// Reported paths on which a value was made concrete, by what and where.
    pub concretised: SiteCounts<String>,
    /// The exploration's time and memory limits and its interrupt: they cut
    /// off a solver query or a host call under way...
    pub limits: Limits,
    /// ...and the first one that did ends the run.
    pub stopped_by: Option<Reached>,
    /// States left unexplored by a cut-off query.
    pub cut_off: u64,
    /// Executed instructions, per store function and pc.
    pub covered: Vec<Vec<bool>>,
    pub source: InputSource,
    pub max_depth: u32,
    /// The store function the paths start in.
    pub entry: u32,
    /// Recorded only when replaying with a trace.
    pub trace: Option<Trace>,
    /// When set, ended paths are kept here as they are (state and end)
    /// instead of becoming reported paths.
    pub(crate) finished: Option<Vec<(State, End)>>,
    pub(crate) fast: super::fast::FastCode,
}

impl<'m> Executor<'m> {
    /// An executor over the instances of `modules` linked by `links`, with a
    /// tree of one root node.
    pub fn new(
        modules: Vec<&'m Module>,
        links: &'m Links,
        entry: u32,
        source: InputSource,
        max_depth: u32,
    ) -> Executor<'m> {
        let mut exec = Executor {
            modules,
            links,
            store: TermStore::new(),
            solver: Solver::default(),
            simplifier: Simplifier::new(),
            tree: vec![TreeNode {
                id: 0,
                parent: None,
                children: Vec::new(),
                condition: None,
                fork: None,
                path: None,
                dropped: false,
            }],
            paths: Vec::new(),
            instructions: 0,
            forks: 0,
            drops: SiteCounts::default(),
            concretised: SiteCounts::default(),
            limits: Limits::default(),
            stopped_by: None,
            cut_off: 0,
            covered: Vec::new(),
            source,
            max_depth,
            entry,
            finished: None,
            trace: None,
            fast: Default::default(),
        };
        exec.covered = (0..links.funcs.len() as u32)
            .map(|f| {
                exec.code(f)
                    .map_or_else(Vec::new, |c| vec![false; c.instrs.len()])
            })
            .collect();
        exec
    }

    /// The module that has store function `func`, and its index there.
    pub fn func_at(&self, func: u32) -> Option<(&'m Module, u32)> {
        let at = self.links.funcs.get(func as usize)?;
        Some((self.modules[at.instance as usize], at.index))
    }

    pub fn code(&self, func: u32) -> Option<&'m Code> {
        let (module, index) = self.func_at(func)?;
        match &module.funcs.get(index as usize)?.body {
            FuncBody::Defined(code) => Some(code),
            FuncBody::Import(_) => None,
        }
    }

    pub fn func_type(&self, func: u32) -> Option<&'m FuncType> {
        let (module, index) = self.func_at(func)?;
        module.func_type(index)
    }

    /// The first frame of a run that calls store function `func` with
    /// `args`, on an empty stack; `None` for a host function.
    pub(crate) fn entry_frame(&self, func: u32, mut args: Vec<Val>) -> Option<Frame> {
        let code = self.code(func)?;
        args.extend(code.locals.iter().map(|&t| zero_of(t)));
        Some(Frame {
            func,
            pc: 0,
            locals: args,
            base: 0,
        })
    }

    /// The instance whose code the top frame of `s` runs.
    pub(crate) fn instance(&self, s: &State) -> usize {
        s.frames
            .last()
            .map_or(0, |f| self.links.funcs[f.func as usize].instance as usize)
    }

    pub(crate) fn module_of(&self, s: &State) -> &'m Module {
        self.modules[self.instance(s)]
    }

    pub(crate) fn links_of(&self, s: &State) -> &'m InstanceLinks {
        &self.links.instances[self.instance(s)]
    }

    /// The memory the running instance uses.
    pub(crate) fn memory<'s>(&self, s: &'s State) -> Option<&'s MemoryModel> {
        let m = self.links_of(s).memory?;
        s.memories.get(m as usize)
    }

    pub(crate) fn memory_mut<'s>(&self, s: &'s mut State) -> Option<&'s mut MemoryModel> {
        let m = self.links_of(s).memory?;
        s.memories.get_mut(m as usize)
    }

    /// The index in `State::tables` of the running instance's table.
    pub(crate) fn table_index(&self, s: &State) -> Option<usize> {
        self.links_of(s).table.map(|t| t as usize)
    }

    /// Runs `state` for at most `slice` instructions.
    pub fn run(&mut self, mut state: State, slice: u64) -> Ran {
        let mut left = slice;
        while left > 0 {
            // A traced replay records every branch, so it runs through `step`.
            if self.trace.is_none() {
                left -= self.run_fast(&mut state, left);
            }
            if left == 0 {
                break;
            }
            left -= 1;
            match self.step(&mut state) {
                Ok(Flow::Next) => {}
                Ok(Flow::Fork(mut siblings)) => {
                    siblings.insert(0, state);
                    return Ran::Forked(siblings);
                }
                Err(end) => {
                    self.end_path(state, end);
                    return Ran::Ended;
                }
            }
        }
        Ran::Paused(Box::new(state))
    }

    fn step(&mut self, s: &mut State) -> Result<Flow, End> {
        let Some(frame) = s.frames.last_mut() else {
            return Err(End::Returned(Vec::new()));
        };
        let (func, pc) = (frame.func, frame.pc);
        let Some(code) = self.code(func) else {
            return Err(End::Trap(Trap::Unreachable));
        };
        let instr = code.instrs[pc as usize];
        frame.pc += 1;
        s.at = (func, pc);
        self.covered[func as usize][pc as usize] = true;
        self.instructions += 1;
        if self.trace.is_some() {
            self.trace_step(s, (func, pc), instr);
        }
        match instr {
            Instr::Unreachable => return Err(End::Trap(Trap::Unreachable)),
            Instr::Nop => {}
            Instr::Br(t) => jump(s, t),
            // A concrete condition needs none of the fork machinery.
            Instr::BrIf(t) => match pop(s) {
                Val::Con { bits, .. } => {
                    if bits != 0 {
                        jump(s, t)
                    }
                }
                c => {
                    return self.branch_if(s, c, |s, taken| {
                        if taken {
                            jump(s, t)
                        }
                    })
                }
            },
            Instr::If { else_pc } => match pop(s) {
                Val::Con { bits, .. } => {
                    if bits == 0 {
                        set_pc(s, else_pc)
                    }
                }
                c => {
                    return self.branch_if(s, c, |s, taken| {
                        if !taken {
                            set_pc(s, else_pc)
                        }
                    })
                }
            },
            Instr::BrTable { table } => {
                let index = pop(s);
                let table = &code.br_tables[table as usize];
                return self.br_table(s, index, table);
            }
            Instr::Jump { pc } => set_pc(s, pc),
            Instr::Return => return self.return_from(s),
            Instr::Call { func } => {
                let func = self.links_of(s).funcs[func as usize];
                return self.call(s, func);
            }
            Instr::CallIndirect { type_index, .. } => {
                let index = pop(s);
                return self.call_indirect(s, index, type_index);
            }
            Instr::Drop => {
                pop(s);
            }
            Instr::Select => {
                let c = pop(s);
                let b = pop(s);
                let a = pop(s);
                let v = self.select(c, a, b);
                s.stack.push(v);
            }
            Instr::LocalGet(i) => {
                let v = s
                    .frames
                    .last()
                    .map_or(Val::i32(0), |f| f.locals[i as usize]);
                s.stack.push(v);
            }
            Instr::LocalSet(i) => {
                let v = pop(s);
                set_local(s, i, v);
            }
            Instr::LocalTee(i) => {
                let v = *s.stack.last().expect("validated code has an operand");
                set_local(s, i, v);
            }
            Instr::GlobalGet(i) => {
                let g = self.links_of(s).globals[i as usize];
                s.stack.push(s.globals[g as usize]);
            }
            Instr::GlobalSet(i) => {
                let g = self.links_of(s).globals[i as usize];
                s.globals[g as usize] = pop(s);
            }
            Instr::Load { kind, memarg } => {
                let addr = pop(s);
                let (size, result_width, signed) = load_shape(kind);
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
                let value = pop(s);
                let addr = pop(s);
                let size = store_size(kind);
                return self.store_value(s, addr, memarg.offset, size, value);
            }
            Instr::MemorySize => {
                let pages = self.memory(s).map_or(0, |m| m.pages());
                s.stack.push(Val::i32(pages));
            }
            Instr::MemoryGrow => {
                let delta = pop(s);
                let delta = self.concretize(s, delta, "the memory.grow size")?;
                let old = self
                    .memory_mut(s)
                    .and_then(|m| m.grow(delta as u32))
                    .unwrap_or(u32::MAX);
                s.stack.push(Val::i32(old));
            }
            Instr::MemoryCopy => {
                let n = pop(s);
                let src = pop(s);
                let dst = pop(s);
                self.memory_copy(s, dst, src, n)?;
            }
            Instr::MemoryFill => {
                let n = pop(s);
                let value = pop(s);
                let dst = pop(s);
                self.memory_fill(s, dst, value, n)?;
            }
            Instr::MemoryInit { data } => {
                let n = pop(s);
                let src = pop(s);
                let dst = pop(s);
                self.memory_init(s, data, dst, src, n)?;
            }
            Instr::DataDrop { data } => {
                let instance = self.instance(s);
                s.dropped_data[instance][data as usize] = true;
            }
            Instr::TableInit { elem, .. } => {
                let n = pop(s);
                let src = pop(s);
                let dst = pop(s);
                self.table_init(s, elem, dst, src, n)?;
            }
            Instr::TableCopy { .. } => {
                let n = pop(s);
                let src = pop(s);
                let dst = pop(s);
                self.table_copy(s, dst, src, n)?;
            }
            Instr::ElemDrop { elem } => {
                let instance = self.instance(s);
                s.dropped_elems[instance][elem as usize] = true;
            }
            Instr::I32Const(c) => s.stack.push(Val::i32(c as u32)),
            Instr::I64Const(c) => s.stack.push(Val::i64(c as u64)),
            Instr::F32Const(bits) => s.stack.push(Val::i32(bits)),
            Instr::F64Const(bits) => s.stack.push(Val::i64(bits)),
            Instr::Unary(op) => {
                let a = pop(s);
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
                let b = pop(s);
                let a = pop(s);
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
        let arity = self.func_type(frame.func).map_or(0, |t| t.results.len());
        let results = s.stack.split_off(s.stack.len() - arity);
        s.stack.truncate(frame.base);
        if s.frames.is_empty() {
            return Err(End::Returned(results));
        }
        s.stack.extend(results);
        Ok(Flow::Next)
    }

    /// Calls store function `func` with the arguments on the stack.
    pub(crate) fn call(&mut self, s: &mut State, func: u32) -> Result<Flow, End> {
        let Some((module, index)) = self.func_at(func) else {
            return Err(End::Trap(Trap::IndirectCall));
        };
        let f = &module.funcs[index as usize];
        let params = module.func_type(index).map_or(0, |t| t.params.len());
        match &f.body {
            FuncBody::Import(import) => {
                let flow = self.call_host(s, import.class)?;
                if self.trace.is_some() {
                    self.trace_host_results(s, func);
                }
                Ok(flow)
            }
            FuncBody::Defined(code) => {
                if s.frames.len() >= MAX_FRAMES {
                    return Err(End::Trap(Trap::StackExhausted));
                }
                let mut locals = s.stack.split_off(s.stack.len() - params);
                locals.extend(code.locals.iter().map(|&t| zero_of(t)));
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

pub(crate) fn pop(s: &mut State) -> Val {
    s.stack
        .pop()
        .expect("validated code never pops an empty stack")
}

fn set_pc(s: &mut State, pc: u32) {
    if let Some(f) = s.frames.last_mut() {
        f.pc = pc;
    }
}

fn set_local(s: &mut State, i: u32, v: Val) {
    if let Some(f) = s.frames.last_mut() {
        f.locals[i as usize] = v;
    }
}

/// Takes a branch: keeps the top `keep` values, removes `drop` beneath them.
pub(crate) fn jump(s: &mut State, t: Target) {
    let pc = fix_stack(&mut s.stack, t);
    set_pc(s, pc);
}

/// The operand-stack repair of a taken branch; gives the target pc.
fn fix_stack(stack: &mut Vec<Val>, t: Target) -> u32 {
    let len = stack.len();
    let (keep, drop) = (t.keep as usize, t.drop as usize);
    if drop > 0 {
        stack.drain(len - keep - drop..len - keep);
    }
    t.pc
}

pub(crate) fn zero_of(t: ValType) -> Val {
    match t {
        ValType::I32 | ValType::F32 => Val::i32(0),
        ValType::I64 | ValType::F64 => Val::i64(0),
    }
}

/// Bytes read, width of the result, sign extension.
pub(super) fn load_shape(kind: LoadKind) -> (u32, u8, bool) {
    match kind {
        LoadKind::I32 | LoadKind::F32 => (4, 32, false),
        LoadKind::I64 | LoadKind::F64 => (8, 64, false),
        LoadKind::I32From8S => (1, 32, true),
        LoadKind::I32From8U => (1, 32, false),
        LoadKind::I32From16S => (2, 32, true),
        LoadKind::I32From16U => (2, 32, false),
        LoadKind::I64From8S => (1, 64, true),
        LoadKind::I64From8U => (1, 64, false),
        LoadKind::I64From16S => (2, 64, true),
        LoadKind::I64From16U => (2, 64, false),
        LoadKind::I64From32S => (4, 64, true),
        LoadKind::I64From32U => (4, 64, false),
    }
}

pub(super) fn store_size(kind: StoreKind) -> u32 {
    match kind {
        StoreKind::I32 | StoreKind::F32 | StoreKind::I64To32 => 4,
        StoreKind::I64 | StoreKind::F64 => 8,
        StoreKind::I32To8 | StoreKind::I64To8 => 1,
        StoreKind::I32To16 | StoreKind::I64To16 => 2,
    }
}
