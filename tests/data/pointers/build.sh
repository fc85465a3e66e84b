#!/usr/bin/env bash
# Rebuilds arrays.wasm, segments.wasm and programs.wasm from their C sources,
# and rust_pointers.wasm from its crate (the .wasm files are committed).
# Needs Debian's clang-14, lld-14, wasi-libc and libclang-rt-14-dev-wasm32 (its
# builtins), and rustc's wasm32 target;
# no wasm-opt may be on PATH (clang would run it and strip the name section).
# -fno-builtin keeps the calls to malloc, calloc and free, which the engine's
# heap model takes over.
set -euo pipefail
cd "$(dirname "$0")"
build() {
  local source=$1
  shift
  local exports=()
  for entry in "$@"; do
    exports+=("-Wl,--export=$entry")
  done
  clang-14 --target=wasm32-wasi --sysroot=/usr -O1 -g -fdebug-prefix-map="$PWD"=. \
    -mexec-model=reactor -fno-builtin -I ../../../static "${exports[@]}" \
    "$source.c" -o "$source.wasm"
}
build arrays checked_index record_update masked_table string_in_buffer
build segments matrix_rows name_table account_update hash_lookup list_walk \
  pointer_sort tree_search ordered_blocks
build programs string_copy string_join list_sorted tokens record_sort \
  stack_machine ring_buffer growing_vector symbol_table split_fields \
  message_decode
# Rust's Vec and HashMap (stable rustc, wasm32-unknown-unknown), through
# rustc's allocator shims over dlmalloc, which the heap model replaces.
CARGO_TARGET_DIR="${TMPDIR:-/tmp}/symplay-rust-pointers" cargo build --quiet --release \
  --manifest-path rust_pointers/Cargo.toml --target wasm32-unknown-unknown
cp "${TMPDIR:-/tmp}/symplay-rust-pointers/wasm32-unknown-unknown/release/rust_pointers.wasm" .
