#!/usr/bin/env bash
# Builds the site with Trunk (offline, pinned tools) and serves it on 127.0.0.1:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
trunk build --release --offline
exec trunk serve --release --offline --address 127.0.0.1 --port 8080
