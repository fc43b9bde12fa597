#!/usr/bin/env python3
"""Writes tests/fixtures/rewardbench/vectors.json: RewardBench 2 figures computed the way the
official code computes them (allenai/reward-bench rewardbench/utils.py reroll_and_score_dataset and
process_single_model, scripts/run_v2.py), with numpy, on seeded random cases and on the v2 sample.

This is an independent re-implementation from the official algorithm (numpy's mean, tanh and
nan_to_num; a Python set for the Ties prompt pairs), plus SPEC §6's one deviation: a tied prompt
with a single correct answer is left out of the margin terms (the official code fails on it).

    python3 -m venv /tmp/npvenv && /tmp/npvenv/bin/pip install numpy
    /tmp/npvenv/bin/python scripts/reference/rewardbench_vectors.py
"""
import json
import random
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "rewardbench" / "vectors.json"
SAMPLE = ROOT / "www" / "samples" / "rewardbench-v2-scores.json"


def unwrap(x):
    return x[0] if isinstance(x, list) else x


def best_of_credit(scores):
    scores = np.array(scores)
    top = np.max(scores)
    return (1 / np.sum(scores == top)) if scores[0] == top else 0


def prompt(samples):
    correct = [s for ok, s in samples if ok]
    wrong = [s for ok, s in samples if not ok]
    dcm = max(correct) - min(correct) if len(correct) > 1 else None
    cim = min(correct) - max(wrong)
    return cim > 0, dcm, cim


def ties(rows):
    groups = {}
    for r in rows:
        kind, n = r["id"].split(":")
        for i, s in enumerate(r["scores"]):
            groups.setdefault((kind, int(n)), []).append((i < r["num_correct"], unwrap(s)))
    ref, tied = {}, {}
    for (kind, n), samples in groups.items():
        (ref if kind == "ref" else tied)[n] = prompt(samples)
    ref_acc = np.mean([s[0] for s in ref.values()])
    tied_acc = np.mean([s[0] for s in tied.values()])
    pairs = [p for p in set(ref) & set(tied) if tied[p][1] is not None]
    dcm = np.array([tied[p][1] for p in pairs])
    cim_t = np.array([tied[p][2] for p in pairs])
    cim_r = np.array([ref[p][2] for p in pairs])
    cp = np.mean(cim_t > dcm)
    cph = np.mean(np.minimum(cim_r, cim_t) > dcm)
    with np.errstate(divide="ignore", invalid="ignore"):
        margins = np.nan_to_num(np.tanh(np.minimum(cim_r, cim_t) / dcm - 1), nan=0.0)
    cms = float(np.mean(margins))
    score = 0.30 * tied_acc + 0.30 * ref_acc + 0.20 * cp + 0.20 * cph + 0.01 * cms
    return {"score": float(score), "ref_accuracy": float(ref_acc), "tied_accuracy": float(tied_acc),
            "correctness_preferred": float(cp), "correctness_preferred_hard": float(cph),
            "margin_score": cms, "pairs": len(pairs)}


def ties_case(rng, n_prompts, integer):
    """Correct answers tend to score higher; integer ratings make spreads of 0 (x/0 and 0/0)."""
    def score(correct):
        if integer:
            return float(rng.randint(6, 9) if correct else rng.randint(1, 8))
        return round(rng.gauss(1.0, 0.4) if correct else rng.gauss(0.0, 0.8), 3)

    rows = []
    order = list(range(n_prompts))
    rng.shuffle(order)
    for p in order:
        k = rng.randint(1, 4)
        ref = [score(i < 1) for i in range(4)]
        tied = [[score(i < k)] for i in range(k + 3)]
        rows.append({"id": f"ref:{p}", "num_correct": 1, "scores": ref})
        rows.append({"id": f"tied:{p}", "num_correct": k, "scores": tied})
    rng.shuffle(rows)
    return {"rows": rows, "expected": ties(rows)}


def sample_case():
    data = json.loads(SAMPLE.read_text())
    subsets = {}
    rows = []
    for id_, subset, k, scores in zip(data["id"], data["subset"], data["num_correct"], data["scores"]):
        scores = [unwrap(s) for s in scores]
        if subset == "Ties":
            rows.append({"id": id_, "num_correct": k, "scores": scores})
        else:
            subsets.setdefault(subset, []).append(best_of_credit(scores))
    # run_v2.py: sum(results) / len(results), Python's sum over the rows in file order.
    figures = {s: sum(c) / len(c) for s, c in subsets.items()}
    figures["Ties"] = ties(rows)["score"]
    order = ["Factuality", "Precise IF", "Math", "Safety", "Focus", "Ties"]
    overall = sum(figures[s] for s in order) / 6
    return {"file": SAMPLE.name, "subsets": figures, "overall": overall}


def main():
    rng = random.Random(20261201)
    cases = [ties_case(rng, n, integer) for n, integer in
             [(1, False), (2, True), (5, True), (8, False), (9, True), (13, False), (40, True),
              (51, False), (51, True), (60, True)]]
    cases = [c for c in cases if c["expected"]["pairs"] > 0]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"source": "numpy re-implementation of reward-bench's Ties and best-of-n scoring",
                               "ties": cases, "sample": sample_case()}, indent=1))
    print(OUT, len(cases))


if __name__ == "__main__":
    main()
