//! Symplay in the browser. The page (`bin/app.rs`, a yew app) never runs the
//! engine itself: it sends [`protocol::Request`]s to a Web Worker
//! (`bin/worker.rs`), whose [`session::Session`] explores in short steps so
//! that a stop request is taken between them, and answers with
//! [`protocol::Response`]s (progress, the report, errors).

pub mod describe;
pub mod disassembly;
pub mod examples;
pub mod protocol;
pub mod session;
pub mod tree;
