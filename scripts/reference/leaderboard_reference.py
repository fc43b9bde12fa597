#!/usr/bin/env python3
"""An independent leaderboard computation (numpy), so that tests/leaderboard_reference.rs checks
scorelens's rank intervals, value intervals, pairwise tests (McNemar, paired-z with the CLT
standard error, bootstrap-z), Holm's adjustment and tied ranks exactly.

Written from the leaderboard's rules (docs/intervals.md and the rules restated in the docstrings
below), not from the Rust code. The resamples are reproduced, not imported: SplitMix64, Lemire's
bounded draw, the per-resample stream seed and the stratified draw over the canonical design are
ported below, so the test checks the draws too. The runs are generated here (seeded) and written
into the output beside the figures.

    python3 scripts/reference/leaderboard_reference.py            # print a summary
    python3 scripts/reference/leaderboard_reference.py --write    # write leaderboard_expected.json
    python3 scripts/reference/leaderboard_reference.py --check    # fail when that file is stale
"""
import argparse
import bisect
import json
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "leaderboard_expected.json"
MASK = (1 << 64) - 1
SEED = 77
# 2.5%, 50% and 97.5% of 1001 are not whole (25.025, 500.5, 975.975): no rank boundary of the
# inverted_cdf quantiles rides on rounding.
RESAMPLES = 1001
MIN_STRATUM = 5
ALPHA = 0.05

# The runs: name -> accuracy it aims at, its share of invalid answers, and a bonus on one group.
SKILL = {
    "r01": (0.62, 0.02, None),
    "r02": (0.93, 0.00, None),
    "r03": (0.78, 0.03, ("geo", 0.15)),  # lacks two items
    "r04": (0.35, 0.10, None),
    "r05": (0.55, 0.05, None),  # r06 and r07 are copies of r05
    "r08": (0.70, 0.02, ("alg", -0.2)),
    "r09": (0.71, 0.02, ("num", 0.1)),
    "r10": (0.45, 0.08, None),  # has one item nobody else has
    "r11": (0.85, 0.01, None),
    "r12": (0.50, 0.04, ("prob", 0.2)),
    "r13": (0.40, 0.06, None),
}
COPIES = {"r06": "r05", "r07": "r05"}
IDENTICAL = ["r05", "r06", "r07"]
FAR_APART = ["r02", "r04"]  # 0.95 and 0.30
MISSING = {"r03": ("q17", "q203")}
EXTRA = {"r10": {"id": "q999", "group": "alg", "options": ["A", "B"], "gold": "A", "answer": "A"}}


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
    """13 runs of 300 four-to-five-group items (ids q0..q299, so byte order is not numeric order;
    each run's file in its own shuffled order). Group "tiny" has 3 items: too small to be its own
    stratum. r06 and r07 are copies of r05; r03 lacks two items; r10 has one nobody else has.
    Some answers are invalid (absent, or not an option): wrong, and counted in invalid_share."""
    rng = random.Random(20261203)
    groups = ["num"] * 80 + ["alg"] * 90 + ["geo"] * 70 + ["prob"] * 57 + ["tiny"] * 3
    rng.shuffle(groups)
    items = []
    for i, g in enumerate(groups):
        k = rng.choice([2, 3, 4, 5])
        options = "ABCDE"[:k]
        items.append({"id": f"q{i}", "group": g, "options": list(options), "gold": rng.choice(options)})
    lines = {}
    for name, (p, invalid, bonus) in SKILL.items():
        out = []
        for it in items:
            q = p + (bonus[1] if bonus and it["group"] == bonus[0] else 0.0)
            line = dict(it)
            u = rng.random()
            if u < invalid:
                if rng.random() < 0.5:
                    line["answer"] = "Z"
                # else: no answer at all
            elif rng.random() < q:
                line["answer"] = it["gold"]
            else:
                line["answer"] = rng.choice([o for o in it["options"] if o != it["gold"]])
            if it["id"] not in MISSING.get(name, ()):
                out.append(line)
        if name in EXTRA:
            out.append(dict(EXTRA[name]))
        rng.shuffle(out)
        lines[name] = out
    for copy, of in COPIES.items():
        lines[copy] = [dict(line) for line in lines[of]]
    return [{"name": name, "items": lines[name]} for name in sorted(lines)]


def design(groups):
    """Rule 3: strata are the reference run's groups over the shared items (canonical unit number =
    position in the sorted shared ids), sorted by key, each its units ascending; strata under
    MIN_STRATUM units pooled into one stratum placed last, its units sorted."""
    by = {}
    for u, g in enumerate(groups):
        by.setdefault(g, []).append(u)
    out, pooled = [], []
    for key in sorted(by):
        (out.append(by[key]) if len(by[key]) >= MIN_STRATUM else pooled.extend(by[key]))
    if pooled:
        out.append(sorted(pooled))
    return out


def draw(strata, n_units, b):
    """Rule 4."""
    rng = SplitMix64(stream_seed(SEED, b))
    counts = np.zeros(n_units, dtype=np.int64)
    for units in strata:
        n = len(units)
        for _ in range(n):
            counts[units[rng.below(n)]] += 1
    return counts


def quantile7(values, p):
    return float(np.quantile(np.asarray(values, dtype=float), p, method="linear"))


def competition(row, higher):
    """1 + the number of runs strictly better, on exact values (Fraction; a tie in exact
    arithmetic is a tie, whatever float rounding would say); None (undefined) is worse than
    everything, and the undefined tie."""
    defined = sorted(x for x in row if x is not None)
    out = []
    for v in row:
        if v is None:
            out.append(1 + len(defined))
        elif higher:
            out.append(1 + len(defined) - bisect.bisect_right(defined, v))
        else:
            out.append(1 + bisect.bisect_left(defined, v))
    return out


def mcnemar_p(b, c):
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    return min(1.0, 2.0 * sum(math.comb(n, i) for i in range(k + 1)) / 2.0**n)


def z_p(exact_delta, delta, se):
    """p = erfc(|δ| / (se √2)); 1 when δ = 0 (exactly: a tie), 0 when se = 0 and δ ≠ 0."""
    if exact_delta == 0:
        return 1.0
    if se == 0:
        return 0.0
    return math.erfc(abs(delta) / (se * math.sqrt(2.0)))


def clt_se(va, vb, strata):
    """Rule 6: influence u_i = (v_i − θ)/m on counted items (v not NaN), 0 elsewhere; z = u(a) − u(b)
    per unit; V = Σ_h n_h/(n_h − 1) Σ_{u∈h} (z_u − z̄_h)² over all units of each stratum."""

    def influence(v):
        counted = ~np.isnan(v)
        m = int(counted.sum())
        theta = v[counted].sum() / m
        return np.where(counted, (np.where(counted, v, 0.0) - theta) / m, 0.0)

    z = influence(va) - influence(vb)
    var = 0.0
    for units in strata:
        n = len(units)
        if n <= 1:
            continue
        zh = z[units]
        var += n / (n - 1) * float(np.sum((zh - zh.mean()) ** 2))
    return math.sqrt(var)


def holm(raw):
    order = sorted(range(len(raw)), key=lambda i: raw[i])
    adj, running = [0.0] * len(raw), 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (len(raw) - j) * raw[i]))
        adj[i] = running
    return adj


def compute():
    runs = sorted(make_runs(), key=lambda r: r["name"].encode())  # rule 1
    names = [r["name"] for r in runs]
    by_id = [{it["id"]: it for it in r["items"]} for r in runs]
    shared = sorted(set.intersection(*(set(d) for d in by_id)), key=str.encode)  # rule 2
    ref = by_id[0]
    group = [ref[s].get("group", "") for s in shared]
    strata = design(group)
    subsets = sorted(set(group), key=str.encode) if len(set(group)) >= 2 else []  # rule 5

    def answer_of(it):
        return it.get("answer")

    # Item values, exact (Fraction; None where the item is not counted): credit, invalid, and
    # normalized = (credit − c)/(1 − c) with c = 1/k (not counted when c ≥ 1).
    def norm_of(credit, k):
        c = Fraction(1, k)
        return (credit - c) / (1 - c) if c < 1 else None

    credit_q = [[Fraction(int(answer_of(d[s]) == d[s]["gold"])) for s in shared] for d in by_id]
    invalid_q = [[Fraction(int(answer_of(d[s]) not in d[s]["options"])) for s in shared] for d in by_id]
    norm_q = [[norm_of(c, len(d[s]["options"])) for c, s in zip(cr, shared)] for cr, d in zip(credit_q, by_id)]
    gmask = {g: [x == g for x in group] for g in subsets}
    exact_values = {  # per figure that is a mean of item values: runs × shared items
        "metrics.accuracy": credit_q,
        "metrics.normalized": norm_q,
        "metrics.invalid_share": invalid_q,
    }
    for g in subsets:
        exact_values[f"subsets.{g}.accuracy"] = [[c if m else None for c, m in zip(cr, gmask[g])] for cr in credit_q]
    macro_of = {"metrics.macro_accuracy": credit_q, "metrics.macro_normalized": norm_q}

    class Means:
        """Weighted means of exact item values in integers: value × L, L the common denominator."""

        def __init__(self, rows):
            dens = [x.denominator for row in rows for x in row if x is not None]
            self.scale = math.lcm(*dens) if dens else 1
            self.counted = np.array([[x is not None for x in row] for row in rows])
            self.ints = np.array([[int(x * self.scale) if x is not None else 0 for x in row] for row in rows],
                                 dtype=np.int64)
            self.float = np.array([[float(x) if x is not None else np.nan for x in row] for row in rows])

        def at(self, w):
            num = (self.ints * w[None, :]).sum(axis=1)
            den = (self.counted * w[None, :]).sum(axis=1)
            return [Fraction(int(n), int(d) * self.scale) if d > 0 else None for n, d in zip(num, den)]

    means = {f: Means(v) for f, v in exact_values.items()}
    item_values = {f: m.float for f, m in means.items()}  # NaN = not counted, for the CLT se
    group_means = {f: [Means([[x if m else None for x, m in zip(row, gmask[g])] for row in rows]) for g in subsets]
                   for f, rows in macro_of.items()}

    def figures(w):
        """Per figure, each run's exact value under unit weights w (None when undefined)."""
        out = {f: m.at(w) for f, m in means.items()}
        for f, per_group in group_means.items():
            per = [m.at(w) for m in per_group]
            out[f] = []
            for r in range(len(runs)):
                defined = [v[r] for v in per if v[r] is not None]
                out[f].append(sum(defined, Fraction(0)) / len(defined) if defined else None)
        return out

    def as_float(row):
        return np.array([float(x) if x is not None else np.nan for x in row])

    point = figures(np.ones(len(shared), dtype=np.int64))
    reps = {f: [] for f in point}
    for b in range(RESAMPLES):
        w = draw(strata, len(shared), b)
        for f, v in figures(w).items():
            reps[f].append(v)

    boards, subset_pairs = {}, []
    for fig, pe in point.items():
        higher = not fig.endswith("invalid_share")
        vals = np.array([as_float(row) for row in reps[fig]])  # resamples × runs
        ranks = np.array([competition(row, higher) for row in reps[fig]])
        point_ranks = competition(pe, higher)
        pv = as_float(pe)
        standings = {}
        for r, name in enumerate(names):
            col = vals[:, r]
            defined = col[~np.isnan(col)]
            rr = ranks[:, r]
            lo, med, hi = (int(np.quantile(rr, q, method="inverted_cdf")) for q in (0.025, 0.5, 0.975))
            standings[name] = {
                "value": float(pv[r]),
                "lo": quantile7(defined, 0.025) if len(defined) else None,
                "hi": quantile7(defined, 0.975) if len(defined) else None,
                "rank": int(point_ranks[r]), "rank_lo": lo, "rank_median": med, "rank_hi": hi,
                "undefined": int(np.isnan(col).sum()),
            }
        pairs = []
        for a in range(len(runs)):
            for b in range(a + 1, len(runs)):
                diffs = vals[:, a] - vals[:, b]  # exact ties give 0: each value is rounded once
                diffs = diffs[~np.isnan(diffs)]
                exact_d = pe[a] - pe[b]
                d = float(exact_d)
                if fig in item_values:
                    va, vb = item_values[fig][a], item_values[fig][b]
                    se = clt_se(va, vb, strata)
                    binary = all(np.isin(x[~np.isnan(x)], (0.0, 1.0)).all() for x in (va, vb))
                    if fig.endswith(".accuracy") and binary:
                        m = ~np.isnan(va)
                        ca, cb = va[m], vb[m]
                        test = "mcnemar"
                        p = mcnemar_p(int(np.sum((ca == 1) & (cb == 0))), int(np.sum((ca == 0) & (cb == 1))))
                    else:
                        test, p = "paired-z", z_p(exact_d, d, se)
                else:
                    test = "bootstrap-z"
                    se = float(np.std(diffs, ddof=1)) if len(diffs) >= 2 else None
                    p = z_p(exact_d, d, se) if se is not None else 1.0
                better = None if exact_d == 0 else (names[a] if (exact_d > 0) == higher else names[b])
                pairs.append({
                    "a": names[a], "b": names[b], "delta": d,
                    "lo": quantile7(diffs, 0.025) if len(diffs) else None,
                    "hi": quantile7(diffs, 0.975) if len(diffs) else None,
                    "better": better, "test": test, "se": se, "p_value": p,
                })
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
            p["differs"] = p["p_adjusted"] <= ALPHA and p["better"] is not None
        for name, s in board["standings"].items():  # rule 8
            s["tied_rank"] = 1 + sum(p["differs"] and p["better"] not in (None, name) and name in (p["a"], p["b"])
                                     for p in board["pairs"])
    doc = {
        "source": "scripts/reference/leaderboard_reference.py (numpy)",
        "seed": SEED,
        "resamples": RESAMPLES,
        "common": len(shared),
        "strata": [len(s) for s in strata],
        "far_apart": FAR_APART,
        "identical": IDENTICAL,
        "runs": runs,
        "boards": boards,
    }
    selfcheck(doc)
    return doc


def selfcheck(doc):
    """What the data is for: far-apart runs differ on the bootstrap-tested macro accuracy after
    Holm, identical runs never differ on any figure."""
    a, b = doc["far_apart"]
    for fig in ("metrics.macro_accuracy", "metrics.macro_normalized"):
        p = next(p for p in doc["boards"][fig]["pairs"] if {p["a"], p["b"]} == {a, b})
        assert p["test"] == "bootstrap-z" and p["differs"], (fig, p)
    same = set(doc["identical"])
    for fig, board in doc["boards"].items():
        for p in board["pairs"]:
            if p["a"] in same and p["b"] in same:
                assert p["p_value"] == 1.0 and p["p_adjusted"] == 1.0 and not p["differs"], (fig, p)
                assert p["delta"] == 0.0 and p["lo"] == 0.0 and p["hi"] == 0.0, (fig, p)


def render(doc):
    """The document as indented JSON, except that each run's item is one line (the runs are most
    of the file)."""
    rest = {k: v for k, v in doc.items() if k != "runs"}
    head = json.dumps(rest, indent=1, sort_keys=True)
    runs = ",\n".join(
        '  {"name": %s, "items": [\n%s\n  ]}'
        % (json.dumps(r["name"]), ",\n".join("   " + json.dumps(it, sort_keys=True) for it in r["items"]))
        for r in doc["runs"]
    )
    assert head.endswith("\n}")
    return head[:-2] + ',\n "runs": [\n' + runs + "\n ]\n}\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    doc = compute()
    text = render(doc)
    if args.write:
        OUT.write_text(text)
        print(f"wrote {OUT}")
    elif args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: run with --write", file=sys.stderr)
            sys.exit(1)
        print(f"{OUT} is current")
    else:
        print(f"{len(doc['runs'])} runs, {doc['common']} shared items, strata {doc['strata']}, B = {RESAMPLES}")
        for fig, board in doc["boards"].items():
            st = board["standings"]
            print(f"{fig}: " + ", ".join(f"{n} {s['value']:.3f} r{s['rank']} t{s['tied_rank']} "
                                         f"[{s['rank_lo']}-{s['rank_hi']}]" for n, s in st.items()))
            tests = {}
            for p in board["pairs"]:
                tests[p["test"]] = tests.get(p["test"], 0) + 1
            print(f"  tests {tests}, {sum(p['differs'] for p in board['pairs'])} of {len(board['pairs'])} pairs differ")
        a, b = doc["far_apart"]
        for fig in ("metrics.accuracy", "metrics.macro_accuracy"):
            p = next(p for p in doc["boards"][fig]["pairs"] if {p["a"], p["b"]} == {a, b})
            print(f"{fig} {p['a']} vs {p['b']}: delta {p['delta']:.4f}, se {p['se']:.5f}, "
                  f"p {p['p_value']:.3g}, adjusted {p['p_adjusted']:.3g}, differs {p['differs']}")


if __name__ == "__main__":
    main()
