//! Linear memory: the memory model interface ([`model`]) and its models.
//!
//! - [`model`]: [`MemoryModel`], the one interface the interpreter uses;
//! - [`place`]: pointers, the places they resolve to, and the cases of a
//!   symbolic pointer;
//! - [`flat`]: the flat model, one object over the whole memory, with
//!   copy-on-write chunks of byte terms.

pub mod flat;
pub mod model;
pub mod place;

pub use flat::{FlatMemory, CHUNK, MAX_PAGES, PAGE_SIZE};
pub use model::MemoryModel;
pub use place::{Case, ObjectId, Place, Pointer, Resolution, Spot};
