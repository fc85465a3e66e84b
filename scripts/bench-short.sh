#!/usr/bin/env bash
# Runs every benchmark in its short form (SYMPLAY_BENCH_SHORT=1: smaller
# workloads, the same goals and checks), as CI does: a missed goal or a
# failed check fails this script. The benchmarks are built without LTO, in
# target/bench-short, so that they build in minutes on two cores; their
# goals are ratios of figures measured in one build. The browser benchmark
# needs the site built (trunk build) and its node modules (setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export SYMPLAY_BENCH_SHORT=1 CARGO_TARGET_DIR=target/bench-short
export CARGO_PROFILE_BENCH_LTO=false CARGO_PROFILE_BENCH_CODEGEN_UNITS=16

bench() { cargo bench --quiet -p symplay-tests --bench "$1"; }

cargo bench --quiet -p symplay-tests --no-run
for name in solver exec path_cost jobs corpus step_mode size_modes merging limits layout btree memory split bases pointers; do
  echo "-- $name (at ${SECONDS} s)"
  bench "$name"
done
echo "-- before_after (at ${SECONDS} s)"
# Against the commit before: what this commit changed. A clone without it
# (a first commit, or a shallow clone) has nothing to compare with, and a
# commit that changed nothing the CLI is built from would compare a binary
# with itself.
if ! git rev-parse --quiet --verify 'HEAD~1^{commit}' >/dev/null; then
  echo "skipped: HEAD has no parent in this clone, so there is no base to compare with"
elif git diff --quiet HEAD~1 -- engine wasm-frontend cli Cargo.toml Cargo.lock; then
  echo "skipped: nothing the CLI is built from changed since HEAD~1"
else
  SYMPLAY_BENCH_BASE=HEAD~1 bench before_after
fi
echo "-- browser (at ${SECONDS} s)"
node tests/browser/bench.mjs

# A missed goal fails its benchmark: exec once more, with its goal set out
# of reach on purpose.
echo "-- exec with its goal out of reach (SYMPLAY_BENCH_UNREACHABLE=1), which must fail (at ${SECONDS} s)"
if missed=$(SYMPLAY_BENCH_UNREACHABLE=1 bench exec 2>&1); then
  echo "$missed"
  echo "exec passed with its goal out of reach" >&2
  exit 1
fi
echo "$missed" | grep -E '^(goal|benchmark failed)'
grep -q '^goal: .*, NOT met$' <<<"$missed" || { echo "exec failed, but not by its goal" >&2; exit 1; }
