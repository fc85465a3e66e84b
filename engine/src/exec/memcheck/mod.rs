//! Memory as the program uses it, checked (what Valgrind's Memcheck does
//! for native code): every load, store and host access is resolved
//! through the memory model and made in [`access`] (the one caller of
//! `resolve`, which first merges the blocks a symbolic pointer may point
//! into under `--resolve segment`: [`segments`]), bulk operations in
//! [`bulk`]; the C stack pointer and
//! returned frames' variables are checked in [`stack`], an address
//! against the C variable it was computed from in [`c_variables`]; the
//! heap's `malloc` and `free` are the model's own ([`allocator`]), and
//! objects of symbolic size are made under the run's size mode
//! ([`sizes`]). What a check finds becomes a memory error in
//! `outcome/memory_error.rs`.

mod access;
mod allocator;
mod bulk;
mod c_variables;
mod pieces;
mod segments;
mod sizes;
mod stack;
