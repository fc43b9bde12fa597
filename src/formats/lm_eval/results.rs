//! lm-eval's aggregate `results_<date>.json`: no items, only the figures the harness computed,
//! shown beside ours as "the harness reported" (FORMATS.md §3.5).
//!
//! Each `"<metric>,<filter>"` value of `results[<task>]` becomes one reported figure, scoped like
//! the samples reader's groups (`task`, or `task · filter`), so the two line up in the report.

use crate::formats::lm_eval::group_name;
use crate::formats::{first_keys, Format, Meta, Reader, Sink};
use crate::reported::Reported;
use crate::warning::Warning;
use serde_json::Value;

/// The results format.
pub struct LmEvalResults;

impl Format for LmEvalResults {
    fn name(&self) -> &'static str {
        "lm-eval-results"
    }

    fn describe(&self) -> &'static str {
        "lm-evaluation-harness results_<date>.json: its figures are shown beside ours"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        let harness = [
            "versions",
            "n-shot",
            "configs",
            "n-samples",
            "higher_is_better",
        ];
        let text = String::from_utf8_lossy(head);
        let metric_keys = [",none\"", "_stderr,"].iter().any(|m| text.contains(m));
        (has("results") && harness.iter().any(|k| has(k)) && metric_keys).then_some(20)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(ResultsReader {
            file: file.to_string(),
            buffer: Vec::new(),
        })
    }
}

/// Buffers the file (it is small) and reads it at the end.
pub struct ResultsReader {
    file: String,
    buffer: Vec<u8>,
}

impl Reader for ResultsReader {
    fn feed(&mut self, chunk: &[u8], _sink: &mut dyn Sink) {
        self.buffer.extend_from_slice(chunk);
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let bytes = self
            .buffer
            .strip_prefix(crate::formats::lines::BOM)
            .unwrap_or(&self.buffer);
        // Python's json writes a NaN figure (an undefined stderr, say) as a bare `NaN`: read as
        // null, so that the file's other figures are still shown.
        let clean = crate::formats::non_finite::sanitize(bytes);
        if clean.len() != bytes.len() {
            let why = "the file holds Python's bare NaN/Infinity literals, which are not JSON; those figures are left out";
            sink.warn(Warning::new(&self.file, None, why));
        }
        let root: Value = match serde_json::from_slice(&clean) {
            Ok(v) => v,
            Err(e) => {
                let msg = e.to_string();
                let msg = msg.split(" at line ").next().unwrap_or(&msg);
                let why = format!("not valid JSON: {msg}");
                return sink.skip(Warning::new(&self.file, Some(e.line() as u64), why));
            }
        };
        let version = root.get("lm_eval_version").and_then(Value::as_str);
        let version = version.map_or("results".to_string(), |v| format!("results, lm-eval {v}"));
        sink.meta(Meta::FormatVersion, &version);
        sink.meta(
            Meta::Mapping,
            "figures the harness computed, shown beside ours; no items",
        );
        if let Some(model) = model(&root) {
            sink.meta(Meta::Model, &model);
        }
        let Some(results) = root.get("results").and_then(Value::as_object) else {
            let why = "`results` is not an object: no figures to show";
            return sink.warn(Warning::new(&self.file, None, why));
        };
        for (task, figures) in results {
            let Some(figures) = figures.as_object() else {
                continue;
            };
            for (key, value) in figures {
                let Some((metric, filter)) = key.split_once(',') else {
                    continue;
                };
                let Some(value) = value.as_f64() else {
                    continue;
                };
                if metric.ends_with("_stderr") {
                    continue;
                }
                sink.reported(Reported {
                    source: "lm-eval".to_string(),
                    name: metric.to_string(),
                    scope: group_name(task, filter),
                    value,
                    note: note(metric).to_string(),
                });
            }
        }
    }
}

/// The model's name: `pretrained=` (or `model=`) of the model arguments, else the model type when
/// there are no arguments (`dummy`), else `model_name`, which can be an opaque short string.
fn model(root: &Value) -> Option<String> {
    let config = root.get("config");
    let field = |k: &str| config.and_then(|c| c.get(k)).and_then(Value::as_str);
    let args = field("model_args").unwrap_or_default();
    let named = args.split(',').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        matches!(k.trim(), "pretrained" | "model").then(|| v.trim())
    });
    let kind = field("model").filter(|_| args.trim().is_empty());
    let opaque = root.get("model_name").and_then(Value::as_str);
    named
        .or(kind)
        .or(opaque)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// How lm-eval's figure relates to scorelens's (FORMATS.md §3.4).
fn note(metric: &str) -> &'static str {
    match metric {
        "acc" => "argmax of the raw loglikelihoods: the same as scorelens accuracy on this group",
        "acc_norm" => "argmax of loglikelihood / characters of the choice",
        "acc_bytes" => "argmax of loglikelihood / UTF-8 bytes of the choice",
        "acc_mutual_info" => "argmax of conditional minus unconditional loglikelihood",
        "exact_match" => "lm-eval's exact match; scorelens takes its per-sample values",
        "brier_score" => "sum over the options of the squared error, in [0, 2]: k times scorelens brier when every doc has k options",
        _ => "",
    }
}
