//! RewardBench's aggregate files (FORMATS.md §6.2, §7.2): `eval-set/<model>.json` maps each subset
//! to its accuracy, and the CLI's `<model>.json` holds `accuracy`, `num_prompts`, `extra_results`.
//!
//! They hold no items, only the tool's own figures; the RewardBench profiles compute the sections
//! from them when no per-item file of the same run covers a subset.

use crate::formats::json::Val;
use crate::formats::lines::BOM;
use crate::formats::non_finite::quote_non_finite;
use crate::formats::rewardbench::{has, top_keys};
use crate::formats::{Format, Meta, Reader, Sink};
use crate::reported::Reported;
use crate::warning::Warning;

/// `Reported::source` of the figures RewardBench's own files carry (an `eval-set` aggregate, the
/// CLI's summary).
pub const SOURCE: &str = "rewardbench";

/// The aggregate layouts.
pub struct RewardBenchAggregate;

/// String fields of the aggregates that are not subsets.
const META_KEYS: [&str; 6] = [
    "model",
    "model_type",
    "chat_template",
    "ref_model",
    "tokenizer",
    "revision",
];

/// Subset names that only RewardBench 2 has.
const V2_ONLY: [&str; 4] = ["Factuality", "Precise IF", "Focus", "Ties"];

impl Format for RewardBenchAggregate {
    fn name(&self) -> &'static str {
        "rewardbench-results"
    }

    fn describe(&self) -> &'static str {
        "RewardBench aggregate JSON: eval-set/<model>.json (subset -> accuracy) or the CLI's <model>.json summary"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = top_keys(head);
        let cli = has(&keys, "accuracy", None) && has(&keys, "num_prompts", None);
        let eval_set = has(&keys, "model", Some(b'"'))
            && (has(&keys, "model_type", None) || has(&keys, "chat_template", None));
        // Every value a number, a string or null, except the CLI's `extra_results` object.
        let flat = keys.iter().all(|(k, b)| match b {
            b'[' => false,
            b'{' => k == "extra_results",
            _ => true,
        });
        let numbers = keys.iter().any(|(k, b)| {
            !META_KEYS.contains(&k.as_str()) && (b.is_ascii_digit() || b"-NI".contains(b))
        });
        ((cli || eval_set) && flat && numbers).then_some(7)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(AggregateReader {
            file: file.to_string(),
            buffer: Vec::new(),
        })
    }
}

struct AggregateReader {
    file: String,
    buffer: Vec<u8>,
}

impl Reader for AggregateReader {
    fn feed(&mut self, chunk: &[u8], _sink: &mut dyn Sink) {
        self.buffer.extend_from_slice(chunk);
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let buffer = std::mem::take(&mut self.buffer);
        let body = buffer.strip_prefix(BOM).unwrap_or(&buffer);
        let text = quote_non_finite(body);
        let root = match serde_json::from_slice::<Val>(&text) {
            Ok(Val::Map(entries)) => entries,
            Ok(other) => {
                let why = format!("expected a JSON object, found {}", other.kind());
                return sink.skip(Warning::new(&self.file, None, why));
            }
            Err(e) => {
                let why = format!("not valid JSON: {e}");
                return sink.skip(Warning::new(&self.file, Some(e.line() as u64), why));
            }
        };
        let get = |k: &str| root.iter().find(|(n, _)| n == k).map(|(_, v)| v);
        if let Some(Val::Str(model)) = get("model") {
            sink.meta(Meta::Model, model);
        }
        let cli = get("num_prompts").is_some();
        let subsets: &[(std::borrow::Cow<str>, Val)] = match (cli, get("extra_results")) {
            (true, Some(Val::Map(extra))) => extra,
            (true, _) => &[],
            (false, _) => &root,
        };
        let v2 = subsets.iter().any(|(k, _)| V2_ONLY.contains(&k.as_ref()));
        sink.meta(
            Meta::Benchmark,
            if v2 { "rewardbench2" } else { "rewardbench" },
        );
        let version = match (cli, v2) {
            (true, _) => "rewardbench CLI summary",
            (false, true) => "eval-set v2 (aggregate)",
            (false, false) => "eval-set v1 (aggregate)",
        };
        sink.meta(Meta::FormatVersion, version);
        sink.meta(
            Meta::Mapping,
            "per-subset accuracies the tool computed; no items, so no margins or error analysis",
        );
        if cli {
            if let Some(acc) = get("accuracy").and_then(Val::as_f64) {
                self.report(
                    sink,
                    "accuracy (CLI, micro)",
                    "",
                    acc,
                    "the CLI's accuracy over every prompt pooled: not the leaderboard score",
                );
            }
        }
        for (key, value) in subsets {
            if !cli && META_KEYS.contains(&key.as_ref()) {
                continue;
            }
            if let Some(acc) = value.as_f64() {
                // An accuracy outside [0, 1] is no accuracy: it would carry into the sections.
                if !(0.0..=1.0).contains(&acc) {
                    let shown = if acc.abs() < 1e9 {
                        acc.to_string()
                    } else {
                        format!("{acc:e}")
                    };
                    let why = format!(
                        "subset `{key}` has the accuracy {shown}, outside [0, 1]; left out"
                    );
                    sink.warn(Warning::new(&self.file, None, why));
                    continue;
                }
                let note = "the subset's accuracy as the tool wrote it";
                self.report(sink, "accuracy", key, acc, note);
                continue;
            }
            match value {
                Val::Str(s) if ["NaN", "Infinity", "-Infinity"].contains(&s.as_ref()) => {
                    let why = format!("subset `{key}` has the non-finite accuracy {s}; left out");
                    sink.warn(Warning::new(&self.file, None, why));
                }
                Val::Null => {}
                other => {
                    let why = format!(
                        "`{key}` is {}, not a subset accuracy; ignored",
                        other.kind()
                    );
                    sink.warn(Warning::new(&self.file, None, why));
                }
            }
        }
    }
}

impl AggregateReader {
    fn report(&self, sink: &mut dyn Sink, name: &str, scope: &str, value: f64, note: &str) {
        sink.reported(Reported {
            source: SOURCE.to_string(),
            name: name.to_string(),
            scope: scope.to_string(),
            value,
            note: note.to_string(),
        });
    }
}
