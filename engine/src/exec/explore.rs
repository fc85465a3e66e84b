//! The exploration driver: instantiates the module, makes the entry's
//! parameters symbolic, runs states in the searcher's order within the
//! limits, and assembles the report.

use super::context::guidance::InputSource;
use super::context::records::Trace;
use super::context::Context;
use super::driver::{Control, Driver, Moved, Pace, Stretch};
use super::executor::Executor;
use super::params::{name_params, start_states};
use super::program::instantiate::{add_instance, init_segments};
use super::program::link::Links;
use super::program::roles::Roles;
use super::program::Program;
use crate::expr::TermStore;
use crate::limits::{heap_in_use, heap_peak, reset_heap_peak, Limits};
use crate::memory::options::MAX_OBJECT;
use crate::memory::HeapOptions;
use crate::report::step::{StateView, Step, StepBy, StepEvent};
use crate::report::{
    BufferArg, ConcretisedSite, Coverage, DropCause, DropSite, PathReport, Report, RunLimits,
    Stats, TestInput, Timing, TraceEvent, SCHEMA_VERSION,
};
use crate::search::{Pending, SearchKind};
use crate::solver::Interrupt;
use crate::state::State;
use std::borrow::Borrow;
use std::fmt;
use symplay_wasm::imports::ImportClass;
use symplay_wasm::Module;
use web_time::{Duration, Instant};

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
    /// Parameters that point to buffers of symbolic length.
    pub buffer_args: Vec<BufferArg>,
    /// How the heap is modelled.
    pub heap: HeapOptions,
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
        heap: HeapOptions::default(),
        buffer_args: Vec::new(),
    };
    replay_traced(module, entry, test, &options).map(|r| r.path)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    pub max_instructions: Option<u64>,
    /// Trace events kept; later ones are only counted. Zero records no trace.
    pub max_events: usize,
    /// The heap model of the run that found the input: replay runs the same.
    pub heap: HeapOptions,
    /// The run's buffer parameters: replay makes the same buffers.
    pub buffer_args: Vec<BufferArg>,
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
        heap: options.heap.clone(),
        buffer_args: options.buffer_args.clone(),
        ..Options::default()
    };
    // The checks of C variables read the form of symbolic addresses, which
    // concrete values lose: such a module is replayed with symbols.
    let source = if module.variables.is_some() && options.heap.objects {
        InputSource::Guided(test.clone())
    } else {
        InputSource::Concrete(test.clone())
    };
    let mut exploration = Exploration::with_source(
        module,
        entry,
        &run_options,
        source,
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

/// Heap options the model can take.
fn check_heap(heap: &HeapOptions) -> Result<(), ExploreError> {
    if heap.capacity == 0 {
        return Err(ExploreError("--capacity must be greater than zero".into()));
    }
    if heap.capacity > MAX_OBJECT {
        return Err(ExploreError(format!(
            "--capacity {} is more than linear memory can hold ({MAX_OBJECT} bytes at most)",
            heap.capacity
        )));
    }
    Ok(())
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

/// Rejects what the engine cannot run: what [`import_problem`] finds, and
/// an imported allocator without the heap model.
fn check_imports(module: &Module, heap: &HeapOptions) -> Result<(), ExploreError> {
    if let Some(problem) = import_problem(module) {
        return Err(ExploreError(problem));
    }
    if let Some((_, import)) = module
        .func_imports()
        .find(|(_, i)| matches!(i.class, ImportClass::Allocator(_)))
        .filter(|_| !heap.objects)
    {
        return Err(ExploreError(format!(
            "the module imports {} and the heap is not modelled: run it with the heap model",
            import.name
        )));
    }
    Ok(())
}

/// Why no function of `module` can be explored, whatever the options: an
/// import the engine does not provide (a function it does not know, or a
/// memory, table or global), named with its type. Known when the module
/// loads, before anything runs.
pub fn import_problem(module: &Module) -> Option<String> {
    if let Err(e) = module.check_no_unknown_imports() {
        return Some(e.to_string());
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
        .next()?;
    Some(format!("unsupported import {imported}"))
}

/// An exploration run in steps, so that a caller (the browser's worker) can
/// report progress and take a stop request between them. `M` is the module,
/// borrowed or owned.
pub struct Exploration<M: Borrow<Module>> {
    module: M,
    links: Links,
    roles: Roles,
    entry_name: String,
    /// The names of the entry's parameters.
    params: Vec<String>,
    options: Options,
    context: Context,
    driver: Driver,
    started: Instant,
    peak_memory: u64,
    /// The last memory estimate, and the slices to run before the next.
    memory: u64,
    slices_to_estimate: u32,
    /// Set when the run is over: `completed`, the limit hit, or `cancelled`.
    stop_reason: Option<String>,
    /// Step mode: steps taken, the instruction count when the last one
    /// ended, and since when the run has waited for the next.
    steps: u64,
    instructions_at_step: u64,
    idle_since: Option<Instant>,
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
        check_imports(m, &options.heap)?;
        check_heap(&options.heap)?;
        let entry = m
            .export_func(entry_name)
            .map_err(|e| ExploreError(e.to_string()))?;
        let mut state = State::default();
        let mut links = Links::default();
        let mut terms = TermStore::new();
        let instance = add_instance(&mut state, &mut links, &mut terms, m, None);
        init_segments(&mut state, &links, &mut terms, m, instance)
            .map_err(|e| ExploreError(format!("{e} (instantiation would trap)")))?;
        let buffer_params = !options.buffer_args.is_empty();
        let roles = Roles::find(m, &links, &state, &options.heap, buffer_params);
        if let (Some(start), Some(memory)) = (roles.heap_start, links.instances[0].memory) {
            state.memories[memory as usize].check_objects(start, roles.null_end);
        }
        // One instance: its function indices are the store function ids.
        let modules = [m];
        let program = Program {
            modules: &modules,
            links: &links,
            roles: &roles,
        };
        let max_depth = options.max_depth.unwrap_or(u32::MAX);
        let mut context = Context::new(&program, terms, entry, source, max_depth);
        context.records.trace = trace;
        context.bounds.max_paths = options.max_paths;
        context.bounds.limits = Limits {
            deadline: options.max_time.map(|t| started + t),
            interrupt: options.interrupt,
            max_memory: options.max_memory,
        };
        let mut exec = Executor {
            program,
            cx: &mut context,
        };
        let params = name_params(m, entry, &mut state);
        let mut states = start_states(
            &mut exec,
            state,
            entry,
            &params,
            &options.concrete_args,
            &options.buffer_args,
        )
        .map_err(ExploreError)?;
        let first = states.remove(0);
        let mut driver = Driver::new(
            options.search,
            options.seed,
            first,
            &mut context.records.tree,
        );
        for s in states {
            driver.add(s, &mut context.records.tree);
        }
        driver.max_paths = options.max_paths;
        driver.max_instructions = options.max_instructions;
        Ok(Exploration {
            module,
            links,
            roles,
            entry_name: entry_name.to_string(),
            params,
            options: options.clone(),
            context,
            driver,
            started,
            peak_memory: 0,
            memory: 0,
            slices_to_estimate: 0,
            stop_reason: None,
            steps: 0,
            instructions_at_step: 0,
            idle_since: None,
        })
    }

    /// Allocator functions run as they are, and forks the path limit cut.
    fn warnings(&self) -> Vec<String> {
        let mut warnings = self.roles.skipped.clone();
        if let (n @ 1.., Some(max)) = (self.context.counters.unforked, self.options.max_paths) {
            warnings.push(format!(
                "the path limit ({max}) left {n} sides of forks unexplored: \
                 past it, each state followed one side to its end"
            ));
        }
        warnings
    }

    pub fn is_finished(&self) -> bool {
        self.stop_reason.is_some()
    }

    pub fn progress(&self) -> Progress {
        Progress {
            paths: self.context.records.paths.len(),
            pending: self.pending(),
            instructions: self.context.counters.instructions,
            queries: self.context.solver.stats().queries,
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
        if !self.is_finished() {
            let stretch = self.run_stretch(budget, Pace::Free, progress);
            self.end_if_over(stretch);
        }
        self.is_finished()
    }

    /// Step mode: the start, before anything runs (step 0).
    pub fn first_step(&mut self) -> Step {
        self.idle_since = Some(Instant::now());
        Step {
            number: 0,
            event: StepEvent::Started {
                entry: self.entry_name.clone(),
            },
            instructions: 0,
            next: self.next_state(),
        }
    }

    /// Step mode: runs the state that runs next for one instruction, or to
    /// its next fork or the end of its path, within `budget`. `None` when
    /// the step is not done by then (the next call goes on with it); the
    /// step that ends the run says so and has no next state.
    pub fn step(&mut self, by: StepBy, budget: Duration) -> Option<Step> {
        // Time spent waiting for the step is not the run's: the time limit
        // and the run's time go on from where the last step ended.
        if let Some(since) = self.idle_since.take() {
            let idle = since.elapsed();
            self.started += idle;
            if let Some(deadline) = &mut self.context.bounds.limits.deadline {
                *deadline += idle;
            }
        }
        let event = if self.is_finished() {
            self.finished_event()
        } else {
            let pace = match by {
                StepBy::Instruction => Pace::Instruction,
                StepBy::Branch => Pace::Branch,
            };
            let stretch = self.run_stretch(budget, pace, &mut |_| true);
            match stretch {
                Stretch::Paused => return None,
                Stretch::Stepped(moved) => self.moved_event(moved),
                Stretch::Completed | Stretch::Stopped(_) => {
                    self.end_if_over(stretch);
                    self.finished_event()
                }
            }
        };
        self.steps += 1;
        let instructions = self.context.counters.instructions - self.instructions_at_step;
        self.instructions_at_step = self.context.counters.instructions;
        let next = self.next_state();
        if next.is_none() {
            // That step ended the last path (unless a limit ended the run).
            self.end_if_over(Stretch::Completed);
        }
        self.idle_since = Some(Instant::now());
        Some(Step {
            number: self.steps,
            event,
            instructions,
            next,
        })
    }

    fn finished_event(&self) -> StepEvent {
        StepEvent::Finished {
            stop_reason: self.stop_reason.clone().unwrap_or_default(),
        }
    }

    fn moved_event(&self, moved: Moved) -> StepEvent {
        let tree = &self.context.records.tree;
        match moved {
            Moved::On => StepEvent::Ran,
            Moved::Forked(node) => StepEvent::Forked {
                node,
                at: tree.node(node).fork.clone().unwrap_or_default(),
                children: tree.node(node).children.clone(),
            },
            Moved::Ended(node) => match tree.node(node) {
                n if n.dropped => StepEvent::Dropped { node },
                n => n
                    .path
                    .map_or(StepEvent::Ran, |path| StepEvent::Ended { path }),
            },
        }
    }

    /// The state that runs next, as step mode shows it; `None` when no
    /// state is left or the run is over.
    pub fn next_state(&mut self) -> Option<StateView> {
        if self.is_finished() {
            return None;
        }
        let modules = [self.module.borrow()];
        let mut exec = Executor {
            program: Program {
                modules: &modules,
                links: &self.links,
                roles: &self.roles,
            },
            cx: &mut self.context,
        };
        self.driver.next(&mut exec)?;
        let pending = self.driver.waiting() + exec.cx.counters.cut_off as usize;
        let state = self.driver.current()?;
        Some(exec.state_view(state, pending))
    }

    /// Records why the run is over, if `stretch` ended it and no reason
    /// was recorded before.
    fn end_if_over(&mut self, stretch: Stretch) {
        if self.is_finished() {
            return;
        }
        match stretch {
            // Sides of forks left out make the run as incomplete as a stop.
            Stretch::Completed if self.context.counters.unforked > 0 => {
                self.stop_reason = Some("path limit".into())
            }
            Stretch::Completed => self.stop_reason = Some("completed".into()),
            Stretch::Stopped(reason) => self.stop_reason = Some(reason.into()),
            Stretch::Paused | Stretch::Stepped(_) => {}
        }
    }

    fn run_stretch(
        &mut self,
        budget: Duration,
        pace: Pace,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> Stretch {
        let modules = [self.module.borrow()];
        let mut exec = Executor {
            program: Program {
                modules: &modules,
                links: &self.links,
                roles: &self.roles,
            },
            cx: &mut self.context,
        };
        let max_memory = self.options.max_memory;
        let (memory, peak_memory, slices_to_estimate) = (
            &mut self.memory,
            &mut self.peak_memory,
            &mut self.slices_to_estimate,
        );
        self.driver
            .run(&mut exec, budget, pace, |exec, searcher, state| {
                // Where the heap is not metered, an estimate of the states.
                let metered = heap_in_use().is_some();
                if !metered {
                    if *slices_to_estimate == 0 {
                        *memory = exec.cx.terms.len() as u64 * TERM_BYTES
                            + searcher.estimated_bytes()
                            + state.estimated_bytes();
                        *peak_memory = (*peak_memory).max(*memory);
                        *slices_to_estimate = ESTIMATE_EVERY;
                    }
                    *slices_to_estimate -= 1;
                }
                if !metered && max_memory.is_some_and(|n| *memory >= n) {
                    Control::Stop("memory limit")
                } else if !progress(&Progress {
                    paths: exec.cx.records.paths.len(),
                    pending: searcher.len() + 1,
                    instructions: exec.cx.counters.instructions,
                    queries: exec.cx.solver.stats().queries,
                }) {
                    Control::Stop("cancelled")
                } else {
                    Control::Run
                }
            })
    }

    /// States not explored: waiting, and cut off by the time limit.
    fn pending(&self) -> usize {
        self.driver.pending() + self.context.counters.cut_off as usize
    }

    /// The run's time so far (in step mode, without the waits for steps).
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Path `id`, once it has ended.
    pub fn path(&self, id: usize) -> Option<&PathReport> {
        self.context.records.paths.get(id)
    }

    /// Nodes of the execution tree so far.
    pub fn tree_len(&self) -> usize {
        self.context.records.tree.len()
    }

    /// The report so far: paths, tree and statistics; `stop_reason` is
    /// `running` until the run is over.
    pub fn snapshot(&self) -> Report {
        let mut report = self.report_without_paths();
        report.paths = self.context.records.paths.clone();
        report.tree = self.context.records.tree.render(&self.context.terms);
        report
    }

    pub fn finish(mut self) -> Report {
        self.finish_with_trace().0
    }

    fn finish_with_trace(&mut self) -> (Report, Option<Trace>) {
        let mut report = self.report_without_paths();
        report.paths = std::mem::take(&mut self.context.records.paths);
        report.tree = self.context.records.tree.render(&self.context.terms);
        (report, self.context.records.trace.take())
    }

    fn report_without_paths(&self) -> Report {
        let cx = &self.context;
        let solver_stats = *cx.solver.stats();
        let coverage = Coverage {
            covered_instructions: cx.records.covered.iter().flatten().filter(|&&c| c).count()
                as u64,
            total_instructions: cx.records.covered.iter().map(|c| c.len() as u64).sum(),
        };
        let pending = self.pending() as u64;
        let stats = Stats {
            instructions: cx.counters.instructions,
            forks: cx.counters.forks,
            paths: cx.records.paths.len() as u64,
            dropped_paths: cx.records.drops.total(),
            pending_states: pending,
            queries: solver_stats.queries,
            query_cache_hits: solver_stats.query_cache.hits,
            cex_cache_hits: solver_stats.cex_cache.hits,
            sat_calls: solver_stats.sat_solver.queries,
            solver_unknown: solver_stats.unknown,
            terms: cx.terms.len() as u64,
            peak_memory_bytes: heap_peak().unwrap_or(self.peak_memory),
            timing: Timing {
                total_ms: self.started.elapsed().as_secs_f64() * 1000.0,
                solver_ms: solver_stats.total_time.as_secs_f64() * 1000.0,
            },
        };
        Report {
            schema_version: SCHEMA_VERSION,
            entry: self.entry_name.clone(),
            params: self.params.clone(),
            search: self.options.search.name().to_string(),
            seed: self.options.seed,
            concrete_args: self.options.concrete_args.clone(),
            buffer_args: self.options.buffer_args.clone(),
            heap: self.options.heap.clone(),
            memory_model: if self.roles.heap_start.is_some() {
                "objects".into()
            } else {
                "flat".into()
            },
            warnings: self.warnings(),
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
            drops: cx
                .records
                .drops
                .sites()
                .iter()
                .map(|(cause, location, paths)| DropSite {
                    cause: *cause,
                    location: location.clone(),
                    paths: *paths,
                })
                .collect(),
            concretised: cx
                .records
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
