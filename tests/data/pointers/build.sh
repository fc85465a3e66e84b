#!/usr/bin/env bash
# Rebuilds arrays.wasm from arrays.c and segments.wasm from segments.c (the
# .wasm files are committed). Needs Debian's clang-14, lld-14 and wasi-libc;
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
