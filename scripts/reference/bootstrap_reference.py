#!/usr/bin/env python3
"""Writes tests/fixtures/bootstrap/reference.json: percentile bootstrap intervals computed with
numpy from the resamples scorelens draws for a seed, so that tests/bootstrap.rs checks its
intervals against an independent computation instead of against its own earlier output.

The draws (each item's weight in each resample) come from the test-only example
`examples/bootstrap_draws.rs`; the figures of each resample are computed here from the file
itself (score_reference.py, over the items repeated as often as they were drawn), and the
interval is numpy's linear-interpolation quantile at 2.5% and 97.5%, the standard error the
standard deviation with ddof=1.

    python3 scripts/reference/make_check_file.py --items 400 --out tests/fixtures/bootstrap/mixed.jsonl
    cargo run --example bootstrap_draws -- tests/fixtures/bootstrap/mixed.jsonl 11 300 > target/draws.json
    .venv/bin/python scripts/reference/bootstrap_reference.py target/draws.json tests/fixtures/bootstrap/mixed.jsonl
"""
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import score_reference  # noqa: E402

OUT = HERE.parents[1] / "tests" / "fixtures" / "bootstrap" / "reference.json"


def fnv1a64(data):
    """FNV-1a, 64 bits: a digest both this script and the Rust test compute in a few lines."""
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def flat(figs):
    """The figures by report path, as the bootstrap names them."""
    out = {f"metrics.{k}": v for k, v in figs["metrics"].items()}
    for mode in ("conditioning", "mixing"):
        out |= {f"{mode}.{k}": v for k, v in figs[mode].items() if k != "items"}
    return out


def main():
    draws_path, file = sys.argv[1], sys.argv[2]
    draws = json.loads(Path(draws_path).read_text())
    data = score_reference.read(file)
    ids = [json.loads(line)["id"] for line in open(file, encoding="utf-8")
           if line.strip() and "scorelens" not in json.loads(line)]
    assert ids == draws["ids"], "the draws are for this file, items in file order"
    weights = np.array(draws["weights"], dtype=np.int64)
    n = len(ids)
    values = {}
    for w in weights:
        assert w.sum() == n, "a resample has as many items as the file"
        for name, v in flat(score_reference.figures(data, np.repeat(np.arange(n), w))).items():
            values.setdefault(name, []).append(v)
    point = flat(score_reference.figures(data))
    figures = {}
    for name, vs in values.items():
        defined = np.array([v for v in vs if v is not None], dtype=np.float64)
        lo, hi = np.quantile(defined, [0.025, 0.975])
        figures[name] = {"estimate": point[name], "lo": float(lo), "hi": float(hi),
                         "se": float(np.std(defined, ddof=1)),
                         "undefined": len(vs) - len(defined)}
    OUT.write_text(json.dumps({
        "source": "scripts/reference/bootstrap_reference.py (numpy) on the draws of "
                  "examples/bootstrap_draws.rs",
        "file": str(Path(file).name),
        "seed": draws["seed"],
        "resamples": draws["resamples"],
        # A digest of the draws, so that the test can tell changed draws from changed figures.
        # (FNV-1a over every weight as 4 little-endian bytes, resample after resample.)
        "weights_fnv1a64": f"{fnv1a64(weights.astype('<u4').tobytes()):016x}",
        "figures": figures,
    }, indent=1) + "\n")
    print(OUT, len(figures), "figures")


if __name__ == "__main__":
    main()
