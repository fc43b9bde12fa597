#!/usr/bin/env python3
"""Writes a folder of synthetic runs of one benchmark for the leaderboard benchmark: R files of N
choice items each, the same items (id, group, gold) in every file, each run a different skill.

    python3 scripts/gen_leaderboard.py --runs 50 --items 15000 --out target/bench-data/leaderboard-50

Four options with probabilities, twenty groups; run r's skill rises with r, so neighbours are
close and far runs clearly apart (the ranks have something to be unsure about). Seeded: the
same arguments give the same bytes. No real model produced these numbers; the headers say so.
"""
import argparse
import json
import math
import random
from pathlib import Path

OPTIONS = ("A", "B", "C", "D")
GROUPS = 20


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--items", type=int, default=15000)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    items_rng = random.Random(args.seed)
    golds = [items_rng.randrange(4) for _ in range(args.items)]
    for r in range(args.runs):
        rng = random.Random(args.seed * 1000 + r + 1)
        skill = 0.4 + 0.03 * r
        head = {"scorelens": 1, "model": f"synthetic-{r:02d} (not a real model)", "benchmark": "generic",
                "synthetic": True}
        lines = [json.dumps(head)]
        for i, gold in enumerate(golds):
            logits = [rng.gauss(0.0, 1.0) + (skill + 0.05 * (i % GROUPS % 5) if j == gold else 0.0) for j in range(4)]
            m = max(logits)
            e = [math.exp(x - m) for x in logits]
            s = sum(e)
            probs = {o: round(v / s, 6) for o, v in zip(OPTIONS, e)}
            lines.append(json.dumps({"id": f"i{i}", "group": f"g{i % GROUPS:02d}", "options": list(OPTIONS),
                                     "gold": OPTIONS[gold], "probs": probs}, separators=(",", ":")))
        (out / f"run-{r:02d}.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
