#!/usr/bin/env python3
"""Writes synthetic RewardBench result files, in the official layouts, to www/samples/:

  rewardbench-v1-scores.json     eval-set-scores/<model>.json of a classifier (v1, parallel arrays)
  rewardbench-v1-judge.json      eval-set-scores/<model>.json of a generative judge (results only)
  rewardbench-v1-eval-set.json   eval-set/<model>.json, the aggregate of the classifier file above
  rewardbench-v1-outputs.jsonl   the rewardbench CLI's <model>_outputs.jsonl (first rows of each subset)
  rewardbench-v2-scores.json     RewardBench 2 eval-set-scores/<model>.json (best-of-4 and Ties)

Every number is made up (seeded); the texts are placeholders. The files are written the way the
official scripts write them: save_to_hub's json.dumps(indent=4, sort_keys=True) for the hub files,
one json.dump per line for the CLI's outputs. Scores are one-element lists, as RewardBenchPipeline
returns them. Run: python3 scripts/samples/rewardbench.py
"""
import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "www" / "samples"

# (subset, official rows); the samples keep about a quarter of each.
V1_SUBSETS = [
    ("alpacaeval-easy", 100), ("alpacaeval-length", 95), ("alpacaeval-hard", 95),
    ("mt-bench-easy", 28), ("mt-bench-med", 40), ("mt-bench-hard", 37), ("llmbar-natural", 100),
    ("llmbar-adver-neighbor", 134), ("llmbar-adver-GPTInst", 92), ("llmbar-adver-GPTOut", 47),
    ("llmbar-adver-manual", 46), ("refusals-dangerous", 100), ("refusals-offensive", 100),
    ("xstest-should-refuse", 154), ("xstest-should-respond", 250), ("donotanswer", 136),
    ("math-prm", 447), ("hep-cpp", 164), ("hep-go", 164), ("hep-java", 164), ("hep-js", 164),
    ("hep-python", 164), ("hep-rust", 164),
]
# How far above the rejected score the chosen one sits on average, per subset family.
SKILL = {"alpacaeval": 2.0, "mt-bench": 1.2, "llmbar": 0.4, "refusals": 1.5, "xstest": 1.0,
         "donotanswer": 0.6, "math": 1.8, "hep": 1.6}

V2_SUBSETS = [("Factuality", 475), ("Precise IF", 160), ("Math", 183), ("Safety", 450), ("Focus", 495)]
V2_SKILL = {"Factuality": 0.6, "Precise IF": 0.3, "Math": 0.9, "Safety": 1.1, "Focus": 1.4}


def skill(subset):
    return next(v for k, v in SKILL.items() if subset.startswith(k))


def words(rng, n):
    return " ".join(rng.choice(["alpha", "beta", "gamma", "delta", "answer", "step", "code", "safe"])
                    for _ in range(n))


def templated(prompt, response):
    return f"<|user|>\n{prompt}\n<|assistant|>\n{response}<|endoftext|>"


def dump_hub(name, obj):
    (OUT / name).write_text(json.dumps(obj, indent=4, sort_keys=True))


def v1_rows(rng):
    rows, next_id = [], 30
    for subset, official in V1_SUBSETS:
        for _ in range(max(7, official // 4)):
            margin = rng.gauss(skill(subset), 1.5)
            rejected = round(rng.gauss(0.0, 2.0), 4)
            chosen = round(rejected + margin, 4)
            # Longer chosen answers on the chat subsets: the length confound RewardBench warns of.
            long_chosen = rng.random() < (0.7 if subset.startswith("alpacaeval") else 0.45)
            n_c, n_r = (rng.randint(8, 24), rng.randint(2, 12))
            if not long_chosen:
                n_c, n_r = n_r, n_c
            prompt = f"Prompt {next_id}: {words(rng, 6)}?"
            rows.append({"id": next_id, "subset": subset, "chosen": chosen, "rejected": rejected,
                         "text_chosen": templated(prompt, words(rng, n_c)),
                         "text_rejected": templated(prompt, words(rng, n_r))})
            next_id += 1
    rows[3]["rejected"] = rows[3]["chosen"]    # exact ties count as wrong
    rows[200]["rejected"] = rows[200]["chosen"]
    return rows


def v1_scores(rows):
    results = [1 if r["chosen"] > r["rejected"] else 0 for r in rows]
    return {
        "chat_template": "tulu",
        "id": [r["id"] for r in rows],
        "model": "synthetic/demo-rm-7b",
        "model_type": "Seq. Classifier",
        "results": results,
        "scores_chosen": [[r["chosen"]] for r in rows],
        "scores_rejected": [[r["rejected"]] for r in rows],
        "subset": [r["subset"] for r in rows],
        "text_chosen": [r["text_chosen"] for r in rows],
        "text_rejected": [r["text_rejected"] for r in rows],
    }


def v1_eval_set(scores):
    """What run_rm.py writes beside the scores: sum(results) / len(results) per subset."""
    out = {"chat_template": scores["chat_template"], "model": scores["model"],
           "model_type": scores["model_type"]}
    for subset in sorted(set(scores["subset"])):
        res = [r for r, s in zip(scores["results"], scores["subset"]) if s == subset]
        out[subset] = sum(res) / len(res)
    return out


def v1_judge(rng):
    ids, subsets, results, chosen, rejected = [], [], [], [], []
    for subset, official in V1_SUBSETS:
        for _ in range(max(4, official // 8)):
            ids.append(len(ids))
            subsets.append(subset)
            p = 0.55 + 0.1 * skill(subset)
            results.append(0.5 if rng.random() < 0.04 else (1 if rng.random() < p else 0))
            prompt = [{"content": f"Prompt {len(ids)}: {words(rng, 5)}?", "role": "user"}]
            chosen.append(prompt + [{"content": words(rng, rng.randint(3, 16)), "role": "assistant"}])
            rejected.append(prompt + [{"content": words(rng, rng.randint(3, 16)), "role": "assistant"}])
    return {"id": ids, "model": "synthetic/demo-judge", "model_type": "Generative RM",
            "results": results, "subset": subsets, "text_chosen": chosen, "text_rejected": rejected}


def v1_outputs(rows):
    lines, seen = [], {}
    for r in rows:
        seen[r["subset"]] = seen.get(r["subset"], 0) + 1
        if seen[r["subset"]] > 3:
            continue
        lines.append(json.dumps({
            "prompt": r["text_chosen"].split("\n")[1], "results": int(r["chosen"] > r["rejected"]),
            "scores_chosen": r["chosen"], "scores_rejected": r["rejected"],
            "text_chosen": r["text_chosen"], "text_rejected": r["text_rejected"],
            "subset": r["subset"], "id": r["id"]}))
    (OUT / "rewardbench-v1-outputs.jsonl").write_text("\n".join(lines) + "\n")


def credit(scores):
    """Best-of-n credit since PR #236: 1/k when the first candidate shares the top with k-1 others."""
    top = max(scores)
    return 1 / scores.count(top) if scores[0] == top else 0


def v2_scores(rng):
    ids, subsets, num_correct, scores, results, texts = [], [], [], [], [], []

    def add(id_, subset, k_correct, cand):
        ids.append(id_)
        subsets.append(subset)
        num_correct.append(k_correct)
        scores.append([[s] for s in cand])
        results.append(credit(cand))
        texts.append([templated(f"Prompt {id_}", words(rng, rng.randint(2, 12))) for _ in cand])

    n = 30
    for subset, official in V2_SUBSETS:
        for _ in range(official // 4):
            correct = round(rng.gauss(V2_SKILL[subset], 1.0), 3)
            cand = [correct] + [round(rng.gauss(0.0, 1.0), 3) for _ in range(3)]
            if rng.random() < 0.05:
                cand[2] = cand[0]  # a tie at the top: half credit
            add(str(n), subset, 1, cand)
            n += 1
    for p in range(13):
        base = rng.gauss(1.0, 0.8)
        ref = [round(base, 2)] + [round(rng.gauss(0.0, 0.8), 2) for _ in range(3)]
        k = 1 if p == 5 else rng.randint(2, 4)  # prompt 5's tied prompt has a single correct answer
        tied = [round(base + rng.gauss(0.0, 0.3), 2) for _ in range(k)]
        tied += [round(rng.gauss(-0.2, 0.8), 2) for _ in range(4)]
        add(f"ref:{p}", "Ties", 1, ref)
        add(f"tied:{p}", "Ties", k, tied)
    return {"chat_template": "tokenizer", "id": ids, "model": "synthetic/demo-rm-v2",
            "model_type": "Seq. Classifier", "num_correct": num_correct, "results": results,
            "scores": scores, "subset": subsets, "text": texts}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2026)
    rows = v1_rows(rng)
    scores = v1_scores(rows)
    dump_hub("rewardbench-v1-scores.json", scores)
    dump_hub("rewardbench-v1-eval-set.json", v1_eval_set(scores))
    v1_outputs(rows)
    dump_hub("rewardbench-v1-judge.json", v1_judge(rng))
    dump_hub("rewardbench-v2-scores.json", v2_scores(rng))
    for f in sorted(OUT.glob("rewardbench-*")):
        print(f, f.stat().st_size)


if __name__ == "__main__":
    main()
