#!/usr/bin/env bash
# Installs what building and testing scorelens needs, and nothing that is already there.
# Safe to run again: each step checks first. No step downloads from GitHub (see ../shared/DESIGN.md).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
CARGO_FUZZ_VERSION=0.13.2
log() { printf 'setup: %s\n' "$*" >&2; }

# Rust components and the wasm target.
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown

# Crates, fetched once so that later builds can run offline (Trunk passes --offline to cargo);
# the fuzz crate's too, since `make test` compiles its targets.
cargo fetch --locked >/dev/null
cargo fetch --locked --manifest-path fuzz/Cargo.toml >/dev/null

# A C++ compiler: libfuzzer-sys builds libFuzzer's sources when the fuzz targets compile.
if ! command -v c++ >/dev/null; then
  log "installing g++ from Debian (the fuzz targets link libFuzzer)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq g++ >/dev/null
fi

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
# numpy for the independent reference that `make test` runs (scripts/reference/check.py), in a
# virtual environment inside the repo (.venv/, git-ignored), pinned in requirements.txt.
if ! .venv/bin/python -c 'import numpy' 2>/dev/null \
  || [ "$(.venv/bin/pip freeze 2>/dev/null | grep -cxF -f scripts/reference/requirements.txt)" \
       -ne "$(grep -c . scripts/reference/requirements.txt)" ]; then
  log "creating .venv with numpy (scripts/reference/requirements.txt)"
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
  fi
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/reference/requirements.txt
fi

# MkDocs, into the same .venv: tests/e2e/mkdocs.test.mjs builds a real docs site with the widget.
if ! .venv/bin/mkdocs --version 2>/dev/null | grep -q "version 1.6.1 "; then
  log "installing mkdocs 1.6.1 into .venv (tests/e2e/mkdocs.test.mjs)"
  .venv/bin/pip install --quiet --disable-pip-version-check mkdocs==1.6.1
fi

# Sphinx, into the same .venv: tests/e2e/sphinx.test.mjs builds a second real docs site with the widget.
if ! .venv/bin/sphinx-build --version 2>/dev/null | grep -qx "sphinx-build 9.0.4"; then
  log "installing sphinx 9.0.4 into .venv (tests/e2e/sphinx.test.mjs)"
  .venv/bin/pip install --quiet --disable-pip-version-check sphinx==9.0.4
fi

# cargo-fuzz, only for `make fuzz` (`scripts/setup.sh fuzz`; fuzz/run.sh). It runs on the stable toolchain with
# RUSTC_BOOTSTRAP=1 (the sanitizer flags are unstable), so no nightly download is needed.
if [ "${1:-}" = fuzz ] && ! cargo fuzz --version >/dev/null 2>&1; then
  log "installing cargo-fuzz (about 2 minutes, once)"
  cargo install --locked cargo-fuzz --version "${CARGO_FUZZ_VERSION}"
fi
log "ready"
