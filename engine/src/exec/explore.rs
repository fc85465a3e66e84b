//! The exploration driver: instantiates the module, makes the entry's
//! parameters symbolic, runs states in the searcher's order within the
//! limits, and assembles the report.

use super::fast::FastCode;
use super::instantiate::{add_instance, init_segments};
use super::interp::{Executor, InputSource, Ran};
use super::link::Links;
use super::sites::SiteCounts;
use super::state::{Input, State};
use super::trace::Trace;
use super::value::Val;
use crate::expr::{Sort, TermStore};
use crate::limits::{heap_in_use, heap_peak, reset_heap_peak, Limits};
use crate::report::{
    ConcretisedSite, Coverage, DropCause, DropSite, PathReport, Report, RunLimits, Stats,
    TestInput, Timing, TraceEvent, TreeNode, SCHEMA_VERSION,
};
use crate::search::{Pending, SearchKind, Searcher};
use crate::solver::simplify::Simplifier;
use crate::solver::{Interrupt, Solver};
use std::borrow::Borrow;
use std::fmt;
use symplay_wasm::imports::ImportClass;
use symplay_wasm::{Module, ValType};
use web_time::{Duration, Instant};

/// Instructions a state runs before the driver checks limits again.
const SLICE: u64 = 4096;
/// Estimated bytes per term, for the memory estimate.
const TERM_BYTES: u64 = 48;
/// Slices between two memory estimates: an estimate walks every chunk of
/// every state's memory, which costs more than a concrete slice itself.
const ESTIMATE_EVERY: u32 = 8;

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
    /// Bytes of heap in use, where the program meters it (a counting
    /// allocator); else an estimate of what states and terms hold.
    pub max_memory: Option<u64>,
    /// Once set, the run stops as `cancelled`, inside a solver query too.
    pub interrupt: Option<Interrupt>,
    /// Values for the entry's integer parameters, by index; `None` (and any
    /// past the end) leaves a parameter symbolic.
    pub concrete_args: Vec<Option<i64>>,
}

/// What the progress hook sees; it returns `false` to stop the run.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub paths: usize,
    pub pending: usize,
    pub instructions: u64,
    /// Solver queries asked so far.
    pub queries: u64,
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
    let mut exploration = Exploration::with_source(
        module,
        entry,
        &run_options,
        InputSource::Concrete(test.clone()),
        (options.max_events > 0).then(|| Trace::new(options.max_events)),
    )?;
    exploration.advance(Duration::MAX, &mut |_| true);
    let (report, trace) = exploration.finish_with_trace();
    let trace = trace.unwrap_or_default();
    let path = report.paths.into_iter().next().ok_or_else(|| {
        ExploreError(match report.drops.first() {
            Some(site) if site.cause == DropCause::Assumption => format!(
                "the input breaks the assumption at {}: it takes no path to replay",
                site.location.text()
            ),
            _ => format!(
                "replay stopped by the {} after {} instructions, before the path ended",
                report.stop_reason, report.stats.instructions
            ),
        })
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
    let mut exploration = Exploration::new(module, entry, options)?;
    exploration.advance(Duration::MAX, progress);
    Ok(exploration.finish())
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

/// Values for parameters the entry has, of integer types, that fit them.
fn check_concrete_args(params: &[ValType], args: &[Option<i64>]) -> Result<(), ExploreError> {
    for (i, value) in args.iter().enumerate() {
        let Some(v) = *value else { continue };
        let fits = match params.get(i) {
            None => {
                return Err(ExploreError(format!(
                    "a value is given for parameter {i}, but the entry has {} parameters",
                    params.len()
                )))
            }
            Some(ValType::I32) => (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v),
            Some(ValType::I64) => true,
            Some(ty) => {
                return Err(ExploreError(format!(
                    "parameter {i} is {ty}: only integer parameters take a value (floats are zero)"
                )))
            }
        };
        if !fits {
            return Err(ExploreError(format!(
                "the value {v} of parameter {i} does not fit in an i32"
            )));
        }
    }
    Ok(())
}

/// The state at the entry: the instance's store, the entry's frame with its
/// parameters as inputs (symbolic, or given values), and the start
/// function's frame above it so that it runs first.
fn start_state(
    exec: &mut Executor<'_>,
    mut s: State,
    entry: u32,
    concrete_args: &[Option<i64>],
) -> Result<State, ExploreError> {
    let params = exec
        .func_type(entry)
        .map(|t| t.params.clone())
        .unwrap_or_default();
    check_concrete_args(&params, concrete_args)?;
    let mut args = Vec::new();
    for (i, &ty) in params.iter().enumerate() {
        let width = match ty {
            ValType::I32 | ValType::F32 => 32,
            ValType::I64 | ValType::F64 => 64,
        };
        let name = s.unique_name(&format!("arg{i}"));
        let given = concrete_args.get(i).copied().flatten();
        let value = match (&exec.source, given) {
            (InputSource::Symbolic, Some(v)) => Val::con(width, v as u64),
            (InputSource::Symbolic, None) if matches!(ty, ValType::I32 | ValType::I64) => {
                let term = exec
                    .store
                    .declare(&name, Sort::Bv(width))
                    .unwrap_or_else(|_| exec.store.fresh(&name, Sort::Bv(width)));
                Val::Sym(term)
            }
            // Float parameters stay concrete (zero): floats are not symbolic.
            (InputSource::Symbolic, None) => {
                let what = format!("the float parameter arg{i}");
                s.notes
                    .push(format!("concretised {what} to 0: floats are not symbolic"));
                s.concretised.push((what, (entry, 0)));
                Val::con(width, 0)
            }
            (InputSource::Concrete(test), _) => {
                Val::con(width, test.args.get(i).copied().unwrap_or(0) as u64)
            }
        };
        s.inputs.push(Input::Arg { width, value });
        args.push(value);
    }
    let frame = exec
        .entry_frame(entry, args)
        .ok_or_else(|| ExploreError("the entry is an imported function".into()))?;
    s.frames.push(frame);
    if let Some(start) = exec.modules[0].start {
        if let Some(frame) = exec.entry_frame(start, Vec::new()) {
            s.frames.push(frame);
        }
    }
    Ok(s)
}

/// What an executor accumulates. The executor borrows the module and the
/// links, so an [`Exploration`] keeps these between its steps and lends them
/// to a new executor for each.
#[derive(Default)]
struct Parts {
    store: TermStore,
    solver: Solver,
    simplifier: Simplifier,
    tree: Vec<TreeNode>,
    paths: Vec<PathReport>,
    instructions: u64,
    forks: u64,
    drops: SiteCounts<DropCause>,
    concretised: SiteCounts<String>,
    cut_off: u64,
    covered: Vec<Vec<bool>>,
    trace: Option<Trace>,
    fast: FastCode,
}

impl Parts {
    fn lend(&mut self, exec: &mut Executor<'_>) {
        exec.store = std::mem::take(&mut self.store);
        exec.solver = std::mem::take(&mut self.solver);
        exec.simplifier = std::mem::take(&mut self.simplifier);
        exec.tree = std::mem::take(&mut self.tree);
        exec.paths = std::mem::take(&mut self.paths);
        exec.instructions = self.instructions;
        exec.forks = self.forks;
        exec.drops = std::mem::take(&mut self.drops);
        exec.concretised = std::mem::take(&mut self.concretised);
        exec.cut_off = self.cut_off;
        exec.covered = std::mem::take(&mut self.covered);
        exec.trace = self.trace.take();
        exec.fast = std::mem::take(&mut self.fast);
    }

    fn take_back(exec: Executor<'_>) -> Parts {
        Parts {
            store: exec.store,
            solver: exec.solver,
            simplifier: exec.simplifier,
            tree: exec.tree,
            paths: exec.paths,
            instructions: exec.instructions,
            forks: exec.forks,
            drops: exec.drops,
            concretised: exec.concretised,
            cut_off: exec.cut_off,
            covered: exec.covered,
            trace: exec.trace,
            fast: exec.fast,
        }
    }
}

/// An exploration run in steps, so that a caller (the browser's worker) can
/// report progress and take a stop request between them. `M` is the module,
/// borrowed or owned.
pub struct Exploration<M: Borrow<Module>> {
    module: M,
    links: Links,
    entry: u32,
    entry_name: String,
    options: Options,
    source: InputSource,
    parts: Parts,
    searcher: Searcher<State>,
    current: Option<State>,
    started: Instant,
    peak_memory: u64,
    /// The last memory estimate, and the slices to run before the next.
    memory: u64,
    slices_to_estimate: u32,
    /// Set when the run is over: `completed`, the limit hit, or `cancelled`.
    stop_reason: Option<String>,
}

impl<M: Borrow<Module>> Exploration<M> {
    /// Instantiates the module and makes the entry's parameters symbolic.
    pub fn new(module: M, entry_name: &str, options: &Options) -> Result<Self, ExploreError> {
        Exploration::with_source(module, entry_name, options, InputSource::Symbolic, None)
    }

    fn with_source(
        module: M,
        entry_name: &str,
        options: &Options,
        source: InputSource,
        trace: Option<Trace>,
    ) -> Result<Self, ExploreError> {
        let started = Instant::now();
        check_options(options)?;
        reset_heap_peak();
        let m = module.borrow();
        check_imports(m)?;
        let entry = m
            .export_func(entry_name)
            .map_err(|e| ExploreError(e.to_string()))?;
        let mut state = State::default();
        let mut links = Links::default();
        let mut terms = TermStore::new();
        let instance = add_instance(&mut state, &mut links, &mut terms, m, None);
        init_segments(&mut state, &links, &mut terms, m, instance)
            .map_err(|e| ExploreError(format!("{e} (instantiation would trap)")))?;
        // One instance: its function indices are the store function ids.
        let max_depth = options.max_depth.unwrap_or(u32::MAX);
        let mut exec = Executor::new(vec![m], &links, entry, source.clone(), max_depth);
        exec.store = terms;
        exec.trace = trace;
        let initial = start_state(&mut exec, state, entry, &options.concrete_args)?;
        let parts = Parts::take_back(exec);
        Ok(Exploration {
            module,
            links,
            entry,
            entry_name: entry_name.to_string(),
            options: options.clone(),
            source,
            parts,
            searcher: Searcher::new(options.search, options.seed),
            current: Some(initial),
            started,
            peak_memory: 0,
            memory: 0,
            slices_to_estimate: 0,
            stop_reason: None,
        })
    }

    pub fn is_finished(&self) -> bool {
        self.stop_reason.is_some()
    }

    pub fn progress(&self) -> Progress {
        Progress {
            paths: self.parts.paths.len(),
            pending: self.pending(),
            instructions: self.parts.instructions,
            queries: self.parts.solver.stats().queries,
        }
    }

    /// Ends the run; what was found so far stays in the report.
    pub fn cancel(&mut self) {
        self.stop_reason.get_or_insert_with(|| "cancelled".into());
    }

    /// Runs slices of states in the searcher's order until the run is over
    /// or `budget` has passed; `progress` is asked before every slice and
    /// cancels the run by returning `false`. Returns whether the run is over.
    pub fn advance(
        &mut self,
        budget: Duration,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> bool {
        if self.is_finished() {
            return true;
        }
        let step_started = Instant::now();
        let max_depth = self.options.max_depth.unwrap_or(u32::MAX);
        let module = self.module.borrow();
        let mut exec = Executor::new(
            vec![module],
            &self.links,
            self.entry,
            self.source.clone(),
            max_depth,
        );
        self.parts.lend(&mut exec);
        let options = &self.options;
        exec.limits = Limits {
            deadline: options.max_time.map(|t| self.started + t),
            interrupt: options.interrupt,
            max_memory: options.max_memory,
        };
        // At least one slice per step, so that a zero budget still progresses.
        loop {
            let state = match self.current.take() {
                Some(s) => s,
                None => match self
                    .searcher
                    .pop(|f, pc| exec.covered[f as usize][pc as usize], &exec.tree)
                {
                    Some(s) => s,
                    // A cut-off query ends the slice and the run at once
                    // (below), so no state is left behind here.
                    None => {
                        self.stop_reason = Some("completed".into());
                        break;
                    }
                },
            };
            // Where the heap is not metered, an estimate of the states.
            let metered = heap_in_use().is_some();
            if !metered {
                if self.slices_to_estimate == 0 {
                    self.memory = exec.store.len() as u64 * TERM_BYTES
                        + self.searcher.estimated_bytes()
                        + state.estimated_bytes();
                    self.peak_memory = self.peak_memory.max(self.memory);
                    self.slices_to_estimate = ESTIMATE_EVERY;
                }
                self.slices_to_estimate -= 1;
            }
            let limit = if let Some(reached) = exec.limits.reached() {
                Some(reached.stop_reason())
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
            } else if !metered && options.max_memory.is_some_and(|n| self.memory >= n) {
                Some("memory limit")
            } else if !progress(&Progress {
                paths: exec.paths.len(),
                pending: self.searcher.len() + 1,
                instructions: exec.instructions,
                queries: exec.solver.stats().queries,
            }) {
                Some("cancelled")
            } else {
                None
            };
            if let Some(reason) = limit {
                self.stop_reason = Some(reason.to_string());
                self.current = Some(state);
                break;
            }
            let slice = options
                .max_instructions
                .map_or(SLICE, |n| SLICE.min(n - exec.instructions));
            match exec.run(state, slice) {
                Ran::Paused(s) => self.current = Some(*s),
                Ran::Forked(states) => {
                    for s in states {
                        self.searcher.push(s, &exec.tree);
                    }
                }
                Ran::Ended => {}
            }
            // A limit cut off a query or a host call inside the slice.
            if let Some(limit) = exec.stopped_by {
                self.stop_reason = Some(limit.stop_reason().into());
                break;
            }
            if step_started.elapsed() >= budget {
                break;
            }
        }
        self.parts = Parts::take_back(exec);
        self.is_finished()
    }

    /// States not explored: waiting, and cut off by the time limit.
    fn pending(&self) -> usize {
        self.searcher.len() + usize::from(self.current.is_some()) + self.parts.cut_off as usize
    }

    /// Nodes of the execution tree so far.
    pub fn tree_len(&self) -> usize {
        self.parts.tree.len()
    }

    /// The report so far: paths, tree and statistics; `stop_reason` is
    /// `running` until the run is over.
    pub fn snapshot(&self) -> Report {
        let mut report = self.report_without_paths();
        report.paths = self.parts.paths.clone();
        report.tree = self.parts.tree.clone();
        report
    }

    pub fn finish(mut self) -> Report {
        self.finish_with_trace().0
    }

    fn finish_with_trace(&mut self) -> (Report, Option<Trace>) {
        let mut report = self.report_without_paths();
        report.paths = std::mem::take(&mut self.parts.paths);
        report.tree = std::mem::take(&mut self.parts.tree);
        (report, self.parts.trace.take())
    }

    fn report_without_paths(&self) -> Report {
        let parts = &self.parts;
        let solver_stats = *parts.solver.stats();
        let coverage = Coverage {
            covered_instructions: parts.covered.iter().flatten().filter(|&&c| c).count() as u64,
            total_instructions: parts.covered.iter().map(|c| c.len() as u64).sum(),
        };
        let pending = self.pending() as u64;
        let stats = Stats {
            instructions: parts.instructions,
            forks: parts.forks,
            paths: parts.paths.len() as u64,
            dropped_paths: parts.drops.total(),
            pending_states: pending,
            queries: solver_stats.queries,
            query_cache_hits: solver_stats.query_cache.hits,
            cex_cache_hits: solver_stats.cex_cache.hits,
            sat_calls: solver_stats.sat_solver.queries,
            solver_unknown: solver_stats.unknown,
            terms: parts.store.len() as u64,
            peak_memory_bytes: heap_peak().unwrap_or(self.peak_memory),
            timing: Timing {
                total_ms: self.started.elapsed().as_secs_f64() * 1000.0,
                solver_ms: solver_stats.total_time.as_secs_f64() * 1000.0,
            },
        };
        Report {
            schema_version: SCHEMA_VERSION,
            entry: self.entry_name.clone(),
            search: self.options.search.name().to_string(),
            seed: self.options.seed,
            concrete_args: self.options.concrete_args.clone(),
            stop_reason: self.stop_reason.clone().unwrap_or_else(|| "running".into()),
            limits: RunLimits {
                max_time_ms: self.options.max_time.map(|t| t.as_millis() as u64),
                max_paths: self.options.max_paths,
                max_depth: self.options.max_depth,
                max_instructions: self.options.max_instructions,
                max_memory_bytes: self.options.max_memory,
            },
            paths: Vec::new(),
            tree: Vec::new(),
            drops: parts
                .drops
                .sites()
                .iter()
                .map(|(cause, location, paths)| DropSite {
                    cause: *cause,
                    location: location.clone(),
                    paths: *paths,
                })
                .collect(),
            concretised: parts
                .concretised
                .sites()
                .iter()
                .map(|(what, location, paths)| ConcretisedSite {
                    what: what.clone(),
                    location: location.clone(),
                    paths: *paths,
                })
                .collect(),
            coverage,
            stats,
        }
    }
}
