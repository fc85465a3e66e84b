//! `symplay explore`: symbolic exploration of an exported function, a
//! readable summary and the JSON report.

use crate::heap::{show_memory as show_memory_of, HeapArgs};
use crate::merges::show_merges;
use crate::output::{say, Output};
use crate::status::{Ending, Failure};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use symplay_engine::exec::{
    explore_parallel, explore_shard, Cause, ExploreError, MergeMode, MergeOptions, Options,
    Progress, Shard, MAX_FRAMES, MAX_MERGED_STATES,
};
use symplay_engine::limits::Reached;
use symplay_engine::memory::{AaCacheMode, BaseMode, HeapOptions};
use symplay_engine::report::{
    counted, BufferArg, OutcomeRules, PathReport, Report, RunLimits, Status,
};
use symplay_engine::search::SearchKind;
use symplay_engine::solver::Interrupt;
use symplay_wasm::entry::{default_entry_name, START_ENTRY};
use symplay_wasm::{ExportKind, Module};

#[derive(Args)]
pub struct ExploreArgs {
    /// The module: binary `.wasm` or WAT text.
    file: String,
    /// The exported function to explore; its parameters are symbolic.
    /// Without it, the first exported function that is not a runtime
    /// helper (`__wasm_call_ctors`, `_initialize`, `__`-prefixed names;
    /// `_start` only when nothing else is exported).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// random-path+coverage-new (KLEE's default: the two take turns), dfs,
    /// bfs, random-path or coverage-new.
    #[arg(long, default_value = "random-path+coverage-new")]
    search: String,
    /// Seed of the random-path searcher.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Wall-clock time of the run; none unless given.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    max_time: Option<f64>,
    /// Paths the run makes at most: past it (paths ended and states
    /// pending), a fork no longer splits a state. None unless given.
    #[arg(long, value_name = "N")]
    max_paths: Option<u64>,
    /// Forks along one path at most (a fork is a branch, select, call
    /// through a table or split result whose condition could go more than
    /// one way); a path that would fork deeper ends there, at the depth
    /// limit. None unless given.
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    /// Instructions the run executes at most, over all its paths; the run
    /// stops there with what it found. None unless given.
    #[arg(long, value_name = "N")]
    max_instructions: Option<u64>,
    /// Frames a path may have: a call deeper ends the path at the engine's
    /// call-depth limit (status `limit`, not the program's bug).
    #[arg(long, value_name = "N", default_value_t = MAX_FRAMES as u32)]
    max_call_depth: u32,
    /// Heap the process may use (the run stops with its results there);
    /// at most this machine's memory.
    #[arg(
        long,
        value_name = "MIB",
        default_value_t = DEFAULT_MAX_MEMORY_MIB,
        allow_negative_numbers = true
    )]
    max_memory: u64,
    /// Gives parameter INDEX (from 0) this value instead of a symbolic one;
    /// repeatable.
    #[arg(long = "concrete", value_name = "INDEX=VALUE")]
    concrete: Vec<String>,
    /// Makes parameter INDEX point to a buffer of symbolic bytes, of a
    /// symbolic length at most CAPACITY (sized as --size-mode says), and
    /// parameter LENGTH (if given) that length; repeatable.
    #[arg(long = "buffer", value_name = "INDEX:CAPACITY[:LENGTH]")]
    buffer: Vec<String>,
    /// Write the JSON report here (`-`: standard output, the summary then
    /// goes to standard error); checked before the run.
    #[arg(long, value_name = "OUT")]
    json: Option<String>,
    /// Exit with 0 when bugs are found (else 13); errors, usage errors and
    /// Ctrl-C keep their statuses.
    #[arg(long)]
    exit_zero: bool,
    /// A call of an import the engine does not provide returns fresh
    /// symbolic values (a new input per call), recorded in the path's
    /// notes, instead of ending the path there.
    #[arg(long)]
    havoc_imports: bool,
    /// A `select` on a symbolic condition makes one value (an `ite` term)
    /// on one path, instead of a fork with a path per side: fewer paths,
    /// and outcomes computed by optimised code hidden in terms.
    #[arg(long)]
    select_as_ite: bool,
    /// A result still symbolic at a path's end (the entry's results, an
    /// exit code) that chooses among at most N values (an ite, a lookup
    /// table) splits into a path per value; one that can take more, or
    /// arithmetic on the inputs, stays a term on one path. 0 never splits.
    #[arg(long, value_name = "N", default_value_t = OutcomeRules::RESULT_VALUES)]
    result_values: u32,
    #[command(flatten)]
    heap: HeapArgs,
    /// Which states merge: none; cfg (states that leave a loop at the
    /// same exit with the same call stack wait there for the loop's other
    /// states and merge into one, their differing values `ite` terms); sm
    /// (as cfg, for loops that leave on a size kept symbolic); smopt (as
    /// sm, its formulas built over the forks between the states); or pat
    /// (as cfg, the states of each regular pattern of the branches they
    /// took merged over a new k, with a forall over its iterations; the
    /// others as smopt).
    #[arg(long, value_name = "MODE", default_value = "none")]
    merge: String,
    /// Check every merge with the solver against the states it replaced;
    /// a merge found wrong is an engine error (exit status 1), and its
    /// states go on unmerged.
    #[arg(long)]
    validate_merge: bool,
    /// States merged into one at most; a larger group merges in parts (1:
    /// states wait at loop exits and none merges).
    #[arg(long, value_name = "N", default_value_t = MAX_MERGED_STATES)]
    merge_max_states: usize,
    /// Print the memory objects of each path with a memory error, the
    /// failing access drawn on its object.
    #[arg(long)]
    show_memory: bool,
    /// Print each merge of states: its merged condition beside the
    /// disjunction of the states' own, with their sizes (DAG nodes, or,
    /// ite, CNF), and the values it joined.
    #[arg(long)]
    show_merges: bool,
    /// Print what each layer of the solver chain did: the queries that
    /// reached it, those it answered and its time (the address-aware
    /// cache first when it is on).
    #[arg(long)]
    stats: bool,
    /// Jobs that explore at once, each on a thread of its own with its own
    /// solver: a job that runs dry takes a waiting state from another.
    /// With no limit hit, the paths, outcomes and conditions are the same
    /// whatever N (each path's input may be another model of its
    /// condition). A merging run (--merge) runs one job.
    #[arg(long, value_name = "N", default_value_t = 1)]
    jobs: usize,
    /// Explore shard I of N (counted from 0) of the run: every shard runs
    /// the same first stretch breadth first, then explores its share of the
    /// states it made; `symplay merge` joins the N shards' --json reports
    /// into the report of one run. Run the shards anywhere: `--shard
    /// $SLURM_ARRAY_TASK_ID/N`, `--shard $(JOB_COMPLETION_INDEX)/N`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
}

impl ExploreArgs {
    /// Where `--json` asks the output to go.
    pub(crate) fn json_out(&self) -> Option<&str> {
        self.json.as_deref()
    }

    /// Whether a bug found still exits with 0.
    pub(crate) fn exit_zero(&self) -> bool {
        self.exit_zero
    }
}

/// Explores, prints the summary and writes the report; the ending says
/// whether a bug was found or the run was interrupted.
pub fn run(args: &ExploreArgs) -> Result<Ending, Failure> {
    let out = Output::open_optional(args.json.as_deref())?;
    let report = explore_report(args)?;
    let mut text = summary(&report, args.show_memory, args.stats);
    if args.show_merges {
        text.push_str(&show_merges(&report));
    }
    say(out.as_ref(), &text);
    if let Some(out) = out {
        let json = serde_json::to_string_pretty(&report).expect("a report serialises");
        out.write(&(json + "\n"))?;
    }
    Ok(ending(&report))
}

/// How a run ended, for the exit status.
pub(crate) fn ending(report: &Report) -> Ending {
    let violations = (report.stats.merging.as_ref()).map_or(0, |m| m.violations);
    if report.stop_reason == Reached::Interrupt.stop_reason() {
        Ending::Interrupted
    } else if violations > 0 {
        Ending::EngineError
    } else if report.paths.iter().any(PathReport::is_bug) {
        Ending::BugFound
    } else {
        Ending::Clean
    }
}

/// The report of the exploration `args` ask for (Ctrl-C stops it with
/// what it found).
pub fn explore_report(args: &ExploreArgs) -> Result<Report, Failure> {
    if args.jobs == 0 {
        return Err(Failure::Usage("--jobs must be at least 1".into()));
    }
    let shard = (args.shard.as_deref())
        .map(Shard::parse)
        .transpose()
        .map_err(Failure::Usage)?;
    if shard.is_some() && args.jobs > 1 {
        return Err(Failure::Usage(
            "--shard runs one job: run more shards instead of --jobs".into(),
        ));
    }
    let run = prepare(args)?;
    if let Some(shard) = shard {
        let report = explore_shard(
            &run.module,
            &run.entry,
            &run.options,
            shard,
            &mut progress_printer(),
        );
        clear_progress();
        return report.map_err(explore_failure);
    }
    if args.jobs > 1 && run.options.merge.mode != MergeMode::None {
        eprintln!(
            "--merge {} runs one job: a merging context's states span subtrees",
            args.merge
        );
    }
    let report = explore_parallel(
        &run.module,
        &run.entry,
        &run.options,
        args.jobs,
        &mut progress_printer(),
    )
    .map_err(explore_failure);
    clear_progress();
    report
}

/// Clears the progress line, where there is one.
fn clear_progress() {
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[K");
    }
}

/// An engine's refusal as the command line's: options that do not fit the
/// module are a usage error, a module that cannot be explored an error.
pub(crate) fn explore_failure(e: ExploreError) -> Failure {
    match e.cause {
        Cause::Options => Failure::Usage(e.message),
        Cause::Module => Failure::Error(e.message),
    }
}

/// What an exploration needs, read from `args`: the module, the entry
/// (said on stderr when chosen by default) and the engine's options, with
/// an interrupt that Ctrl-C sets once [`progress_printer`] runs.
pub(crate) struct Prepared {
    pub module: Module,
    pub entry: String,
    pub options: Options,
}

pub(crate) fn prepare(args: &ExploreArgs) -> Result<Prepared, Failure> {
    let search = SearchKind::parse(&args.search).ok_or_else(|| {
        Failure::Usage(format!(
            "unknown searcher `{}` ({})",
            args.search,
            SearchKind::names()
        ))
    })?;
    let max_time = args
        .max_time
        .map(seconds)
        .transpose()
        .map_err(Failure::Usage)?;
    let max_memory = memory(args.max_memory).map_err(Failure::Usage)?;
    let concrete_args = concrete_args(&args.concrete).map_err(Failure::Usage)?;
    let buffer_args = buffer_args(&args.buffer).map_err(Failure::Usage)?;
    let heap = args
        .heap
        .options(HeapOptions::default())
        .map_err(Failure::Usage)?;
    let merge = MergeOptions {
        mode: MergeMode::parse(&args.merge).ok_or_else(|| {
            Failure::Usage(format!(
                "unknown merge mode `{}` ({})",
                args.merge,
                MergeMode::listed(&MergeMode::ALL)
            ))
        })?,
        max_states: args.merge_max_states,
        validate: args.validate_merge,
    };
    let module = load_module(&args.file)?;
    let entry = match &args.entry {
        Some(name) => name.clone(),
        None => {
            let chosen = default_entry_name(&module).map_err(|e| {
                Failure::Usage(format!(
                    "{}: {e}; name the function to explore with --entry NAME",
                    args.file
                ))
            })?;
            eprintln!("{}", chose(&module, &chosen));
            chosen
        }
    };
    let options = Options {
        search,
        seed: args.seed,
        max_time,
        max_paths: args.max_paths,
        max_depth: args.max_depth,
        max_instructions: args.max_instructions,
        max_call_depth: Some(args.max_call_depth),
        havoc_imports: args.havoc_imports,
        max_memory: Some(max_memory),
        interrupt: Some(Interrupt(&INTERRUPTED)),
        concrete_args,
        buffer_args,
        heap,
        outcomes: OutcomeRules {
            fork_selects: !args.select_as_ite,
            result_values: args.result_values,
        },
        merge,
    };
    Ok(Prepared {
        module,
        entry,
        options,
    })
}

/// The module in `file`, binary or text.
pub(crate) fn load_module(file: &str) -> Result<Module, Failure> {
    let bytes =
        std::fs::read(file).map_err(|e| Failure::Error(format!("cannot read {file}: {e}")))?;
    symplay_wasm::load(&bytes).map_err(|e| Failure::Error(format!("{file}: {e}")))
}

/// Says which entry was chosen without `--entry`, and what else there was.
fn chose(module: &Module, entry: &str) -> String {
    let others: Vec<&str> = module
        .exports
        .iter()
        .filter(|e| e.kind == ExportKind::Func && e.name != entry)
        .map(|e| e.name.as_str())
        .collect();
    let mut text = if entry == START_ENTRY {
        "exploring the start function: the program exports no function".to_string()
    } else if entry == "_start" {
        "exploring `_start`, the only exported function of the program".to_string()
    } else {
        format!("exploring `{entry}`, the first exported function of the program")
    };
    if !others.is_empty() {
        text.push_str(&format!(
            " (also exported: {}; --entry NAME explores another)",
            others.join(", ")
        ));
    }
    text
}

/// `memory 2048 MiB, time 5 s, ...`: the limits a run had.
fn limits_text(l: &RunLimits) -> String {
    let mut parts = Vec::new();
    if let Some(b) = l.max_memory_bytes {
        parts.push(format!("memory {} MiB", b >> 20));
    }
    if let Some(ms) = l.max_time_ms {
        parts.push(format!("time {} s", ms as f64 / 1000.0));
    }
    if let Some(n) = l.max_paths {
        parts.push(format!("{n} paths"));
    }
    if let Some(n) = l.max_depth {
        parts.push(format!("depth {n}"));
    }
    if let Some(n) = l.max_instructions {
        parts.push(format!("{n} instructions"));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The memory limit when none is given, as KLEE's (2,000 MB).
const DEFAULT_MAX_MEMORY_MIB: u64 = 2048;
/// The longest time limit taken (about 31 years).
const MAX_SECONDS: f64 = 1e9;

/// `--max-time` as a duration: a number of seconds, not zero, NaN or past
/// [`MAX_SECONDS`].
fn seconds(t: f64) -> Result<Duration, String> {
    if !(t > 0.0 && t <= MAX_SECONDS) {
        return Err(format!(
            "--max-time must be a number of seconds above 0 and at most {MAX_SECONDS:e}, not {t}"
        ));
    }
    Ok(Duration::from_secs_f64(t))
}

/// `--max-memory` in bytes: above zero, and not more than the machine has
/// (where the machine says how much that is).
fn memory(mib: u64) -> Result<u64, String> {
    if mib == 0 {
        return Err("--max-memory must be above 0 MiB".into());
    }
    let bytes = mib.saturating_mul(1 << 20);
    if let Some(total) = machine_memory() {
        if bytes > total {
            return Err(format!(
                "--max-memory {mib} MiB is more than this machine's {} MiB",
                total >> 20
            ));
        }
    }
    Ok(bytes)
}

/// The machine's memory in bytes, from `/proc/meminfo` (Linux).
fn machine_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    symplay_cli::procfs::kib_field(&info, "MemTotal")
}

/// Wasm functions have at most this many parameters (the JS API's limit).
const MAX_PARAMS: usize = 1000;

/// `--concrete 1=10 --concrete 0=-3` as values by parameter index.
fn concrete_args(specs: &[String]) -> Result<Vec<Option<i64>>, String> {
    let mut args = Vec::new();
    for spec in specs {
        let (index, value) = spec
            .split_once('=')
            .and_then(|(i, v)| {
                Some((
                    i.trim().parse::<usize>().ok()?,
                    v.trim().parse::<i64>().ok()?,
                ))
            })
            .ok_or_else(|| format!("--concrete takes INDEX=VALUE, as in 0=10, not `{spec}`"))?;
        if index >= MAX_PARAMS {
            return Err(format!(
                "--concrete {spec}: no function has {} parameters",
                index + 1
            ));
        }
        if args.len() <= index {
            args.resize(index + 1, None);
        }
        if args[index].replace(value).is_some() {
            return Err(format!("--concrete: parameter {index} is given twice"));
        }
    }
    Ok(args)
}

/// `--buffer` specs: `0:16` (parameter 0 points to at most 16 bytes) or
/// `0:16:1` (parameter 1 is their length).
pub(crate) fn buffer_args(specs: &[String]) -> Result<Vec<BufferArg>, String> {
    specs
        .iter()
        .map(|spec| {
            let bad = || {
                format!(
                    "--buffer takes INDEX:CAPACITY or INDEX:CAPACITY:LENGTH, as in 0:16:1, not `{spec}`"
                )
            };
            let mut parts = spec.split(':').map(|p| p.trim().parse::<u64>().ok());
            let (Some(Some(param)), Some(Some(capacity))) = (parts.next(), parts.next()) else {
                return Err(bad());
            };
            let length_param = match parts.next() {
                None => None,
                Some(Some(l)) => Some(l),
                Some(None) => return Err(bad()),
            };
            if parts.next().is_some() {
                return Err(bad());
            }
            let index = |i: u64| {
                usize::try_from(i)
                    .ok()
                    .filter(|&i| i < MAX_PARAMS)
                    .ok_or_else(|| format!("--buffer {spec}: no function has {} parameters", i + 1))
            };
            Ok(BufferArg {
                param: index(param)?,
                capacity: u32::try_from(capacity)
                    .map_err(|_| format!("--buffer {spec}: the capacity is too large"))?,
                length_param: length_param.map(index).transpose()?,
            })
        })
        .collect()
}

/// Set by Ctrl-C: the run stops, inside a solver query too, and reports
/// what it found.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The progress hook: stops on Ctrl-C (a second Ctrl-C exits at once) and,
/// on a terminal, redraws a status line every second.
pub(crate) fn progress_printer() -> impl FnMut(&Progress) -> bool {
    // Without a handler Ctrl-C still ends the process, only without a report.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut last = started;
    move |p| {
        if terminal && last.elapsed() >= Duration::from_secs(1) {
            last = Instant::now();
            let merging = match p.merging {
                0 => String::new(),
                n => format!(" ({n} merging)"),
            };
            eprint!(
                "\r{} paths, {} pending{merging}, {} queries, {} instructions, {:.0} s (Ctrl-C stops)  ",
                p.paths,
                p.pending,
                p.queries,
                p.instructions,
                started.elapsed().as_secs_f64()
            );
            let _ = std::io::stderr().flush();
        }
        !INTERRUPTED.load(Ordering::SeqCst)
    }
}

pub(crate) fn summary(r: &Report, show_memory: bool, layers: bool) -> String {
    let count = |status: Status| r.paths.iter().filter(|p| p.status == status).count() as u64;
    let memory_errors = match count(Status::MemoryError) {
        0 => String::new(),
        n => format!(", {}", counted(n, "memory error", "memory errors")),
    };
    let panics = match count(Status::Panicked) {
        0 => String::new(),
        n => format!(", {}", counted(n, "panic", "panics")),
    };
    let exited = r.paths.iter().filter(|p| p.exit_code.is_some()).count() as u64;
    let exited_text = match exited {
        0 => String::new(),
        n => format!("{n} exited, "),
    };
    let call_depth = r
        .paths
        .iter()
        .filter(|p| p.call_depth_limit.is_some())
        .count() as u64;
    let not_provided = r.paths.iter().filter(|p| p.not_provided.is_some()).count() as u64;
    // Paths at `--max-depth`: those at a limit that is not another one.
    let depth_limited = count(Status::Limit) - call_depth - not_provided;
    let mut call_depth_text = match call_depth {
        0 => String::new(),
        n => format!(", {n} at the call-depth limit"),
    };
    if not_provided > 0 {
        call_depth_text.push_str(&format!(", {not_provided} calling an import not provided"));
    }
    let mut text = format!(
        "explored {} with {}: {} ({} returned, {exited_text}{} trapped, {}{memory_errors}{panics}, {} at the depth limit{call_depth_text})\n",
        r.entry,
        r.search,
        counted(r.paths.len() as u64, "path", "paths"),
        count(Status::Returned) - exited,
        count(Status::Trapped),
        counted(count(Status::AssertFailed), "assertion failure", "assertion failures"),
        depth_limited,
    );
    if let Some(shard) = &r.shard {
        let (index, count) = (shard.index as usize, shard.count as usize);
        let kept = (shard.frontier + count - 1 - index) / count;
        text.push_str(&match shard.frontier {
            0 => format!("shard {index}/{count}: the first stretch, which every shard runs, explored the whole run\n"),
            n => format!(
                "shard {index}/{count}: of the {n} waiting states the first stretch made, {kept} explored here (`symplay merge` joins the shards' reports)\n"
            ),
        });
    }
    if exited > 0 {
        let mut codes: Vec<i64> = r.paths.iter().filter_map(|p| p.exit_code).collect();
        codes.sort_unstable();
        codes.dedup();
        let codes: Vec<String> = codes.iter().map(i64::to_string).collect();
        text.push_str(&format!("exit codes: {}\n", codes.join(", ")));
    }
    if r.memory_model == "objects" {
        let pointers = match r.heap.bases {
            BaseMode::Concrete => "",
            BaseMode::Symbolic => ", pointers over symbolic bases",
        };
        text.push_str(&format!(
            "heap: memory objects, symbolic sizes {} with capacity {}{pointers}\n",
            r.heap.size_mode, r.heap.capacity
        ));
    }
    if let Some(split) = r.heap.split {
        text.push_str(&format!(
            "split: objects and regions over {} bytes, in pieces of {} bytes\n",
            split.threshold, split.piece
        ));
    }
    if let Some(segments) = r.heap.segments {
        let contexts = match segments.context_depth {
            Some(depth) => format!(
                "; an access first takes the blocks of the allocation contexts it met ({})",
                counted(u64::from(depth), "caller", "callers")
            ),
            None => String::new(),
        };
        text.push_str(&format!(
            "segments: the blocks a pointer may point into are moved into one, of at most {} bytes{contexts}\n",
            segments.cap
        ));
    }
    match r.heap.aa_cache {
        AaCacheMode::Off => {}
        mode => text.push_str(&format!(
            "address-aware cache: a branch's query is also known by its form over base symbols{}\n",
            if mode == AaCacheMode::Check {
                "; every answer it gives is asked of the solver again"
            } else {
                ""
            }
        )),
    }
    if let Some(m) = &r.stats.merging {
        text.push_str(&format!(
            "merging ({}): {} watched, {} waited at their exits ({} ended inside), {} ({} merged{}){}\n",
            r.merge.mode,
            counted(m.contexts, "loop", "loops"),
            counted(m.waited, "state", "states"),
            m.ended_inside,
            counted(m.merges, "merge", "merges"),
            counted(m.merged_states, "state", "states"),
            match r.merge.mode {
                MergeMode::Pat => format!(
                    "; {} over a k, {} incremental",
                    m.over_k, m.incremental
                ),
                _ => String::new(),
            },
            match m.unmerged_groups {
                0 => String::new(),
                n => format!(", {} that could not merge", counted(n, "group", "groups")),
            }
        ));
        if r.merge.validate {
            text.push_str(&format!(
                "merge validation: {} of {} proved right, {} wrong\n",
                m.validated,
                counted(m.merges + m.violations, "merge", "merges"),
                m.violations
            ));
        }
    }
    for warning in &r.warnings {
        text.push_str(&format!("warning: {warning}\n"));
    }
    let given: Vec<String> = r
        .concrete_args
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| format!("{} = {v}", r.param_name(i))))
        .collect();
    if !given.is_empty() {
        text.push_str(&format!("concrete parameters: {}\n", given.join(", ")));
    }
    if let Some(concretised) = r.concretised_summary() {
        text.push_str(&concretised);
        text.push('\n');
    }
    if let Some(drops) = r.drops_summary() {
        text.push_str(&drops);
        text.push('\n');
    }
    if r.stop_reason == "depth limit" {
        text.push_str(&format!(
            "not explored to the end: {} at the depth limit (--max-depth {})\n",
            counted(depth_limited, "path ends", "paths end"),
            r.limits.max_depth.unwrap_or_default()
        ));
    } else if r.stop_reason == "import not provided" {
        let mut imports: Vec<&str> = r
            .paths
            .iter()
            .filter_map(|p| p.not_provided.as_deref())
            .collect();
        imports.sort_unstable();
        imports.dedup();
        text.push_str(&format!(
            "not explored to the end: {} an import that is not provided ({}; --havoc-imports gives it fresh results)\n",
            counted(not_provided, "path calls", "paths call"),
            imports.join(", ")
        ));
    } else if r.stop_reason == "call-depth limit" {
        text.push_str(&format!(
            "not explored to the end: {} at the engine's call-depth limit (--max-call-depth {})\n",
            counted(call_depth, "path ends", "paths end"),
            r.paths
                .iter()
                .find_map(|p| p.call_depth_limit)
                .unwrap_or_default()
        ));
    } else if r.stop_reason != "completed" {
        text.push_str(&format!(
            "stopped early: {} ({} left)\n",
            r.stop_reason,
            counted(r.stats.pending_states, "state", "states")
        ));
    }
    // One line per bug: the paths that end the same way at the same place,
    // shown by the shortest input.
    for group in r.bug_groups() {
        let p = &r.paths[group.paths[0]];
        let what = match (p.trap, &p.memory_error, p.status) {
            (Some(trap), _, _) => format!("trap {} at {}", trap.name(), p.location.text()),
            (None, Some(_), _) | (None, None, Status::Panicked) => p.outcome(),
            (None, None, _) => format!("assertion failed at {}", p.location.text()),
        };
        let inputs = serde_json::to_string(&p.inputs).unwrap_or_default();
        text.push_str(&match group.paths.len() {
            1 => format!("bug: path {}: {what}, input {inputs}\n", p.id),
            n => format!(
                "bug: {what}, on {n} paths; shortest input {inputs} (path {})\n",
                p.id
            ),
        });
        if show_memory && p.memory_error.is_some() {
            text.push_str(&show_memory_of(p));
        }
    }
    let leaking: Vec<&PathReport> = r.paths.iter().filter(|p| !p.leaks.is_empty()).collect();
    if let Some(first) = leaking.first() {
        let blocks: Vec<String> = first
            .leaks
            .iter()
            .filter_map(|id| first.objects.iter().find(|o| o.id == *id))
            .map(|o| o.describe())
            .collect();
        let paths = match leaking.len() {
            1 => "1 path ends".to_string(),
            n => format!("{n} paths end"),
        };
        text.push_str(&format!(
            "warning: {paths} with heap blocks still allocated (path {}: {})\n",
            first.id,
            blocks.join("; ")
        ));
    }
    let c = &r.coverage;
    let percent = if c.total_instructions == 0 {
        0.0
    } else {
        100.0 * c.covered_instructions as f64 / c.total_instructions as f64
    };
    text.push_str(&format!(
        "coverage: {}/{} instructions ({percent:.1}%)\n",
        c.covered_instructions, c.total_instructions
    ));
    let s = &r.stats;
    text.push_str(&format!(
        "stats: {}, {}, {}; solver {:.1} ms, total {:.1} ms, peak memory {:.1} MiB\n",
        counted(s.instructions, "instruction", "instructions"),
        counted(s.forks, "fork", "forks"),
        s.queries_text(),
        s.timing.solver_ms,
        s.timing.total_ms,
        s.peak_memory_bytes as f64 / f64::from(1 << 20)
    ));
    if layers {
        text.push_str(&format!("solver layers:\n{}", s.layers_text()));
    }
    if let Some(states) = s.state_bytes_text() {
        text.push_str(&format!("{states}\n"));
    }
    if let Some(arrays) = s.arrays_text() {
        text.push_str(&format!("{arrays}\n"));
    }
    text.push_str(&format!("limits: {}\n", limits_text(&r.limits)));
    text.push_str(&format!("outcomes: {}\n", r.outcomes.describe()));
    if r.havoc_imports {
        text.push_str("imports not provided: each call returns fresh symbolic values (havoc)\n");
    }
    text
}
