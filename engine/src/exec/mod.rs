//! The symbolic interpreter: states, instruction semantics over symbolic
//! values, forks, host functions, and the exploration driver.

mod alloc;
mod alu;
pub mod context;
mod dead_frames;
mod driver;
pub mod executor;
pub mod explore;
mod fast;
mod float;
mod fork;
mod fused;
mod host;
mod instantiate;
pub mod interp;
pub mod link;
mod memops;
mod ops;
pub mod outcome;
mod panic_call;
pub mod params;
mod path;
pub mod program;
pub mod roles;
mod rust_panic;
mod sites;
mod state_view;
pub mod store;
mod tables;
pub mod trace;
mod tracer;
mod variables;

pub use explore::{
    explore, explore_with, import_problem, replay, replay_traced, Exploration, ExploreError,
    Options, Progress, Replay, ReplayOptions,
};
