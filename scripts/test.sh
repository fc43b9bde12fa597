#!/usr/bin/env bash
# Every test of the project: format, lints, native unit/integration/property tests, then the
# browser suites once they exist. `make test` runs this after scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --locked --all-targets -- -D warnings
echo "== cargo test"
cargo test --locked
