#!/usr/bin/env python3
"""The Python pipeline a maintainer would otherwise write (issue 9): json + numpy + the
uncertainty-calibration package, computing scorelens's SPEC §2–§4 figures on a canonical file.

It covers what scripts/gen_large.py writes: choice items with `options`, `gold`, `probs` and an
optional `group` (the `answer` field, when present, is honoured). Other item types are outside
its scope and stop it. Equal-mass ECE comes from the package (`get_ece_em`, what HELM calls); the
package's equal-width `get_ece` puts a confidence equal to a bin edge in the lower bin, SPEC §4 in
the upper one, so equal-width ECE is computed here with numpy as SPEC §4 says.

    python scripts/reference/score_reference.py FILE [--json]

Prints the figures as JSON with the report's key names (scripts/reference/compare.py checks them
against `scorelens score FILE --json`).
"""
import argparse
import json
import sys

import numpy as np
import calibration as cal


def read(path):
    """Per-item probabilities (N x k), gold and answer indices, group names."""
    probs, gold, answer, groups = [], [], [], []
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            if not line.strip():
                continue
            obj = json.loads(line)
            if "scorelens" in obj:
                continue
            if obj.get("type", "choice") != "choice":
                sys.exit(f"{path}: only choice items are covered, not {obj.get('type')}")
            options = obj["options"]
            p = obj["probs"]
            probs.append([p.get(o, 0.0) for o in options])
            gold.append(options.index(obj["gold"]))
            a = obj.get("answer")
            answer.append(options.index(a) if a in options else (-1 if a is not None else -2))
            groups.append(obj.get("group") or "(none)")
    return np.array(probs, dtype=np.float64), np.array(gold), np.array(answer), np.array(groups)


def calibration_figures(q, gold, answer, correct):
    n, k = q.shape
    rows = np.arange(n)
    valid = answer >= 0
    conf = np.where(valid, q[rows, np.maximum(answer, 0)], q.max(axis=1))
    # Equal width, SPEC §4: bin = min(floor(10 c), 9).
    b = np.minimum(np.floor(conf * 10).astype(np.int64), 9)
    count = np.bincount(b, minlength=10)
    conf_sum = np.bincount(b, weights=conf, minlength=10)
    right_sum = np.bincount(b, weights=correct.astype(np.float64), minlength=10)
    filled = count > 0
    ece = float(np.sum(count[filled] / n * np.abs(right_sum[filled] / count[filled]
                                                   - conf_sum[filled] / count[filled])))
    ece_em = float(cal.get_ece_em(conf, correct.astype(np.int64), num_bins=10))
    y = np.zeros_like(q)
    y[rows, gold] = 1.0
    q_gold = q[rows, gold]
    return {
        "ece": ece,
        "ece_em": ece_em,
        "brier": float(np.mean(np.sum((q - y) ** 2, axis=1) / k)),
        "epa": float(np.mean(q_gold)),
        "nll": float(np.mean(-np.log(np.maximum(q_gold, 1e-15)))),
        "items": int(n),
    }


def figures(path):
    p, gold, given, groups = read(path)
    n, k = p.shape
    # SPEC §2: s in (1, 1.02] is divided out; the outside mass is what is left below 1.
    s = p.sum(axis=1)
    p = np.where((s > 1.0)[:, None], p / s[:, None], p)
    s = np.where(s > 1.0, 1.0, s)
    outside = np.maximum(0.0, 1.0 - s)
    # SPEC §3: the given answer, else the arg-max (np.argmax takes the first of ties).
    answer = np.where(given == -2, np.argmax(p, axis=1), given)
    correct = answer == gold
    chance = 1.0 / k
    normalized = np.where(correct, 1.0, 0.0) - chance
    normalized /= 1.0 - chance
    names, inverse = np.unique(groups, return_inverse=True)
    per_group = np.bincount(inverse, weights=correct.astype(np.float64)) / np.bincount(inverse)
    norm_group = np.bincount(inverse, weights=normalized) / np.bincount(inverse)
    conditioning = p / s[:, None]
    mixing = p + (outside / k)[:, None]
    return {
        "items": int(n),
        "metrics": {
            "accuracy": float(np.mean(correct)),
            "normalized": float(np.mean(normalized)),
            "invalid_share": float(np.mean(answer < 0)),
            "outside_mass": float(np.mean(outside)),
            "macro_accuracy": float(np.mean(per_group)),
            "macro_normalized": float(np.mean(norm_group)),
        },
        "conditioning": calibration_figures(conditioning, gold, answer, correct),
        "mixing": calibration_figures(mixing, gold, answer, correct),
        "groups": len(names),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    args = ap.parse_args()
    print(json.dumps(figures(args.file), indent=1))


if __name__ == "__main__":
    main()
