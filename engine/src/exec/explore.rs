//! The exploration driver: instantiates the module, makes the entry's
//! parameters symbolic, runs states in the searcher's order within the
//! limits, and assembles the report.

use super::interp::{Executor, InputSource, Ran};
use super::state::{Frame, Input, State};
use super::trace::Trace;
use super::value::Val;
use crate::expr::{Sort, TermStore};
use crate::memory::LinearMemory;
use crate::report::{
    Coverage, PathReport, Report, Stats, TestInput, Timing, TraceEvent, TreeNode, SCHEMA_VERSION,
};
use crate::search::{SearchKind, Searcher};
use crate::solver::simplify::Simplifier;
use crate::solver::Solver;
use std::collections::BTreeMap;
use std::fmt;
use symplay_wasm::imports::ImportClass;
use symplay_wasm::{ConstExpr, DataMode, ElementMode, FuncBody, Module, ValType};
use web_time::{Duration, Instant};

/// Instructions a state runs before the driver checks limits again.
const SLICE: u64 = 4096;
/// Estimated bytes per term, for the memory estimate.
const TERM_BYTES: u64 = 48;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    pub search: SearchKind,
    pub seed: u64,
    pub max_time: Option<Duration>,
    /// Stop after this many reported paths.
    pub max_paths: Option<u64>,
    /// Forks along one path; a path that would fork deeper ends as `limit`.
    pub max_depth: Option<u32>,
    pub max_instructions: Option<u64>,
    /// Estimated bytes held by pending states and terms.
    pub max_memory: Option<u64>,
}

/// What the progress hook sees; it returns `false` to stop the run.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub paths: usize,
    pub pending: usize,
    pub instructions: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploreError(pub String);

impl fmt::Display for ExploreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExploreError {}

pub fn explore(module: &Module, entry: &str, options: &Options) -> Result<Report, ExploreError> {
    explore_with(module, entry, options, &mut |_| true)
}

/// Runs the entry again with every input concrete (from `test`), giving the
/// one path those inputs take.
pub fn replay(module: &Module, entry: &str, test: &TestInput) -> Result<PathReport, ExploreError> {
    let options = ReplayOptions {
        max_instructions: None,
        max_events: 0,
    };
    replay_traced(module, entry, test, &options).map(|r| r.path)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    pub max_instructions: Option<u64>,
    /// Trace events kept; later ones are only counted. Zero records no trace.
    pub max_events: usize,
}

/// A replayed test: its path and what the run decided on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    pub path: PathReport,
    pub trace: Vec<TraceEvent>,
    /// Events past `max_events`.
    pub omitted_events: u64,
}

/// [`replay`] with a trace of calls, returns, branches and host calls.
pub fn replay_traced(
    module: &Module,
    entry: &str,
    test: &TestInput,
    options: &ReplayOptions,
) -> Result<Replay, ExploreError> {
    let run_options = Options {
        max_paths: Some(1),
        max_instructions: options.max_instructions,
        ..Options::default()
    };
    let (report, trace) = run(
        module,
        entry,
        &run_options,
        InputSource::Concrete(test.clone()),
        (options.max_events > 0).then(|| Trace::new(options.max_events)),
        &mut |_| true,
    )?;
    let trace = trace.unwrap_or_default();
    let path = report.paths.into_iter().next().ok_or_else(|| {
        ExploreError(format!(
            "replay stopped by the {} after {} instructions, before the path ended",
            report.stop_reason, report.stats.instructions
        ))
    })?;
    Ok(Replay {
        path,
        trace: trace.events,
        omitted_events: trace.omitted,
    })
}

pub fn explore_with(
    module: &Module,
    entry: &str,
    options: &Options,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Report, ExploreError> {
    run(
        module,
        entry,
        options,
        InputSource::Symbolic,
        None,
        progress,
    )
    .map(|(report, _)| report)
}

fn check_options(o: &Options) -> Result<(), ExploreError> {
    let zero = [
        ("--max-time", o.max_time.is_some_and(|t| t.is_zero())),
        ("--max-paths", o.max_paths == Some(0)),
        ("--max-depth", o.max_depth == Some(0)),
        ("--max-instructions", o.max_instructions == Some(0)),
        ("--max-memory", o.max_memory == Some(0)),
    ];
    match zero.iter().find(|(_, z)| *z) {
        Some((name, _)) => Err(ExploreError(format!("{name} must be greater than zero"))),
        None => Ok(()),
    }
}

/// Rejects what the engine cannot run: unknown imports, the allocator (not
/// modelled yet), imported memories, tables and globals.
fn check_imports(module: &Module) -> Result<(), ExploreError> {
    module
        .check_no_unknown_imports()
        .map_err(|e| ExploreError(e.to_string()))?;
    if let Some((_, import)) = module
        .func_imports()
        .find(|(_, i)| matches!(i.class, ImportClass::Allocator(_)))
    {
        return Err(ExploreError(format!(
            "unsupported import {} (the allocator is not modelled yet)",
            import.name
        )));
    }
    let imported = module
        .memories
        .iter()
        .filter_map(|m| m.import.as_ref())
        .chain(module.tables.iter().filter_map(|t| t.import.as_ref()))
        .chain(module.globals.iter().filter_map(|g| match &g.init {
            symplay_wasm::GlobalInit::Import(name) => Some(name),
            symplay_wasm::GlobalInit::Const(_) => None,
        }))
        .next();
    match imported {
        Some(name) => Err(ExploreError(format!("unsupported import {name}"))),
        None => Ok(()),
    }
}

fn const_value(c: ConstExpr, globals: &[Val]) -> Val {
    match c {
        ConstExpr::I32(v) => Val::i32(v as u32),
        ConstExpr::I64(v) => Val::i64(v as u64),
        ConstExpr::F32(b) => Val::i32(b),
        ConstExpr::F64(b) => Val::i64(b),
        ConstExpr::GlobalGet(g) => globals.get(g as usize).copied().unwrap_or(Val::i32(0)),
    }
}

/// The state at the entry: globals, memory with its data, table with its
/// elements, the entry's frame with its parameters as inputs, and the start
/// function's frame above it so that it runs first.
fn instantiate(exec: &mut Executor<'_>, entry: u32) -> Result<State, ExploreError> {
    let module = exec.module;
    let store = &mut exec.store;
    let mut globals = Vec::new();
    for g in &module.globals {
        let v = match &g.init {
            symplay_wasm::GlobalInit::Const(c) => const_value(*c, &globals),
            symplay_wasm::GlobalInit::Import(_) => Val::i32(0),
        };
        globals.push(v);
    }
    let mut memory = module
        .memories
        .first()
        .map(|m| LinearMemory::new(store, m.min_pages, m.max_pages));
    for (i, seg) in module.data.iter().enumerate() {
        if let DataMode::Active { offset, .. } = seg.mode {
            let at = const_value(offset, &globals).concrete().unwrap_or(0) & 0xffff_ffff;
            let fits = memory
                .as_ref()
                .is_some_and(|m| at + seg.bytes.len() as u64 <= m.len());
            let m = memory.as_mut().filter(|_| fits).ok_or_else(|| {
                ExploreError(format!(
                    "data segment {i} does not fit in memory (instantiation would trap)"
                ))
            })?;
            m.write_concrete(store, at, &seg.bytes);
        }
    }
    let mut table = vec![None; module.tables.first().map_or(0, |t| t.min as usize)];
    for (i, seg) in module.elements.iter().enumerate() {
        if let ElementMode::Active { offset, .. } = seg.mode {
            let at = const_value(offset, &globals).concrete().unwrap_or(0) as usize & 0xffff_ffff;
            let slots = table.get_mut(at..at + seg.items.len()).ok_or_else(|| {
                ExploreError(format!(
                    "element segment {i} does not fit in the table (instantiation would trap)"
                ))
            })?;
            for (slot, &f) in slots.iter_mut().zip(seg.items.iter()) {
                *slot = Some(f);
            }
        }
    }
    let mut s = State {
        frames: Vec::new(),
        stack: Vec::new(),
        globals,
        memory,
        table,
        dropped_data: vec![false; module.data.len()],
        dropped_elems: vec![false; module.elements.len()],
        constraints: Vec::new(),
        inputs: Vec::new(),
        name_uses: BTreeMap::new(),
        notes: Vec::new(),
        stdout: Vec::new(),
        stderr: Vec::new(),
        node: 0,
        depth: 0,
        at: (entry, 0),
    };
    let params = module
        .func_type(entry)
        .map(|t| t.params.clone())
        .unwrap_or_default();
    let mut locals = Vec::new();
    for (i, &ty) in params.iter().enumerate() {
        let width = match ty {
            ValType::I32 | ValType::F32 => 32,
            ValType::I64 | ValType::F64 => 64,
        };
        let name = s.unique_name(&format!("arg{i}"));
        let value = match &exec.source {
            InputSource::Symbolic if matches!(ty, ValType::I32 | ValType::I64) => {
                let term = exec
                    .store
                    .declare(&name, Sort::Bv(width))
                    .unwrap_or_else(|_| exec.store.fresh(&name, Sort::Bv(width)));
                Val::Sym(term)
            }
            // Float parameters stay concrete (zero): floats are not symbolic.
            InputSource::Symbolic => Val::con(width, 0),
            InputSource::Concrete(test) => {
                Val::con(width, test.args.get(i).copied().unwrap_or(0) as u64)
            }
        };
        s.inputs.push(Input::Arg { width, value });
        locals.push(value);
    }
    let FuncBody::Defined(code) = &module.funcs[entry as usize].body else {
        return Err(ExploreError("the entry is an imported function".into()));
    };
    locals.extend(code.locals.iter().map(|&t| super::interp::zero_of(t)));
    s.frames.push(Frame {
        func: entry,
        pc: 0,
        locals,
        base: 0,
    });
    if let Some(start) = module.start {
        if let FuncBody::Defined(code) = &module.funcs[start as usize].body {
            let locals = code
                .locals
                .iter()
                .map(|&t| super::interp::zero_of(t))
                .collect();
            s.frames.push(Frame {
                func: start,
                pc: 0,
                locals,
                base: 0,
            });
        }
    }
    Ok(s)
}

fn run(
    module: &Module,
    entry_name: &str,
    options: &Options,
    source: InputSource,
    trace: Option<Trace>,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<(Report, Option<Trace>), ExploreError> {
    let started = Instant::now();
    check_options(options)?;
    check_imports(module)?;
    let entry = module
        .export_func(entry_name)
        .map_err(|e| ExploreError(e.to_string()))?;
    let covered = module
        .funcs
        .iter()
        .map(|f| match &f.body {
            FuncBody::Defined(code) => vec![false; code.instrs.len()],
            FuncBody::Import(_) => Vec::new(),
        })
        .collect();
    let mut exec = Executor {
        module,
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
        dropped: 0,
        covered,
        source,
        max_depth: options.max_depth.unwrap_or(u32::MAX),
        entry,
        trace,
        fast: Default::default(),
    };
    let initial = instantiate(&mut exec, entry)?;
    let mut searcher = Searcher::new(options.search, options.seed);
    let mut current = Some(initial);
    let mut peak_memory = 0;
    let mut stop_reason = "completed".to_string();
    let mut pending = 0;
    loop {
        let state = match current.take() {
            Some(s) => s,
            None => match searcher.pop(|f, pc| exec.covered[f as usize][pc as usize]) {
                Some(s) => s,
                None => break,
            },
        };
        let memory = exec.store.len() as u64 * TERM_BYTES
            + searcher.estimated_bytes()
            + state.estimated_bytes();
        peak_memory = peak_memory.max(memory);
        let limit = if options.max_time.is_some_and(|t| started.elapsed() >= t) {
            Some("time limit")
        } else if options
            .max_paths
            .is_some_and(|n| exec.paths.len() as u64 >= n)
        {
            Some("path limit")
        } else if options
            .max_instructions
            .is_some_and(|n| exec.instructions >= n)
        {
            Some("instruction limit")
        } else if options.max_memory.is_some_and(|n| memory >= n) {
            Some("memory limit")
        } else if !progress(&Progress {
            paths: exec.paths.len(),
            pending: searcher.len() + 1,
            instructions: exec.instructions,
        }) {
            Some("cancelled")
        } else {
            None
        };
        if let Some(reason) = limit {
            stop_reason = reason.to_string();
            pending = searcher.len() as u64 + 1;
            break;
        }
        let slice = options
            .max_instructions
            .map_or(SLICE, |n| SLICE.min(n - exec.instructions));
        match exec.run(state, slice) {
            Ran::Paused(s) => current = Some(*s),
            Ran::Forked(states) => states.into_iter().for_each(|s| searcher.push(s)),
            Ran::Ended => {}
        }
    }
    let solver_stats = *exec.solver.stats();
    let coverage = Coverage {
        covered_instructions: exec.covered.iter().flatten().filter(|&&c| c).count() as u64,
        total_instructions: exec.covered.iter().map(|c| c.len() as u64).sum(),
    };
    let stats = Stats {
        instructions: exec.instructions,
        forks: exec.forks,
        paths: exec.paths.len() as u64,
        dropped_paths: exec.dropped,
        pending_states: pending,
        queries: solver_stats.queries,
        query_cache_hits: solver_stats.query_cache.hits,
        cex_cache_hits: solver_stats.cex_cache.hits,
        sat_calls: solver_stats.sat_solver.queries,
        solver_unknown: solver_stats.unknown,
        terms: exec.store.len() as u64,
        peak_memory_bytes: peak_memory,
        timing: Timing {
            total_ms: started.elapsed().as_secs_f64() * 1000.0,
            solver_ms: solver_stats.total_time.as_secs_f64() * 1000.0,
        },
    };
    let report = Report {
        schema_version: SCHEMA_VERSION,
        entry: entry_name.to_string(),
        search: options.search.name().to_string(),
        seed: options.seed,
        stop_reason,
        paths: exec.paths,
        tree: exec.tree,
        coverage,
        stats,
    };
    Ok((report, exec.trace))
}
