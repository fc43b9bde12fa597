#!/usr/bin/env bash
# Checks that two scorelens binaries give byte-identical outputs (every speed-up must
# leave every report as it was).
#
#   bash scripts/same_outputs.sh BASE_BIN NEW_BIN
#
# Runs `score F --json` and the table, markdown and csv layouts with both binaries on every file
# of www/samples, tests/fixtures and tests/malformed, on the bench files of target/bench-data
# (items-*.jsonl, large-100mb.jsonl; large-1000mb.jsonl too with SAME_OUTPUTS_LARGE=1), on
# generated files with duplicate ids, blank, CRLF, BOM and malformed lines, and `score DIR` on
# folders; the generated files also with small blocks (SCORELENS_BLOCK_BYTES) so that the
# parallel read cuts them in many places; `score --bootstrap` and `compare` on the samples and the
# generated files. Compares stdout, stderr and the exit code; exits 1 on any difference and
# prints the first ones. Not part of `make test` (it needs two builds). For a change meant to move
# figures by rounding only, scripts/json_diff.py lists which values moved and by how much.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -eq 2 ] || { echo "usage: $0 BASE_BIN NEW_BIN" >&2; exit 2; }
BASE=$(realpath "$1")
NEW=$(realpath "$2")
DATA=target/bench-data
WORK=$(mktemp -d /tmp/same-outputs.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
GEN=$WORK/gen
mkdir -p "$GEN" "$WORK/base" "$WORK/new"

# Generated inputs: a bench-like file of some 3 MB (more than one block), then variants of it.
SRC=$GEN/plain.jsonl
python3 scripts/gen_large.py --items 20000 --out "$SRC" --seed 7 >/dev/null
python3 - "$SRC" "$GEN" <<'EOF'
import sys
from pathlib import Path
src, out = Path(sys.argv[1]), Path(sys.argv[2])
lines = src.read_bytes().split(b"\n")
lines = [l for l in lines if l]
def write(name, ls, end=b"\n", prefix=b""):
    (out / name).write_bytes(prefix + end.join(ls) + end)
# every 97th line repeats an earlier one (a duplicate id)
dup = []
for i, l in enumerate(lines):
    dup.append(l)
    if i % 97 == 96:
        dup.append(lines[i // 2])
write("dups.jsonl", dup)
# blank and whitespace-only lines
blank = []
for i, l in enumerate(lines):
    blank.append(l)
    if i % 50 == 0:
        blank.append(b"")
    if i % 333 == 0:
        blank.append(b"   \t ")
write("blank.jsonl", blank)
write("crlf.jsonl", lines, end=b"\r\n")
write("bom.jsonl", lines, prefix=b"\xef\xbb\xbf")
# malformed lines of several kinds, spread through the file
bad = [b"not json", b"{\"id\": \"x\"", b"[1, 2]", b"{\"id\": \"q1\", \"options\": [\"A\"], \"gold\": \"A\"}",
       b"{\"id\": 5, \"options\": [\"A\", \"B\"], \"gold\": \"C\"}", b"\xff\xfe bad utf8",
       b"{\"id\": \"e\\u0041\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": 1e-3, \"B\": 0.5}}",
       b"{\"id\": \"n\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": null, \"B\": 0.5}}"]
mal = []
for i, l in enumerate(lines):
    mal.append(l)
    if i % 211 == 3:
        mal.append(bad[(i // 211) % len(bad)])
write("malformed.jsonl", mal)
# no newline at the end
(out / "noeol.jsonl").write_bytes(b"\n".join(lines))
# a folder of them for `score DIR`
d = out / "folder"
d.mkdir()
for n in ("dups.jsonl", "blank.jsonl", "crlf.jsonl"):
    (d / n).write_bytes((out / n).read_bytes())
EOF

FILES=()
while IFS= read -r -d '' f; do FILES+=("$f"); done < <(
  find www/samples tests/fixtures tests/malformed -type f ! -name '*.py' ! -name '*.md' -print0 | sort -z)
while IFS= read -r -d '' f; do FILES+=("$f"); done < <(find "$GEN" -maxdepth 1 -type f -print0 | sort -z)
for f in "$DATA"/items-10000.jsonl "$DATA"/items-100000.jsonl "$DATA"/items-1000000.jsonl \
  "$DATA"/large-100mb.jsonl; do
  [ -s "$f" ] && FILES+=("$f")
done
if [ "${SAME_OUTPUTS_LARGE:-0}" = 1 ] && [ -s "$DATA/large-1000mb.jsonl" ]; then
  FILES+=("$DATA/large-1000mb.jsonl")
fi
DIRS=(www/samples "$GEN/folder")
while IFS= read -r -d '' d; do DIRS+=("$d"); done < <(
  find tests/fixtures tests/malformed -mindepth 1 -maxdepth 1 -type d -print0 | sort -z)

n=0
# run SIDE BIN TAG [env...] -- ARGS: one run, its stdout, stderr and exit code kept under TAG.
run() {
  local side=$1 bin=$2 tag=$3
  shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local out=$WORK/$side/$tag
  set +e
  env "${envs[@]}" "$bin" "$@" >"$out.out" 2>"$out.err"
  echo $? >"$out.rc"
  set -e
}
both() {
  n=$((n + 1))
  local tag
  tag=$(printf '%05d' "$n")
  printf '%s\n' "$*" >"$WORK/base/$tag.cmd"
  run base "$BASE" "$tag" "$@"
  run new "$NEW" "$tag" "$@"
}

for f in "${FILES[@]}"; do
  both -- score "$f" --json
  both -- score "$f"
  both -- score "$f" --format markdown
  case $f in
    "$DATA"/*) ;;
    *) both -- score "$f" --format csv ;;
  esac
done
# The generated files and the small samples again with small blocks: many cuts.
for f in "$GEN"/*.jsonl www/samples/*.jsonl; do
  both SCORELENS_BLOCK_BYTES=4096 -- score "$f" --json
  both SCORELENS_BLOCK_BYTES=1 -- score "$f" --json
done
for d in "${DIRS[@]}"; do
  both -- score "$d" --json
  both -- score "$d"
done
# Several files as one run.
both -- score "$GEN/dups.jsonl" "$GEN/crlf.jsonl" --json
both -- score "$GEN/plain.jsonl" "$GEN/plain.jsonl" --json
# Bootstrap intervals and paired comparisons: they resample the per-item records the scorer keeps
# (the calibration parts, the strata), which the figures above do not show.
for f in www/samples/*.jsonl "$GEN/dups.jsonl" "$GEN/malformed.jsonl" "$DATA/items-100000.jsonl"; do
  [ -s "$f" ] && both -- score "$f" --json --bootstrap 200 --seed 11
done
PAIR=(www/samples/compare/model-a.jsonl www/samples/compare/model-b.jsonl)
both -- compare "${PAIR[@]}" --json
both -- compare "${PAIR[@]}"
both -- compare "${PAIR[@]}" --format csv --bootstrap 300 --seed 7
both -- compare "$GEN/plain.jsonl" "$GEN/dups.jsonl" "$GEN/malformed.jsonl" --json --bootstrap 200

bad=0
for f in "$WORK"/base/*.out; do
  tag=$(basename "$f" .out)
  for ext in out err rc; do
    if ! cmp -s "$WORK/base/$tag.$ext" "$WORK/new/$tag.$ext"; then
      bad=$((bad + 1))
      if [ "$bad" -le 10 ]; then
        echo "DIFFERENT $ext: $(cat "$WORK/base/$tag.cmd")" >&2
        diff <(head -c 4000 "$WORK/base/$tag.$ext") <(head -c 4000 "$WORK/new/$tag.$ext") | head -20 >&2 || true
      fi
    fi
  done
done
if [ "$bad" -ne 0 ]; then
  echo "same_outputs: $bad of $((n * 3)) outputs differ" >&2
  exit 1
fi
echo "same_outputs: all $((n * 3)) outputs of $n runs identical (stdout, stderr, exit code)"
