#!/usr/bin/env bash
# Installs what building and testing Symplay needs and is missing: the wasm32
# target, rustfmt and clippy, z3 (the solver oracle of the differential
# test), Chromium (for the browser tests), and the playground's build tools (trunk, and the wasm-bindgen CLI of
# exactly the version in Cargo.lock). Safe to run again: it only installs
# what is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

need_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "setup: '$*' needs root; run it as root or install the package by hand" >&2
    return 1
  fi
}

if ! command -v cargo >/dev/null; then
  echo "setup: cargo not found; install Rust with rustup first (https://rustup.rs)" >&2
  exit 1
fi

if command -v rustup >/dev/null; then
  installed=$(rustup target list --installed)
  grep -qx wasm32-unknown-unknown <<<"$installed" || rustup target add wasm32-unknown-unknown
  components=$(rustup component list --installed)
  grep -q '^rustfmt' <<<"$components" || rustup component add rustfmt
  grep -q '^clippy' <<<"$components" || rustup component add clippy
fi

# z3: the solver oracle; chromium: the browser of the browser tests.
missing=()
command -v z3 >/dev/null || missing+=(z3)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ "${#missing[@]}" -gt 0 ]; then
  need_root apt-get update -qq
  need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v npm >/dev/null; then
  echo "setup: node and npm are needed for the browser tests; install Node.js 18 or later" >&2
  exit 1
fi
[ -d tests/browser/node_modules/playwright-core ] ||
  npm ci --prefix tests/browser --silent --no-audit --no-fund
# The playground's code editor (CodeMirror), bundled by esbuild at each build.
[ -x web/editor/node_modules/.bin/esbuild ] ||
  npm ci --prefix web/editor --silent --no-audit --no-fund

# Building these takes about 15 minutes the first time.
if [ "$(trunk --version 2>/dev/null)" != "trunk 0.21.14" ]; then
  cargo install trunk --locked --version 0.21.14
fi
bindgen=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen" ]; then
  # Not --locked: one of its locked dependencies is no longer on the registry.
  cargo install wasm-bindgen-cli --version "$bindgen"
fi
