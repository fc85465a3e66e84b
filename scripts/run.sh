#!/usr/bin/env bash
# Sets up what is missing, builds the `symplay` command line, and solves the
# example SMT-LIB scripts (or the files given as arguments).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release -p symplay-cli --quiet
if [ "$#" -eq 0 ]; then set -- static/examples/smt/*.smt2; fi
for f in "$@"; do
  echo "== symplay solve $f"
  ./target/release/symplay solve --stats "$f"
done
