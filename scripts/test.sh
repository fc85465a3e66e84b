#!/usr/bin/env bash
# Runs every check CI runs: formatting, lints, the wasm32 build of the engine,
# and all tests (unit tests, the CLI tests, the differential tests against z3
# and wasmi).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== engine builds for wasm32-unknown-unknown"
cargo build -p symplay-engine -p symplay-wasm --target wasm32-unknown-unknown --release --quiet
echo "== cargo test"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --lib --bins --tests 2>&1 | tee "$log"
# One closing line over all test binaries.
awk '/^test result:/ { p += $4; f += $6 } END { printf "all tests: %d passed, %d failed\n", p, f }' "$log"
