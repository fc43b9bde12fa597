#!/usr/bin/env bash
# Installs what building and testing scorelens needs, and nothing that is already there.
# Safe to run again: each step checks first. No step downloads from GitHub (see ../shared/DESIGN.md).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
log() { printf 'setup: %s\n' "$*" >&2; }

# Rust components and the wasm target.
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown

# Crates, fetched once so that later builds can run offline (Trunk passes --offline to cargo).
cargo fetch --locked >/dev/null

# wasm-bindgen-cli must equal the wasm-bindgen in Cargo.lock, or Trunk tries GitHub and fails.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -q " ${WB_VERSION}\$"; then
  log "installing wasm-bindgen-cli ${WB_VERSION} (about 2 minutes)"
  cargo install wasm-bindgen-cli --version "${WB_VERSION}" --force
fi

# Trunk, pinned: 0.22 needs a newer rustc.
if ! trunk --version 2>/dev/null | grep -q " ${TRUNK_VERSION}\$"; then
  log "installing trunk ${TRUNK_VERSION} (about 5 minutes, once)"
  cargo install --locked trunk --version "${TRUNK_VERSION}"
fi

# Node tools: wasm-opt from npm's binaryen (never Debian's 108), terser (the post-build hook
# minifies wasm-bindgen's JS glue) and playwright-core for e2e.
if [ ! -x node_modules/.bin/wasm-opt ] || ! node_modules/.bin/wasm-opt --version | grep -q "version ${BINARYEN_VERSION%%.*}" \
  || [ ! -f node_modules/terser/package.json ] || [ ! -f node_modules/playwright-core/package.json ]; then
  log "installing npm packages"
  npm ci --no-audit --no-fund >/dev/null
fi

# Chromium and chromedriver from Debian, for the browser tests.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  log "installing chromium and chromium-driver from Debian"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi
log "ready"
