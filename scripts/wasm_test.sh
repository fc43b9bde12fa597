#!/usr/bin/env bash
# The embed API's wasm tests (tests/wasm_embed*.rs), and the leaderboard's byte-for-byte check
# against the native build (tests/wasm_leaderboard.rs), in headless Chromium. The native CLI first
# writes the reports they must equal (scripts/embed_expected.mjs); clippy checks the embed code
# for wasm32; then the tests run in the browser through wasm-bindgen-test-runner
# (.cargo/config.toml) and Debian's chromedriver.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
cargo build --locked --bin scorelens
export SCORELENS_EXPECTED="$TARGET_DIR/embed/expected"
node scripts/embed_expected.mjs "$TARGET_DIR/debug/scorelens" "$SCORELENS_EXPECTED"
# Lints of the embed code and its tests, for the target they run on.
cargo clippy --locked --target wasm32-unknown-unknown --features embed --lib --test wasm_embed --test wasm_embed_panic --test wasm_embed_leaderboard --test wasm_leaderboard -- -D warnings
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
cargo test --locked --target wasm32-unknown-unknown --features embed --test wasm_embed --test wasm_embed_panic --test wasm_embed_leaderboard --test wasm_leaderboard "$@"
