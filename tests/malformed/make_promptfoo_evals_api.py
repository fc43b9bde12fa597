"""Writes the malformed promptfoo and Evals API files: valid rows as the tools write them, with
one fault a line (the expected warnings are in tests/malformed_readers.rs)."""
import json

def row(test, success=True, **kw):
    r = {"cost": 0, "gradingResult": {"pass": success, "score": 1 if success else 0}, "id": f"r{test}",
         "namedScores": {}, "promptIdx": 0, "provider": {"id": "echo", "label": "echo"},
         "prompt": {"raw": "say {{x}}", "label": "say"}, "response": {"output": f"out {test}"},
         "score": 1 if success else 0, "success": success, "testCase": {"description": f"t{test}"},
         "testIdx": test, "failureReason": 0 if success else 1}
    r.update(kw)
    return json.dumps(r)

bad_provider = json.loads(row(5)); del bad_provider["provider"]
no_test = json.loads(row(3)); del no_test["testIdx"]
lines = [
    row(0),
    "not json",
    "[1, 2]",
    json.dumps(no_test),
    row(4, success="yes"),
    json.dumps(bad_provider),
    row(6, score="high"),
    row(7, success=False, failureReason=2, error="provider threw", response=None),
    row(0, success=False),
    row(8, success=False),
    '{"testIdx": 9, "success": tr',
]
open("promptfoo/results.jsonl", "w").write("\n".join(lines) + "\n")

def item(i, status="pass", **kw):
    it = {"id": f"outputitem_{i}", "created_at": 1, "datasource_item": {"item": {"q": str(i)}},
          "datasource_item_id": i, "eval_id": "eval_1", "object": "eval.run.output_item",
          "results": [{"name": "exact", "type": "string_check", "passed": status == "pass", "score": 1.0 if status == "pass" else 0.0}],
          "run_id": "evalrun_1", "status": status,
          "sample": {"error": {"code": "", "message": ""}, "output": [{"role": "assistant", "content": f"a{i}"}]}}
    it.update(kw)
    return it

def without(d, k):
    d = dict(d); del d[k]; return d

items = [
    item(0),
    without(item(1), "run_id"),
    without(item(2), "datasource_item_id"),
    without(item(3), "status"),
    item(4, results=[{"passed": "y"}]),
    item(5, status="error", results=[], sample={"error": {"code": "server_error", "message": "boom"}, "output": []}),
    {"object": "chat.completion", "id": "x"},
    item(6, status="fail"),
    item(0, status="fail"),
]
text = "\n".join(json.dumps(i) for i in items) + "\nnot json\n"
open("evals_api/output_items.jsonl", "w").write(text)

# The output document, one result a line inside `results.results`, so that the warnings' lines
# are those of the document.
doc_rows = [row(0), row(1, success="no"), "42", row(2, success=False)]
doc = ('{"evalId": "eval-x", "results": {"version": 3, "timestamp": "t",\n'
       ' "prompts": [{"provider": "echo", "label": "say", "raw": "say {{x}}",'
       ' "metrics": {"testPassCount": 1, "testFailCount": 1, "testErrorCount": 0, "score": 1}}],\n'
       ' "results": [\n' + ",\n".join(doc_rows) + '\n],\n "stats": {"successes": 1, "failures": 1, "errors": 0}}}\n')
open("promptfoo/results.json", "w").write(doc)

# The CSV export: promptfoo's header (two runs), then rows with one fault each.
head = ["Description", "region"]
for run in ["[echo] say", "[echo] shout"]:
    head += [run, "Status", "Score", "Named Scores", "Metric: format", "Grader Reason", "Comment"]

def cells(status_a="PASS", status_b="FAIL", score="1.00", named='{"format":1}'):
    return [[f"out a", status_a, score, named, "1.00", "ok", ""], [f"out b", status_b, "0.00", "", "", "no", ""]]

import csv, io
out = io.StringIO()
w = csv.writer(out, lineterminator="\n")
w.writerow(head)
for desc, region, kw in [
    ("t1", "Europe", {}),
    ("t2", "Asia", {"status_a": "MAYBE"}),
    ("t3", "Asia", {"score": "high"}),
    ("t4", "Africa", {"named": "[1]"}),
    ("t5", "Europe", {"status_b": "ERROR"}),
]:
    a, b = cells(**kw)
    w.writerow([desc, region] + a + b)
w.writerow(["t6", "Europe", "out a", "PASS"])
w.writerow(["t7", "Europe", "multi\nline", "PASS", "1.00", "", "", "", "", "out b", "PASS", "1.00", "", "", "", ""])
open("promptfoo/results.csv", "w").write(out.getvalue())
