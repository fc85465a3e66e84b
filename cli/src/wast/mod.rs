//! `symplay wast`: runs a WebAssembly spec script (`.wast`) against the
//! engine. Its modules are instantiated in one store (the `spectest` module
//! and `register`ed instances can be imported), and every directive is
//! counted as passed, failed or skipped. In symbolic mode, every
//! `assert_return` and `assert_trap` whose call has integer arguments runs a
//! second time first, on a copy of the store, with those arguments symbolic
//! and constrained to their values: exactly one path must be feasible, with
//! the expected outcome.

mod command;
mod registry;
mod script;
mod values;

pub use command::{run, WastArgs};
pub use script::{run_script, DirectiveResult, Options, ScriptReport, Verdict};
