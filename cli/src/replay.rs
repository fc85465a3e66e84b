//! `symplay replay`: runs one test concretely and prints its trace and
//! outcome, and whether the outcome is the one recorded in the test file.

use crate::explore::buffer_args;
use crate::explore::{explore_failure, load_module};
use crate::heap::{show_memory, HeapArgs};
use crate::output::{say, Output};
use crate::status::{Ending, Failure};
use clap::Args;
use serde_json::Value;
use symplay_engine::exec::{replay_traced, Replay, ReplayOptions};
use symplay_engine::memory::HeapOptions;
use symplay_engine::report::{BufferArg, PathReport, Report, TestInput, SCHEMA_VERSION};

#[derive(Args)]
pub struct ReplayArgs {
    /// The module: binary `.wasm` or WAT text.
    file: String,
    /// The exported function; optional when the test file is a report.
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// A report of `symplay explore --json`, one path of it, or a test input
    /// such as `{"args": [5], "named": [{"name": "x", "value": 3}]}`.
    #[arg(long, value_name = "TEST.json")]
    test: String,
    /// The path of the report to replay.
    #[arg(long, value_name = "ID")]
    path: Option<usize>,
    /// Stop a run that has not ended after this many instructions.
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    max_instructions: u64,
    /// Forks a path may make before it ends at the depth limit; a report's
    /// own limit is used unless given here (none for a test input).
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    /// Trace events printed; later ones are counted.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_events: usize,
    /// Write the replayed path and its trace as JSON here (`-`: standard
    /// output, the trace then goes to standard error).
    #[arg(long, value_name = "OUT")]
    json: Option<String>,
    /// Imports the engine does not provide return the test's values (as
    /// `explore --havoc-imports` made them); a report's own setting is used
    /// unless given here.
    #[arg(long)]
    havoc_imports: bool,
    /// Exit with 0 when the replayed path ends in a bug (else 13).
    #[arg(long)]
    exit_zero: bool,
    /// The heap model; a report's own is used unless changed here.
    #[command(flatten)]
    heap: HeapArgs,
    /// Print the memory objects at the end of the path.
    #[arg(long)]
    show_memory: bool,
    /// Buffer parameters, as `explore --buffer` takes them; a report's own
    /// are used unless given here.
    #[arg(long = "buffer", value_name = "INDEX:CAPACITY[:LENGTH]")]
    buffer: Vec<String>,
}

/// What the test file gives: inputs, the entry if a report names it, and the
/// recorded outcome if there is one.
struct Test {
    inputs: TestInput,
    entry: Option<String>,
    recorded: Option<PathReport>,
    /// The heap model of the report the test comes from.
    heap: Option<HeapOptions>,
    /// Its buffer parameters.
    buffer_args: Vec<BufferArg>,
    /// Its depth limit.
    max_depth: Option<u32>,
    /// Its call-depth limit, when not the default.
    max_call_depth: Option<u32>,
    /// Whether it gave unprovided imports fresh results.
    havoc_imports: bool,
}

impl ReplayArgs {
    /// Whether a bug replayed still exits with 0.
    pub(crate) fn exit_zero(&self) -> bool {
        self.exit_zero
    }
}

/// Replays; the ending says whether the path is a bug and whether it
/// differs from the recorded one.
pub fn run(args: &ReplayArgs) -> Result<Ending, Failure> {
    if args.max_instructions == 0 || args.max_depth == Some(0) {
        return Err(Failure::Usage(format!(
            "{} must be greater than zero",
            if args.max_depth == Some(0) {
                "--max-depth"
            } else {
                "--max-instructions"
            }
        )));
    }
    let out = Output::open_optional(args.json.as_deref())?;
    let text = std::fs::read_to_string(&args.test)
        .map_err(|e| Failure::Error(format!("cannot read {}: {e}", args.test)))?;
    let test =
        parse_test(&text, args.path).map_err(|e| Failure::Usage(format!("{}: {e}", args.test)))?;
    let entry = args.entry.clone().or(test.entry).ok_or_else(|| {
        Failure::Usage("--entry is needed: the test file is not a report naming its entry".into())
    })?;
    let module = load_module(&args.file)?;
    let options = ReplayOptions {
        max_instructions: Some(args.max_instructions),
        max_events: args.max_events,
        heap: args
            .heap
            .options(test.heap.clone().unwrap_or_default())
            .map_err(Failure::Usage)?,
        buffer_args: if args.buffer.is_empty() {
            test.buffer_args.clone()
        } else {
            buffer_args(&args.buffer).map_err(Failure::Usage)?
        },
        max_depth: args.max_depth.or(test.max_depth),
        max_call_depth: test.max_call_depth,
        havoc_imports: args.havoc_imports || test.havoc_imports,
    };
    let replay = replay_traced(&module, &entry, &test.inputs, &options).map_err(explore_failure)?;
    let mut text = describe(&entry, &replay);
    if args.show_memory {
        text.push_str(&show_memory(&replay.path));
    }
    let ending = match &test.recorded {
        Some(recorded) if !same_outcome(recorded, &replay.path) => {
            text.push_str(&format!(
                "differs from the recorded outcome: {}\n",
                recorded.outcome()
            ));
            Ending::Differs
        }
        recorded => {
            if recorded.is_some() {
                text.push_str("matches the recorded outcome\n");
            }
            if replay.path.is_bug() {
                Ending::BugFound
            } else {
                Ending::Clean
            }
        }
    };
    say(out.as_ref(), &text);
    if let Some(out) = out {
        let json = serde_json::json!({
            "path": replay.path,
            "trace": replay.trace,
            "omitted_events": replay.omitted_events,
        });
        out.write(&(serde_json::to_string_pretty(&json).expect("a replay serialises") + "\n"))?;
    }
    Ok(ending)
}

fn parse_test(text: &str, path: Option<usize>) -> Result<Test, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let object = value.as_object().ok_or("expected a JSON object")?;
    if let Some(version) = object.get("schema_version") {
        if version.as_u64() != Some(u64::from(SCHEMA_VERSION)) {
            return Err(format!(
                "a report of schema version {version}; this Symplay reads version \
                 {SCHEMA_VERSION}: explore the module again for a report it reads"
            ));
        }
        let report: Report =
            serde_json::from_value(value).map_err(|e| format!("not a Symplay report: {e}"))?;
        let chosen = pick_path(&report, path)?;
        return Ok(Test {
            inputs: chosen.inputs.clone(),
            entry: Some(report.entry.clone()),
            recorded: Some(chosen.clone()),
            heap: Some(report.heap.clone()),
            buffer_args: report.buffer_args.clone(),
            max_depth: report.limits.max_depth,
            max_call_depth: report.limits.max_call_depth,
            havoc_imports: report.havoc_imports,
        });
    }
    if path.is_some() {
        return Err("--path needs a report; this file holds a single test".into());
    }
    if object.contains_key("inputs") {
        let path: PathReport =
            serde_json::from_value(value).map_err(|e| format!("not a path of a report: {e}"))?;
        return Ok(Test {
            inputs: path.inputs.clone(),
            entry: None,
            recorded: Some(path),
            heap: None,
            buffer_args: Vec::new(),
            max_depth: None,
            max_call_depth: None,
            havoc_imports: false,
        });
    }
    if !object.keys().all(|k| k == "args" || k == "named") {
        return Err("expected a report, a path, or a test input with `args` and `named`".into());
    }
    let inputs = serde_json::from_value(value).map_err(|e| format!("not a test input: {e}"))?;
    Ok(Test {
        inputs,
        entry: None,
        recorded: None,
        heap: None,
        buffer_args: Vec::new(),
        max_depth: None,
        max_call_depth: None,
        havoc_imports: false,
    })
}

fn pick_path(report: &Report, path: Option<usize>) -> Result<&PathReport, String> {
    match (path, report.paths.as_slice()) {
        (Some(id), paths) => paths.iter().find(|p| p.id == id).ok_or_else(|| {
            format!(
                "the report has no path {id} (ids 0 to {})",
                paths.len().saturating_sub(1)
            )
        }),
        (None, [only]) => Ok(only),
        (None, paths) => {
            let bugs: Vec<String> = paths
                .iter()
                .filter(|p| p.is_bug())
                .map(|p| p.id.to_string())
                .collect();
            Err(format!(
                "the report has {} paths: choose one with --path ID{}",
                paths.len(),
                if bugs.is_empty() {
                    String::new()
                } else {
                    format!(" (bugs: {})", bugs.join(", "))
                }
            ))
        }
    }
}

/// The same ending, and for a memory error the same error at the same
/// place (addresses may differ: a symbolic size reserves its capacity),
/// the same results (a pointer into the same place of the same block).
fn same_outcome(a: &PathReport, b: &PathReport) -> bool {
    let error = |p: &PathReport| {
        p.memory_error
            .as_ref()
            .map(|e| (e.kind, e.access, e.width, e.offset, p.location.clone()))
    };
    error(a) == error(b)
        && a.same_results(b)
        && (a.status, a.trap, a.exit_code, &a.stdout, &a.stderr)
            == (b.status, b.trap, b.exit_code, &b.stdout, &b.stderr)
}

fn describe(entry: &str, r: &Replay) -> String {
    let p = &r.path;
    let args: Vec<String> = p.inputs.args.iter().map(i64::to_string).collect();
    let mut text = format!("replay of {entry}({})\n", args.join(", "));
    for input in &p.inputs.named {
        text.push_str(&format!(
            "input {} = {}\n",
            input.name,
            serde_json::to_string(&input.value).unwrap_or_default()
        ));
    }
    text.push_str("trace:\n");
    for event in &r.trace {
        text.push_str(&format!("  {}\n", event.line()));
    }
    if r.omitted_events > 0 {
        text.push_str(&format!(
            "  ... {} more events (--max-events)\n",
            r.omitted_events
        ));
    }
    for (name, out) in [("stdout", &p.stdout), ("stderr", &p.stderr)] {
        if !out.is_empty() {
            text.push_str(&format!("{name}: {out:?}\n"));
        }
    }
    for note in &p.notes {
        text.push_str(&format!("note: {note}\n"));
    }
    text.push_str(&format!("outcome: {}\n", p.outcome()));
    text
}
