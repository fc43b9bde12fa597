#!/usr/bin/env python3
"""Writes tests/fixtures/ece_em/vectors.json: equal-mass ECE computed by the reference implementation,
uncertainty-calibration's get_ece_em (what HELM calls as ece_10_bin), on seeded random cases.

    python3 -m venv /tmp/calvenv && /tmp/calvenv/bin/pip install uncertainty-calibration numpy
    /tmp/calvenv/bin/python scripts/reference/ece_em_vectors.py
"""
import json
import random
from pathlib import Path

import numpy as np
import calibration as cal

OUT = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "ece_em" / "vectors.json"


def case(rng, n, decimals):
    conf = [rng.random() for _ in range(n)]
    if decimals is not None:
        conf = [round(c, decimals) for c in conf]  # many ties, some at boundaries
    correct = [int(rng.random() < c) for c in conf]
    ece = cal.get_ece_em(np.array(conf), np.array(correct), num_bins=10)
    return {"confidence": conf, "correct": correct, "ece_em": float(ece)}


def main():
    rng = random.Random(20261129)
    cases = []
    for n, decimals in [(1, None), (2, 1), (5, None), (10, 1), (12, 2), (37, 1), (100, 2),
                        (257, None), (1000, 2), (1000, None), (3001, 3)]:
        cases.append(case(rng, n, decimals))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"source": "uncertainty-calibration get_ece_em(num_bins=10)",
                               "cases": cases}))
    print(OUT, len(cases))


if __name__ == "__main__":
    main()
