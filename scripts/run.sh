#!/usr/bin/env bash
# Sets up what is missing, builds the browser playground and serves it on
# http://127.0.0.1:8080, building again when a source file changes (Ctrl-C
# stops the server). Arguments go to `trunk serve` (`--port 9000`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
# Trunk reads NO_COLOR as its --no-color flag, which takes only true or
# false; the convention (no-color.org) is any non-empty value.
[ -z "${NO_COLOR:-}" ] || export NO_COLOR=true
exec trunk serve --offline "$@"
