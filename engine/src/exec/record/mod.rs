//! What the report records of states: the end of a path ([`path_report`]:
//! a reported path with its test input and outcome, a dropped or cut-off
//! one counted), its values under its model within the run's limits
//! ([`evaluation`]), the memory objects in it ([`objects`]), the formulas of
//! its condition and of the tree's branches, each printed once
//! ([`formulas`]), a replay's trace as instructions run ([`trace`]), and a
//! state as step mode shows it ([`state_view`]). The records themselves live in the context
//! (`context/records.rs`).

pub(crate) mod evaluation;
pub(crate) mod formulas;
mod objects;
mod path_report;
mod state_view;
mod trace;
