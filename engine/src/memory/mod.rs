//! Linear memory: the memory model interface ([`model`]) and its models.
//!
//! - [`model`]: [`MemoryModel`], the one interface the interpreter uses;
//! - [`place`]: pointers, the places they resolve to, and the cases of a
//!   symbolic pointer;
//! - [`dead_stack`]: the variables of stack frames that have returned (a
//!   state's, whatever its model);
//! - [`flat`]: the flat model, one object over the whole memory, with
//!   copy-on-write chunks of byte terms;
//! - [`objects`]: the objects model, the flat memory's bytes with the
//!   heap's blocks and input buffers as objects whose bounds are checked;
//! - [`options`]: how a run models the heap.

pub mod dead_stack;
pub mod flat;
pub mod model;
pub mod objects;
pub mod options;
pub mod place;

pub use dead_stack::{DeadSpan, DeadStack};
pub use flat::{FlatMemory, CHUNK, MAX_PAGES, PAGE_SIZE};
pub use model::MemoryModel;
pub use objects::{Object, ObjectKind, ObjectMemory, Size};
pub use options::{HeapOptions, SizeMode};
pub use place::{Case, Fault, FaultKind, ObjectId, Place, Pointer, Resolution, Spot};
