#!/usr/bin/env bash
# Builds the page's Parquet decoder (the crate parquet-rows/) into a wasm module of its own:
#   scripts/parquet_module.sh --stage  -> $TRUNK_STAGING_DIR/parquet/ (Trunk's build hook)
#   scripts/parquet_module.sh DIR      -> DIR/
# The worker imports it only when a Parquet file is dropped (src/bin/worker/parquet.rs), so the
# first page load does not carry it. A plain wasm module with no JS glue (the worker instantiates
# it itself): cargo, then wasm-opt 132 from npm, again only when the cargo output changed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
case "${1:-}" in
  --stage) OUT="${TRUNK_STAGING_DIR:?--stage runs as a Trunk hook}/parquet" ;;
  "") echo "usage: $0 --stage | DIR" >&2; exit 2 ;;
  *) OUT="$1" ;;
esac
PROFILE=release-ui
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
WASM="$TARGET_DIR/wasm32-unknown-unknown/$PROFILE/scorelens_parquet.wasm"
PKG="$TARGET_DIR/parquet/pkg"
cargo build --locked -p scorelens-parquet --lib --target wasm32-unknown-unknown --profile "$PROFILE"
SUM=$(sha256sum "$WASM" | cut -d' ' -f1)
if [ "$(cat "$PKG/.source" 2>/dev/null)" != "$SUM" ] || [ ! -f "$PKG/scorelens_parquet.wasm" ]; then
  printf 'parquet: wasm-opt\n' >&2
  rm -rf "$PKG"
  mkdir -p "$PKG"
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals "$WASM" -o "$PKG/scorelens_parquet.wasm"
  echo "$SUM" > "$PKG/.source"
fi
mkdir -p "$OUT"
cp "$PKG/scorelens_parquet.wasm" "$OUT/"
printf 'parquet: %s: wasm %s bytes (%s gzip)\n' "$OUT" "$(wc -c < "$OUT/scorelens_parquet.wasm")" \
  "$(gzip -9c "$OUT/scorelens_parquet.wasm" | wc -c)" >&2
