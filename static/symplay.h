/* The symbolic-input API of Symplay: imports from the Wasm module "symplay".
 *
 * Compile C against it with clang for wasm32, e.g.
 *   clang --target=wasm32 -nostdlib -O1 -Wl,--no-entry -Wl,--export=f \
 *         -I path/to/static f.c -o f.wasm
 * The imports stay undefined in the module and Symplay provides them.
 */
#ifndef SYMPLAY_H
#define SYMPLAY_H

#include <stdint.h>

#define SYMPLAY_IMPORT(name) \
  __attribute__((import_module("symplay"), import_name(name)))

/* A fresh symbolic 32-bit (64-bit) integer named by the C string `name`; the
 * report gives its value for every path. */
SYMPLAY_IMPORT("symbolic_i32") int32_t symplay_symbolic_i32(const char *name);
SYMPLAY_IMPORT("symbolic_i64") int64_t symplay_symbolic_i64(const char *name);

/* Makes the `len` bytes at `ptr` symbolic, as one input named `name`. */
SYMPLAY_IMPORT("symbolic_buffer")
void symplay_symbolic_buffer(void *ptr, int32_t len, const char *name);

/* A buffer of symbolic length: makes the `capacity` bytes at `ptr` symbolic, as
 * one input named `name`, and returns its length, a symbolic value from 0 to
 * `capacity`. Symplay then treats the `capacity` bytes at `ptr` as a memory
 * object of that length: an access at or past the returned length is
 * reported as an overflow, on the lengths for which it happens. */
SYMPLAY_IMPORT("symbolic_sized_buffer")
int32_t symplay_symbolic_sized_buffer(void *ptr, int32_t capacity, const char *name);

/* Paths on which `cond` is zero are dropped: they are not inputs of interest. */
SYMPLAY_IMPORT("assume") void symplay_assume(int32_t cond);

/* Paths on which `cond` can be zero end as failed assertions, with an input. */
SYMPLAY_IMPORT("assert") void symplay_assert(int32_t cond);

#endif
