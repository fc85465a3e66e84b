//! Symplay in the browser. The page (`page`, a yew app started by
//! `bin/app.rs`) never runs the engine itself: it sends
//! [`protocol::Request`]s to a Web Worker (`bin/worker.rs`), whose
//! [`worker::session::Session`] explores in short steps so that a stop
//! request is taken between them, and answers with [`protocol::Response`]s
//! (progress, the report, errors). What both sides share: the messages
//! ([`protocol`], with a run's options, [`run_options`], and module bytes,
//! [`base64_bytes`]), share links ([`share`]), a module's WAT with byte
//! offsets ([`disassembly`]) and the examples gallery ([`examples`]).

pub mod base64_bytes;
pub mod disassembly;
pub mod examples;
pub mod page;
pub mod protocol;
pub mod run_options;
pub mod share;
pub mod worker;
