//! Running states: the scheduler's loop ([`scheduler`]: which state runs
//! next, for how long, and whether a limit stops the run) and one state
//! run for a slice of instructions ([`slice`]: the fast path while it can,
//! else one step at a time).

pub(crate) mod scheduler;
mod slice;
