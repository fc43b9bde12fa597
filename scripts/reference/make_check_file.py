#!/usr/bin/env python3
"""Writes the small canonical file `make test` scores twice, with scorelens and with the numpy
reference (scripts/reference/check.py): choice items whose probabilities come as `probs`,
`logprobs` and `loglikelihoods`, with mass outside the options, totals just above 1, invalid
distributions, ties, given, invalid and null answers, and groups (some items in none).

    python3 scripts/reference/make_check_file.py --items 5000 --out FILE

Seeded: the same arguments give the same bytes.
"""
import argparse
import json
import math
import random

OPTIONS = ["A", "B", "C", "D"]


def probabilities(rng, gold):
    """A distribution over the options leaning to gold with varying sharpness, summing to 1."""
    logits = [rng.gauss(0.0, 1.0) + (1.2 if j == gold else 0.0) for j in range(4)]
    sharp = rng.choice((0.5, 1.0, 2.0))
    e = [math.exp(sharp * x) for x in logits]
    return [v / sum(e) for v in e]


def item(rng, i):
    gold = rng.randrange(4)
    obj = {"id": f"r{i:05d}", "type": "choice", "options": OPTIONS, "gold": OPTIONS[gold]}
    if rng.random() < 0.9:
        obj["group"] = f"g{rng.randrange(12):02d}"
    p = probabilities(rng, gold)
    kind = rng.random()
    outside = rng.choice((0.0, 0.0, 0.03, 0.1, 0.3))
    if kind < 0.35:
        obj["probs"] = {o: round(v * (1 - outside), 6) for o, v in zip(OPTIONS, p)}
    elif kind < 0.45:
        # A total in (1, 1.02]: divided out, no outside mass (SPEC §2).
        over = 1 + rng.choice((0.004, 0.01, 0.019))
        obj["probs"] = {o: v * over for o, v in zip(OPTIONS, p)}
    elif kind < 0.70:
        # Only some options listed: the rest have probability 0.
        lp = {o: math.log(v * (1 - outside)) for o, v in zip(OPTIONS, p)}
        if rng.random() < 0.2:
            del lp[OPTIONS[(gold + 1) % 4]]
        obj["logprobs"] = lp
    elif kind < 0.92:
        obj["loglikelihoods"] = {o: rng.uniform(-60.0, -2.0) + (3.0 if j == gold else 0.0)
                                 for j, o in enumerate(OPTIONS)}
    elif kind < 0.95:
        # Ties: the arg-max is the first option listed among them.
        obj["probs"] = rng.choice(({o: 0.25 for o in OPTIONS},
                                   {"A": 0.1, "B": 0.4, "C": 0.4, "D": 0.1}))
    else:
        # Invalid distributions: scored, left out of every calibration figure.
        obj["probs"] = rng.choice(({"A": 0.9, "B": 0.6}, {"A": -0.1, "B": 0.5}, {"A": 0.0}))
    a = rng.random()
    if a < 0.08:
        obj["answer"] = OPTIONS[rng.randrange(4)]
    elif a < 0.11:
        obj["answer"] = "E"
    elif a < 0.14:
        obj["answer"] = None
    return obj


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=5000)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20261201)
    args = ap.parse_args()
    main_with(args.items, args.out, args.seed)


def main_with(items, out, seed=20261201):
    rng = random.Random(seed)
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps({"scorelens": 1, "model": "reference-check (synthetic)",
                            "benchmark": "generic"}) + "\n")
        for i in range(items):
            f.write(json.dumps(item(rng, i)) + "\n")


if __name__ == "__main__":
    main()
