//! Symplay in the browser. The page (`bin/app.rs`, a yew app) never runs the
//! engine itself: it sends [`protocol::Request`]s to a Web Worker
//! (`bin/worker.rs`), whose [`session::Session`] explores in short steps so
//! that a stop request is taken between them, and answers with
//! [`protocol::Response`]s (progress, the report, errors). Share links are
//! [`share`]; modules and options as typed, [`input`]; the bug list,
//! [`results`]; address bar, clipboard, files and downloads, [`dom`]; the
//! page's larger views are components: [`tree`], [`paths_table`],
//! [`wat_pane`], [`memory_view`], [`comparison_view`], and step mode's
//! [`step_view`].

pub mod base64_bytes;
pub mod code_editor;
pub mod code_pane;
pub mod comparison_view;
pub mod describe;
pub mod disassembly;
pub mod dom;
pub mod examples;
pub mod input;
pub mod memory_view;
pub mod page_state;
pub mod paths_table;
pub mod protocol;
pub mod results;
pub mod rows_in_view;
pub mod run_options;
pub mod session;
pub mod share;
pub mod step_view;
pub mod tree;
pub mod wat_pane;
