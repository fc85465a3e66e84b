//! The engine's entry points. An exploration of a module's entry
//! ([`exploration`]), asked with its [`options`] and started from its
//! parameters as inputs ([`params`]), runs in steps, or one instruction
//! or branch at a time ([`step_mode`]), and gives its [`report`]; a
//! [`replay`] runs a test's inputs again. The spec-script [`store`] keeps
//! instances between calls, each call run to the end of every path.

pub(crate) mod exploration;
pub(crate) mod handover;
pub(crate) mod options;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod parallel;
pub(crate) mod params;
pub(crate) mod replay;
mod report;
pub(crate) mod shard;
mod step_mode;
pub mod store;
