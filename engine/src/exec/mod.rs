//! The symbolic interpreter, in folders by job, each using only those
//! listed before it:
//!
//! - [`program`]: what runs, which never changes during a run (modules,
//!   links, roles, instantiation);
//! - [`arith`]: Wasm's numeric instructions on concrete bits;
//! - [`fast`]: the concrete fast path, which knows only the program and a
//!   state;
//! - [`outcome`]: how running a state ends, and the one home of memory
//!   errors;
//! - [`context`]: an exploration's mutable context (counters, bounds,
//!   replay guidance, caches, the merging contexts that hold states
//!   waiting at loop exits, records);
//! - [`executor`]: the program and the context together, which the
//!   folders below extend;
//! - [`fork`]: splitting a state on a symbolic condition, and the
//!   solver's queries;
//! - [`semantics`], [`memcheck`], [`host`], [`record`]: what instructions
//!   do, memory accesses and their checks, the host's answers, and what
//!   the report records of states;
//! - [`merge`]: the states a merging context released, merged;
//! - [`run`]: the scheduler's loop over states, and one state's slice;
//! - [`api`]: the entry points: an exploration (in steps, step mode,
//!   replay) and the spec-script store.

mod api;
mod arith;
mod context;
mod executor;
mod fast;
mod fork;
mod host;
mod memcheck;
mod merge;
mod outcome;
mod program;
pub(crate) mod record;
mod run;
mod semantics;

pub use crate::state::{MergeMode, MergeOptions, MAX_MERGED_STATES};
pub use api::exploration::{explore, explore_with, Exploration};
pub use api::handover::Handover;
pub use api::options::{import_problem, Cause, ExploreError, Options, Progress, MAX_CALL_DEPTH};
#[cfg(not(target_arch = "wasm32"))]
pub use api::parallel::explore_parallel;
pub use api::params::{name_params, MAX_BUFFER};
pub use api::replay::{replay, replay_traced, Replay, ReplayOptions};
pub use api::shard::{explore_shard, Shard, MAX_SHARDS};
pub use api::store;
pub use semantics::MAX_FRAMES;
