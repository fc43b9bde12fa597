#!/usr/bin/env bash
# Builds the embeddable widget and JavaScript API (src/embed/mod.rs) into an npm-ready folder:
#   scripts/dist.sh            -> dist/embed/ (`make dist`)
#   scripts/dist.sh --stage    -> $TRUNK_STAGING_DIR/embed/ (Trunk's build hook, so the site's
#                                 dist/ serves embed.html with a working widget)
# The lib is built with the `embed` feature by cargo, then wasm-bindgen --target web and
# wasm-opt 132 from npm (never Debian's, see ../shared/DESIGN.md). The package is assembled in
# target/embed/pkg/ and wasm-bindgen and wasm-opt run again only when the cargo output changed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

case "${1:-}" in
  --stage) OUT="${TRUNK_STAGING_DIR:?--stage runs as a Trunk hook}/embed" ;;
  "") OUT=dist/embed ;;
  *) OUT="$1" ;;
esac

# Small over fast, as the app's page: opt-level z, LTO, panic = abort (profile release-ui).
PROFILE=release-ui
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
WASM="$TARGET_DIR/wasm32-unknown-unknown/$PROFILE/scorelens.wasm"
PKG="$TARGET_DIR/embed/pkg"
log() { printf 'dist: %s\n' "$*" >&2; }

cargo build --locked --lib --target wasm32-unknown-unknown --features embed --profile "$PROFILE"

SUM=$(sha256sum "$WASM" | cut -d' ' -f1)
if [ "$(cat "$PKG/.source" 2>/dev/null)" != "$SUM" ] || [ ! -f "$PKG/scorelens_wasm_bg.wasm" ]; then
  log "wasm-bindgen and wasm-opt"
  rm -rf "$PKG"
  mkdir -p "$PKG"
  wasm-bindgen --target web --out-dir "$PKG" --out-name scorelens_wasm "$WASM"
  wasm-opt -Oz --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals \
    "$PKG/scorelens_wasm_bg.wasm" -o "$PKG/scorelens_wasm_bg.wasm"
  echo "$SUM" > "$PKG/.source"
fi

# The Parquet decoder module beside the entry, fetched by the widget only when a table is scored.
scripts/parquet_module.sh "$PKG"

# The hand-written entry, its types, the package file and the README.
cp www/embed/scorelens.js www/embed/scorelens.d.ts "$PKG/"
VERSION=$(awk -F'"' '/^version = /{print $2; exit}' Cargo.toml)
node scripts/embed_package.mjs "$VERSION" "$PKG"

# Trunk's staging folder is new for each build, and its own pipelines write into it meanwhile.
[ "${1:-}" = --stage ] || rm -rf "$OUT"
mkdir -p "$OUT"
cp "$PKG"/* "$OUT/"
WASM_BYTES=$(wc -c < "$OUT/scorelens_wasm_bg.wasm")
WASM_GZ=$(gzip -9c "$OUT/scorelens_wasm_bg.wasm" | wc -c)
JS_GZ=$(cat "$OUT/scorelens.js" "$OUT/scorelens_wasm.js" | gzip -9c | wc -c)
log "$OUT: wasm $WASM_BYTES bytes ($WASM_GZ gzip), JS $JS_GZ gzip"
