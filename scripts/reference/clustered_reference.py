"""Independent reference for clustered standard errors, design effects and power (numpy only).

Writes two runs of one benchmark whose items come in clusters (60 passages of 4 questions, with
a passage effect, so that the questions of one passage are correlated), and the figures the
cluster-robust formulas give for them, computed here from the definitions and nothing of
scorelens:

- each run's accuracy: its mean, the sandwich SE  sqrt(G/(G-1) * sum_c (sum_{i in c} (x_i - m))^2) / n,
  the plain SE  s / sqrt(n)  (n - 1 divisor), the design effect (their squared ratio), Wilson's
  interval on n / deff items, the MDE (z_.975 + z_.80) * SE and 4n items to halve the interval;
- the pair's paired difference: SE from the per-cluster sums of the paired influence values
  (one stratum), the z-test's p-value, the MDE and the items the observed gap would need.

Usage: clustered_reference.py [--check]   (--check: fail unless the committed files are current)
"""

import json
import math
import sys
from pathlib import Path
from statistics import NormalDist

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "tests" / "fixtures" / "clustered"
Z = 1.959963984540054
Z80 = NormalDist().inv_cdf(0.80)
CLUSTERS, SIZE = 60, 4


def runs():
    rng = np.random.default_rng(20261203)
    # Each passage's difficulty is shared by both runs and by its four questions.
    ease = rng.beta(2.0, 2.0, CLUSTERS)
    out = {}
    for name, shift in (("run-a", 0.10), ("run-b", 0.0)):
        p = np.clip(ease + shift, 0.0, 1.0)
        out[name] = (rng.random((CLUSTERS, SIZE)) < p[:, None]).astype(float)
    return out


def lines(name, x):
    yield json.dumps({"scorelens": 1, "model": name, "benchmark": "generic"})
    for c in range(CLUSTERS):
        for q in range(SIZE):
            ok = x[c, q] == 1.0
            yield json.dumps(
                {
                    "id": f"p{c:02}-q{q}",
                    "type": "choice",
                    "options": ["A", "B"],
                    "gold": "A",
                    "answer": "A" if ok else "B",
                    "passage_id": f"p{c:02}",
                }
            )


def wilson(p, n):
    z2 = Z * Z
    d = 1 + z2 / n
    c = (p + z2 / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / d
    return max(c - h, 0.0), min(c + h, 1.0)


def one(x):
    n, g = x.size, x.shape[0]
    m = x.mean()
    se = math.sqrt(g / (g - 1) * ((x - m).sum(axis=1) ** 2).sum()) / n
    se_iid = x.std(ddof=1) / math.sqrt(n)
    deff = (se / se_iid) ** 2
    lo, hi = wilson(m, n / deff)
    return {
        "value": m,
        "se": se,
        "se_iid": se_iid,
        "design_effect": deff,
        "wilson_lo": lo,
        "wilson_hi": hi,
        "half_width": Z * se,
        "mde": (Z + Z80) * se,
        "items_to_halve": 4 * n,
    }


def pair(a, b):
    n, g = a.size, a.shape[0]
    u = (a - a.mean()) / n - (b - b.mean()) / n
    zc = u.sum(axis=1)
    se = math.sqrt(g / (g - 1) * ((zc - zc.mean()) ** 2).sum())
    delta = a.mean() - b.mean()
    mde = (Z + Z80) * se
    return {
        "delta": delta,
        "se": se,
        "p_value": math.erfc(abs(delta) / (se * math.sqrt(2))),
        "mde": mde,
        "items_needed": math.ceil(n * (mde / abs(delta)) ** 2 - 1e-9),
    }


def build():
    r = runs()
    files = {f"{name}.jsonl": "\n".join(lines(name, x)) + "\n" for name, x in r.items()}
    expected = {
        "clusters": CLUSTERS,
        "size": SIZE,
        "runs": {name: one(x) for name, x in r.items()},
        "pair": pair(r["run-a"], r["run-b"]),
    }
    files["expected.json"] = json.dumps(expected, indent=1) + "\n"
    return files


def main():
    files = build()
    if "--check" in sys.argv:
        stale = [f for f, text in files.items() if (OUT / f).read_text() != text]
        if stale:
            sys.exit(f"stale: {', '.join(stale)}; run scripts/reference/clustered_reference.py")
        print("clustered reference: the committed files are current")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for f, text in files.items():
        (OUT / f).write_text(text)
    print(json.dumps(json.loads(files["expected.json"]), indent=1))


if __name__ == "__main__":
    main()
