#!/usr/bin/env python3
"""Writes a large synthetic canonical JSON Lines file for the benchmarks.

N choice items with 4 options, probabilities, a group and a tier each, after one header line.
Seeded: the same arguments give the same bytes. A share of the items puts mass outside the options
(so conditioning and mixing differ); some groups are overconfident and some underconfident.

    python3 scripts/gen_large.py --items 1000000 --out target/bench-data/items-1000000.jsonl
    python3 scripts/gen_large.py --mb 100 --out big.jsonl        # stop once the file reaches 100 MB
    python3 scripts/gen_large.py --items 10 --out -              # to stdout

No real model produced these numbers; the header says so.
"""
import argparse
import json
import math
import random
import sys

OPTIONS = ("A", "B", "C", "D")
TIERS = ("easy", "standard", "judge", "hard")
GROUPS = 20
SHARPNESS = (0.6, 1.0, 1.8)


def header(seed):
    return {"scorelens": 1, "model": "synthetic-large (not a real model)", "benchmark": "generic",
            "synthetic": True, "note": f"scripts/gen_large.py seed {seed}"}


def item_line(rng, i):
    gold = rng.randrange(4)
    group = i % GROUPS
    tier = TIERS[rng.randrange(4)]
    # Skill varies by group, so per-group accuracy differs. The sharpness too: some groups are
    # overconfident, some underconfident, so the calibration error changes sign across the
    # confidence range and the two ECE binnings give different values.
    skill = 0.6 + 0.12 * (group % 10)
    sharp = SHARPNESS[group % len(SHARPNESS)]
    logits = [rng.gauss(0.0, 1.0) + (skill if j == gold else 0.0) for j in range(4)]
    top = max(logits)
    e = [math.exp(sharp * (x - top)) for x in logits]
    total = sum(e)
    outside = (0.0, 0.0, 0.0, 0.02, 0.1)[rng.randrange(5)]
    scale = (1.0 - outside) / total
    p = [round(v * scale, 4) for v in e]
    # Fixed key order and compact separators: what a producer typically writes.
    return (f'{{"id":"q{i:07d}","type":"choice","group":"g{group:02d}","tier":"{tier}",'
            f'"options":["A","B","C","D"],"gold":"{OPTIONS[gold]}",'
            f'"probs":{{"A":{p[0]},"B":{p[1]},"C":{p[2]},"D":{p[3]}}}}}\n')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    size = ap.add_mutually_exclusive_group(required=True)
    size.add_argument("--items", type=int, help="number of items")
    size.add_argument("--mb", type=float, help="stop once the file holds this many megabytes (10^6 bytes)")
    ap.add_argument("--out", required=True, help="output path, or - for stdout")
    ap.add_argument("--seed", type=int, default=20260609)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8", newline="\n")
    limit = None if args.mb is None else int(args.mb * 1e6)
    written = 0
    try:
        first = json.dumps(header(args.seed), separators=(",", ":")) + "\n"
        out.write(first)
        written += len(first)
        i = 0
        batch = []
        while (args.items is not None and i < args.items) or (limit is not None and written < limit):
            line = item_line(rng, i)
            batch.append(line)
            written += len(line)
            i += 1
            if len(batch) >= 10000:
                out.write("".join(batch))
                batch.clear()
        out.write("".join(batch))
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"{args.out}: {i} items, {written} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
