#!/usr/bin/env python3
"""The Python pipeline a maintainer would otherwise write: json + numpy, computing
scorelens's SPEC §2–§4 figures on a canonical file, independently of the Rust code.

It covers choice items with `options`, `gold`, an optional `group` and `answer`, and their
probabilities as `probs`, `logprobs` (p = exp) or `loglikelihoods` (a softmax, outside mass
unknown: left out of the mixing figures and the mean outside mass), valid or not (SPEC §1: an
invalid distribution leaves the item out of every calibration figure). Every item of a file must
have the same number of options. Other item types stop it. Equal-width ECE is SPEC §4's; the
equal-mass ECE is HELM's binning as SPEC §4 words it, written here with numpy; when the
uncertainty-calibration package is installed (`make bench` installs it) its `get_ece_em`, what HELM
calls, is used instead (check.py holds the numpy binning to the package's values in
tests/fixtures/ece_em/vectors.json).

    python scripts/reference/score_reference.py FILE [--json]

Prints the figures as JSON with the report's key names (scripts/reference/compare.py checks them
against `scorelens score FILE --json`; scripts/reference/check.py does so in `make test`).
"""
import argparse
import json
import math
import sys

import numpy as np

try:
    import calibration as cal
except ImportError:  # numpy alone (make test): SPEC §4's words, below
    cal = None

MAX_TOTAL = 1.02


def distribution(obj, options):
    """(p over the options, their total s, the outside mass or NaN when unknown), or None when
    the probabilities are invalid (SPEC §1–§2)."""
    if obj.get("probs") is not None:
        raw = obj["probs"]
        p = [raw.get(o, 0.0) for o in options]
    elif obj.get("logprobs") is not None:
        lp = [obj["logprobs"].get(o) for o in options]
        if any(x is not None and (math.isnan(x) or x == math.inf) for x in lp):
            return None
        p = [0.0 if x is None else math.exp(x) for x in lp]
    elif obj.get("loglikelihoods") is not None:
        ll = [obj["loglikelihoods"].get(o) for o in options]
        known = [x for x in ll if x is not None]
        if any(math.isnan(x) or x == math.inf for x in known):
            return None
        top = max(known, default=-math.inf)
        if top == -math.inf:
            return None
        e = np.array([0.0 if x is None else math.exp(x - top) for x in ll])
        p = e / sum(e)
        return p, sum(p), math.nan
    else:
        return None
    if any(not isinstance(x, (int, float)) or not math.isfinite(x) or x < 0 for x in p):
        return None
    p = np.array(p, dtype=np.float64)
    s = 0.0
    for x in p:  # in option order, as SPEC §2 sums
        s += x
    if s > MAX_TOTAL or s == 0.0:
        return None
    if s > 1.0:
        return p / s, 1.0, 0.0
    return p, s, 1.0 - s


def read(path):
    """Per item: probabilities (N x k, NaN rows when invalid) and their total, the outside mass
    (NaN when unknown or invalid), gold and answer indices (-1: an invalid answer), group names."""
    p_rows, totals, outside, gold, answer, groups = [], [], [], [], [], []
    k = None
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
            if k is None:
                k = len(options)
            elif len(options) != k:
                sys.exit(f"{path}: every item must have {k} options")
            d = distribution(obj, options)
            if d is None:
                p_rows.append(np.full(k, np.nan))
                totals.append(np.nan)
                outside.append(np.nan)
            else:
                p_rows.append(d[0])
                totals.append(d[1])
                outside.append(d[2])
            g = options.index(obj["gold"])
            gold.append(g)
            a = obj.get("answer")
            if a is not None:
                answer.append(options.index(a) if a in options else -1)
            elif d is not None:
                answer.append(int(np.argmax(d[0])))  # the first of ties
            else:
                answer.append(-1)
            groups.append(obj.get("group") or "(none)")
    return {
        "p": np.array(p_rows, dtype=np.float64),
        "s": np.array(totals, dtype=np.float64),
        "outside": np.array(outside, dtype=np.float64),
        "gold": np.array(gold),
        "answer": np.array(answer),
        "groups": np.array(groups),
        "k": k,
    }


def ece_equal_mass(conf, correct, bins=10, package=True):
    """SPEC §4: sorted confidences split as numpy.array_split does into min(10, N) chunks; the
    boundaries are the midpoints between chunks plus 1.0, de-duplicated; an item goes to the first
    boundary >= its confidence."""
    if cal is not None and package:
        return float(cal.get_ece_em(conf, correct.astype(np.int64), num_bins=bins))
    n = len(conf)
    chunks = np.array_split(np.sort(conf), min(bins, n))
    edges = [(chunks[i][-1] + chunks[i + 1][0]) / 2.0 for i in range(len(chunks) - 1)] + [1.0]
    edges = np.unique(np.array(edges))
    b = np.searchsorted(edges, conf, side="left")
    total = 0.0
    for j in range(len(edges)):
        inside = b == j
        if inside.any():
            total += inside.sum() / n * abs(conf[inside].mean() - correct[inside].mean())
    return float(total)


def calibration_figures(q, gold, answer, correct):
    n, k = q.shape
    if n == 0:
        return {key: None for key in ("ece", "ece_em", "brier", "epa", "nll")} | {"items": 0}
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
    y = np.zeros_like(q)
    y[rows, gold] = 1.0
    q_gold = q[rows, gold]
    return {
        "ece": ece,
        "ece_em": ece_equal_mass(conf, correct.astype(np.float64)),
        "brier": float(np.mean(np.sum((q - y) ** 2, axis=1) / k)),
        "epa": float(np.mean(q_gold)),
        "nll": float(np.mean(-np.log(np.maximum(q_gold, 1e-15)))),
        "items": int(n),
    }


def figures(data, index=None):
    """The figures of the items `index` (a resample: indices may repeat), or of every item."""
    if index is None:
        index = np.arange(len(data["gold"]))
    p, s, outside = data["p"][index], data["s"][index], data["outside"][index]
    gold, answer, groups, k = data["gold"][index], data["answer"][index], data["groups"][index], data["k"]
    correct = answer == gold
    # SPEC §3: 1 when right, -c/(1-c) when wrong, c = 1/k.
    chance = 1.0 / k
    normalized = np.where(correct, 1.0, -chance / (1.0 - chance))
    names, inverse = np.unique(groups, return_inverse=True)
    per_group = np.bincount(inverse, weights=correct.astype(np.float64)) / np.bincount(inverse)
    norm_group = np.bincount(inverse, weights=normalized) / np.bincount(inverse)
    has_probs = ~np.isnan(s)
    known = has_probs & ~np.isnan(outside)
    # SPEC §2: conditioning q_i = p_i / s; mixing q_i = p_i + m / k.
    conditioning = p[has_probs] / s[has_probs][:, None]
    mixing = p[known] + (outside[known] / k)[:, None]
    return {
        "items": int(len(index)),
        "metrics": {
            "accuracy": float(np.mean(correct)),
            "normalized": float(np.mean(normalized)),
            "invalid_share": float(np.mean(answer < 0)),
            "outside_mass": float(np.mean(outside[known])) if known.any() else None,
            "macro_accuracy": float(np.mean(per_group)),
            "macro_normalized": float(np.mean(norm_group)),
        },
        "conditioning": calibration_figures(conditioning, gold[has_probs], answer[has_probs],
                                            correct[has_probs]),
        "mixing": calibration_figures(mixing, gold[known], answer[known], correct[known]),
        "groups": len(names),
        "group_figures": {str(g): {"items": int(c), "accuracy": float(a), "normalized": float(z)}
                          for g, c, a, z in zip(names, np.bincount(inverse), per_group, norm_group)},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    args = ap.parse_args()
    print(json.dumps(figures(read(args.file)), indent=1))


if __name__ == "__main__":
    main()
