#!/usr/bin/env bash
# Installs what building and testing Symplay needs and is missing: the wasm32
# target, rustfmt and clippy, and z3 (the solver oracle of the differential
# test). Safe to run again: it only installs what is absent.
set -euo pipefail

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

if ! command -v z3 >/dev/null; then
  need_root apt-get update -qq
  need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq z3 >/dev/null
fi
