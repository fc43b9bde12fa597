#!/usr/bin/env python3
"""An independent I/C computation from SPEC §1–5 and §7, so that tests/ic_samples.rs checks exact values."""
# Written from /work/shared/SPEC.md and docs/ic.md only (never from the Rust code), with the standard
# library only, so that it runs anywhere. It covers what the I/C sample files hold: canonical
# choice, binary and rating items (multi, pair and the rest are outside I/C).
#
#     python3 scripts/reference/ic_reference.py            # print the figures
#     python3 scripts/reference/ic_reference.py --write    # write scripts/reference/ic_expected.json
#     python3 scripts/reference/ic_reference.py --check    # fail when that file is stale
#
# Sums run in the orders SPEC names (option order within an item, file order over items, bin
# order 0..9 for ECE, tier order easy..none, type order choice, binary, rating), so that the
# figures agree with scorelens to well within 1e-12.
import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "ic_expected.json"

FILES = [
    "www/samples/jevbench-public-231.jsonl",
    "www/samples/jevbench-hard-111.jsonl",
    "www/samples/decision-bench.jsonl",
    "www/samples/cmdb-1500.jsonl",
    "tests/e2e/fixtures/spec-v2/answer-off-argmax.jsonl",
    "tests/e2e/fixtures/spec-v2/binary-conditioned.jsonl",
    "tests/e2e/fixtures/spec-v2/cmdb.jsonl",
    "tests/e2e/fixtures/spec-v2/hard-111.jsonl",
    "tests/e2e/fixtures/spec-v2/public-231.jsonl",
    # rewardbench-prior-sets.jsonl holds pair items only: no I/C to check.
]

TYPE_ALIASES = {"noul": "binary", "score": "rating"}
IC_TYPES = ("choice", "binary", "rating")
TIERS = ("easy", "standard", "judge", "hard", "none")
TIER_WEIGHT = {"easy": 0.10, "standard": 0.20, "judge": 0.30, "hard": 0.40, "none": 0.20}
TYPE_WEIGHT = {"choice": 0.50, "binary": 0.25, "rating": 0.25}
PROFILES = ("generic", "jevbench-public-231", "jevbench-hard-111", "decision-bench", "cmdb-1500")


def label(v, binary):
    """SPEC §1 / docs/formats.md: 1 and "1" are one label; a binary label may be a boolean."""
    if isinstance(v, bool):
        return ("yes" if v else "no") if binary else None
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return v
    return None


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def raw_probs(obj, options, binary):
    """The item's p_i in option order, or None when it has none, "invalid" for an output error."""
    if obj.get("probs") is not None:
        src, transform = obj["probs"], None
    elif obj.get("logprobs") is not None:
        src, transform = obj["logprobs"], "exp"
    elif obj.get("loglikelihoods") is not None:
        src, transform = obj["loglikelihoods"], "softmax"
    elif binary and obj.get("p_yes") is not None:
        p = obj["p_yes"]
        if not is_number(p):
            return "invalid"
        src, transform = {"yes": p, "no": 1 - p}, None
    else:
        return None
    if not isinstance(src, dict):
        return "invalid"
    by_label = {}
    for k, v in src.items():
        if not is_number(v) or not math.isfinite(v):
            return "invalid"
        by_label[k] = v
    if transform == "softmax":
        vals = [by_label.get(o) for o in options]
        if any(v is None for v in vals):
            return "invalid"
        top = max(vals)
        ex = [math.exp(v - top) for v in vals]
        total = sum(ex)
        return [e / total for e in ex]
    p = []
    for o in options:
        v = by_label.get(o, 0.0)
        if transform == "exp":
            v = math.exp(v)
        if v < 0:
            return "invalid"
        p.append(float(v))
    return p


def condition(p):
    """SPEC §2: q_i = p_i / s; s > 1.02 or s = 0 makes the probabilities invalid."""
    s = 0.0
    for x in p:
        s += x
    if s > 1.02 or s == 0:
        return None
    # For 1 < s <= 1.02 the probabilities are divided by s (m = 0): the same q_i = p_i / s.
    return [x / s for x in p]


def first_argmax(q):
    best = 0
    for i in range(1, len(q)):
        if q[i] > q[best]:
            best = i
    return best


def read(path):
    header, items = {}, []
    seen = set()
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            if not line.strip():
                continue
            obj = json.loads(line)
            if "scorelens" in obj:
                header = obj
                continue
            t = obj.get("type", "choice")
            t = TYPE_ALIASES.get(t, t)
            if t not in IC_TYPES:
                items.append({"type": t, "modality": obj.get("modality")})
                continue
            binary = t == "binary"
            options = [label(o, binary) for o in obj.get("options", ["no", "yes"])]
            gold = label(obj["gold"], binary)
            if obj["id"] in seen or gold not in options:
                continue
            seen.add(obj["id"])
            p = raw_probs(obj, options, binary)
            q = condition(p) if isinstance(p, list) else None
            answer = obj.get("answer")
            if answer is not None:
                answer = label(answer, binary)
                answer = options.index(answer) if answer in options else None
            elif q is not None:
                answer = first_argmax(q)
            gp = obj.get("gold_probs")
            if gp is not None:
                g = [float(gp.get(o, 0.0)) for o in options] if isinstance(gp, dict) else [float(x) for x in gp]
                s = 0.0
                for x in g:
                    s += x
                gp = [x / s for x in g]
            items.append({
                "type": t, "options": options, "k": len(options), "gold": options.index(gold),
                "answer": answer, "q": q, "gold_probs": gp, "tier": obj.get("tier"),
                "split": obj.get("split"), "modality": obj.get("modality"),
            })
    return header, items


def mean(xs):
    if not xs:
        return None
    s = 0.0
    for x in xs:
        s += x
    return s / len(xs)


def ece(pairs):
    """SPEC §4 equal-width ECE over (confidence, correct) pairs; None when there are none."""
    if not pairs:
        return None
    n = len(pairs)
    count, conf, right = [0] * 10, [0.0] * 10, [0.0] * 10
    for c, ok in pairs:
        b = min(math.floor(c * 10), 9)
        count[b] += 1
        conf[b] += c
        right[b] += 1.0 if ok else 0.0
    e = 0.0
    for b in range(10):
        if count[b]:
            e += count[b] / n * abs(right[b] / count[b] - conf[b] / count[b])
    return e


def ece_score(e):
    return max(0.0, 100 * (1 - 2 * e))


def top_label(it):
    """SPEC §5: I/C calibrates the first arg-max, whatever `answer` says."""
    top = first_argmax(it["q"])
    return it["q"][top], top == it["gold"]


def brier(it):
    s = 0.0
    for i, x in enumerate(it["q"]):
        y = 1.0 if i == it["gold"] else 0.0
        s += (x - y) ** 2
    return s / it["k"]


def nll(it):
    return -math.log(max(it["q"][it["gold"]], 1e-15))


def tvd(it):
    s = 0.0
    for x, g in zip(it["q"], it["gold_probs"]):
        s += abs(x - g)
    return 0.5 * s


def rps(it):
    k = it["k"]
    y = it["gold_probs"] or [1.0 if i == it["gold"] else 0.0 for i in range(k)]
    fq = fy = 0.0
    s = 0.0
    for j in range(k - 1):
        fq += it["q"][j]
        fy += y[j]
        s += (fq - fy) ** 2
    return s / (k - 1)


def binary_decision(it):
    """(right, abstained): thresholds on the conditioned q_yes; without probabilities, the answer."""
    yes = it["options"].index("yes")
    if it["q"] is not None:
        q_yes = it["q"][yes]
        if q_yes >= 0.8:
            return it["gold"] == yes, False
        if q_yes <= 0.2:
            return it["gold"] != yes, False
        return False, True
    return it["answer"] is not None and it["answer"] == it["gold"], False


def rating_terms(it):
    k, g = it["k"], it["gold"]
    if it["q"] is not None:
        pred = 0.0
        for i, x in enumerate(it["q"]):
            pred += i * x
        nmae = abs(pred - g) / (k - 1)
    elif it["answer"] is not None:
        nmae = abs(it["answer"] - g) / (k - 1)
    else:
        nmae = max(g, k - 1 - g) / (k - 1)
    # docs/ic.md: the chance is the integer sum of |l - gold| divided by K and by K - 1.
    chance = sum(abs(l - g) for l in range(k)) / k / (k - 1)
    return nmae, chance


def cell_cc(t, cell):
    if t == "choice":
        acc = mean([1.0 if it["answer"] == it["gold"] else 0.0 for it in cell])
        cbar = mean([1 / it["k"] for it in cell])
        return 100 * (acc - cbar) / (1 - cbar)
    if t == "binary":
        acc = mean([1.0 if binary_decision(it)[0] else 0.0 for it in cell])
        return 100 * (acc - 0.5) / 0.5
    terms = [rating_terms(it) for it in cell]
    return 100 * (1 - mean([a for a, _ in terms]) / mean([b for _, b in terms]))


def type_cc(t, items):
    """Tier-weighted within each split; 0.5 open + 0.5 sealed when both splits are there."""
    splits = {}
    for it in items:
        splits.setdefault("sealed" if it["split"] == "sealed" else "open", []).append(it)
    per_split = []
    for sp in ("open", "sealed"):
        if sp not in splits:
            continue
        num = den = 0.0
        for tier in TIERS:
            cell = [it for it in splits[sp] if it["tier"] == tier]
            if cell:
                num += TIER_WEIGHT[tier] * cell_cc(t, cell)
                den += TIER_WEIGHT[tier]
        per_split.append(num / den)
    return per_split[0] if len(per_split) == 1 else 0.5 * per_split[0] + 0.5 * per_split[1]


def type_figures(t, items, profile):
    f = dict.fromkeys(("cc", "c", "ece", "tvd", "rps", "brier", "nll", "abstention_rate"))
    if not items:
        return f
    f["cc"] = type_cc(t, items)
    with_q = [it for it in items if it["q"] is not None]
    f["brier"] = mean([brier(it) for it in with_q])
    if t == "binary":
        yes = items[0]["options"].index("yes")
        f["nll"] = mean([nll(it) for it in with_q])
        f["abstention_rate"] = sum(1 for it in items if binary_decision(it)[1]) / len(items)
        f["ece"] = ece([(it["q"][yes], it["gold"] == yes) for it in with_q])
        f["c"] = None if f["ece"] is None else ece_score(f["ece"])
        if profile == "cmdb-1500":
            f["c"] = None
        tv = [tvd(it) for it in with_q if it["gold_probs"] is not None]
        f["tvd"] = mean(tv)
        return f
    f["nll"] = mean([nll(it) for it in with_q])
    if t == "choice":
        scope = with_q
        if profile == "jevbench-public-231":
            hard = [it for it in with_q if it["tier"] == "hard"]
            if any(it["tier"] == "hard" for it in items):
                scope = hard
        f["ece"] = ece([top_label(it) for it in scope])
        if profile == "decision-bench":
            f["tvd"] = mean([1 - it["q"][it["gold"]] for it in scope])
        else:
            f["tvd"] = mean([tvd(it) for it in scope if it["gold_probs"] is not None])
        # The C of cmdb-1500's choice side uses the pooled ECE: set by the caller.
        if f["ece"] is not None:
            s = ece_score(f["ece"])
            f["c"] = s if f["tvd"] is None else (s + 100 * (1 - f["tvd"])) / 2
        return f
    f["ece"] = ece([top_label(it) for it in with_q])
    f["rps"] = mean([rps(it) for it in with_q])
    tv = [tvd(it) for it in with_q if it["gold_probs"] is not None]
    f["tvd"] = mean(tv)
    if f["ece"] is not None:
        f["c"] = (ece_score(f["ece"]) + 100 * (1 - f["rps"])) / 2
    return f


def pooled_pairs(items):
    """cmdb-1500: choice items top-label, binary items as two-option items on their side."""
    pairs = []
    for it in items:
        if it["q"] is None:
            continue
        if it["type"] == "choice":
            pairs.append(top_label(it))
        elif it["type"] == "binary":
            yes = it["options"].index("yes")
            q_yes = it["q"][yes]
            side_yes = q_yes >= 0.5
            pairs.append((max(q_yes, 1 - q_yes), side_yes == (it["gold"] == yes)))
    return pairs


def ic_figures(items, profile):
    types = {t: type_figures(t, [it for it in items if it["type"] == t], profile) for t in IC_TYPES}
    pooled = None
    if profile == "cmdb-1500":
        pooled = ece(pooled_pairs(items))
        ch = types["choice"]
        ch["c"] = None
        if pooled is not None:
            s = ece_score(pooled)
            ch["c"] = s if ch["tvd"] is None else (s + 100 * (1 - ch["tvd"])) / 2
    ccs = [(t, types[t]["cc"]) for t in IC_TYPES if types[t]["cc"] is not None]
    cs = [types[t]["c"] for t in IC_TYPES if types[t]["c"] is not None]
    i = mean([cc for _, cc in ccs])
    iw = None
    if ccs:
        num = den = 0.0
        for t, cc in ccs:
            num += TYPE_WEIGHT[t] * cc
            den += TYPE_WEIGHT[t]
        iw = num / den
    return {"i": i, "i_weighted": iw, "c": mean(cs), "pooled_ece": pooled, "types": types}


def ic_items(items, profile):
    """The items I/C sees under the profile, with the profile's tier and type rules applied."""
    out = []
    for it in items:
        if it["type"] not in IC_TYPES:
            continue
        it = dict(it)
        if it["tier"] not in TIER_WEIGHT or it["tier"] == "none":
            it["tier"] = "none"
        if profile == "decision-bench":
            it["type"], it["tier"] = "choice", "none"
        elif profile == "cmdb-1500":
            it["tier"] = "none"
        elif profile == "jevbench-hard-111":
            # An item without a tier counts as hard; the other tiers are out of I/C.
            if it["tier"] == "none":
                it["tier"] = "hard"
            if it["tier"] != "hard":
                continue
        out.append(it)
    return out


def figures(path):
    header, items = read(ROOT / path)
    profile = header.get("benchmark", "generic")
    assert profile in PROFILES, f"{path}: profile {profile} has no I/C here"
    scope = ic_items(items, profile)
    overall = ic_figures(scope, profile)
    out = {}
    for k in ("i", "i_weighted", "c", "pooled_ece"):
        out[f"ic.{k}"] = overall[k]
    for t in IC_TYPES:
        for k, v in overall["types"][t].items():
            out[f"ic.types.{t}.{k}"] = v
    for m in ("text", "image"):
        part = [it for it in scope if it["modality"] == m]
        fig = ic_figures(part, profile) if part else {}
        for k in ("i", "i_weighted", "c", "pooled_ece"):
            out[f"ic.scopes.{m}.{k}"] = fig.get(k)
    return {"profile": profile, "figures": out}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    mode.add_argument("--check", action="store_true", help="fail when the committed file is stale")
    args = ap.parse_args()
    text = json.dumps({"files": {p: figures(p) for p in FILES}}, indent=1) + "\n"
    if args.write:
        OUT.write_text(text, encoding="utf-8")
    elif args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            sys.exit(f"{OUT.relative_to(ROOT)} is stale: run {Path(__file__).relative_to(ROOT)} --write")
        print(f"{OUT.relative_to(ROOT)} is up to date")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
