#!/usr/bin/env python3
"""Writes the synthetic I/C demo files in www/samples/.

Every file is SYNTHETIC: a made-up model answering made-up items, labelled so in its header and
model name. The item counts follow the real benchmarks (JevBench Public 231 = 48 easy / 72 standard
/ 111 hard with 139 choice, 74 noul, 18 score items; Decision Bench bench-v3 = 359 rows in 7
categories; CMDB-1500 = 1500 items, text and image), nothing else does.

  python3 scripts/samples/ic.py            # writes the files
  python3 scripts/samples/ic.py --check    # fails if a file differs from what it would write

Outputs (canonical JSON Lines with a header naming the profile):
  www/samples/jevbench-public-231.jsonl, jevbench-hard-111.jsonl, decision-bench.jsonl,
  cmdb-1500.jsonl
and the same Public 231 run in JevBench's own layout (task files + harness results.jsonl):
  www/samples/jevbench-native/{easy,original,hard}.jsonl, results.jsonl
"""

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "www" / "samples"
MODEL = "synthetic-demo-1 (synthetic data)"
SKILL = {"easy": 0.92, "standard": 0.78, "judge": 0.62, "hard": 0.5, None: 0.7}
FAMILIES = ["probability", "triage", "refund", "guardrail", "state-tracking", "lead-score"]


def r3(x):
    return round(x, 3)


def normalise(ps):
    """Rounds to 3 decimals and puts the rounding error on the largest value (sum within 1e-3)."""
    ps = [r3(p) for p in ps]
    i = max(range(len(ps)), key=lambda j: ps[j])
    ps[i] = r3(ps[i] + 1.0 - sum(ps))
    return ps


def choice_probs(rng, k, gold, skill):
    """A distribution whose arg-max is the gold with probability `skill`, with its argmax label."""
    top = rng.uniform(max(1.0 / k + 0.08, 0.4), 0.97)
    rest = [rng.uniform(0.2, 1.0) for _ in range(k - 1)]
    s = sum(rest)
    rest = sorted(((1 - top) * w / s for w in rest), reverse=True)
    if rest and rest[0] >= top:
        rest[0] = top - 0.01
    winner = gold if rng.random() < skill else rng.choice([i for i in range(k) if i != gold])
    others = [i for i in range(k) if i != winner]
    rng.shuffle(others)
    ps = [0.0] * k
    ps[winner] = top
    for i, p in zip(others, rest):
        ps[i] = p
    ps = normalise(ps)
    return ps, max(range(k), key=lambda j: ps[j])


def binary_p_yes(rng, gold_yes, skill):
    u = rng.random()
    if u < skill:
        p = rng.uniform(0.8, 1.0) if gold_yes else rng.uniform(0.0, 0.2)
    elif u < skill + (1 - skill) / 2:
        p = rng.uniform(0.21, 0.79)
    else:
        p = rng.uniform(0.0, 0.2) if gold_yes else rng.uniform(0.8, 1.0)
    return r3(p)


def rating_probs(rng, k, gold, skill):
    centre = gold if rng.random() < skill else min(k - 1, max(0, gold + rng.choice([-1, 1])))
    temp = rng.uniform(0.8, 2.5)
    w = [2.718281828 ** (-temp * abs(l - centre)) for l in range(k)]
    s = sum(w)
    ps = normalise([x / s for x in w])
    return ps, max(range(k), key=lambda j: ps[j])


def jevbench_items(rng, tiers):
    """(tier, type) plan in the v1.2 public proportions, then one synthetic task + result each."""
    # (choice, noul, score) per tier: the benchmarks' frozen counts (SPEC §7), Hard 111 = 67 / 38 / 6
    # and Public 231 = 139 / 74 / 18 over its three tiers, so the samples show a complete scope.
    plan = {"easy": (29, 14, 5), "standard": (43, 22, 7), "hard": (67, 38, 6)}
    items = []
    for tier in tiers:
        n_choice, n_noul, n_score = plan[tier]
        n = n_choice + n_noul + n_score
        kinds = ["choice"] * n_choice + ["noul"] * n_noul + ["score"] * n_score
        rng.shuffle(kinds)
        gold_probs_left = 10 if tier == "hard" else 0
        for j, kind in enumerate(kinds):
            tid = f"{tier[0]}-{j + 1:04d}"
            fam = rng.choice(FAMILIES)
            skill = SKILL[tier]
            invalid = rng.random() < 0.02
            task = {"id": tid, "family": fam, "split": "public", "group": f"g-{tid}", "tier": tier}
            if kind == "choice":
                k = rng.choice([2, 3, 4, 5])
                labels = ["alpha", "beta", "gamma", "delta", "epsilon"][:k]
                gold = rng.randrange(k)
                task.update(type="choice", labels=labels, expected=labels[gold])
                if gold_probs_left and fam == "probability" or gold_probs_left and j > n - 20:
                    gold_probs_left -= 1
                    den = rng.choice([20, 55, 36])
                    nums = [1] * k
                    nums[gold] += den - k
                    spill = rng.randrange(0, max(1, den // 3))
                    nums[gold] -= spill
                    nums[(gold + 1) % k] += spill
                    task["gold_probs"] = {l: n_ / den for l, n_ in zip(labels, nums)}
                ps, arg = choice_probs(rng, k, gold, skill)
                probs = dict(zip(labels, ps))
                predicted = labels[arg]
            elif kind == "noul":
                gold_yes = rng.random() < 0.5
                task.update(type="noul", labels=["no", "yes"], expected="yes" if gold_yes else "no")
                p = binary_p_yes(rng, gold_yes, skill)
                probs = {"no": r3(1 - p), "yes": p}
                predicted = "yes" if p >= 0.5 else "no"
            else:
                k = rng.choice([3, 4, 5])
                labels = [str(i) for i in range(k)]
                gold = rng.randrange(k)
                task.update(type="score", labels=labels, expected=gold)
                ps, arg = rating_probs(rng, k, gold, skill)
                probs = dict(zip(labels, ps))
                predicted = labels[arg]
            result = {"task_id": tid, "ok": not invalid, "valid": not invalid,
                      "probs": None if invalid else probs, "predicted": None if invalid else predicted,
                      "model": MODEL}
            items.append((task, result))
    return items


def canonical_jevbench(items, benchmark):
    lines = [{"scorelens": 1, "model": MODEL, "benchmark": benchmark,
              "note": "SYNTHETIC demo data: a made-up model on made-up items"}]
    for task, res in items:
        t = {"score": "rating", "noul": "binary"}.get(task["type"], "choice")
        row = {"id": task["id"], "type": t, "tier": task["tier"], "group": task["family"],
               "options": task["labels"], "gold": str(task["expected"])}
        if "gold_probs" in task:
            row["gold_probs"] = task["gold_probs"]
        if res["valid"]:
            row["answer"] = res["predicted"]
            row["probs"] = res["probs"]
        lines.append(row)
    return lines


def native_jevbench(items):
    files = {"easy": [], "original": [], "hard": []}
    results = []
    for task, res in items:
        name = {"standard": "original"}.get(task["tier"], task["tier"])
        row = {"id": task["id"], "family": task["family"], "split": "public",
               "state": {"synthetic": True}, "question": {"type": task["type"], "instructions": "synthetic"},
               "labels": task["labels"], "expected": task["expected"], "group": task["group"],
               "provenance": {"gold_probs": task.get("gold_probs"), "author_model": "synthetic"}}
        files[name].append(row)
        results.append(res)
    return files, results


def decision_bench(rng):
    categories = ["support", "finance", "ops", "security", "hr", "legal", "sales"]
    labels_pool = ["escalate", "close", "refund", "hold", "approve", "reject"]
    lines = [{"scorelens": 1, "model": MODEL, "benchmark": "decision-bench",
              "note": "SYNTHETIC demo data in the shape of Decision Bench bench-v3 (359 rows)"}]
    for j in range(359):
        cat = categories[j % 7]
        k = rng.choice([3, 3, 4, 5])
        options = rng.sample(labels_pool, k)
        gold = rng.randrange(k)
        row = {"id": f"{cat[:3]}-{j + 1:04d}", "group": cat, "modality": "text", "options": options,
               "gold": options[gold]}
        u = rng.random()
        if u < 0.03:  # an error row: no answer, no probabilities
            lines.append(row)
            continue
        ps, arg = choice_probs(rng, k, gold, 0.72)
        answer = arg
        if u > 0.95:  # the model's own label is not its arg-max
            answer = rng.choice([i for i in range(k) if i != arg])
        row["answer"] = options[answer]
        row["probs"] = dict(sorted(zip(options, ps)))
        lines.append(row)
    return lines


def cmdb(rng):
    lines = [{"scorelens": 1, "model": MODEL, "benchmark": "cmdb-1500",
              "note": "SYNTHETIC demo data: 1500 items, text and image"}]
    # CMDB-1500's frozen counts (SPEC §7): 100 multi; of the rest 1100 text and 300 image; 1234
    # choice or binary (every image item among them), 166 rating; 67 choice items with gold_probs.
    plan = ([("choice", "image")] * 200 + [("binary", "image")] * 100 + [("choice", "text")] * 734
            + [("binary", "text")] * 200 + [("rating", "text")] * 166 + [("multi", "text")] * 100)
    rng.shuffle(plan)
    choice_at = [j for j, (kind, _) in enumerate(plan) if kind == "choice"]
    with_gold_probs = set(rng.sample(choice_at, 67))
    domains = ["charts", "documents", "scenes", "tables", "diagrams"]
    for j, (kind, modality) in enumerate(plan):
        skill = 0.55 if modality == "image" else 0.72
        row = {"id": f"cm-{j + 1:05d}", "type": kind, "modality": modality, "group": rng.choice(domains)}
        if kind == "choice":
            options = ["A", "B", "C", "D"]
            gold = rng.randrange(4)
            ps, arg = choice_probs(rng, 4, gold, skill)
            row.update(options=options, gold=options[gold], answer=options[arg], probs=dict(zip(options, ps)))
            if j in with_gold_probs:
                # A reference distribution peaked on the gold, as annotators' votes would be.
                nums = [1, 1, 1, 1]
                nums[gold] = 17
                row["gold_probs"] = [n_ / 20 for n_ in nums]
        elif kind == "binary":
            gold_yes = rng.random() < 0.5
            row.update(gold="yes" if gold_yes else "no", p_yes=binary_p_yes(rng, gold_yes, skill))
        elif kind == "rating":
            options = [str(i) for i in range(5)]
            gold = rng.randrange(5)
            ps, _ = rating_probs(rng, 5, gold, skill)
            row.update(options=options, gold=options[gold], probs=dict(zip(options, ps)))
        else:
            options = ["A", "B", "C", "D", "E"]
            gold = rng.sample(options, rng.choice([1, 2, 2, 3]))
            answer = [o for o in options if (o in gold) == (rng.random() < skill + 0.2)]
            if rng.random() < 0.02:
                answer = ["Z"]  # outside the options: invalid
            steps, picked = [], []
            for g in gold:
                left = [o for o in options if o not in picked]
                p_g = rng.uniform(0.3, 0.95) if rng.random() < skill else rng.uniform(0.05, 0.4)
                rest = (1 - p_g) / (len(left) - 1) if len(left) > 1 else 0.0
                steps.append({o: r3(p_g if o == g else rest) for o in left})
                picked.append(g)
            row.update(options=options, gold=gold, answer=answer, steps=steps)
        lines.append(row)
    return lines


def dump(rows):
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows)


def outputs():
    out = {}
    public = jevbench_items(random.Random(231), ["easy", "standard", "hard"])
    out["jevbench-public-231.jsonl"] = dump(canonical_jevbench(public, "jevbench-public-231"))
    files, results = native_jevbench(public)
    for name, rows in files.items():
        out[f"jevbench-native/{name}.jsonl"] = dump(rows)
    out["jevbench-native/results.jsonl"] = dump(results)
    hard = jevbench_items(random.Random(111), ["hard"])
    out["jevbench-hard-111.jsonl"] = dump(canonical_jevbench(hard, "jevbench-hard-111"))
    out["decision-bench.jsonl"] = dump(decision_bench(random.Random(359)))
    out["cmdb-1500.jsonl"] = dump(cmdb(random.Random(1500)))
    return out


def main():
    check = "--check" in sys.argv
    stale = []
    for name, text in outputs().items():
        path = OUT / name
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    if stale:
        sys.exit(f"stale samples (run python3 scripts/samples/ic.py): {', '.join(stale)}")


if __name__ == "__main__":
    main()
