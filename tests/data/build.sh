#!/usr/bin/env bash
# Rebuilds the compiled test modules of this folder from their C sources
# (the .wasm files are committed). Needs Debian's clang-14 and lld-14, and
# no wasm-opt on PATH.
set -euo pipefail
cd "$(dirname "$0")"
# -O0 keeps clamp's two branches.
clang-14 --target=wasm32 -nostdlib -O0 -Wl,--no-entry -Wl,--export-all clamp.c -o clamp.wasm
# The outcome functions at each optimisation level: -O1 and -O2 compute
# most of their branches as selects and lookup tables.
outcome_functions="classify clamp3 sign min_max abs_bucket weekday_hours pi_digit bump
  square_root_of valid_port char_class positives argmax3 grade parity_side leap_year is_number"
exports=()
for f in $outcome_functions; do exports+=("-Wl,--export=$f"); done
for level in O0 O1 O2; do
  clang-14 --target=wasm32 -nostdlib -"$level" -fno-builtin -Wl,--no-entry -Wl,--allow-undefined \
    "${exports[@]}" outcomes/outcomes.c -o outcomes/outcomes-"$level".wasm
done
# A build without libc that imports memset and memmove from env.
clang-14 --target=wasm32 -nostdlib -O1 -Wl,--no-entry -Wl,--allow-undefined -Wl,--export=keep \
  imports/struct_copy.c -o imports/struct_copy.wasm
