#!/usr/bin/env python3
"""The speed anchor for `scorelens leaderboard`: the short numpy script that a careful user would
write to rank many runs of one benchmark with a paired bootstrap, so that the leaderboard's
performance target has something honest to be measured against (scripts/bench.sh leaderboard runs
both, alternating, in one run).

    python scripts/reference/leaderboard_anchor.py FOLDER [--resamples 2000] [--seed 1] [--json OUT]

It is NOT a correctness reference (that is leaderboard_reference.py, checked by the tests): its
resamples are plain multinomial draws from numpy's generator, not scorelens's stratified SplitMix64
draws, so its intervals agree with scorelens's only statistically. It computes, for every run in
FOLDER (each *.jsonl, sorted by name; lines without "id", such as the header, are skipped):

  * on the items every run has (ordered by sorted id): correct = the first most probable option
    is gold, Brier = sum over the options of (p - [option is gold])^2 after renormalising;
  * ONE resample weight matrix W (resamples x items, multinomial counts) shared by every run, and
    the resampled accuracy and Brier of all runs by one matrix product;
  * each run's 95% percentile interval, its competition rank in every resample (1 + the number of
    runs strictly better) and that rank's 2.5% / 50% / 97.5% quantiles, for accuracy and Brier;
  * McNemar's exact test on accuracy for every pair of runs, then Holm's step-down adjustment.

It prints one line of timings (read, compute, total, measured inside with time.perf_counter);
--json OUT also writes them with a few sanity figures of the results.
"""
import time

T_START = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import orjson  # noqa: E402

T_IMPORTED = time.perf_counter()
LN2 = math.log(2.0)


def read_run(path):
    """One run's item ids, and per item whether it is correct and its Brier score."""
    ids, gold, rows = [], [], []
    loads = orjson.loads
    with open(path, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            d = loads(line)
            if "id" not in d:
                continue  # the header
            opts, probs, g = d["options"], d["probs"], d["gold"]
            ids.append(d["id"])
            gold.append(opts.index(g) if g in opts else -1)
            rows.append([probs.get(o, 0.0) for o in opts])
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    k = int(lengths.max())
    if int(lengths.min()) == k:
        p = np.array(rows, dtype=np.float64)
    else:  # items with fewer options: pad with zeros (which add nothing to Brier, and never win)
        p = np.zeros((len(rows), k))
        for i, r in enumerate(rows):
            p[i, : len(r)] = r
    valid = np.arange(k)[None, :] < lengths[:, None]
    gold = np.array(gold, dtype=np.int64)
    # argmax returns the first maximum, in option order.
    correct = np.argmax(np.where(valid, p, -np.inf), axis=1) == gold
    q = p / p.sum(axis=1, keepdims=True)
    onehot = np.arange(k)[None, :] == gold[:, None]
    brier = ((q - onehot) ** 2).sum(axis=1)
    return ids, correct.astype(np.float64), brier


def binom_half_cdf(k, n):
    """P(X <= k) for X ~ Binomial(n, 1/2), elementwise. scipy is not in the venv (requirements.txt
    pins numpy and orjson only), so this sums the pmf in log space from a table of log-factorials
    made with math.lgamma, vectorised over the pairs (in chunks, to bound the grid's memory)."""
    out = np.ones(len(k))
    if len(k) == 0:
        return out
    logfact = np.array([math.lgamma(m + 1.0) for m in range(int(n.max()) + 1)])
    step = max(1, 1_000_000 // (int(k.max()) + 1))
    for s in range(0, len(k), step):
        kk, nn = k[s : s + step, None], n[s : s + step, None]
        i = np.arange(int(kk.max()) + 1)[None, :]
        logt = logfact[nn] - logfact[np.minimum(i, nn)] - logfact[np.maximum(nn - i, 0)] - nn * LN2
        logt = np.where(i <= kk, logt, -np.inf)
        top = logt.max(axis=1, keepdims=True)
        out[s : s + step] = np.exp(top[:, 0]) * np.exp(logt - top).sum(axis=1)
    return out


def holm(p):
    """Holm's step-down adjustment: sort, multiply by (m - i), running maximum, cap at 1."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adj
    return out


def competition_ranks(values, higher):
    """values: resamples x runs. 1 + the number of runs strictly better, in every resample."""
    a, b = values[:, None, :], values[:, :, None]  # [r, i, j] compares run j with run i
    better = a > b if higher else a < b
    return 1 + better.sum(axis=2)


def summarise(values, higher):
    lo_hi = np.quantile(values, [0.025, 0.975], axis=0)
    ranks = competition_ranks(values, higher)
    rank_q = np.quantile(ranks, [0.025, 0.5, 0.975], axis=0, method="inverted_cdf")
    return lo_hi, rank_q


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args()

    t0 = time.perf_counter()
    files = sorted(Path(args.folder).glob("*.jsonl"), key=lambda p: p.name)
    runs = [read_run(f) for f in files]
    t_read = time.perf_counter()

    # Join on id: the items every run has, in sorted id order.
    common = set(runs[0][0])
    for ids, _, _ in runs[1:]:
        common.intersection_update(ids)
    order = sorted(common)
    n, r = len(order), len(runs)
    C = np.empty((n, r))
    Bs = np.empty((n, r))
    for j, (ids, correct, brier) in enumerate(runs):
        pos = {x: i for i, x in enumerate(ids)}
        idx = np.fromiter((pos[x] for x in order), dtype=np.int64, count=n)
        C[:, j] = correct[idx]
        Bs[:, j] = brier[idx]
    M = np.hstack([C, Bs])  # n x 2R: one matrix product gives both figures

    # ONE weight matrix W (resamples x n) for every run: row b counts how often each item is drawn
    # in n draws with replacement (multinomial), by bincount of uniform draws offset per row. It
    # is drawn in blocks of rows only to bound memory; the blocks continue one stream.
    B = args.resamples
    rng = np.random.default_rng(args.seed)
    res = np.empty((B, 2 * r))
    block = max(1, 1_000_000 // n)
    for s in range(0, B, block):
        e = min(B, s + block)
        draws = rng.integers(0, n, size=(e - s, n))
        draws += (np.arange(e - s) * n)[:, None]
        W = np.bincount(draws.ravel(), minlength=(e - s) * n).reshape(e - s, n).astype(np.float64)
        res[s:e] = W @ M / n
    acc, bri = res[:, :r], res[:, r:]

    acc_point, bri_point = C.mean(axis=0), Bs.mean(axis=0)
    acc_ci, acc_rank = summarise(acc, higher=True)
    bri_ci, bri_rank = summarise(bri, higher=False)

    # McNemar's exact test on accuracy, every pair: b = first right and second wrong, c = reverse.
    right_wrong = C.T @ (1.0 - C)  # [i, j] = items i got right and j got wrong
    iu, ju = np.triu_indices(r, 1)
    b = right_wrong[iu, ju].round().astype(np.int64)
    c = right_wrong[ju, iu].round().astype(np.int64)
    tot = b + c
    p_raw = np.where(tot == 0, 1.0, np.minimum(1.0, 2.0 * binom_half_cdf(np.minimum(b, c), tot)))
    p_holm = holm(p_raw)
    t_end = time.perf_counter()

    out = {
        "runs": r,
        "items": n,
        "resamples": B,
        "seed": args.seed,
        "import_s": T_IMPORTED - T_START,
        "read_s": t_read - t0,
        "compute_s": t_end - t_read,
        "total_s": t_end - T_START,
        "files": [f.name for f in files],
        "accuracy": acc_point.round(6).tolist(),
        "accuracy_ci_first": acc_ci[:, 0].tolist(),
        "accuracy_ci_last": acc_ci[:, -1].tolist(),
        "accuracy_rank_q_first": acc_rank[:, 0].tolist(),
        "accuracy_rank_q_last": acc_rank[:, -1].tolist(),
        "brier": bri_point.round(6).tolist(),
        "brier_rank_q_first": bri_rank[:, 0].tolist(),
        "brier_rank_q_last": bri_rank[:, -1].tolist(),
        "pairs": len(p_raw),
        "pairs_raw_p_le_0_05": int((p_raw <= 0.05).sum()),
        "pairs_holm_p_le_0_05": int((p_holm <= 0.05).sum()),
        "holm_p_first_vs_second": float(p_holm[0]) if len(p_holm) else None,
        "holm_p_first_vs_last": float(p_holm[r - 2]) if len(p_holm) else None,
    }
    print(f"anchor: {r} runs x {n:,} items, {B} resamples: read {out['read_s']:.2f} s, "
          f"compute {out['compute_s']:.2f} s, total {out['total_s']:.2f} s (imports {out['import_s']:.2f} s)")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
