#!/bin/sh
# Rebuilds pick.wasm from src/lib.rs with stable rustc's defaults for the
# web (reference types and multi-value on, as rustc enables them):
#   rustup target add wasm32-unknown-unknown
# pick.wasm was built with rustc 1.95.0; another rustc writes other bytes.
set -e
cd "$(dirname "$0")"
cargo build --release --target wasm32-unknown-unknown --target-dir target
cp target/wasm32-unknown-unknown/release/rust_pick.wasm pick.wasm
rm -rf target
