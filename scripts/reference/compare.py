#!/usr/bin/env python3
"""Times scorelens against the Python reference on one file, in one run.

Runs `scorelens score FILE --json` and `score_reference.py FILE` alternately, RUNS times each
(whole processes, wall clock: reading, parsing, scoring and printing), checks that every figure
the reference computes agrees with the report, and prints both medians and the ratio.

    python scripts/reference/compare.py --scorelens target/release/scorelens FILE [--runs 5]
        [--out target/bench-results/reference.json]

Run it with the Python that has numpy and uncertainty-calibration (scripts/bench.sh makes one).
"""
import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Summation order differs (numpy's pairwise sums against running sums), so figures agree to
# rounding, not to the last bit.
TOLERANCE = 1e-9


def timed(cmd):
    """Wall clock and CPU time (user + sys of the child) of one whole process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def disagreements(ours, ref):
    """Each figure of the reference that the report does not match, as text."""
    bad = []
    if ours["items"] != ref["items"]:
        bad.append(f"items {ours['items']} vs {ref['items']}")
    pairs = [(f"metrics.{k}", ours["metrics"][k], v) for k, v in ref["metrics"].items()]
    for mode in ("conditioning", "mixing"):
        pairs += [(f"{mode}.{k}", ours[mode][k], v) for k, v in ref[mode].items()]
    for name, a, b in pairs:
        if a is None or abs(a - b) > TOLERANCE:
            bad.append(f"{name}: scorelens {a} vs reference {b}")
    if len(ours["groups"]) != ref["groups"]:
        bad.append(f"groups {len(ours['groups'])} vs {ref['groups']}")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--scorelens", required=True, help="path of the scorelens binary")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", help="also write the timings here as JSON")
    args = ap.parse_args()
    native_cmd = [args.scorelens, "score", args.file, "--json"]
    python_cmd = [sys.executable, str(HERE / "score_reference.py"), args.file]
    native, python, native_cpu, python_cpu = [], [], [], []
    for i in range(args.runs):
        t, c, ours = timed(native_cmd)
        native.append(t)
        native_cpu.append(c)
        t, c, ref = timed(python_cmd)
        python.append(t)
        python_cpu.append(c)
        print(f"run {i + 1}: scorelens {native[-1]:.3f} s (cpu {native_cpu[-1]:.3f} s), "
              f"python {python[-1]:.3f} s (cpu {python_cpu[-1]:.3f} s)", flush=True)
    bad = disagreements(json.loads(ours), json.loads(ref))
    for b in bad:
        print(f"DISAGREE {b}", file=sys.stderr)
    n, p = statistics.median(native), statistics.median(python)
    nc, pc = statistics.median(native_cpu), statistics.median(python_cpu)
    result = {
        "file": args.file,
        "bytes": Path(args.file).stat().st_size,
        "items": json.loads(ref)["items"],
        "runs": args.runs,
        "scorelens_s": native,
        "python_s": python,
        "scorelens_median_s": n,
        "python_median_s": p,
        "ratio": p / n,
        # user + sys of each whole process: less distorted by other load than the wall clock
        "scorelens_cpu_s": native_cpu,
        "python_cpu_s": python_cpu,
        "scorelens_cpu_median_s": nc,
        "python_cpu_median_s": pc,
        "figures_agree": not bad,
        "command_native": " ".join(native_cmd),
        "command_python": "python " + " ".join(python_cmd[1:]),
    }
    print(f"scorelens median {n:.3f} s · python reference median {p:.3f} s · "
          f"ratio {p / n:.1f}x (median of {args.runs}, one run)")
    print(f"cpu (user + sys): scorelens median {nc:.3f} s · python median {pc:.3f} s")
    print("figures agree" if not bad else f"{len(bad)} figures disagree")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
