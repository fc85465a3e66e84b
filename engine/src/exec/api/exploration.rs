//! An exploration of a module's entry, run in steps so that a caller (the
//! browser's worker) can report progress and take a stop request between
//! them: the module instantiated, the entry's parameters made inputs
//! (`params.rs`), the scheduler's loop run in stretches within the limits,
//! with a memory estimate where the heap is not metered.

use super::options::{check_heap, check_imports, check_options, ExploreError, Options, Progress};
use super::params::{name_params, start_states};
use crate::exec::context::guidance::InputSource;
use crate::exec::context::records::Trace;
use crate::exec::context::Context;
use crate::exec::executor::Executor;
use crate::exec::program::instantiate::{add_instance, init_segments};
use crate::exec::program::link::Links;
use crate::exec::program::roles::Roles;
use crate::exec::program::Program;
use crate::exec::run::scheduler::{Control, Pace, Scheduler, Stretch};
use crate::exec::semantics::MAX_FRAMES;
use crate::expr::TermStore;
use crate::limits::{heap_in_use, reset_heap_peak, Limits};
use crate::memory::{BaseMode, HeapOptions};
use crate::report::{PathReport, Report, ShardReport, Status};
use crate::search::Pending;
use crate::state::State;
use std::borrow::Borrow;
use symplay_wasm::imports::allocator_named;
use symplay_wasm::Module;
use web_time::{Duration, Instant};

/// Estimated bytes per term, for the memory estimate.
const TERM_BYTES: u64 = 48;
/// Slices between two memory estimates: an estimate walks every chunk of
/// every state's memory, which costs more than a concrete slice itself.
const ESTIMATE_EVERY: u32 = 8;
/// One more slice between two estimates per this many bytes estimated: the
/// walk grows with what it counts, and so does the wait for the next one,
/// which keeps the estimates a small part of a run (17% of a concrete run
/// over 1 MiB of memory when taken every 8 slices, 5% with this wait) while
/// a limit of a GiB is still checked about once a second.
const ESTIMATE_BYTES_PER_SLICE: u64 = 16 << 10;

pub fn explore(module: &Module, entry: &str, options: &Options) -> Result<Report, ExploreError> {
    explore_with(module, entry, options, &mut |_| true)
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

/// An exploration run in steps, so that a caller (the browser's worker) can
/// report progress and take a stop request between them. `M` is the module,
/// borrowed or owned.
pub struct Exploration<M: Borrow<Module>> {
    pub(super) module: M,
    pub(super) links: Links,
    pub(super) roles: Roles,
    pub(super) entry_name: String,
    /// The names of the entry's parameters.
    pub(super) params: Vec<String>,
    pub(super) options: Options,
    pub(super) context: Context,
    pub(super) scheduler: Scheduler,
    pub(super) started: Instant,
    pub(super) peak_memory: u64,
    /// The last memory estimate, and the slices to run before the next.
    pub(super) memory: u64,
    pub(super) slices_to_estimate: u32,
    /// Set when the run is over: `completed`, the limit hit, or `cancelled`.
    pub(super) stop_reason: Option<String>,
    /// Step mode: steps taken, the instruction count when the last one
    /// ended, since when the run has waited for the next, and the tree's
    /// size when the step under way began.
    pub(super) steps: u64,
    pub(super) instructions_at_step: u64,
    pub(super) idle_since: Option<Instant>,
    pub(super) step_from: Option<(usize, usize)>,
    /// The decisions from the whole run's root to this run's, for the job
    /// of a parallel run that explores a subtree (`handover.rs`).
    pub(super) subtree_at: Vec<u32>,
    /// The share of the run's tree a shard explores (`shard.rs`).
    pub(super) shard: Option<ShardReport>,
}

impl<M: Borrow<Module>> Exploration<M> {
    /// Instantiates the module and makes the entry's parameters symbolic.
    pub fn new(module: M, entry_name: &str, options: &Options) -> Result<Self, ExploreError> {
        Exploration::with_source(
            module,
            entry_name,
            options,
            InputSource::Symbolic,
            None,
            None,
        )
    }

    pub(super) fn with_source(
        module: M,
        entry_name: &str,
        options: &Options,
        source: InputSource,
        trace: Option<Trace>,
        route: Option<&[u32]>,
    ) -> Result<Self, ExploreError> {
        let started = Instant::now();
        check_options(options)?;
        // A job of a parallel run shares the process's meter with the
        // jobs running beside it.
        if route.is_none() {
            reset_heap_peak();
        }
        let m = module.borrow();
        check_imports(m, &options.heap)?;
        check_heap(&options.heap)?;
        let entry = m
            .export_func(entry_name)
            .map_err(|e| ExploreError::options(e.to_string()))?;
        // The allocator explored itself runs as the module's code: the
        // model would replace the very function under test.
        let entry_allocates = options.heap.objects
            && m.funcs
                .get(entry as usize)
                .is_some_and(|f| allocator_named(&f.name).is_some());
        let own;
        let options = if entry_allocates {
            own = Options {
                heap: HeapOptions {
                    objects: false,
                    ..options.heap.clone()
                },
                ..options.clone()
            };
            &own
        } else {
            options
        };
        let mut state = State::default();
        let mut links = Links::default();
        let mut terms = TermStore::new();
        let instance = add_instance(&mut state, &mut links, &mut terms, m, None);
        init_segments(&mut state, &links, &mut terms, m, instance)
            .map_err(|e| ExploreError::module(format!("{e} (instantiation would trap)")))?;
        let buffer_params = !options.buffer_args.is_empty();
        let mut roles = Roles::find(m, &links, &state, &options.heap, buffer_params);
        if entry_allocates {
            roles.skipped.push(format!(
                "the entry {entry_name} is the allocator: it runs as the module's own code, without the heap model (no heap checks)"
            ));
        }
        for memory in &mut state.memories {
            memory.set_contents(options.heap.contents);
        }
        if let (Some(start), Some(memory)) = (roles.heap_start, links.instances[0].memory) {
            let memory = &mut state.memories[memory as usize];
            memory.check_objects(start, roles.null_end);
            memory.set_regions(&roles.region_starts());
            if options.heap.bases == BaseMode::Symbolic {
                memory.use_arena();
            }
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
        // Set before the start, which may fork (a buffer's lengths).
        context.guidance.route = route.map_or_else(Vec::new, <[u32]>::to_vec);
        context.records.trace = trace;
        context.bounds.max_paths = options.max_paths;
        context.bounds.max_frames = options.max_call_depth.map_or(MAX_FRAMES, |n| n as usize);
        context.bounds.frames_trap = false;
        context.outcomes = options.outcomes;
        context.havoc_imports = options.havoc_imports;
        context.merging.options = options.merge;
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
        .map_err(ExploreError::options)?;
        let first = states.remove(0);
        let mut scheduler = Scheduler::new(
            options.search,
            options.seed,
            first,
            &mut context.records.tree,
        );
        for s in states {
            scheduler.add(s, &mut context.records.tree);
        }
        scheduler.max_paths = options.max_paths;
        scheduler.max_instructions = options.max_instructions;
        Ok(Exploration {
            module,
            links,
            roles,
            entry_name: entry_name.to_string(),
            params,
            options: options.clone(),
            context,
            scheduler,
            started,
            peak_memory: 0,
            memory: 0,
            slices_to_estimate: 0,
            stop_reason: None,
            steps: 0,
            instructions_at_step: 0,
            idle_since: None,
            step_from: None,
            subtree_at: route.map_or_else(Vec::new, <[u32]>::to_vec),
            shard: None,
        })
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
            merging: self.context.merging.merging_states(),
        }
    }

    /// Ends the run; what was found so far stays in the report, and the
    /// states waiting at loops' exits count as pending where they are.
    pub fn cancel(&mut self) {
        if self.is_finished() {
            return;
        }
        self.stop_reason = Some("cancelled".into());
        self.scheduler.give_back(&mut self.context);
    }

    /// Runs slices of states in the searcher's order until the run is over
    /// or `budget` has passed; `progress` is asked before every slice (and
    /// every step of a merge) and cancels the run by returning `false`. Returns whether the run is over.
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

    /// Records why the run is over, if `stretch` ended it and no reason
    /// was recorded before.
    pub(super) fn end_if_over(&mut self, stretch: Stretch) {
        if self.is_finished() {
            return;
        }
        match stretch {
            // Sides of forks left out make the run as incomplete as a stop.
            Stretch::Completed if self.context.counters.unforked > 0 => {
                self.stop_reason = Some("path limit".into())
            }
            // Paths cut at a depth limit leave the rest of theirs out.
            Stretch::Completed if self.cut(|p| p.not_provided.is_some()) => {
                self.stop_reason = Some("import not provided".into())
            }
            Stretch::Completed
                if self.cut(|p| p.call_depth_limit.is_none() && p.not_provided.is_none()) =>
            {
                self.stop_reason = Some("depth limit".into())
            }
            Stretch::Completed if self.cut(|p| p.call_depth_limit.is_some()) => {
                self.stop_reason = Some("call-depth limit".into())
            }
            Stretch::Completed => self.stop_reason = Some("completed".into()),
            Stretch::Stopped(reason) => self.stop_reason = Some(reason.into()),
            Stretch::Paused | Stretch::Stepped(_) => {}
        }
    }

    /// Whether a path that ended at a limit is `which`.
    fn cut(&self, which: impl Fn(&PathReport) -> bool) -> bool {
        self.context
            .records
            .paths
            .iter()
            .any(|p| p.status == Status::Limit && which(p))
    }

    pub(super) fn run_stretch(
        &mut self,
        budget: Duration,
        pace: Pace,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> Stretch {
        let max_memory = self.options.max_memory;
        let (mut memory, mut peak_memory, mut slices_to_estimate) =
            (self.memory, self.peak_memory, self.slices_to_estimate);
        let stretch = self.with_executor(|exec, scheduler| {
            scheduler.run(exec, budget, pace, |exec, searcher, state| {
                // Where the heap is not metered, an estimate of the states.
                let metered = heap_in_use().is_some();
                if !metered {
                    if slices_to_estimate == 0 {
                        memory = exec.cx.terms.len() as u64 * TERM_BYTES
                            + searcher.estimated_bytes()
                            + exec.cx.merging.estimated_bytes()
                            + state.map_or(0, State::estimated_bytes);
                        peak_memory = peak_memory.max(memory);
                        let wait = memory / ESTIMATE_BYTES_PER_SLICE;
                        slices_to_estimate =
                            ESTIMATE_EVERY.saturating_add(wait.try_into().unwrap_or(u32::MAX));
                    }
                    slices_to_estimate -= 1;
                }
                if !metered && max_memory.is_some_and(|n| memory >= n) {
                    Control::Stop("memory limit")
                } else if !progress(&Progress {
                    paths: exec.cx.records.paths.len(),
                    pending: searcher.len()
                        + usize::from(state.is_some())
                        + exec.cx.pending_elsewhere(),
                    instructions: exec.cx.counters.instructions,
                    queries: exec.cx.solver.stats().queries,
                    merging: exec.cx.merging.merging_states(),
                }) {
                    Control::Stop("cancelled")
                } else {
                    Control::Run
                }
            })
        });
        (self.memory, self.peak_memory, self.slices_to_estimate) =
            (memory, peak_memory, slices_to_estimate);
        stretch
    }

    /// Runs `f` with an executor of this run's program and context, and
    /// the scheduler.
    pub(super) fn with_executor<T>(
        &mut self,
        f: impl FnOnce(&mut Executor<'_>, &mut Scheduler) -> T,
    ) -> T {
        let modules = [self.module.borrow()];
        let mut exec = Executor {
            program: Program {
                modules: &modules,
                links: &self.links,
                roles: &self.roles,
            },
            cx: &mut self.context,
        };
        f(&mut exec, &mut self.scheduler)
    }

    /// States not explored: waiting to run or at a loop's exit, and cut
    /// off by the time limit.
    pub(super) fn pending(&self) -> usize {
        self.scheduler.pending() + self.context.pending_elsewhere()
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
}
