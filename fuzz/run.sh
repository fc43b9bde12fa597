#!/usr/bin/env bash
# Runs fuzz targets one after another for SECONDS each (default 600), logging to fuzz/logs/.
#   bash fuzz/run.sh 600 canonical csv ...     (no target names: all of them)
# Seeds first: python3 fuzz/make_seeds.py. Crashes land in fuzz/artifacts/<target>/.
# The targets are built once, then run as plain binaries, so that edits to the crate meanwhile do
# not trigger rebuilds mid-run. Two of these side by side suit a 2-core machine.
# Needs the nightly toolchain and `cargo install cargo-fuzz`.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_EACH=${1:-600}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(score canonical lm_eval helm openai_evals csv jevbench inspect decision_bench rewardbench)
mkdir -p logs
[ -n "${NO_BUILD:-}" ] || cargo +nightly fuzz build -O --debug-assertions >&2
BIN=target/x86_64-unknown-linux-gnu/release
for t in "${TARGETS[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  echo "== $t for ${SECONDS_EACH}s" >&2
  "$BIN/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" \
    -max_total_time="$SECONDS_EACH" -dict=json.dict -max_len=131072 -timeout=20 \
    -rss_limit_mb=3072 -print_final_stats=1 >"logs/$t.log" 2>&1 || echo "$t: exit $?" >&2
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^Done|SUMMARY|artifact_prefix|Test unit written" "logs/$t.log" >&2 || true
done
