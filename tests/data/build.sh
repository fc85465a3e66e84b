#!/usr/bin/env bash
# Rebuilds the compiled test modules of this folder from their C sources
# (the .wasm files are committed). Needs Debian's clang-14 and lld-14, and
# no wasm-opt on PATH.
set -euo pipefail
cd "$(dirname "$0")"
# -O0 keeps clamp's two branches.
clang-14 --target=wasm32 -nostdlib -O0 -Wl,--no-entry -Wl,--export-all clamp.c -o clamp.wasm
