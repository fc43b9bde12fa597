#!/usr/bin/env python3
"""Compares two scorelens binaries' `score F --json` reports value by value.

    python3 scripts/json_diff.py BASE_BIN NEW_BIN FILE...

For a change that is meant to move figures by rounding only (scripts/same_outputs.sh wants every
byte equal): prints how many reports were compared, how many values differ, the largest absolute
difference among numbers, and each differing key (list indices folded to []). A difference that
is not between two numbers, or in the exit code or stderr, is printed on its own line and makes
the exit code 1.
"""
import json
import re
import subprocess
import sys


def walk(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            walk(a.get(k), b.get(k), f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append((path, a, b))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    base, new, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    reports = values = 0
    worst = 0.0
    keys = set()
    bad = False
    for f in files:
        runs = [subprocess.run([b, "score", f, "--json"], capture_output=True, text=True) for b in (base, new)]
        if runs[0].returncode != runs[1].returncode or runs[0].stderr != runs[1].stderr:
            print(f"{f}: exit code or stderr differ")
            bad = True
            continue
        if runs[0].returncode != 0:
            continue
        reports += 1
        out = []
        walk(json.loads(runs[0].stdout), json.loads(runs[1].stdout), "", out)
        for path, a, b in out:
            values += 1
            keys.add(re.sub(r"\[\d+\]", "[]", path))
            numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
            if numbers:
                worst = max(worst, abs(a - b))
            else:
                print(f"{f}: {path}: {a!r} -> {b!r}")
                bad = True
    print(f"{reports} reports, {values} values differ, largest difference {worst:.3g}")
    for k in sorted(keys):
        print(f"  {k}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
