#!/usr/bin/env bash
# Runs fuzz targets one after another for SECONDS each (default 600), logging to fuzz/logs/, and
# exits non-zero when any target found a crash, a leak, a timeout or an out-of-memory input (or
# ended in any other way than reaching its time), so that a finding fails the run.
#   bash fuzz/run.sh 600 canonical csv ...     (no target names: all of them)
#   make fuzz SECONDS=60                       (installs cargo-fuzz first, then every target)
# Seeds come from fuzz/make_seeds.py (run here when a target has none). Findings land in
# fuzz/artifacts/<target>/. The targets are built once with AddressSanitizer (which also finds
# leaks), then run as plain binaries, so that edits to the crate meanwhile trigger no rebuild.
# cargo-fuzz's sanitizer flags are unstable: the stable toolchain takes them with
# RUSTC_BOOTSTRAP=1, so no nightly is needed (a nightly works too: FUZZ_TOOLCHAIN=+nightly).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_EACH=${1:-600}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(score canonical lm_eval helm openai_evals csv jevbench inspect decision_bench rewardbench zip compressed utf16 folder join html)
mkdir -p logs
if [ -z "${NO_BUILD:-}" ]; then
  # shellcheck disable=SC2086
  RUSTC_BOOTSTRAP=1 cargo ${FUZZ_TOOLCHAIN:-} fuzz build -O --debug-assertions --sanitizer address >&2
fi
BIN=target/x86_64-unknown-linux-gnu/release
failed=()
for t in "${TARGETS[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  [ -n "$(ls -A "corpus/$t")" ] || python3 make_seeds.py >/dev/null
  before=$(find "artifacts/$t" -type f | wc -l)
  echo "== $t for ${SECONDS_EACH}s" >&2
  status=0
  # -detect_leaks=1: LeakSanitizer reports a leak as a finding (but glibc's own, lsan.supp);
  # -timeout: an input running 20 s is one (exit 70); -rss_limit_mb: so is one taking 3 GiB.
  LSAN_OPTIONS="suppressions=$PWD/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
  "$BIN/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" \
    -max_total_time="$SECONDS_EACH" -dict=json.dict -max_len=131072 -timeout=20 \
    -rss_limit_mb=3072 -detect_leaks=1 -print_final_stats=1 >"logs/$t.log" 2>&1 || status=$?
  after=$(find "artifacts/$t" -type f | wc -l)
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^Done|SUMMARY|Test unit written" "logs/$t.log" >&2 || true
  if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
    echo "FAIL $t: exit $status, $((after - before)) new artifact(s) in fuzz/artifacts/$t/ (log: fuzz/logs/$t.log)" >&2
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzzing: ${#TARGETS[@]} target(s), ${SECONDS_EACH}s each, no crash, leak or timeout" >&2
