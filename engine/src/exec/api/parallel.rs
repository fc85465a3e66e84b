//! Parallel exploration on one machine: jobs on threads, each with its own
//! term store, solver and caches, sharing the tree by subtrees. A job that
//! runs dry waits; a busy job, between two slices, hands the shallowest of
//! its waiting states to the waiting one as a [`Handover`]: the decisions
//! that name the state's node, and a test of its path. The new job goes
//! down that route (`handover.rs`) and explores freely from there. The
//! jobs' reports are joined into one (`report/join.rs`), numbered as the
//! tree's nodes are named, so that with no limit hit it holds the same
//! paths, outcomes and conditions whatever the number of jobs.

use super::exploration::{explore_with, Exploration};
use super::handover::Handover;
use super::options::{ExploreError, Options, Progress};
use crate::report::join::{cut_reason, join, Part};
use crate::report::Report;
use crate::state::MergeMode;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use symplay_wasm::Module;
use web_time::{Duration, Instant};

/// How often the caller's progress hook hears from the jobs.
const PROGRESS_EVERY: Duration = Duration::from_millis(50);

/// A job: the whole run (`None`) or the subtree below a handed state.
struct Job {
    handover: Option<Handover>,
    /// Runs of it that panicked.
    panics: u32,
}

/// What the jobs share.
struct Board {
    queue: VecDeque<Job>,
    /// Jobs running.
    busy: usize,
    parts: Vec<Part>,
    warnings: Vec<String>,
    error: Option<ExploreError>,
    /// Why the whole run stopped, once a job or the caller stopped it.
    stopped: Option<String>,
}

struct Shared<'a> {
    module: &'a Module,
    entry: &'a str,
    options: &'a Options,
    board: Mutex<Board>,
    wake: Condvar,
    /// Jobs waiting for work.
    idle: AtomicUsize,
    stop: AtomicBool,
    /// Paths and instructions of every job so far, for the run's limits.
    paths: AtomicU64,
    instructions: AtomicU64,
    /// Each worker's pending states and queries in the job it runs.
    progress: Vec<[AtomicU64; 2]>,
}

/// Explores as [`explore_with`] does with `jobs` jobs on as many threads;
/// one job (or a merging run, whose contexts span subtrees) runs alone.
pub fn explore_parallel(
    module: &Module,
    entry: &str,
    options: &Options,
    jobs: usize,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Report, ExploreError> {
    if jobs <= 1 || options.merge.mode != MergeMode::None {
        return explore_with(module, entry, options, progress);
    }
    let started = Instant::now();
    let mut options = options.clone();
    // One deadline for every job, however late it starts.
    let deadline = options.max_time.map(|t| started + t);
    options.max_time = None;
    let shared = Shared {
        module,
        entry,
        options: &options,
        board: Mutex::new(Board {
            queue: VecDeque::from([Job {
                handover: None,
                panics: 0,
            }]),
            busy: 0,
            parts: Vec::new(),
            warnings: Vec::new(),
            error: None,
            stopped: None,
        }),
        wake: Condvar::new(),
        idle: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        paths: AtomicU64::new(0),
        instructions: AtomicU64::new(0),
        progress: (0..jobs).map(|_| Default::default()).collect(),
    };
    std::thread::scope(|scope| {
        for worker in 0..jobs {
            let shared = &shared;
            scope.spawn(move || work(shared, worker, deadline));
        }
        watch(&shared, progress);
    });
    let board = shared.board.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = board.error {
        return Err(e);
    }
    if board.parts.is_empty() {
        return Err(ExploreError::module(format!(
            "the engine failed: {}",
            board.warnings.join("; ")
        )));
    }
    let mut report = join(&board.parts);
    report.limits.max_time_ms = deadline.map(|d| (d - started).as_millis() as u64);
    report.warnings.extend(board.warnings);
    report.stop_reason = board.stopped.unwrap_or_else(|| cut_reason(&board.parts));
    report.stats.timing.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(report)
}

/// The caller's side while the jobs run: their progress summed, every
/// `PROGRESS_EVERY`, and the caller's stop passed on to them.
fn watch(shared: &Shared, progress: &mut dyn FnMut(&Progress) -> bool) {
    loop {
        {
            let board = shared.board.lock().unwrap_or_else(|e| e.into_inner());
            if board.busy == 0 && board.queue.is_empty() {
                return;
            }
            let _ = shared.wake.wait_timeout(board, PROGRESS_EVERY);
        }
        let sum = |i: usize| -> u64 {
            (shared.progress.iter())
                .map(|p| p[i].load(Ordering::Relaxed))
                .sum()
        };
        let now = Progress {
            paths: shared.paths.load(Ordering::Relaxed) as usize,
            pending: sum(0) as usize,
            instructions: shared.instructions.load(Ordering::Relaxed),
            queries: sum(1),
            merging: 0,
        };
        if !progress(&now) {
            stop(shared, "cancelled");
        }
    }
}

/// Stops every job, for `reason` unless one was given before.
fn stop(shared: &Shared, reason: &str) {
    let mut board = shared.board.lock().unwrap_or_else(|e| e.into_inner());
    board.stopped.get_or_insert_with(|| reason.to_string());
    board.queue.clear();
    shared.stop.store(true, Ordering::Relaxed);
    shared.wake.notify_all();
}

/// One worker: takes jobs until none is left and none runs.
fn work(shared: &Shared, worker: usize, deadline: Option<Instant>) {
    loop {
        let job = {
            let mut board = shared.board.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(job) = board.queue.pop_front() {
                    board.busy += 1;
                    break Some(job);
                }
                if board.busy == 0 || shared.stop.load(Ordering::Relaxed) {
                    break None;
                }
                shared.idle.fetch_add(1, Ordering::Relaxed);
                board = shared.wake.wait(board).unwrap_or_else(|e| e.into_inner());
                shared.idle.fetch_sub(1, Ordering::Relaxed);
            }
        };
        let Some(job) = job else {
            shared.wake.notify_all();
            return;
        };
        let ran = catch_unwind(AssertUnwindSafe(|| run_job(shared, worker, &job, deadline)));
        for slot in &shared.progress[worker] {
            slot.store(0, Ordering::Relaxed);
        }
        let mut board = shared.board.lock().unwrap_or_else(|e| e.into_inner());
        board.busy -= 1;
        match ran {
            Ok(Ok(part)) => {
                // A job stopped by a limit stops the others too.
                if part.report.stats.pending_states > 0 && !shared.stop.load(Ordering::Relaxed) {
                    board.stopped = Some(part.report.stop_reason.clone());
                    board.queue.clear();
                    shared.stop.store(true, Ordering::Relaxed);
                }
                board.parts.push(part);
            }
            Ok(Err(e)) => {
                board.error.get_or_insert(e);
                board.queue.clear();
                shared.stop.store(true, Ordering::Relaxed);
            }
            Err(panic) => {
                let message = panic_text(&panic);
                let at = job.handover.as_ref().map_or_else(
                    || "the whole run".to_string(),
                    |h| format!("the subtree at {:?}", h.decisions),
                );
                if job.panics == 0 {
                    board.warnings.push(format!(
                        "a job panicked ({message}); {at} was explored again"
                    ));
                    board.queue.push_back(Job {
                        handover: job.handover,
                        panics: 1,
                    });
                } else {
                    board.warnings.push(format!(
                        "a job panicked twice ({message}); {at} is left unexplored"
                    ));
                }
            }
        }
        shared.wake.notify_all();
    }
}

/// Runs `job` a slice at a time, handing a waiting state to an idle job
/// between slices, within the run's limits over all jobs.
fn run_job(
    shared: &Shared,
    worker: usize,
    job: &Job,
    deadline: Option<Instant>,
) -> Result<Part, ExploreError> {
    let (module, entry, options) = (shared.module, shared.entry, shared.options);
    let mut x = match &job.handover {
        None => Exploration::new(module, entry, options)?,
        Some(handover) => Exploration::for_subtree(module, entry, options, handover)?,
    };
    x.context.bounds.limits.deadline = deadline;
    let (mut paths, mut instructions) = (0, 0);
    let slots = &shared.progress[worker];
    loop {
        // The path and instruction limits hold over every job.
        let found = shared.paths.load(Ordering::Relaxed);
        x.scheduler.max_paths = options.max_paths.map(|n| paths + n.saturating_sub(found));
        let ran = shared.instructions.load(Ordering::Relaxed);
        x.scheduler.max_instructions = options
            .max_instructions
            .map(|n| instructions + n.saturating_sub(ran));
        let finished = x.advance(Duration::ZERO, &mut |p| {
            slots[0].store(p.pending as u64, Ordering::Relaxed);
            slots[1].store(p.queries, Ordering::Relaxed);
            !shared.stop.load(Ordering::Relaxed)
        });
        let now = x.progress();
        shared
            .paths
            .fetch_add(now.paths as u64 - paths, Ordering::Relaxed);
        shared
            .instructions
            .fetch_add(now.instructions - instructions, Ordering::Relaxed);
        (paths, instructions) = (now.paths as u64, now.instructions);
        if finished {
            break;
        }
        if shared.idle.load(Ordering::Relaxed) > 0 && wants_work(shared) {
            // Handed over outside the lock: a test may need the solver.
            if let Some(handover) = x.hand_over() {
                let mut board = shared.board.lock().unwrap_or_else(|e| e.into_inner());
                board.queue.push_back(Job {
                    handover: Some(handover),
                    panics: 0,
                });
                shared.wake.notify_all();
            }
        }
    }
    let off_course = x.off_course();
    let covered = Some(x.covered().to_vec());
    let mut report = x.finish();
    if off_course > 0 {
        // The subtree was not explored: its state counts as pending.
        report.warnings.push(format!(
            "a job's way to the state it was handed ended ({off_course} paths before it): that subtree is left unexplored"
        ));
        if let Some(root) = report.tree.first_mut() {
            root.handed_over = true;
        }
    }
    Ok(Part {
        report,
        at: job
            .handover
            .as_ref()
            .map_or_else(Vec::new, |h| h.decisions.clone()),
        covered,
    })
}

/// Whether no job is queued and the run goes on: an idle job wants one.
fn wants_work(shared: &Shared) -> bool {
    let board = shared.board.lock().unwrap_or_else(|e| e.into_inner());
    board.queue.is_empty() && !shared.stop.load(Ordering::Relaxed)
}

/// A panic's message, where it is text.
fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    (panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}
