//! Replay: the entry run again with a test's inputs, giving the one path
//! they take, with a trace of calls, returns, branches and host calls on
//! request.

use super::exploration::Exploration;
use super::options::{ExploreError, Options};
use crate::exec::context::guidance::InputSource;
use crate::exec::context::records::Trace;
use crate::memory::HeapOptions;
use crate::report::{BufferArg, DropCause, PathReport, TestInput, TraceEvent};
use symplay_wasm::Module;
use web_time::Duration;

/// Runs the entry again with every input concrete (from `test`), giving the
/// one path those inputs take.
pub fn replay(module: &Module, entry: &str, test: &TestInput) -> Result<PathReport, ExploreError> {
    let options = ReplayOptions {
        max_instructions: None,
        max_events: 0,
        heap: HeapOptions::default(),
        buffer_args: Vec::new(),
        max_depth: None,
        max_call_depth: None,
        havoc_imports: false,
    };
    replay_traced(module, entry, test, &options).map(|r| r.path)
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    pub max_instructions: Option<u64>,
    /// Trace events kept; later ones are only counted. Zero records no trace.
    pub max_events: usize,
    /// The heap model of the run that found the input: replay runs the same.
    pub heap: HeapOptions,
    /// The run's buffer parameters: replay makes the same buffers.
    pub buffer_args: Vec<BufferArg>,
    /// The run's depth limit: a path it cut ends there again (the replay
    /// then follows the test with symbols, to see where the run forked).
    pub max_depth: Option<u32>,
    /// The run's call-depth limit ([`MAX_FRAMES`] when `None`).
    pub max_call_depth: Option<u32>,
    /// The run gave imports it does not provide fresh results: the test
    /// gives their values.
    pub havoc_imports: bool,
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
        max_depth: options.max_depth,
        max_call_depth: options.max_call_depth,
        havoc_imports: options.havoc_imports,
        heap: options.heap.clone(),
        buffer_args: options.buffer_args.clone(),
        ..Options::default()
    };
    // The checks of C variables read the form of symbolic addresses, which
    // concrete values lose, and forks, which a depth limit counts, happen
    // on symbols only: such a replay follows the test with symbols.
    let guided = module.variables.is_some() && options.heap.objects || options.max_depth.is_some();
    let source = if guided {
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
        None,
    )?;
    exploration.advance(Duration::MAX, &mut |_| true);
    let misfits = exploration.context.guidance.all_misfits();
    if !misfits.is_empty() {
        return Err(ExploreError::options(format!(
            "the test does not fit the program: {}",
            misfits.join("; ")
        )));
    }
    let (report, trace) = exploration.finish_with_trace();
    let trace = trace.unwrap_or_default();
    let path = report
        .paths
        .into_iter()
        .next()
        .ok_or_else(|| match report.drops.first() {
            Some(site) if site.cause == DropCause::Assumption => ExploreError::options(format!(
                "the input breaks the assumption at {}: it takes no path to replay",
                site.location.text()
            )),
            _ => ExploreError::module(format!(
                "replay stopped by the {} after {} instructions, before the path ended",
                report.stop_reason, report.stats.instructions
            )),
        })?;
    Ok(Replay {
        path,
        trace: trace.events,
        omitted_events: trace.omitted,
    })
}
