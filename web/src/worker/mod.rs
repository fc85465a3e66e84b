//! The Web Worker's side: the session that keeps the module loaded last and
//! runs the engine in short steps (`bin/worker.rs` posts its answers).

pub mod session;
