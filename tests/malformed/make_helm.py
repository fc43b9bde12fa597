#!/usr/bin/env python3
"""Writes the HELM cases of the malformed corpus (tests/malformed/helm/) from hand-made request
states in the shape of HELM 0.5's multiple_choice_joint scenario_state.json (see the real run in
tests/fixtures/helm/joint/). Run from this folder: python3 make_helm.py"""
import copy
import json
import os


def state(iid, answer, logprob, refs=("Even", "Odd"), gold=0, mapping=None, trial=0):
    mapping = mapping if mapping is not None else {chr(65 + i): r for i, r in enumerate(refs)}
    return {
        "instance": {
            "input": {"text": f"Question {iid}"},
            "references": [{"output": {"text": r}, "tags": ["correct"] if i == gold else []} for i, r in enumerate(refs)],
            "split": "test",
            "id": iid,
        },
        "train_trial_index": trial,
        "output_mapping": mapping,
        "result": {"success": True, "completions": [
            {"text": f" {answer}", "logprob": logprob, "tokens": [{"text": f" {answer}", "logprob": logprob}]}]},
    }


def run(states):
    return {"adapter_spec": {"method": "multiple_choice_joint", "model": "simple/model1"}, "request_states": states}


def stat(name, value):
    return {"name": {"name": name, "split": "test"}, "count": 1, "sum": value, "sum_squared": value * value, "mean": value}


def per_instance(iid, em, max_prob):
    return {"instance_id": iid, "train_trial_index": 0, "stats": [stat("exact_match", em), stat("max_prob", max_prob)]}


def write(path, doc, indent=2):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = json.dumps(doc, indent=indent) if not isinstance(doc, str) else doc
    with open(path, "w") as f:
        f.write(text + ("\n" if not text.endswith("\n") else ""))


good = [state("id1", "A", -0.2), state("id2", "B", -0.9, gold=0), state("id3", "A", -0.1)]

# A run cut off while HELM was writing it: the document ends inside the third request state.
whole = json.dumps(run(good), indent=2)
write("helm/truncated/scenario_state.json", whole[: whole.index('"id3"') + 10])

# Odd values inside an otherwise sound run: an answer letter outside output_mapping, a reference
# list with no correct tag, a completion without tokens, an empty output_mapping.
odd = [
    state("id1", "A", -0.2),
    state("id2", "C", -0.3),
    state("id3", "A", -0.4, gold=None),
    state("id4", "B", -0.5),
    state("id5", "A", -0.6, mapping={}),
]
odd[3]["result"]["completions"][0]["tokens"] = []
write("helm/odd_values/scenario_state.json", run(odd))

# A wrong type deep inside (a logprob written as a string): serde refuses the whole document.
typed = copy.deepcopy(run(good))
typed["request_states"][1]["result"]["completions"][0]["logprob"] = "-0.9"
write("helm/wrong_type/scenario_state.json", typed)

# The two files of different runs: ids that do not match, and one instance whose stats disagree.
write("helm/mismatched/scenario_state.json", run(good))
write("helm/mismatched/per_instance_stats.json", [
    per_instance("id1", 1, 0.8187307530779818),
    per_instance("id2", 1, 0.4065696597405991),
    per_instance("id9", 0, 0.5),
])

# per_instance_stats.json alone (no scenario_state.json): nothing to score.
write("helm/orphan/per_instance_stats.json", [per_instance("id1", 1, 0.8)])

# stats.json with Python's bare NaN (HELM's json.dump writes it for an empty stat's mean).
write("helm/nan_stats/scenario_state.json", run(good))
write("helm/nan_stats/stats.json",
      '[{"name": {"name": "exact_match", "split": "test"}, "count": 3, "sum": 2, "sum_squared": 2, "mean": 0.6666666666666666},\n'
      ' {"name": {"name": "ece_10_bin", "split": "test"}, "count": 0, "sum": 0, "sum_squared": 0, "mean": NaN}]')
