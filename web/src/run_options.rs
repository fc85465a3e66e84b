//! The options of a run as the page sets them: what the options form
//! gives, a share link carries and the worker turns into the engine's.

use serde::{Deserialize, Serialize};
use symplay_engine::memory::HeapOptions;
use symplay_engine::report::{BufferArg, MergeOptions, OutcomeRules};

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
    /// The heap the worker uses (its allocator counts it).
    #[serde(default)]
    pub max_memory_mib: Option<u64>,
    /// Values of the entry's parameters by index; `null` is symbolic.
    #[serde(default)]
    pub concrete_args: Vec<Option<i64>>,
    /// Parameters that point to buffers of symbolic length.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buffer_args: Vec<BufferArg>,
    /// How the heap is modelled.
    #[serde(default)]
    pub heap: HeapOptions,
    /// Which values become paths of their own.
    #[serde(default)]
    pub outcomes: OutcomeRules,
    /// Frames a path may have; the engine's default when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_call_depth: Option<u32>,
    /// An import the engine does not provide returns fresh inputs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub havoc_imports: bool,
    /// Which states merge at loop exits.
    #[serde(default, skip_serializing_if = "MergeOptions::is_none")]
    pub merge: MergeOptions,
}
