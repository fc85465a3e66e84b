//! The messages between the page and the worker, sent as JSON text.

use crate::disassembly::Line;
use serde::{Deserialize, Serialize};
use symplay_engine::report::{PathReport, Report, TestInput, TraceEvent};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Load a module (binary or WAT text) and list its exported functions;
    /// its disassembly follows.
    Inspect { module: Vec<u8> },
    /// A binary module as WAT text, to edit.
    Print { module: Vec<u8> },
    /// Explore an exported function; progress follows until `finished`.
    Explore {
        module: Vec<u8>,
        entry: String,
        options: RunOptions,
    },
    /// End the running exploration; its results so far are reported.
    Stop,
    /// Run one test concretely, with its trace.
    Replay {
        module: Vec<u8>,
        entry: String,
        test: TestInput,
    },
}

/// Exploration options as the page sets them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// `dfs`, `bfs`, `random-path` or `coverage-new`.
    pub search: String,
    pub seed: u64,
    pub max_time_ms: Option<u64>,
    pub max_paths: Option<u64>,
    pub max_depth: Option<u32>,
    pub max_instructions: Option<u64>,
    /// The engine's estimate of the memory held by states and terms.
    #[serde(default)]
    pub max_memory_mib: Option<u64>,
    /// Values of the entry's parameters by index; `null` is symbolic.
    #[serde(default)]
    pub concrete_args: Vec<Option<i64>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedFunction {
    pub name: String,
    /// As in `(i32, i32) -> i32`.
    pub signature: String,
    /// The parameters' types, as in `i32`.
    pub params: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Response {
    /// The worker has started; requests sent before this are lost, since
    /// its handler is set only once its wasm has loaded.
    Ready,
    Module {
        functions: Vec<ExportedFunction>,
    },
    /// The module as WAT, each line with the byte offset it prints.
    Disassembly {
        lines: Vec<Line>,
    },
    Printed {
        text: String,
    },
    Progress {
        paths: usize,
        pending: usize,
        queries: u64,
        instructions: u64,
        elapsed_ms: f64,
    },
    /// The report so far of a run still going (`stop_reason` `running`),
    /// so the page can draw the tree as it grows.
    Snapshot {
        report: Box<Report>,
    },
    Finished {
        report: Box<Report>,
    },
    Replayed {
        path: Box<PathReport>,
        trace: Vec<TraceEvent>,
    },
    Error {
        message: String,
    },
}
