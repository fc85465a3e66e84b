//! What an exploration is asked to do: its options, the progress its
//! caller sees and the error it gives; and the checks that refuse, before
//! anything runs, what the engine cannot run.

use crate::memory::options::{MAX_CONTEXT_DEPTH, MAX_OBJECT};
use crate::memory::{BaseMode, Contents, HeapOptions};
use crate::report::{BufferArg, OutcomeRules};
use crate::search::SearchKind;
use crate::solver::Interrupt;
use crate::state::{MergeMode, MergeOptions};
use std::fmt;
use symplay_wasm::imports::ImportClass;
use symplay_wasm::Module;
use web_time::Duration;

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
    /// Which values become paths of their own.
    pub outcomes: OutcomeRules,
    /// Frames a path may have (the engine's call-depth limit); a call
    /// deeper ends the path as `limit`. [`MAX_FRAMES`] unless given.
    pub max_call_depth: Option<u32>,
    /// A call of an import the engine does not provide returns fresh
    /// symbolic values (havoc) instead of ending its path.
    pub havoc_imports: bool,
    /// Which states wait at loop exits to be merged.
    pub merge: MergeOptions,
}

/// The deepest call-depth limit a run may ask for.
pub const MAX_CALL_DEPTH: usize = 100_000;

/// What the progress hook sees; it returns `false` to stop the run.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub paths: usize,
    pub pending: usize,
    pub instructions: u64,
    /// Solver queries asked so far.
    pub queries: u64,
    /// Pending states in a merge under way (a long one shows here).
    pub merging: usize,
}

/// Why an exploration cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploreError {
    pub cause: Cause,
    pub message: String,
}

/// Whose the problem is: what the run was asked (options, the entry, its
/// inputs) or the module itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    Options,
    Module,
}

impl ExploreError {
    pub fn options(message: impl Into<String>) -> ExploreError {
        ExploreError {
            cause: Cause::Options,
            message: message.into(),
        }
    }

    pub fn module(message: impl Into<String>) -> ExploreError {
        ExploreError {
            cause: Cause::Module,
            message: message.into(),
        }
    }
}

impl fmt::Display for ExploreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExploreError {}

/// Heap options the model can take.
pub(super) fn check_heap(heap: &HeapOptions) -> Result<(), ExploreError> {
    if heap.capacity == 0 {
        return Err(ExploreError::options(
            "--capacity must be greater than zero",
        ));
    }
    if heap.capacity > MAX_OBJECT {
        return Err(ExploreError::options(format!(
            "--capacity {} is more than linear memory can hold ({MAX_OBJECT} bytes at most)",
            heap.capacity
        )));
    }
    if let Some(split) = heap.split {
        if split.piece == 0 {
            return Err(ExploreError::options(
                "--split-piece must be greater than zero",
            ));
        }
        if split.threshold > MAX_OBJECT {
            return Err(ExploreError::options(format!(
                "--split-threshold {} is more than linear memory can hold ({MAX_OBJECT} bytes at most)",
                split.threshold
            )));
        }
        if heap.contents != Contents::PerObject {
            return Err(ExploreError::options(
                "--split needs --contents per-object: the array of all of memory has no pieces",
            ));
        }
    }
    if let Some(segments) = heap.segments {
        if heap.bases != BaseMode::Symbolic {
            return Err(ExploreError::options(
                "--resolve segment moves heap blocks, which needs --bases symbolic: a block's address must be a term over its base symbol",
            ));
        }
        if segments.cap == 0 {
            return Err(ExploreError::options(
                "--segment-cap must be greater than zero",
            ));
        }
        if segments.cap > MAX_OBJECT {
            return Err(ExploreError::options(format!(
                "--segment-cap {} is more than linear memory can hold ({MAX_OBJECT} bytes at most)",
                segments.cap
            )));
        }
        if let Some(depth) = segments.context_depth.filter(|&d| d > MAX_CONTEXT_DEPTH) {
            return Err(ExploreError::options(format!(
                "--segment-context {depth} names more callers than a context keeps ({MAX_CONTEXT_DEPTH} at most)"
            )));
        }
    }
    if !heap.aa_cache.is_off() && heap.bases != BaseMode::Symbolic {
        return Err(ExploreError::options(
            "--aa-cache needs --bases symbolic: a query's base form is a term over the blocks' base symbols",
        ));
    }
    if heap.bases == BaseMode::Symbolic && !heap.objects {
        return Err(ExploreError::options(
            "--bases symbolic needs memory objects: the module's own allocator (--keep-allocator) returns numbers",
        ));
    }
    Ok(())
}

pub(super) fn check_options(o: &Options) -> Result<(), ExploreError> {
    let zero = [
        ("--max-time", o.max_time.is_some_and(|t| t.is_zero())),
        ("--max-paths", o.max_paths == Some(0)),
        ("--max-depth", o.max_depth == Some(0)),
        ("--max-instructions", o.max_instructions == Some(0)),
        ("--max-memory", o.max_memory == Some(0)),
        ("--max-call-depth", o.max_call_depth == Some(0)),
    ];
    if let Some((name, _)) = zero.iter().find(|(_, z)| *z) {
        return Err(ExploreError::options(format!(
            "{name} must be greater than zero"
        )));
    }
    if o.max_call_depth
        .is_some_and(|n| n as usize > MAX_CALL_DEPTH)
    {
        return Err(ExploreError::options(format!(
            "--max-call-depth is {}; at most {MAX_CALL_DEPTH} (each frame costs the engine's own stack)",
            o.max_call_depth.unwrap_or_default()
        )));
    }
    if o.merge.max_states == 0 {
        return Err(ExploreError::options(
            "--merge-max-states must be greater than zero",
        ));
    }
    if o.merge.validate && o.merge.is_none() {
        return Err(ExploreError::options(format!(
            "--validate-merge checks merges, and --merge none makes none: choose {}",
            MergeMode::listed(&MergeMode::ALL[1..])
        )));
    }
    if o.outcomes.result_values > OutcomeRules::MAX_RESULT_VALUES {
        return Err(ExploreError::options(format!(
            "--result-values is {}; at most {} (each value costs a solver query at every path's end)",
            o.outcomes.result_values,
            OutcomeRules::MAX_RESULT_VALUES
        )));
    }
    Ok(())
}

/// Rejects what the engine cannot run: what [`import_problem`] finds, and
/// an imported allocator without the heap model.
pub(super) fn check_imports(module: &Module, heap: &HeapOptions) -> Result<(), ExploreError> {
    if let Some(problem) = import_problem(module) {
        return Err(ExploreError::module(problem));
    }
    if let Some((_, import)) = module
        .func_imports()
        .find(|(_, i)| matches!(i.class, ImportClass::Allocator(_)))
        .filter(|_| !heap.objects)
    {
        return Err(ExploreError::options(format!(
            "the module imports {} and the heap is not modelled: run it with the heap model",
            import.name
        )));
    }
    Ok(())
}

/// Why no function of `module` can be explored, whatever the options: an
/// imported memory, table or global (functions the engine does not provide
/// end the paths that call them instead). Known when the module loads,
/// before anything runs.
pub fn import_problem(module: &Module) -> Option<String> {
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
