#!/usr/bin/env bash
# Sets up what is missing, builds the browser playground and serves it on
# http://127.0.0.1:8080 (Ctrl-C stops the server).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
echo "== serving the playground on http://127.0.0.1:8080"
exec trunk serve --offline
