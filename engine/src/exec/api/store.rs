//! A store of instances that persist between calls: instantiate modules
//! (their imports bound to other instances' exports), then call exported
//! functions any number of times, concretely or with the integer arguments
//! symbolic. Memories, tables and globals keep their contents from call to
//! call and are shared by the instances that import them; a symbolic call
//! runs on a copy and leaves the store as it was.

use crate::exec::context::guidance::InputSource;
use crate::exec::context::Context;
use crate::exec::executor::Executor;
use crate::exec::outcome::End;
pub use crate::exec::program::instantiate::Imports;
use crate::exec::program::instantiate::{add_instance, init_segments};
use crate::exec::program::link::Links;
use crate::exec::program::roles::Roles;
use crate::exec::program::Program;
use crate::exec::run::scheduler::{Control, Pace, Scheduler, Stretch};
use crate::expr::{Model, Sort, TermStore, Value as TermValue};
use crate::memory::Split;
use crate::report::{MergeStats, Trap};
use crate::search::SearchKind;
use crate::solver::Solver;
use crate::state::value::Val;
use crate::state::{MergeOptions, State};
use std::fmt;
use symplay_wasm::{ExportKind, GlobalInit, Module, ValType};
use web_time::Duration;

/// Instructions a call may run (all paths together, for a symbolic call)
/// unless [`Store::max_instructions`] says otherwise.
pub const DEFAULT_MAX_INSTRUCTIONS: u64 = 100_000_000;

pub type InstanceId = u32;

/// A Wasm value as raw bits; floats keep their exact bits (NaN payloads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    I32(u32),
    I64(u64),
    F32(u32),
    F64(u64),
    /// Null, or a store function id.
    FuncRef(Option<u32>),
    /// Null, or a host value.
    ExternRef(Option<u32>),
}

impl Value {
    pub fn ty(self) -> ValType {
        match self {
            Value::I32(_) => ValType::I32,
            Value::I64(_) => ValType::I64,
            Value::F32(_) => ValType::F32,
            Value::F64(_) => ValType::F64,
            Value::FuncRef(_) => ValType::FuncRef,
            Value::ExternRef(_) => ValType::ExternRef,
        }
    }

    fn from_bits(ty: ValType, bits: u64) -> Value {
        match ty {
            ValType::I32 => Value::I32(bits as u32),
            ValType::I64 => Value::I64(bits),
            ValType::F32 => Value::F32(bits as u32),
            ValType::F64 => Value::F64(bits),
            ValType::FuncRef => Value::FuncRef(Val::i64(bits).as_reference()),
            ValType::ExternRef => Value::ExternRef(Val::i64(bits).as_reference()),
        }
    }

    fn val(self) -> Val {
        match self {
            Value::I32(b) | Value::F32(b) => Val::i32(b),
            Value::I64(b) | Value::F64(b) => Val::i64(b),
            Value::FuncRef(r) | Value::ExternRef(r) => Val::reference(r),
        }
    }
}

/// What an export is: a store address of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extern {
    /// A store function id.
    Func(u32),
    Global(u32),
    Memory(u32),
    Table(u32),
}

/// How a call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Returned(Vec<Value>),
    Trapped(Trap),
}

/// One path of a symbolic call, with its values under the call's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolicPath {
    /// `None` when the engine dropped the path (no feasible branch was left,
    /// or the solver could not decide).
    pub outcome: Option<Outcome>,
    /// Whether the arguments satisfy the path condition. Exactly one path of
    /// a call is feasible; the engine should explore no other.
    pub feasible: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstantiateError {
    /// An import does not match what it is bound to.
    Link(String),
    /// A segment did not fit, or the start function trapped; what was
    /// written to shared memories and tables before stays.
    Trap { trap: Trap, message: String },
    /// The start function did not finish (the instruction limit).
    Start(InvokeError),
}

impl fmt::Display for InstantiateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstantiateError::Link(message) | InstantiateError::Trap { message, .. } => {
                f.write_str(message)
            }
            InstantiateError::Start(e) => write!(f, "the start function: {e}"),
        }
    }
}

impl std::error::Error for InstantiateError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvokeError {
    /// No such exported function, or arguments of the wrong types.
    Call(String),
    /// The call ran past the instruction limit; the store is as it was.
    Limit,
}

impl fmt::Display for InvokeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvokeError::Call(message) => f.write_str(message),
            InvokeError::Limit => f.write_str("the call hit the instruction limit"),
        }
    }
}

impl std::error::Error for InvokeError {}

pub struct Store {
    /// By instance.
    modules: Vec<Module>,
    links: Links,
    /// The store's globals, memories and tables; no frames between calls.
    state: State,
    terms: TermStore,
    solver: Solver,
    /// Type and mutability of each global, for import checks.
    global_types: Vec<(ValType, bool)>,
    /// Declared maximum of each memory, for import checks.
    memory_max: Vec<Option<u32>>,
    /// Element type of each table, for import checks.
    table_types: Vec<ValType>,
    /// Instructions one call may run.
    pub max_instructions: u64,
    /// Memories split into pieces for accesses at symbolic addresses
    /// (`--split`), in symbolic calls.
    pub split: Option<Split>,
    /// How calls merge states at loop exits, and what merging did over
    /// every call so far.
    pub merge: MergeOptions,
    pub merging: MergeStats,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            modules: Vec::new(),
            links: Links::default(),
            state: State::default(),
            terms: TermStore::new(),
            solver: Solver::default(),
            global_types: Vec::new(),
            memory_max: Vec::new(),
            table_types: Vec::new(),
            max_instructions: DEFAULT_MAX_INSTRUCTIONS,
            split: None,
            merge: MergeOptions::default(),
            merging: MergeStats::default(),
        }
    }
}

impl Store {
    pub fn new() -> Store {
        Store::default()
    }

    /// Instantiates `module` with its imports bound to `imports` (checked
    /// against the import types), applies its segments and runs its start
    /// function.
    pub fn instantiate(
        &mut self,
        module: Module,
        imports: &Imports,
    ) -> Result<InstanceId, InstantiateError> {
        self.check_imports(&module, imports)?;
        for g in module.globals.iter() {
            if let GlobalInit::Const(_) = g.init {
                self.global_types.push((g.ty, g.mutable));
            }
        }
        let defined_memories = module.memories.iter().filter(|m| m.import.is_none());
        self.memory_max
            .extend(defined_memories.map(|m| m.max_pages));
        let defined_tables = module.tables.iter().filter(|t| t.import.is_none());
        self.table_types.extend(defined_tables.map(|t| t.ty));
        let instance = add_instance(
            &mut self.state,
            &mut self.links,
            &mut self.terms,
            &module,
            Some(imports),
        );
        let start = module.start;
        self.modules.push(module);
        let module = &self.modules[instance as usize];
        init_segments(
            &mut self.state,
            &self.links,
            &mut self.terms,
            module,
            instance,
        )
        .map_err(|e| InstantiateError::Trap {
            trap: Trap::OutOfBounds,
            message: e.to_string(),
        })?;
        if let Some(start) = start {
            let func = self.links.instances[instance as usize].funcs[start as usize];
            match self.call(func, Vec::new()) {
                Ok(Outcome::Returned(_)) => {}
                Ok(Outcome::Trapped(trap)) => {
                    return Err(InstantiateError::Trap {
                        trap,
                        message: format!("the start function trapped ({})", trap.name()),
                    })
                }
                Err(e) => return Err(InstantiateError::Start(e)),
            }
        }
        Ok(instance)
    }

    /// The export `name` of `instance`.
    pub fn export(&self, instance: InstanceId, name: &str) -> Option<Extern> {
        let export = self.modules.get(instance as usize)?.export(name)?;
        let links = &self.links.instances[instance as usize];
        let index = export.index as usize;
        Some(match export.kind {
            ExportKind::Func => Extern::Func(links.funcs[index]),
            ExportKind::Global => Extern::Global(links.globals[index]),
            ExportKind::Memory => Extern::Memory(links.memory?),
            ExportKind::Table => Extern::Table(*links.tables.get(index)?),
        })
    }

    /// The value of the global exported as `name`.
    pub fn get_global(&self, instance: InstanceId, name: &str) -> Option<Value> {
        let Extern::Global(g) = self.export(instance, name)? else {
            return None;
        };
        let (ty, _) = self.global_types[g as usize];
        let bits = self.state.globals[g as usize].concrete()?;
        Some(Value::from_bits(ty, bits))
    }

    /// Calls the exported function `name` with concrete `args`; its effects
    /// on memories, tables and globals stay, also when it traps.
    pub fn invoke(
        &mut self,
        instance: InstanceId,
        name: &str,
        args: &[Value],
    ) -> Result<Outcome, InvokeError> {
        let func = self.export_func(instance, name, args)?;
        self.call(func, args.iter().map(|a| a.val()).collect())
    }

    /// Calls the exported function `name` with its integer arguments symbolic,
    /// each constrained equal to its value in `args` (floats and references
    /// stay concrete),
    /// on a copy of the store, and gives every path the engine explored.
    pub fn invoke_symbolic(
        &mut self,
        instance: InstanceId,
        name: &str,
        args: &[Value],
    ) -> Result<Vec<SymbolicPath>, InvokeError> {
        let func = self.export_func(instance, name, args)?;
        let mut state = self.state.clone();
        let mut model = Model::new();
        let mut vals = Vec::new();
        for (i, &arg) in args.iter().enumerate() {
            let (width, bits) = match arg {
                Value::I32(b) => (32, u64::from(b)),
                Value::I64(b) => (64, b),
                Value::F32(_) | Value::F64(_) | Value::FuncRef(_) | Value::ExternRef(_) => {
                    vals.push(arg.val());
                    continue;
                }
            };
            // The same name (and term) in every call: the sort is in the name.
            let name = format!("arg{i}_{}", arg.ty());
            let term = self
                .terms
                .declare(&name, Sort::Bv(width))
                .expect("the name carries the sort");
            let symbol = self.terms.symbol_named(&name).expect("declared above");
            model.set(symbol, TermValue::Bv { width, value: bits });
            let value = self.terms.bv_const(width, bits);
            let pin = self.terms.eq(term, value);
            state.condition.assume(&mut self.terms, pin, None);
            vals.push(Val::Sym(term));
        }
        let ended = self.run(func, state, vals, InputSource::Symbolic)?;
        let results = self.result_types(func);
        Ok(ended
            .into_iter()
            .map(|(s, end)| SymbolicPath {
                feasible: self.terms.satisfies(&s.condition.constraints(), &model),
                outcome: self.outcome(end, &results, &model),
            })
            .collect())
    }

    fn export_func(
        &self,
        instance: InstanceId,
        name: &str,
        args: &[Value],
    ) -> Result<u32, InvokeError> {
        let Some(Extern::Func(func)) = self.export(instance, name) else {
            return Err(InvokeError::Call(format!("no exported function `{name}`")));
        };
        let at = self.links.funcs[func as usize];
        let params = self.modules[at.instance as usize]
            .func_type(at.index)
            .map(|t| t.params.clone())
            .unwrap_or_default();
        let given: Vec<ValType> = args.iter().map(|a| a.ty()).collect();
        if *params != *given {
            let list = |ts: &[ValType]| {
                ts.iter()
                    .map(ValType::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(InvokeError::Call(format!(
                "`{name}` takes ({}), given ({})",
                list(&params),
                list(&given)
            )));
        }
        Ok(func)
    }

    fn result_types(&self, func: u32) -> Vec<ValType> {
        let at = self.links.funcs[func as usize];
        self.modules[at.instance as usize]
            .func_type(at.index)
            .map(|t| t.results.to_vec())
            .unwrap_or_default()
    }

    /// A concrete call of store function `func`; the store takes the state
    /// it ends in.
    fn call(&mut self, func: u32, args: Vec<Val>) -> Result<Outcome, InvokeError> {
        let ended = self.run(func, self.state.clone(), args, InputSource::Symbolic)?;
        let results = self.result_types(func);
        // Concrete values never fork: there is one path.
        let Ok([(mut state, end)]) = <[_; 1]>::try_from(ended) else {
            return Err(InvokeError::Call("a concrete call forked".into()));
        };
        let outcome = self.outcome(end, &results, &Model::new());
        state.frames.clear();
        state.stack.clear();
        self.state = state;
        outcome.ok_or_else(|| InvokeError::Call("the engine dropped the only path".into()))
    }

    /// Runs a call of `func` on `state` and every state it forks into, to the
    /// end of every path.
    fn run(
        &mut self,
        func: u32,
        mut state: State,
        args: Vec<Val>,
        source: InputSource,
    ) -> Result<Vec<(State, End)>, InvokeError> {
        let modules: Vec<&Module> = self.modules.iter().collect();
        // Spec scripts run on flat memory: no roles.
        let mut roles = Roles::default();
        roles.heap.split = self.split;
        let program = Program {
            modules: &modules,
            links: &self.links,
            roles: &roles,
        };
        // Store functions all have code: imports are bound to exports.
        let frame = program
            .entry_frame(func, args)
            .ok_or_else(|| InvokeError::Call("the function has no code".into()))?;
        let terms = std::mem::take(&mut self.terms);
        let mut context = Context::new(&program, terms, func, source, u32::MAX);
        context.solver = std::mem::take(&mut self.solver);
        context.records.finished = Some(Vec::new());
        context.merging.options = self.merge;
        state.frames.push(frame);
        // Every path runs to its end, so the order does not matter.
        let mut scheduler = Scheduler::new(SearchKind::Dfs, 0, state, &mut context.records.tree);
        scheduler.max_instructions = Some(self.max_instructions);
        let mut exec = Executor {
            program,
            cx: &mut context,
        };
        let stretch = scheduler.run(&mut exec, Duration::MAX, Pace::Free, |_, _, _| Control::Run);
        if let Some(merging) = context.merging.stats() {
            self.merging.add(&merging);
        }
        self.terms = context.terms;
        self.solver = context.solver;
        match stretch {
            Stretch::Completed => Ok(context.records.finished.unwrap_or_default()),
            _ => Err(InvokeError::Limit),
        }
    }

    /// The outcome of a path that ended with `end`, its values under `model`.
    fn outcome(&self, end: End, results: &[ValType], model: &Model) -> Option<Outcome> {
        match end {
            End::Returned(vals) => Some(Outcome::Returned(
                vals.iter()
                    .zip(results)
                    .map(|(&v, &ty)| {
                        let bits = match v {
                            Val::Con { bits, .. } => bits,
                            Val::Sym(t) => self.terms.eval(t, model).as_bv().unwrap_or(0),
                        };
                        Value::from_bits(ty, bits)
                    })
                    .collect(),
            )),
            End::Trap(trap) => Some(Outcome::Trapped(trap)),
            // Host functions (assert, proc_exit) are never bound in a store,
            // its memory is flat, and its calls have no depth limit.
            End::Exited(_)
            | End::AssertFailed
            | End::MemoryError(_)
            | End::Panic(_)
            | End::Dropped(_)
            | End::DepthLimit
            | End::CallDepthLimit(_)
            | End::NotProvided(_)
            | End::CutOff => None,
        }
    }

    /// Checks that each import is bound to an extern of its kind and type.
    fn check_imports(&self, module: &Module, imports: &Imports) -> Result<(), InstantiateError> {
        let link = |m: String| Err(InstantiateError::Link(m));
        let func_imports: Vec<_> = module.func_imports().collect();
        let globals: Vec<_> = module
            .globals
            .iter()
            .filter_map(|g| match &g.init {
                GlobalInit::Import(name) => Some((name, g)),
                GlobalInit::Const(_) => None,
            })
            .collect();
        let memories: Vec<_> = module
            .memories
            .iter()
            .filter(|m| m.import.is_some())
            .collect();
        let tables: Vec<_> = module
            .tables
            .iter()
            .filter(|t| t.import.is_some())
            .collect();
        if func_imports.len() != imports.funcs.len()
            || globals.len() != imports.globals.len()
            || memories.len() != imports.memories.len()
            || tables.len() != imports.tables.len()
        {
            return link("the imports and their bindings differ in number".into());
        }
        for ((index, import), &func) in func_imports.iter().zip(&imports.funcs) {
            let at = self.links.funcs.get(func as usize);
            let actual = at.and_then(|at| self.modules[at.instance as usize].func_type(at.index));
            let expected = module.func_type(*index);
            if actual.is_none() || actual != expected {
                return link(format!(
                    "incompatible import type for {}: expected {}, got {}",
                    import.name,
                    describe(expected),
                    describe(actual)
                ));
            }
        }
        for ((name, g), &address) in globals.iter().zip(&imports.globals) {
            let actual = self.global_types.get(address as usize);
            if actual != Some(&(g.ty, g.mutable)) {
                return link(format!("incompatible import type for {name}"));
            }
        }
        for (m, &address) in memories.iter().zip(&imports.memories) {
            let actual = self
                .state
                .memories
                .get(address as usize)
                .map(|mem| (mem.pages(), self.memory_max[address as usize]));
            if !actual.is_some_and(|a| limits_match(a, (m.min_pages, m.max_pages))) {
                let name = m.import.as_ref().map(|n| n.to_string()).unwrap_or_default();
                return link(format!("incompatible import type for {name}"));
            }
        }
        for (t, &address) in tables.iter().zip(&imports.tables) {
            let actual = self.state.tables.get(address as usize);
            let limits = actual.map(|table| (table.entries.len() as u32, table.max));
            let ty = self.table_types.get(address as usize);
            if ty != Some(&t.ty) || !limits.is_some_and(|a| limits_match(a, (t.min, t.max))) {
                let name = t.import.as_ref().map(|n| n.to_string()).unwrap_or_default();
                return link(format!("incompatible import type for {name}"));
            }
        }
        Ok(())
    }
}

fn describe(ty: Option<&symplay_wasm::FuncType>) -> String {
    ty.map_or_else(|| "no function".into(), |t| format!("function {t}"))
}

/// Import matching of limits: the actual (current size, maximum) must lie
/// within the imported ones.
fn limits_match(actual: (u32, Option<u32>), import: (u32, Option<u32>)) -> bool {
    let (min, max) = actual;
    min >= import.0
        && match import.1 {
            None => true,
            Some(limit) => max.is_some_and(|m| m <= limit),
        }
}
