#!/usr/bin/env bash
# Rebuilds arrays.wasm from arrays.c (the .wasm is committed). Needs Debian's
# clang-14, lld-14 and wasi-libc; no wasm-opt may be on PATH (clang would run
# it and strip the name section). -fno-builtin keeps the calls to malloc,
# calloc and free, which the engine's heap model takes over.
set -euo pipefail
cd "$(dirname "$0")"
exports=()
for entry in checked_index record_update masked_table string_in_buffer; do
  exports+=("-Wl,--export=$entry")
done
clang-14 --target=wasm32-wasi --sysroot=/usr -O1 -g -fdebug-prefix-map="$PWD"=. \
  -mexec-model=reactor -fno-builtin -I ../../../static "${exports[@]}" \
  arrays.c -o arrays.wasm
