//! What the host answers instead of the module's code: a call of an
//! import ([`call`]) goes to the `symplay` API ([`symbolic`]), which makes
//! symbolic inputs ([`inputs`]) and states assumptions and assertions, or
//! to a deterministic WASI model ([`wasi`]), or to the peers' APIs, Owi's
//! and WASP's ([`peers`]); a call of one of Rust's panic
//! functions ends the path with the panic's message and location
//! ([`panic_message`]). (The heap's allocator functions go to
//! `memcheck/allocator.rs`.)

mod call;
mod inputs;
mod panic_message;
mod peers;
mod symbolic;
mod wasi;
