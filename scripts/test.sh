#!/usr/bin/env bash
# Runs every check CI runs: formatting, lints, the wasm32 build of the engine,
# the playground's build (and the size of its largest .wasm), all tests
# (unit tests, the CLI tests, spec conformance, the differential tests
# against z3 and wasmi, the golden reports, the browser tests) and the
# benchmarks in their short form.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's heading says when it started, in seconds from the start:
# CI has 90 minutes, and this is where they go.
stage() { echo "== $1 (at ${SECONDS} s)"; }
bash scripts/setup.sh
# Trunk reads NO_COLOR as its --no-color flag, which takes only true or false.
[ -z "${NO_COLOR:-}" ] || export NO_COLOR=true

stage "cargo fmt --check"
cargo fmt --all -- --check
stage "cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
stage "engine builds for wasm32-unknown-unknown"
cargo build -p symplay-engine -p symplay-wasm --target wasm32-unknown-unknown --release --quiet
stage "scripts/run.sh serves the playground (first build of the site)"
node --test tests/browser/run-sh.mjs
stage "playground builds (trunk)"
PATH="$HOME/.cargo/bin:$PATH" trunk build --offline --quiet
largest=$(find dist -name '*.wasm' -printf '%s %p\n' | sort -n | tail -1)
echo "largest .wasm of the site: ${largest#* } ($(( ${largest%% *} / 1024 )) KiB; limit 3 MiB)"
if [ "${largest%% *}" -ge $(( 3 * 1024 * 1024 )) ]; then
  echo "the site's largest .wasm is over 3 MiB" >&2
  exit 1
fi
stage "cargo test"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --lib --bins --tests 2>&1 | tee "$log"
stage "golden reports as committed"
# What the golden test compared against is the repository's: no golden
# file changed, added or removed in the working tree.
golden=$(git status --porcelain --untracked-files=all -- tests/golden)
if [ -n "$golden" ]; then
  echo "golden files differ from the repository:" >&2
  echo "$golden" >&2
  exit 1
fi
stage "browser tests (headless Chromium)"
node --test tests/browser/ 2>&1 | tee -a "$log"
echo "screenshots: tests/browser/artifacts/"
stage "benchmarks, short form"
bash scripts/bench-short.sh
# One closing line over all test binaries and the browser tests.
awk '/^test result:/ { p += $4; f += $6 } /^# pass / { p += $3 } /^# fail / { f += $3 }
  END { printf "all tests: %d passed, %d failed\n", p, f }' "$log"
echo "done in ${SECONDS} s"
