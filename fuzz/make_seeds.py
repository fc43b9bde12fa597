#!/usr/bin/env python3
"""Writes seed corpora for the fuzz targets into fuzz/corpus/<target>/ from the test fixtures,
the demo samples and the malformed corpus, trimmed to a few items each (small inputs fuzz faster).

Each seed has the layout of fuzz_targets/common.rs: a chunk-size byte, an options byte, then files
separated by SEP, each opening with a format-pick byte and a name-pick byte. Run from anywhere:
    python3 fuzz/make_seeds.py
"""
import hashlib
import json
import os
import re
import sys

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)
COMMON = open(os.path.join(FUZZ, "fuzz_targets", "common.rs")).read()
NAMES = re.findall(r'^    "([^"]+)",$', COMMON.split("pub const NAMES")[1].split("];")[0], re.M)
SEP = b"\n--8<--\n"


def path(*parts):
    return os.path.join(ROOT, *parts)


def read(*parts):
    with open(path(*parts), "rb") as f:
        return f.read()


def head_lines(data, n):
    return b"".join(data.splitlines(keepends=True)[:n])


def trim_json(data, n, keys=None):
    """The document with every list (or the named lists) cut to n elements, compact."""
    doc = json.loads(data)

    def cut(v, top):
        if isinstance(v, list):
            return [cut(x, False) for x in v[:n]]
        if isinstance(v, dict) and top:
            return {k: (cut(x, False) if keys is None or k in keys else x) for k, x in v.items()}
        return v

    if isinstance(doc, list):
        doc = doc[:n]
    else:
        doc = cut(doc, True)
    return json.dumps(doc).encode()


def seed(files, chunk=0, opts=0x7F):
    """files: [(format_pick, name, bytes)]."""
    out = bytes([chunk, opts])
    parts = [bytes([pick, NAMES.index(name)]) + body for pick, name, body in files]
    return out + SEP.join(parts)


def write(target, seeds):
    d = os.path.join(FUZZ, "corpus", target)
    os.makedirs(d, exist_ok=True)
    for s in seeds:
        name = hashlib.sha1(s).hexdigest()
        with open(os.path.join(d, name), "wb") as f:
            f.write(s)
    print(f"{target}: {len(seeds)} seeds", file=sys.stderr)


def malformed(ext_filter=None):
    """Small files of tests/malformed/ (regression inputs included)."""
    out = []
    base = path("tests", "malformed")
    if not os.path.isdir(base):
        return out
    for dirpath, _, names in os.walk(base):
        for n in sorted(names):
            p = os.path.join(dirpath, n)
            if os.path.getsize(p) <= 64 * 1024 and (ext_filter is None or ext_filter(p)):
                out.append((p, open(p, "rb").read()))
    return out


def main():
    samples = path("www", "samples")
    canon = []
    for n in sorted(os.listdir(samples)):
        if n.endswith(".jsonl") and not n.startswith("rewardbench"):
            canon.append(head_lines(read("www", "samples", n), 8))
    canon_seeds = [seed([(0, "predictions.jsonl", c)]) for c in canon]
    canon_seeds += [seed([(0, "predictions.json", b"[" + b",\n".join(c.splitlines()) + b"]")]) for c in canon[:4]]
    canon_seeds += [seed([(0, "predictions.jsonl", b)], chunk=7) for p, b in malformed(lambda p: "/canonical/" in p)]
    write("canonical", canon_seeds)

    lm = []
    v13 = "tests/fixtures/lm_eval/v0.4.13"
    names = sorted(os.listdir(path(v13)))
    res13 = [n for n in names if n.startswith("results_")][0]
    for n in names:
        if n.startswith("samples_"):
            lm.append([(0, "samples_sci_mc_2026-11-29T20-46-19.400381.jsonl", head_lines(read(v13, n), 3))])
    lm.append([(1, "results_2026-11-29T20-46-19.400381.json", read(v13, res13))])
    lm.append(lm[0] + lm[-1])
    v2 = "tests/fixtures/lm_eval/v0.4.2"
    lm.append([(0, "_sci_mc.jsonl", trim_json(read(v2, "_sci_mc.jsonl"), 3))])
    lm.append([(0, "_sci_mc.jsonl", trim_json(read(v2, "_sci_text.jsonl"), 3))])
    lm.append([(1, "results.json", read(v2, "results.json"))])
    lm_seeds = [seed(s) for s in lm]
    lm_seeds += [seed([(0, "samples_sci_mc_2026-11-29T20-46-19.400381.jsonl", b)]) for p, b in malformed(lambda p: "/lm_eval/" in p)]
    write("lm_eval", lm_seeds)

    helm = []
    for variant in ["joint", "separate"]:
        d = f"tests/fixtures/helm/{variant}"
        ss = (0, "scenario_state.json", trim_json(read(d, "scenario_state.json"), 3, keys={"request_states"}))
        pis = (1, "per_instance_stats.json", trim_json(read(d, "per_instance_stats.json"), 3))
        st = (2, "stats.json", trim_json(read(d, "stats.json"), 12))
        extra = [(3, n, read(d, n)) for n in ["run_spec.json", "scenario.json"] if os.path.exists(path(d, n))]
        helm += [[ss], [pis], [st], [ss, pis], [pis, ss, st] + extra] + [[e] for e in extra]
    helm_seeds = [seed(s) for s in helm]
    write("helm", helm_seeds)

    oa = [seed([(0, "log.jsonl", head_lines(read("tests/fixtures/openai_evals", n), 8))])
          for n in ["choice.jsonl", "match.jsonl"]]
    oa += [seed([(0, "log.jsonl", b)]) for p, b in malformed(lambda p: "/openai_evals/" in p)]
    write("openai_evals", oa)

    csv = [seed([(0, "table.csv", read("tests/fixtures/csv/choice.csv"))]),
           seed([(0, "table.tsv", read("tests/fixtures/csv/mixed.tsv"))], chunk=5)]
    csv += [seed([(0, "table.tsv" if p.endswith(".tsv") else "table.csv", b)]) for p, b in malformed(lambda p: "/csv/" in p)]
    write("csv", csv)

    jd = "www/samples/jevbench-native"
    jev = {n: head_lines(read(jd, n), 6) for n in ["easy.jsonl", "hard.jsonl", "original.jsonl", "results.jsonl"]}
    jseeds = [seed([(0, n, b)]) for n, b in jev.items()]
    jseeds.append(seed([(0, "easy.jsonl", jev["easy.jsonl"]), (0, "results.jsonl", jev["results.jsonl"])]))
    jseeds.append(seed([(0, "results.jsonl", jev["results.jsonl"]), (0, "hard.jsonl", jev["hard.jsonl"])]))
    jseeds += [seed([(0, "results.jsonl", b)]) for p, b in malformed(lambda p: "/jevbench/" in p)]
    write("jevbench", jseeds)

    ins = []
    for n in sorted(os.listdir(path("tests/fixtures/inspect"))):
        if n.endswith(".eval"):
            ins.append(seed([(0, "log.eval", read("tests/fixtures/inspect", n))]))
        elif n.endswith(".json"):
            ins.append(seed([(0, "log.json", trim_json(read("tests/fixtures/inspect", n), 2, keys={"samples"}))]))
    ins += [seed([(0, "log.eval" if p.endswith(".eval") else "log.json", b)]) for p, b in malformed(lambda p: "/inspect/" in p)]
    write("inspect", ins)

    dd = "tests/fixtures/decision_bench"
    db = {n: head_lines(read(dd, n), 4) for n in ["cases.jsonl", "predictions.jsonl", "results.jsonl"]}
    dseeds = [seed([(0, n, b)]) for n, b in db.items()]
    dseeds.append(seed([(0, "cases.jsonl", db["cases.jsonl"]), (0, "results.jsonl", db["results.jsonl"])]))
    dseeds.append(seed([(0, "results.jsonl", db["results.jsonl"]), (0, "cases.jsonl", db["cases.jsonl"])], chunk=9))
    dseeds += [seed([(0, "results.jsonl", b)]) for p, b in malformed(lambda p: "/decision_bench/" in p)]
    write("decision_bench", dseeds)

    rb = [
        seed([(0, "eval-set-scores.json", trim_json(read("www/samples/rewardbench-v1-scores.json"), 6))]),
        seed([(0, "eval-set-scores.json", trim_json(read("www/samples/rewardbench-v2-scores.json"), 6))]),
        seed([(0, "judge.json", trim_json(read("www/samples/rewardbench-v1-judge.json"), 6))]),
        seed([(1, "outputs.jsonl", head_lines(read("www/samples/rewardbench-v1-outputs.jsonl"), 6))]),
        seed([(2, "results.json", read("www/samples/rewardbench-v1-eval-set.json"))]),
    ]
    rb += [seed([(0, "eval-set-scores.json", b)]) for p, b in malformed(lambda p: "/rewardbench/" in p)]
    write("rewardbench", rb)

    # score: every seed above, with its format left to detection.
    every = []
    for t in ["canonical", "lm_eval", "helm", "openai_evals", "csv", "jevbench", "inspect", "decision_bench", "rewardbench"]:
        d = os.path.join(FUZZ, "corpus", t)
        for n in sorted(os.listdir(d)):
            every.append(open(os.path.join(d, n), "rb").read())
    write("score", every)


if __name__ == "__main__":
    main()
