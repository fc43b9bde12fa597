#!/usr/bin/env python3
"""Writes www/samples/compare/model-a.jsonl and model-b.jsonl: two synthetic models answering
the same 400 four-option questions, for `scorelens compare` and the app's comparison view.

Model B is a little stronger and better calibrated than model A, on the same items with the
same difficulty, so the paired comparison separates them although their unpaired intervals
overlap. Each file also lacks a few items the other has (items found in only one file).
Seeded: running it again gives the same bytes. No real model produced these files.
"""
import json
import math
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "www" / "samples" / "compare"
GROUPS = ["algebra", "biology", "history", "law"]
OPTIONS = ["A", "B", "C", "D"]


def softmax(xs):
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    s = sum(e)
    return [v / s for v in e]


def main():
    rng = random.Random(8)
    items = []
    for i in range(400):
        gold = rng.randrange(4)
        difficulty = rng.gauss(0, 1.2)  # shared by both models: what makes pairing pay
        noise = [rng.gauss(0, 1) for _ in range(4)]
        items.append((i, gold, difficulty, noise))
    models = {
        "a": ("synthetic-model-a (not a real model)", 1.3, 1.8, range(0, 5)),
        "b": ("synthetic-model-b (not a real model)", 1.7, 1.3, range(395, 400)),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    for key, (model, skill, sharpness, missing) in models.items():
        own = random.Random(100 + ord(key))
        rows = [{"scorelens": 1, "model": model, "benchmark": "generic", "synthetic": True,
                 "note": "paired-comparison demo: same 400 questions as the other model file"}]
        for i, gold, difficulty, noise in items:
            if i in missing:
                continue
            logits = [0.8 * noise[j] + own.gauss(0, 0.6)
                      + ((skill - difficulty) if j == gold else 0) for j in range(4)]
            p = softmax([sharpness * x for x in logits])
            rows.append({"id": f"q{i:03d}", "type": "choice", "group": GROUPS[i % 4],
                         "options": OPTIONS, "gold": OPTIONS[gold],
                         "probs": {o: round(v, 4) for o, v in zip(OPTIONS, p)}})
        path = OUT / f"model-{key}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
