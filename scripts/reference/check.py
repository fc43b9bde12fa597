#!/usr/bin/env python3
"""The independent reference in `make test`: scores a generated file with scorelens and with the
numpy reference (score_reference.py) and requires every figure to agree to 1e-12, relative.

    python scripts/reference/check.py --scorelens target/debug/scorelens [--items 5000]

The file (make_check_file.py) mixes `probs`, `logprobs` and `loglikelihoods`, outside mass,
invalid distributions, given and invalid answers and groups, so that both modes, the outside
mass, the macro figures and every calibration figure are checked. Exits 1 on any disagreement.
"""
import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_check_file  # noqa: E402
import score_reference  # noqa: E402

# Both sides sum in a different order (numpy's pairwise sums against running sums) and numpy's
# exp and log may differ from libm's in the last bit: figures agree to rounding, which 1e-12
# relative bounds with a wide margin for 5,000 items.
TOLERANCE = 1e-12


def agree(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOLERANCE * max(1.0, abs(b))


def disagreements(ours, ref):
    """Each figure of the reference the report does not match (and each it has no value for)."""
    bad = []
    if ours["items"] != ref["items"]:
        bad.append(f"items: scorelens {ours['items']} vs reference {ref['items']}")
    pairs = [(f"metrics.{k}", ours["metrics"][k], v) for k, v in ref["metrics"].items()]
    for mode in ("conditioning", "mixing"):
        pairs += [(f"{mode}.{k}", ours[mode][k], v) for k, v in ref[mode].items()]
    groups = {g["name"]: g for g in ours["groups"]}
    if sorted(groups) != sorted(ref["group_figures"]):
        bad.append(f"groups: scorelens {sorted(groups)} vs reference {sorted(ref['group_figures'])}")
    for name, want in ref["group_figures"].items():
        for k, v in want.items():
            pairs.append((f"groups.{name}.{k}", groups.get(name, {}).get(k), v))
    worst = 0.0
    for name, a, b in pairs:
        if not agree(a, b):
            bad.append(f"{name}: scorelens {a!r} vs reference {b!r}")
        elif a is not None:
            worst = max(worst, abs(a - b) / max(1.0, abs(b)))
    return bad, len(pairs), worst


def equal_mass_matches_the_package():
    """The numpy equal-mass binning against uncertainty-calibration's get_ece_em on its committed
    vectors (scripts/reference/ece_em_vectors.py made them): how many cases, and the misses."""
    vectors = json.loads((HERE.parents[1] / "tests/fixtures/ece_em/vectors.json").read_text())
    bad = []
    for i, c in enumerate(vectors["cases"]):
        got = score_reference.ece_equal_mass(np.array(c["confidence"]),
                                             np.array(c["correct"], dtype=np.float64),
                                             package=False)
        if not agree(got, c["ece_em"]):
            bad.append(f"ece_em vector {i}: numpy {got!r} vs package {c['ece_em']!r}")
    return len(vectors["cases"]), bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scorelens", required=True, help="path of the scorelens binary")
    ap.add_argument("--items", type=int, default=5000)
    ap.add_argument("--out", default=str(HERE.parents[1] / "target" / "reference" / "check.jsonl"))
    args = ap.parse_args()
    start = time.perf_counter()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    make_check_file.main_with(args.items, args.out)
    ours = json.loads(subprocess.run([args.scorelens, "score", args.out, "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    ref = score_reference.figures(score_reference.read(args.out))
    bad, checked, worst = disagreements(ours, ref)
    cases, misses = equal_mass_matches_the_package()
    bad += misses
    for b in bad:
        print(f"DISAGREE {b}", file=sys.stderr)
    took = time.perf_counter() - start
    mixing_items = ref["mixing"]["items"]
    print(f"reference check: {ref['items']} items ({ref['conditioning']['items']} with valid "
          f"probabilities, {mixing_items} with known outside mass), {ref['groups']} groups, "
          f"{checked} figures, {len(bad)} disagree beyond {TOLERANCE:g} (largest difference of the "
          f"others {worst:.1e}); its equal-mass ECE equals the package's on {cases - len(misses)} "
          f"of {cases} vectors; {took:.2f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
