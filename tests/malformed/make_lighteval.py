"""Writes the malformed lighteval details (JSON Lines, as `datasets`' to_json writes a details
table): rows laid out as lighteval 0.13 writes them, with one fault a line (the expected warnings
are in tests/malformed_readers.rs)."""
import json


def row(i, logprobs=(-1.0, -0.5, -2.0), gold=1, choices=(" a", " bb", " ccc"), acc=None, **kw):
    # lighteval's acc: np.argmax of the first len(choices) loglikelihoods, in the gold list.
    n = len(choices)
    best = max(range(n), key=lambda k: logprobs[k] if logprobs[k] is not None else -1e9)
    right = best in gold if isinstance(gold, list) else best == gold
    r = {
        "doc": {"query": f"Q{i}?", "choices": list(choices), "gold_index": gold, "id": str(i),
                "task_name": "letters|0", "fewshot_samples": [], "sampling_methods": ["LOGPROBS"]},
        "metric": {"acc": int(right) if acc is None else acc},
        "model_response": {"input": None, "text": [], "logprobs": list(logprobs),
                           "argmax_logits_eq_gold": [], "truncated_tokens_count": 0},
    }
    for k, v in kw.items():
        part, key = k.split("__")
        if v is None:
            del r[part][key]
        else:
            r[part][key] = v
    return json.dumps(r)


def generative(i, em, text="x"):
    return json.dumps({
        "doc": {"query": f"Say {i}", "choices": ["x"], "gold_index": 0, "id": str(i),
                "task_name": "say|0", "sampling_methods": ["GENERATIVE"]},
        "metric": {"em": em},
        "model_response": {"text": [text], "logprobs": []},
    })


lines = [
    row(0),
    '{"doc": {"query": "cut',
    "[1, 2]",
    row(3, doc__gold_index=None),
    row(4, gold=7),
    row(5, doc__gold_index="one"),
    row(6, logprobs=(-1.0, None, -2.0)),
    row(7, acc=0),
    row(0),
    row(9, doc__choices=[" a", 2, " c"]),
    json.dumps({"doc": {"id": "10"}, "metric": {}}),
    generative(11, 1, "x"),
    generative(12, 0.5, "y"),
    json.dumps({"doc": {"choices": [], "gold_index": 0, "id": "13", "task_name": "say|0"},
                "metric": {"bleu": 12.5}, "model_response": {"text": ["y"]}}),
    generative(14, 3),
    row(15, logprobs=(-1.0, -0.5, -2.0, -3.0, -2.5, -4.0), gold=[0, 1]),
]
open("lighteval/details_letters|0_2026-12-06T00-00-00.jsonl", "w").write("\n".join(lines) + "\n")
