#!/usr/bin/env python3
"""Writes seed corpora for the fuzz targets into fuzz/corpus/<target>/ from the test fixtures,
the demo samples and the malformed corpus, trimmed to a few items each (small inputs fuzz faster).

Each seed has the layout of fuzz_targets/common.rs: a chunk-size byte, an options byte, then files
separated by SEP, each opening with a format-pick byte and a name-pick byte. Run from anywhere:
    python3 fuzz/make_seeds.py
"""
import gzip
import hashlib
import io
import json
import os
import re
import sys
import zipfile

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)
COMMON = open(os.path.join(FUZZ, "fuzz_targets", "common.rs")).read()
NAMES = re.findall(r'^    "([^"]+)",$', COMMON.split("pub const NAMES")[1].split("];")[0], re.M)
FOLDERS = re.findall(r'^    "([^"]*)",$', COMMON.split("pub const FOLDERS")[1].split("];")[0], re.M)
SEP = b"\n--8<--\n"
RUN_SEP = b"\n==8<==\n"


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


def paths(files):
    """files: [(folder, name, bytes)] in common::paths' layout (a name's top bit adds `.gz`)."""
    parts = []
    for folder, name, body in files:
        gz = name.endswith(".gz")
        pick = NAMES.index(name[:-3] if gz else name) | (0x80 if gz else 0)
        parts.append(bytes([FOLDERS.index(folder), pick]) + body)
    return SEP.join(parts)


def zipped(files, method=zipfile.ZIP_DEFLATED):
    """files: [(path in the zip, bytes)] as one zip archive."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        for name, body in files:
            z.writestr(name, body)
    return out.getvalue()


def utf16(text, big_endian=False, bom=True):
    body = text.decode("utf-8", "replace").encode("utf-16-be" if big_endian else "utf-16-le")
    return ((b"\xfe\xff" if big_endian else b"\xff\xfe") if bom else b"") + body


def marked(lines, k):
    """Canonical lines whose model, ids and groups carry markup and formulas with the marker."""
    out = []
    for i, line in enumerate(lines.splitlines()):
        doc = json.loads(line)
        if "scorelens" in doc:
            doc["model"] = ["<x-fuzz>m</x-fuzz>", "\"x-fuzz=1 m", "=HYPERLINK(\"x\")", "'x-fuzz m"][k % 4]
        else:
            # By the id itself, so that runs of the same items still share their ids.
            doc["id"] = [doc["id"], "<x-fuzz " + doc["id"], "'x-fuzz" + doc["id"], "@" + doc["id"]][sum(doc["id"].encode()) % 4]
            doc["group"] = ["<x-fuzz>", "<img src=x onerror=alert(1)>", "\"x-fuzz", "=1+1", "-x-fuzz"][(i + k) % 5]
        out.append(json.dumps(doc).encode())
    return b"\n".join(out) + b"\n"


def new_targets(canon):
    """Seeds of the targets of the archives, encodings, folders, the join and the exports."""
    v13 = "tests/fixtures/lm_eval/v0.4.13"
    lm = {n: head_lines(read(v13, n), 3) for n in sorted(os.listdir(path(v13)))}
    helm = "tests/fixtures/helm/joint"
    helm_files = {n: trim_json(read(helm, n), 3, keys={"request_states"}) for n in
                  ["scenario_state.json", "per_instance_stats.json", "stats.json"]}
    choice = canon[0]

    # zip: the fixtures' zips, then small zips made here (byte 0: name, grouping, built or not).
    zips = [bytes([m]) + read("tests", "fixtures", "zip", n) for m, n in
            [(0, "lm_eval_output.zip"), (4, "mixed.zip"), (8, "helm_suite.zip")]]
    zips += [bytes([2]) + read("tests", "fixtures", "inspect", n) for n in ["colour_mc.eval", "colour_mc_deflate.eval"]]
    zips += [bytes([0]) + b for _, b in malformed(lambda p: p.endswith(".eval"))]
    zips.append(bytes([0]) + zipped([("out/org__m/" + n, b) for n, b in lm.items()]))
    zips.append(bytes([0]) + zipped([("suite/run/" + n, b) for n, b in helm_files.items()], zipfile.ZIP_STORED))
    zips.append(bytes([0]) + zipped([("a/b/c/predictions.jsonl.gz", gzip.compress(choice)), (".hidden/x.jsonl", choice),
                                     ("__MACOSX/._predictions.jsonl", b"x"), ("m/", b""), ("m/predictions.jsonl", choice)]))
    zips.append(bytes([0]) + zipped([(f"runs/r{i:03}/predictions.jsonl", head_lines(choice, 2)) for i in range(60)]))
    zips.append(bytes([4]) + zipped([("ü <x-fuzz>/predictions.jsonl", choice), ("UTF16/predictions.jsonl", utf16(choice))]))
    zips.append(bytes([1]) + paths([("model-a/", "predictions.jsonl", choice), ("model-b/", "predictions.jsonl.gz", gzip.compress(canon[1]))]))
    zips.append(bytes([1]) + paths([("org__model/", n, b) for n, b in lm.items() if n in NAMES]))
    write("zip", zips)

    # compressed: byte 0 picks the stream (0: as given, 2: gzip here, 4: zstd here, 6/7: a magic
    # in front, 0x17: UTF-16 in gzip) and the name; byte 1 the read size.
    zst = read("tests", "fixtures", "zip", "mixed", "model-b.jsonl.zst") if os.path.exists(
        path("tests", "fixtures", "zip", "mixed", "model-b.jsonl.zst")) else b""
    comp = [bytes([0, 0]) + read("tests", "fixtures", "compressed", "choice.jsonl.gz"),
            bytes([0, 7]) + gzip.compress(choice) + gzip.compress(canon[1]),
            bytes([2, 1]) + choice, bytes([3, 9]) + canon[2], bytes([4, 0]) + choice,
            bytes([5, 3]) + canon[3], bytes([6, 0]) + choice[:200], bytes([7, 0]) + choice[:200],
            bytes([0x17, 5]) + choice, bytes([0x42, 0]) + lm[sorted(lm)[0]],
            bytes([0xc2, 11]) + helm_files["scenario_state.json"]]
    if zst:
        comp.append(bytes([0x20, 0]) + zst[:64 * 1024])
    write("compressed", comp)

    # utf16: byte 0 = byte order, mark, raw, lone surrogate, name; byte 1 the read size.
    u = [bytes([2, 0]) + choice, bytes([3, 1]) + choice, bytes([0, 3]) + choice, bytes([10, 0x85]) + choice,
         bytes([6, 7]) + utf16(choice)[2:], bytes([7, 2]) + utf16(choice, True)[2:101],
         bytes([2 | (NAMES.index("table.csv") << 4), 5]) + read("tests/fixtures/csv/choice.csv"),
         bytes([2 | (NAMES.index("results.json") << 4), 0x81]) + read("tests/fixtures/lm_eval/v0.4.2", "results.json")]
    write("utf16", u)

    # folder: byte 0 the grouping; files in folders.
    fo = [bytes([0]) + paths([("model-a/", "predictions.jsonl", canon[0]), ("model-b/", "predictions.jsonl", canon[1])]),
          bytes([0]) + paths([("org__model/", n, b) for n, b in lm.items() if n in NAMES]),
          bytes([0]) + paths([("benchmark_output/runs/v1/mmlu:subject=anatomy,model=org_m/", n, b) for n, b in helm_files.items()]
                             + [("benchmark_output/runs/v1/mmlu:subject=anatomy,model=org_n/", n, b) for n, b in helm_files.items()]),
          bytes([1]) + paths([("a/b/c/", "predictions.jsonl.gz", gzip.compress(canon[0])), ("", "table.csv", read("tests/fixtures/csv/choice.csv"))]),
          bytes([2]) + paths([("", "predictions.jsonl", canon[0]), ("", "predictions.json", canon[1]), (".hidden/", "log.jsonl", b"{}")]),
          bytes([0]) + paths([("", "predictions.jsonl", canon[0].replace(b"synthetic-demo", b"m (2)", 1)),
                              ("model-a/", "predictions.jsonl", canon[1].replace(canon[1].split(b'"model": "')[1].split(b'"')[0], b"m", 1)),
                              ("model-b/", "predictions.jsonl", canon[2].replace(canon[2].split(b'"model": "')[1].split(b'"')[0], b"m", 1))]),
          bytes([0]) + paths([("eval-set/", "eval-set-scores.json", trim_json(read("www/samples/rewardbench-v1-scores.json"), 6)),
                              ("eval-set-scores/", "eval-set-scores.json", trim_json(read("www/samples/rewardbench-v1-scores.json"), 6))])]
    write("folder", fo)

    # join: byte 0 subsets and `--by`, byte 1 the seed; runs separated by RUN_SEP.
    a = head_lines(read("www/samples/compare/model-a.jsonl"), 12)
    b = head_lines(read("www/samples/compare/model-b.jsonl"), 12)
    header, body = choice.split(b"\n", 1)
    run = lambda *files: paths([("", "predictions.jsonl", f) for f in files])
    jo = [bytes([3, 1]) + RUN_SEP.join([run(a), run(b)]),
          bytes([0x43, 2]) + RUN_SEP.join([run(a), run(b), run(a)]),
          bytes([8, 3]) + RUN_SEP.join([run(a), run(b), run(choice), run(b"")]),
          bytes([1, 4]) + RUN_SEP.join([run(a + body), run(b + body)]),
          bytes([2, 5]) + RUN_SEP.join([run(a), run(choice)]),
          bytes([0x41, 6]) + RUN_SEP.join([run(a, b), run(b), run(a), run(b, a)])]
    write("join", jo)

    # html: byte 0 the seed; runs whose names, ids and groups carry markup.
    ht = [bytes([1]) + run(marked(choice, 0)),
          bytes([2]) + RUN_SEP.join([run(marked(a, 1)), run(marked(b, 2))]),
          bytes([3]) + RUN_SEP.join([run(marked(a, 3)), run(marked(b, 0)), run(marked(a, 2))]),
          bytes([4]) + RUN_SEP.join([paths([("<x-fuzz> run/", "predictions.jsonl", marked(a, 0))]),
                                     paths([("<x-fuzz> run/", "table.csv", read("tests/fixtures/csv/choice.csv"))])]),
          bytes([5]) + RUN_SEP.join([run(a), run(b)])]
    write("html", ht)


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

    new_targets(canon)


if __name__ == "__main__":
    main()
