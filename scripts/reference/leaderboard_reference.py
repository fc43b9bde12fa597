#!/usr/bin/env python3
"""An independent leaderboard computation (numpy), so that tests/leaderboard_reference.rs checks
scorelens's rank intervals, value intervals, pairwise tests and Holm's adjustment exactly.

Written from docs/intervals.md (the bootstrap's design and the leaderboard's rules), not from the
Rust code. The resamples are reproduced, not imported: SplitMix64, Lemire's bounded draw, the
per-resample stream seed and the stratified draw are ported below, so the test checks the draws
too. The runs are generated here (seeded) and written into the output beside the figures.

    python3 scripts/reference/leaderboard_reference.py            # print a summary
    python3 scripts/reference/leaderboard_reference.py --write    # write leaderboard_expected.json
    python3 scripts/reference/leaderboard_reference.py --check    # fail when that file is stale
"""
import argparse
import json
import math
import random
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "leaderboard_expected.json"
MASK = (1 << 64) - 1
SEED = 77
RESAMPLES = 250  # 2.5%, 50% and 97.5% of 250 are not whole: no boundary rides on rounding.
MIN_STRATUM = 5
LEVEL = 0.95


class SplitMix64:
    """Steele, Lea and Flood 2014."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        """Lemire's multiply-and-reject: uniform in [0, n) without modulo bias."""
        m = self.next() * n
        if (m & MASK) < n:
            threshold = ((1 << 64) - n) % n
            while (m & MASK) < threshold:
                m = self.next() * n
        return m >> 64


def stream_seed(seed, b):
    return SplitMix64(seed ^ SplitMix64(b).next()).next()


def make_runs():
    """Six runs of 60 items in four groups (one too small to be its own stratum); E copies D, so
    they tie everywhere; C lacks two items and F one; F has one item nobody else has."""
    rng = random.Random(20260501)
    groups = ["num"] * 17 + ["alg"] * 20 + ["geo"] * 20 + ["tiny"] * 3
    rng.shuffle(groups)
    items = []
    for i, g in enumerate(groups):
        k = rng.choice([2, 3, 4, 5])
        options = "ABCDE"[:k]
        items.append({"id": f"q{i:03d}", "group": g, "options": list(options), "gold": rng.choice(options)})
    skill = {"A": 0.8, "B": 0.74, "C": 0.6, "D": 0.55, "F": 0.35}
    answers = {}
    for name, p in skill.items():
        answers[name] = []
        for it in items:
            right = rng.random() < p + (0.1 if it["group"] == "geo" and name == "C" else 0.0)
            wrong = [o for o in it["options"] if o != it["gold"]]
            answers[name].append(it["gold"] if right else rng.choice(wrong))
    answers["E"] = list(answers["D"])
    runs = []
    for name in ["A", "B", "C", "D", "E", "F"]:
        lines = []
        for it, a in zip(items, answers[name]):
            if name == "C" and it["id"] in ("q005", "q017"):
                continue
            if name == "F" and it["id"] == "q059":
                continue
            lines.append({**it, "answer": a})
        if name == "F":
            lines.append({"id": "q999", "group": "alg", "options": ["A", "B"], "gold": "A", "answer": "A"})
        runs.append({"name": name, "items": lines})
    return runs


def design(first, shared):
    """Strata of the first run's shared items: numbered as groups first arrive (over all its
    items), units kept where shared, strata under MIN_STRATUM units pooled last, sorted."""
    stratum_of, by = {}, []
    for i, it in enumerate(first):
        s = stratum_of.setdefault(it["group"], len(stratum_of))
        if s == len(by):
            by.append([])
        if it["id"] in shared:
            by[s].append(i)
    out, pooled = [], []
    for units in by:
        (out.append(units) if len(units) >= MIN_STRATUM else pooled.extend(units))
    if pooled:
        out.append(sorted(pooled))
    return out


def draw(strata, n_units, b):
    rng = SplitMix64(stream_seed(SEED, b))
    counts = np.zeros(n_units, dtype=np.int64)
    for units in strata:
        n = len(units)
        for _ in range(n):
            counts[units[rng.below(n)]] += 1
    return counts


def quantile7(values, p):
    return float(np.quantile(np.asarray(values, dtype=float), p, method="linear"))


def competition(values, higher):
    """1 + the number of runs strictly better; NaN is worse than everything, NaNs tie."""
    out = []
    for v in values:
        if math.isnan(v):
            out.append(1 + sum(not math.isnan(x) for x in values))
        else:
            out.append(1 + sum((x > v) if higher else (x < v) for x in values if not math.isnan(x)))
    return out


def mcnemar_p(b, c):
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    return min(1.0, 2.0 * sum(math.comb(n, i) for i in range(k + 1)) / 2.0**n)


def bootstrap_p(diffs):
    below = int(np.sum(diffs <= 0))
    above = int(np.sum(diffs >= 0))
    return min(1.0, 2.0 * (1 + min(below, above)) / (1 + len(diffs)))


def holm(raw):
    order = sorted(range(len(raw)), key=lambda i: raw[i])
    adj, running = [0.0] * len(raw), 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (len(raw) - j) * raw[i]))
        adj[i] = running
    return adj


def compute():
    runs = make_runs()
    first = runs[0]["items"]
    ids = [set(it["id"] for it in r["items"]) for r in runs]
    shared_ids = set.intersection(*ids)
    shared = [it["id"] for it in first if it["id"] in shared_ids]
    pos = [{it["id"]: i for i, it in enumerate(r["items"])} for r in runs]
    strata = design(first, shared_ids)
    group = [first[pos[0][s]]["group"] for s in shared]
    subsets = sorted(set(group))
    # Per run, per shared item: credit and the normalized score (1, or -1/(k-1) when wrong).
    credit = np.array([[1.0 if r["items"][p[s]]["answer"] == r["items"][p[s]]["gold"] else 0.0 for s in shared]
                       for r, p in zip(runs, pos)])
    k = np.array([len(first[pos[0][s]]["options"]) for s in shared], dtype=float)
    normalized = np.where(credit == 1.0, 1.0, -1.0 / (k - 1.0))
    unit = np.array([pos[0][s] for s in shared])  # every item is its own unit, numbered in order
    gidx = np.array([subsets.index(g) for g in group])

    def figures(w):
        """Per figure name, an array of the runs' values under item weights w."""
        tot = w.sum()
        out = {
            "metrics.accuracy": (credit * w).sum(axis=1) / tot,
            "metrics.normalized": (normalized * w).sum(axis=1) / tot,
            "metrics.invalid_share": np.zeros(len(runs)),
        }
        per = []
        for g in range(len(subsets)):
            m = gidx == g
            wg = w[m].sum()
            per.append((credit[:, m] * w[m]).sum(axis=1) / wg if wg > 0 else None)
        present = [a for a in per if a is not None]
        out["metrics.macro_accuracy"] = np.mean(present, axis=0)
        for g, name in enumerate(subsets):
            out[f"subsets.{name}.accuracy"] = per[g] if per[g] is not None else np.full(len(runs), np.nan)
        return out

    point = figures(np.ones(len(shared)))
    reps = {name: [] for name in point}
    for b in range(RESAMPLES):
        counts = draw(strata, len(first), b)
        for name, v in figures(counts[unit].astype(float)).items():
            reps[name].append(v)
    names = [r["name"] for r in runs]
    boards, subset_pairs = {}, []
    for fig, pv in point.items():
        higher = not fig.endswith("invalid_share")
        vals = np.array(reps[fig])  # resamples × runs
        ranks = np.array([competition(list(row), higher) for row in vals])
        standings = {}
        point_ranks = competition(list(pv), higher)
        for r, name in enumerate(names):
            rr = ranks[:, r]
            lo, med, hi = (int(np.quantile(rr, q, method="inverted_cdf")) for q in (0.025, 0.5, 0.975))
            standings[name] = {
                "value": float(pv[r]), "lo": quantile7(vals[:, r], 0.025), "hi": quantile7(vals[:, r], 0.975),
                "rank": int(point_ranks[r]), "rank_lo": lo, "rank_median": med, "rank_hi": hi,
            }
        pairs = []
        for a in range(len(runs)):
            for b in range(a + 1, len(runs)):
                diffs = vals[:, a] - vals[:, b]
                if fig == "metrics.accuracy" or fig.startswith("subsets."):
                    m = np.ones(len(shared), bool) if fig == "metrics.accuracy" else gidx == subsets.index(fig.split(".")[1])
                    ca, cb = credit[a][m], credit[b][m]
                    p = mcnemar_p(int(np.sum((ca == 1) & (cb == 0))), int(np.sum((ca == 0) & (cb == 1))))
                else:
                    p = bootstrap_p(diffs)
                d = float(pv[a] - pv[b])
                better = None if pv[a] == pv[b] else (names[a] if (pv[a] > pv[b]) == higher else names[b])
                pairs.append({"a": names[a], "b": names[b], "delta": d, "lo": quantile7(diffs, 0.025),
                              "hi": quantile7(diffs, 0.975), "p_value": p, "better": better})
        boards[fig] = {"standings": standings, "pairs": pairs}
        if fig.startswith("subsets."):
            subset_pairs.extend(pairs)
        else:
            for p, adj in zip(pairs, holm([p["p_value"] for p in pairs])):
                p["p_adjusted"] = adj
    for p, adj in zip(subset_pairs, holm([p["p_value"] for p in subset_pairs])):
        p["p_adjusted"] = adj
    for board in boards.values():
        for p in board["pairs"]:
            p["differs"] = p["p_adjusted"] <= 1 - LEVEL and p["better"] is not None
    return {
        "source": "scripts/reference/leaderboard_reference.py (numpy)",
        "seed": SEED,
        "resamples": RESAMPLES,
        "common": len(shared),
        "runs": runs,
        "boards": boards,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    doc = compute()
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if args.write:
        OUT.write_text(text)
        print(f"wrote {OUT}")
    elif args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: run with --write", file=sys.stderr)
            sys.exit(1)
        print(f"{OUT} is current")
    else:
        for fig, board in doc["boards"].items():
            ranks = ", ".join(f"{n} {s['rank_lo']}-{s['rank_hi']}" for n, s in board["standings"].items())
            print(f"{fig}: {ranks}")


if __name__ == "__main__":
    main()
