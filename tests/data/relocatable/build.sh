#!/usr/bin/env bash
# Rebuilds examples.wasm from examples.c (the .wasm is committed). Needs
# Debian's clang-14, lld-14, wasi-libc and libclang-rt-14-dev-wasm32 (its
# builtins); no wasm-opt may be on PATH (clang would run it and strip the
# name section). -fno-builtin keeps the calls to
# calloc and free, which the engine's heap model takes over.
set -euo pipefail
cd "$(dirname "$0")"
exports=()
for entry in blocks blocks_twice hash_tables divergent_allocations divergent_branch divergent_buffer ordered_blocks address_dependent chosen_block blocks_after_branch; do
  exports+=("-Wl,--export=$entry")
done
clang-14 --target=wasm32-wasi --sysroot=/usr -O1 -g -fdebug-prefix-map="$PWD"=. \
  -mexec-model=reactor -fno-builtin -I ../../../static "${exports[@]}" \
  examples.c -o examples.wasm
