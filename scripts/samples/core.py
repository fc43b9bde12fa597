#!/usr/bin/env python3
"""Writes the synthetic demo files in www/samples/, one per item type (choice, binary, rating,
multi, consistency, pair, best_of_n). Seeded: running it again gives the same bytes.

Every file says in its header that it is synthetic; no real model produced it.
"""
import json
import math
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "www" / "samples"
MODEL = "synthetic-demo (not a real model)"


def header(benchmark="generic", note=""):
    return {"scorelens": 1, "model": MODEL, "benchmark": benchmark,
            "synthetic": True, "note": note}


def softmax(xs):
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    s = sum(e)
    return [v / s for v in e]


def choice(rng):
    rows = [header(note="4-option multiple choice; a slightly overconfident model that sometimes "
                        "puts mass outside the options")]
    groups = ["algebra", "biology", "history", "law"]
    for i in range(240):
        opts = ["A", "B", "C", "D"]
        gold = rng.randrange(4)
        skill = 1.6 + 0.4 * (i % 4)
        logits = [rng.gauss(0, 1) + (skill if j == gold else 0) for j in range(4)]
        p = softmax([1.4 * x for x in logits])
        outside = rng.choice([0.0, 0.0, 0.05, 0.15])
        probs = {o: round(v * (1 - outside), 4) for o, v in zip(opts, p)}
        rows.append({"id": f"c{i:03d}", "type": "choice", "group": groups[i % 4],
                     "options": opts, "gold": opts[gold], "probs": probs})
    return rows


def binary(rng):
    rows = [header(note="yes/no questions with p_yes")]
    for i in range(160):
        truth = rng.random() < 0.5
        p = min(max(rng.gauss(0.72 if truth else 0.3, 0.2), 0.0), 1.0)
        rows.append({"id": f"b{i:03d}", "type": "binary", "group": ["facts", "forecasts"][i % 2],
                     "gold": "yes" if truth else "no", "p_yes": round(p, 3)})
    return rows


def rating(rng):
    rows = [header(note="5-level ratings with a distribution over the levels")]
    levels = ["1", "2", "3", "4", "5"]
    for i in range(120):
        gold = rng.randrange(5)
        centre = min(max(gold + rng.choice([-1, 0, 0, 0, 1]), 0), 4)
        p = softmax([-abs(j - centre) * 1.5 for j in range(5)])
        rows.append({"id": f"r{i:03d}", "type": "rating", "options": levels,
                     "gold": levels[gold], "probs": {l: round(v, 4) for l, v in zip(levels, p)}})
    return rows


def multi(rng):
    rows = [header(note="multi-select: pick every correct option; steps are conditional")]
    opts = ["A", "B", "C", "D", "E"]
    for i in range(80):
        gold = sorted(rng.sample(opts, rng.choice([1, 2, 2, 3])))
        answer = gold if rng.random() < 0.55 else sorted(rng.sample(opts, len(gold)))
        steps = []
        for g in gold:
            d = {o: 0.05 for o in opts}
            d[g] = 0.8
            steps.append(d)
        rows.append({"id": f"m{i:03d}", "type": "multi", "options": opts,
                     "gold": gold, "answer": answer, "steps": steps})
    return rows


def consistency(rng):
    rows = [header("steer", "STEER-style consistency pairs: two answers judged together")]
    elements = ["dominance", "transitivity", "independence"]
    for i in range(90):
        consistent = [["A", "A"], ["B", "B"]]
        if rng.random() < 0.7:
            answers = rng.choice(consistent)
        else:
            answers = [rng.choice("AB"), rng.choice("ABC")]
        rows.append({"id": f"k{i:03d}", "type": "consistency", "element": elements[i % 3],
                     "options": [["A", "B"], ["A", "B", "C"]], "consistent": consistent,
                     "answers": answers})
    return rows


def pair(rng):
    rows = [header(note="reward-model preference pairs: chosen and rejected scores")]
    for i in range(150):
        chosen = rng.gauss(1.0, 1.0)
        rejected = rng.gauss(0.2, 1.0)
        rows.append({"id": f"p{i:03d}", "type": "pair", "group": ["chat", "safety", "code"][i % 3],
                     "chosen": round(chosen, 3), "rejected": [round(rejected, 3)]})
    return rows


def best_of_n(rng):
    rows = [header(note="best-of-4: the first candidate is the correct one")]
    for i in range(100):
        scores = [round(rng.gauss(0.8, 1.0), 1)] + [round(rng.gauss(0.0, 1.0), 1) for _ in range(3)]
        rows.append({"id": f"n{i:03d}", "type": "best_of_n", "group": ["math", "focus"][i % 2],
                     "scores": scores, "num_correct": 1})
    return rows


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in [("choice", choice), ("binary", binary), ("rating", rating),
                       ("multi", multi), ("consistency", consistency), ("pair", pair),
                       ("best_of_n", best_of_n)]:
        rng = random.Random(f"scorelens-{name}")
        path = OUT / f"{name}.jsonl"
        with path.open("w", encoding="utf-8", newline="\n") as f:
            for row in make(rng):
                f.write(json.dumps(row, separators=(", ", ": ")) + "\n")
        print(path.relative_to(OUT.parents[1]))


if __name__ == "__main__":
    main()
