//! The symbolic interpreter: states, instruction semantics over symbolic
//! values, forks, host functions, and the exploration driver.

mod arith;
mod context;
mod driver;
mod executor;
pub mod explore;
mod fast;
mod fork;
mod host;
mod memcheck;
mod outcome;
pub mod params;
mod program;
mod record;
mod run;
mod semantics;
pub mod store;

pub use explore::{
    explore, explore_with, import_problem, replay, replay_traced, Exploration, ExploreError,
    Options, Progress, Replay, ReplayOptions,
};
pub use semantics::MAX_FRAMES;
