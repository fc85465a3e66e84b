//! Linear memory: the memory model interface ([`model`]) and its models.
//!
//! - [`model`]: [`MemoryModel`], the one interface the interpreter uses;
//! - [`place`]: pointers, the places they resolve to, and the cases of a
//!   symbolic pointer;
//! - [`dead_stack`]: the variables of stack frames that have returned (a
//!   state's, whatever its model);
//! - `flat`: the flat model, one object over the whole memory, with
//!   copy-on-write chunks of byte terms;
//! - [`interval`]: the values a symbolic address can take, read off its
//!   shape, so a read's array holds only the bytes it can reach;
//! - `objects`: the objects model, the flat memory's bytes with the
//!   heap's blocks and input buffers as objects whose bounds are checked;
//! - [`options`]: how a run models the heap;
//! - [`pieces`]: the pieces of a split object or region an access at a
//!   symbolic offset can land in;
//! - `persistent`: the persistent vector whose nodes forks share, under
//!   the flat model's chunks.
//!
//! The models are private: the rest of the engine reaches memory only
//! through [`MemoryModel`] and the types re-exported here.

pub mod dead_stack;
mod flat;
pub mod interval;
pub mod model;
mod objects;
pub mod options;
mod persistent;
pub mod pieces;
pub mod place;

pub use dead_stack::{DeadSpan, DeadStack};
pub use flat::{ByteMerge, PAGE_SIZE};
pub use model::MemoryModel;
pub use objects::{
    effective_address, segment_index, within, Free, Object, ObjectKind, Segment, Size, ALIGN,
};
pub use options::{
    AaCacheMode, BaseMode, Contents, HeapOptions, Resolve, Segments, SizeMode, Split,
};
pub use pieces::Pieces;
pub use place::{Case, Fault, FaultKind, ObjectId, Piece, Place, Pointer, Resolution, Spot};
