#!/usr/bin/env bash
# Builds the site with Trunk (offline, pinned tools) and serves it on 127.0.0.1:8080, rebuilding
# on changes. The site is plain static files in dist/: any static server works as well.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
echo "serve: building (the first build takes a few minutes), then http://127.0.0.1:8080/"
# No autoreload script: the served page is exactly dist/, under the same CSP.
exec trunk serve --release --offline --no-autoreload --address 127.0.0.1 --port 8080
