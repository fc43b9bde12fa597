#!/usr/bin/env python3
"""Writes the Inspect cases of the malformed corpus (tests/malformed/inspect/): small logs in the
shape inspect-ai 0.3.285 writes (see the real ones in tests/fixtures/inspect/), some damaged.
Archives are written by hand with stored entries, so that entries can be left out, cut short or
pointed at the wrong place. Run from this folder: python3 make_inspect.py"""
import json
import struct
import zlib


def sample(sid, target, answer, value, top=None, choices=("Red", "Green", "Blue"), **kw):
    s = {"id": sid, "epoch": 1, "input": f"question {sid}", "choices": list(choices), "target": target,
         "scores": {"choice": {"value": value, "answer": answer}}}
    if top is not None:
        s["output"] = {"choices": [{"logprobs": {"content": [
            {"token": "ANSWER", "logprob": 0.0}, {"token": ":", "logprob": 0.0},
            {"token": f" {answer}", "logprob": top[0][1], "top_logprobs": [{"token": f" {t}", "logprob": lp} for t, lp in top]}]}}]}
    s.update(kw)
    return s


HEADER = {"version": 2, "status": "success",
          "eval": {"task": "colours", "model": "mockllm/model", "packages": {"inspect_ai": "0.3.285"}},
          "results": {"total_samples": 3, "completed_samples": 3, "headline": {"score": "choice"},
                      "scores": [{"name": "choice", "reducer": "mean", "metrics": {"accuracy": {"name": "accuracy", "value": 0.5}}}]}}
GOOD = [sample(1, "A", "A", "C", top=[("A", -0.1), ("B", -2.9), ("C", -3.5)]),
        sample(2, "B", "C", "I", top=[("C", -0.2), ("B", -1.8)]),
        sample(3, "C", "C", "C")]


def local(name, data):
    n = name.encode()
    crc = zlib.crc32(data) & 0xFFFFFFFF
    head = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, crc, len(data), len(data), len(n), 0)
    return head + n + data, crc


def central(name, crc, size, offset):
    n = name.encode()
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, crc, size, size, len(n), 0, 0, 0, 0, 0, offset) + n


def archive(entries, directory=None):
    """entries: [(name, bytes)]; directory: optional [(name, crc, size, offset)] overriding the real one."""
    out, cd = b"", []
    for name, data in entries:
        blob, crc = local(name, data)
        cd.append((name, crc, len(data), len(out)))
        out += blob
    cd = directory(cd) if directory else cd
    start = len(out)
    for name, crc, size, offset in cd:
        out += central(name, crc, size, offset)
    return out + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(cd), len(cd), len(out) - start, start, 0)


def j(x):
    return json.dumps(x).encode()


def write(name, data):
    with open(f"inspect/{name}", "wb") as f:
        f.write(data)


entries = [("header.json", j(HEADER))] + [(f"samples/{s['id']}_epoch_1.json", j(s)) for s in GOOD]

# The directory names a sample whose local entry is not where it says (a half-copied archive).
write("missing_entry.eval", archive(entries, lambda cd: cd[:3] + [(cd[3][0], cd[3][1], cd[3][2], cd[3][3] + 7)]))
# The directory names a sample that is not in the archive at all (its offset is past the end).
write("missing_sample.eval", archive(entries, lambda cd: cd + [("samples/4_epoch_1.json", 0, 10, 10**6)]))
# No header.json: the samples are still scored.
write("no_header.eval", archive(entries[1:]))
# One sample entry is not JSON, one is JSON of the wrong shape; the third is fine.
write("bad_samples.eval", archive([entries[0], ("samples/1_epoch_1.json", b'{"id": 1, "epoch": 1, "target": "A", "scor'),
                                   ("samples/2_epoch_1.json", b'[1, 2, 3]'), entries[3]]))
# ZIP magic and then nothing an archive needs.
write("not_a_zip.eval", struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, 0, 70, 70, 11, 0) + b"header.json" + b"garbage" * 10)

# A .json log cut off mid-sample.
log = dict(HEADER, samples=GOOD)
text = json.dumps(log, indent=2)
write("truncated.json", text[: text.index('"id": 3') + 20].encode())
# Odd samples: an id that is a list, no scores, a target letter beyond the choices, NaN values as
# Inspect writes them (bare literals: accepted), an empty choices list, a sample repeated.
odd = [
    sample([1], "A", "A", "C"),
    dict(sample(2, "B", "B", "C"), scores=None),
    sample(3, "E", "A", "I"),
    sample(4, "A", "A", "NAN_PLACEHOLDER", top=[("A", "NAN_PLACEHOLDER"), ("B", -1.0)]),
    sample(5, "A", "A", "C", choices=()),
    sample(6, "B", "B", "C", top=[("B", -0.5), ("A", -0.5), ("C", -0.5)]),
    sample(6, "B", "A", "I"),
]
text = json.dumps(dict(HEADER, samples=odd), indent=1).replace('"NAN_PLACEHOLDER"', "NaN")
write("odd_samples.json", text.encode())

# A sample whose compressed size is declared as almost 4 GiB (a reader that reserves what an
# archive declares runs out of memory in a wasm32 tab); the stored entry reads to the archive's end.
def lying_compressed(entries_before, name, data):
    out, cd = b"", []
    for n, d in entries_before:
        blob, crc = local(n, d)
        cd.append(central(n, crc, len(d), len(out)))
        out += blob
    n = name.encode()
    crc = zlib.crc32(data) & 0xFFFFFFFF
    big = 0xFFFFFFF0
    offset = len(out)
    out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, crc, big, len(data), len(n), 0) + n + data
    cd.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, crc, big, len(data), len(n), 0, 0, 0, 0, 0, offset) + n)
    start = len(out)
    out += b"".join(cd)
    return out + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(cd), len(cd), len(out) - start, start, 0)


write("lying_compressed_size.eval", lying_compressed(entries[:2], "samples/2_epoch_1.json", j(GOOD[1])))
