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

# Every fuzz target compiles (none is run: `make fuzz` runs them), so that a change to the crate's
# API cannot leave a target broken unseen. A plain build on the stable toolchain, no sanitizer
# (libfuzzer-sys builds libFuzzer with the C++ compiler scripts/setup.sh installs), in the fuzz
# crate's own target dir whatever CARGO_TARGET_DIR says, since it is a workspace of its own.
# About 16 s after a change to the crate, nothing when none, 1 min 40 s from a clean clone (2-core
# machine beside a fuzzer, 2026-12-03): cheap enough to build, not just check. Locked:
# a dependency added to the crate needs fuzz/Cargo.lock brought along (one plain build there).
echo "== fuzz targets compile"
cargo build --locked --manifest-path fuzz/Cargo.toml --target-dir fuzz/target --bins

# The independent reference: numpy (scripts/setup.sh makes .venv) scores a generated file of
# 5,000 items and every figure must equal the CLI's to 1e-12 (scripts/reference/check.py).
echo "== independent reference (numpy)"
cargo build --locked --bin scorelens
.venv/bin/python scripts/reference/check.py --scorelens target/debug/scorelens
# The leaderboard's reference file must be what its script computes now (tests/leaderboard_reference.rs).
.venv/bin/python scripts/reference/leaderboard_reference.py --check
# So must the clustered reference's (tests/clustered_reference.rs).
.venv/bin/python scripts/reference/clustered_reference.py --check

# The browser app (docs/app.md): lints of the wasm bins, the site built with Trunk, its page
# weight against the budget, then the end-to-end tests in headless Chromium. The CLI the tests
# compare with is the debug build `cargo test` just made (same figures as release, no rebuild).
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
echo "== browser app: clippy (wasm32)"
cargo clippy --locked --target wasm32-unknown-unknown --features ui --bin app --bin worker -- -D warnings
echo "== browser app: trunk build (into target/site)"
TRUNK_SKIP_VERSION_CHECK=true trunk build --release --offline --dist target/site
echo "== browser app: page weight"
# 358 -> 363 KB: the folded drop zone with "Start over", the report's new order with plain-words notes, the tab list's keys and the stacked tables' labels (the CSS does the rest).
# 363 -> 363.1 KB: the view toggles as a context of their own (`Toggles`), so that the widget
# provides them alone instead of building the app's whole store (96 bytes gzip, measured).
# 363.1 -> 363.2 KB: no page code was added; the page's wasm came out 16 bytes longer (899,009
# against 898,993) and 68 bytes more as gzip when the core it shares with the worker changed
# (the report's tables laid out once, the bootstrap's compact records), 21 bytes over 363.1.
node scripts/page_weight.mjs target/site --budget-kb 363.2
echo "== browser app: end-to-end tests (headless Chromium)"
export SCORELENS_SITE="$PWD/target/site"
SCORELENS_BIN="$PWD/target/debug/scorelens" node --test --test-concurrency=1 tests/e2e/
if [ -f target/e2e/timings.json ]; then
  echo "== 100 MB in the browser: $(tr -d '\n ' < target/e2e/timings.json)"
fi

# The embeddable widget and JS API (docs/embed.md): clippy for wasm32, then its wasm-bindgen tests
# in headless Chromium against the CLI's reports (scripts/wasm_test.sh). Its browser test,
# tests/e2e/embed.test.mjs, runs with the end-to-end tests above, on the site Trunk built (its
# embed/ comes from Trunk's build hook, scripts/dist.sh --stage).
echo "== embed: wasm tests (headless Chromium)"
bash scripts/wasm_test.sh
