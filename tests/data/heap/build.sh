#!/usr/bin/env bash
# Rebuilds the heap-checker test modules of this folder from their sources (the
# .wasm files are committed). Needs Debian's clang-14, lld-14, wasi-libc,
# libclang-rt-14-dev-wasm32 (its builtins),
# wabt's wat2wasm and Rust's wasm32-unknown-unknown target; no wasm-opt may be on PATH (clang would run it and strip the
# name section). malloc, free, calloc, realloc and the string functions come
# from wasi-libc, compiled into each module; -fno-builtin keeps the calls (LLVM
# would otherwise delete a malloc/free pair or a dead store into a freed block).
# What each module must report is listed in expected.txt.
set -euo pipefail
cd "$(dirname "$0")"
# build LEVEL NAME [ENTRY...]: NAME.c -> NAME.LEVEL.wasm, exporting the
# functions ENTRY (by default the function NAME).
build() {
  local level=$1 name=$2
  shift 2
  local exports=()
  for entry in "${@:-$name}"; do exports+=("-Wl,--export=$entry"); done
  clang-14 --target=wasm32-wasi --sysroot=/usr "-$level" -g -fdebug-prefix-map="$PWD"=. \
    -mexec-model=reactor -fno-builtin -I ../../../static "${exports[@]}" \
    "$name.c" -o "$name.$level.wasm"
}
# Programs with one memory bug each, at -O0 and -O1.
for name in heap_overflow_write heap_overflow_read heap_underflow \
  use_after_free_read use_after_free_write use_after_reuse double_free invalid_free \
  stack_overflow leak length_dependent_read calloc_realloc libc_strchr \
  global_overflow stack_buffer_overflow; do
  build O0 "$name"
  build O1 "$name"
done
# Two entries, each reading a returned frame's buffer.
for level in O0 O1; do
  build "$level" use_after_return use_after_return use_after_call
done
# Correct programs (no memory bug on any input): all at -O1, some at -O0 too.
for name in linked_list dynamic_array string_reverse binary_tree calloc_matrix \
  ring_buffer qsort_array hash_table tokenizer freelist_reuse memmove_block \
  stack_array safe_parser global_tables stack_frames; do
  build O1 "$name"
done
for name in linked_list dynamic_array string_reverse binary_tree hash_table \
  tokenizer global_tables stack_frames; do
  build O0 "$name"
done
# An assertion that fails only for blocks past the default capacity.
build O0 large_block
build O1 large_block
# The allocator exported beside the program (as --export-all does): the
# default entry passes it over, and explored by name it runs as plain code.
build O1 large_block malloc free large_block
mv large_block.O1.wasm libc_exports.O1.wasm
build O1 large_block
# A stack that overflows in a module with no data segment (no libc): its
# bottom is the null page's end. -O0 keeps the recursion.
clang-14 --target=wasm32 -nostdlib -O0 -g -fdebug-prefix-map="$PWD"=. -fno-builtin \
  -Wl,--no-entry -Wl,--export=deep_stack deep_stack.c -o deep_stack.O0.wasm
# memcpy of a symbolic length into a block as one memory.copy
# (-mbulk-memory; LLVM keeps __builtin_memcpy under -fno-builtin).
clang-14 --target=wasm32-wasi --sysroot=/usr -O1 -g -fdebug-prefix-map="$PWD"=. \
  -mexec-model=reactor -mbulk-memory -fno-builtin -I ../../../static \
  -Wl,--export=bulk_copy_overflow bulk_copy_overflow.c -o bulk_copy_overflow.O1.wasm
# memmove and memset of a symbolic length at a symbolic offset, likewise
# (the local array's overflow at -O0 only, where its frame is known).
for level in O0 O1; do
  exports=(-Wl,--export=bulk_insert -Wl,--export=bulk_clear)
  if [ "$level" = O0 ]; then exports+=(-Wl,--export=bulk_clear_local); fi
  clang-14 --target=wasm32-wasi --sysroot=/usr "-$level" -g -fdebug-prefix-map="$PWD"=. \
    -mexec-model=reactor -mbulk-memory -fno-builtin -I ../../../static \
    "${exports[@]}" bulk_at_index.c -o "bulk_at_index.$level.wasm"
done
# A write through NULL: -fno-delete-null-pointer-checks keeps LLVM from
# turning it into a trap of its own.
for level in O0 O1; do
  clang-14 --target=wasm32-wasi --sysroot=/usr "-$level" -g -fdebug-prefix-map="$PWD"=. \
    -mexec-model=reactor -fno-builtin -fno-delete-null-pointer-checks -I ../../../static \
    -Wl,--export=null_deref null_deref.c -o "null_deref.$level.wasm"
done
# Rust (stable rustc, wasm32-unknown-unknown): Vec and Box through rustc's
# allocator shims.
CARGO_TARGET_DIR="${TMPDIR:-/tmp}/symplay-rust-heap" cargo build --quiet --release \
  --manifest-path rust_heap/Cargo.toml --target wasm32-unknown-unknown
cp "${TMPDIR:-/tmp}/symplay-rust-heap/wasm32-unknown-unknown/release/rust_heap.wasm" .
# malloc and free imported from "env" instead of compiled in.
wat2wasm imports_malloc.wat -o imports_malloc.wasm
