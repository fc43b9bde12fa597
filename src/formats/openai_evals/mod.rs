//! OpenAI evals logs (`oaieval` JSON Lines, FORMATS.md §10): a `spec` line, event lines, and a
//! `final_report` line (anywhere: the local recorder writes it before the last events are flushed)
//! whose figures are shown beside ours.
//!
//! Every `match` event is an item, as `evals.metrics.get_accuracy` counts events, not samples.
//! An event whose `options` menu holds its expected answer is a choice item (chance 1/k); any
//! other match is graded by the log's own `correct`.

use crate::formats::json::{pick, PickError, Val};
use crate::formats::lines::{is_blank, Lines};
use crate::formats::{first_keys, Format, Meta, Reader, Sink};
use crate::items::{Body, Item, OptionItem, OptionKind};
use crate::reported::Reported;
use crate::warning::Warning;
use std::collections::HashSet;

/// The OpenAI evals format.
pub struct OpenAiEvals;

const FIELDS: [&str; 6] = [
    "spec",
    "final_report",
    "sample_id",
    "type",
    "data",
    "event_id",
];

impl Format for OpenAiEvals {
    fn name(&self) -> &'static str {
        "openai-evals"
    }

    fn describe(&self) -> &'static str {
        "OpenAI evals JSON Lines logs (spec line, match events, final_report): accuracy per match event"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        let text = String::from_utf8_lossy(head);
        let spec = has("spec") && text.contains("\"eval_name\"");
        let event = ["run_id", "event_id", "type", "data"]
            .iter()
            .all(|k| has(k));
        (spec || event).then_some(20)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(EvalsReader {
            file: file.to_string(),
            lines: Lines::default(),
            eval: None,
            seen: HashSet::new(),
            matches: 0,
            choices: 0,
            final_report: false,
        })
    }
}

struct EvalsReader {
    file: String,
    lines: Lines,
    /// The eval's name from the spec line: the group of every item.
    eval: Option<String>,
    seen: HashSet<String>,
    matches: u64,
    choices: u64,
    final_report: bool,
}

impl Reader for EvalsReader {
    fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.feed(chunk, |n, b| {
            if !sink.stopped() {
                self.line(n, b, sink)
            }
        });
        self.lines = lines;
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.finish(|n, b| self.line(n, b, sink));
        sink.meta(
            Meta::Mapping,
            "items: one per match event (evals counts events, not samples)",
        );
        if self.choices > 0 {
            sink.meta(Meta::Mapping, "a match whose options hold the expected answer is a choice item: options, gold = expected, answer = picked");
        }
        if self.choices < self.matches {
            sink.meta(
                Meta::Mapping,
                "other matches are graded by the log's correct: accuracy only",
            );
        }
        if !self.final_report {
            let why = "no final_report line: the run may have stopped early";
            sink.warn(Warning::new(&self.file, None, why));
        }
    }
}

fn text(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.to_string()),
        Val::Null => None,
        other => other
            .as_label()
            .map(|s| s.into_owned())
            .or_else(|| other.as_f64().map(|x| x.to_string())),
    }
}

impl EvalsReader {
    fn line(&mut self, n: u64, bytes: &[u8], sink: &mut dyn Sink) {
        if is_blank(bytes) {
            return;
        }
        let skip =
            |sink: &mut dyn Sink, why: String| sink.skip(Warning::new(&self.file, Some(n), why));
        let picked = match pick(bytes, &FIELDS) {
            Ok(p) => p,
            Err(PickError::Syntax(m)) => return skip(sink, format!("not valid JSON: {m}")),
            Err(PickError::NotObject(k)) => {
                return skip(sink, format!("expected a JSON object, found {k}"))
            }
        };
        let [spec, report, sample, kind, data, event] = &picked.values;
        if let Some(spec) = spec {
            return self.spec(spec, sink);
        }
        if let Some(report) = report {
            return self.report(report, sink);
        }
        match kind {
            Some(Val::Str(k)) if k == "match" => {}
            Some(Val::Str(k)) => return sink.meta(Meta::NotApplicable, &format!("{k} event")),
            _ => {
                return skip(
                    sink,
                    "neither a spec, an event nor a final_report".to_string(),
                )
            }
        }
        let Some(Val::Map(_)) = data else {
            return skip(sink, "a match event without a `data` object".to_string());
        };
        let Some(data) = data.as_ref() else { return };
        let correct = match data.get("correct") {
            Some(Val::Bool(b)) => *b,
            _ => {
                return skip(
                    sink,
                    "a match event without a boolean `correct`".to_string(),
                )
            }
        };
        let sample = sample
            .as_ref()
            .and_then(text)
            .unwrap_or_else(|| format!("line {n}"));
        let id = if self.seen.insert(sample.clone()) {
            sample
        } else {
            let e = event
                .as_ref()
                .and_then(text)
                .unwrap_or_else(|| n.to_string());
            format!("{sample}#{e}")
        };
        self.matches += 1;
        let body = match choice(data, correct) {
            Some(body) => {
                self.choices += 1;
                body
            }
            None => graded(data, correct),
        };
        sink.item(Item {
            id: id.into(),
            line: Some(n),
            group: self.eval.as_deref().map(Into::into),
            tier: None,
            split: None,
            modality: None,
            cluster: None,
            body,
        });
    }

    fn spec(&mut self, spec: &Val, sink: &mut dyn Sink) {
        let name = |k: &str| spec.get(k).and_then(text);
        self.eval = name("base_eval").or_else(|| name("eval_name"));
        let model = match spec.get("completion_fns") {
            Some(Val::List(fns)) => {
                let names: Vec<String> = fns.iter().filter_map(text).collect();
                (!names.is_empty()).then(|| names.join(", "))
            }
            _ => name("model_name"),
        };
        if let Some(m) = model {
            sink.meta(Meta::Model, &m);
        }
        let version = match name("eval_name") {
            Some(e) => format!("oaieval log of {e}"),
            None => "oaieval log".to_string(),
        };
        sink.meta(Meta::FormatVersion, &version);
    }

    fn report(&mut self, report: &Val, sink: &mut dyn Sink) {
        self.final_report = true;
        let Val::Map(entries) = report else { return };
        for (k, v) in entries {
            let Some(value) = v.as_f64() else { continue };
            let note = if k == "accuracy" {
                "correct match events / match events: the same as scorelens accuracy"
            } else {
                ""
            };
            sink.reported(Reported {
                source: "OpenAI evals".to_string(),
                name: k.to_string(),
                scope: self.eval.clone().unwrap_or_default(),
                value,
                note: note.to_string(),
            });
        }
    }
}

/// The expected answers: a list, or one value.
fn expected(data: &Val) -> Vec<String> {
    match data.get("expected") {
        Some(Val::List(xs)) => xs.iter().filter_map(text).collect(),
        Some(v) => text(v).into_iter().collect(),
        None => Vec::new(),
    }
}

/// A choice item when the event lists an option menu that holds the expected answer and the
/// menu's verdict agrees with the log's `correct`.
fn choice(data: &Val, correct: bool) -> Option<Body> {
    let Some(Val::List(xs)) = data.get("options") else {
        return None;
    };
    let options: Vec<String> = xs.iter().filter_map(text).collect();
    let distinct = options
        .iter()
        .enumerate()
        .all(|(i, o)| !options[..i].contains(o));
    if options.len() < 2 || options.len() != xs.len() || !distinct {
        return None;
    }
    let expected = expected(data);
    // Without a menu, evals lists the expected answers as the options: that is no choice.
    if options.iter().all(|o| expected.contains(o)) {
        return None;
    }
    let golds: Vec<usize> = expected
        .iter()
        .filter_map(|e| options.iter().position(|o| o == e))
        .collect();
    let answer = data
        .get("picked")
        .and_then(text)
        .and_then(|p| options.iter().position(|o| *o == p));
    let gold = match answer {
        Some(a) if golds.contains(&a) => a,
        _ => *golds.first()?,
    };
    if (answer == Some(gold)) != correct {
        return None;
    }
    Some(Body::Option(OptionItem {
        kind: OptionKind::Choice,
        options: options.into(),
        gold,
        gold_probs: None,
        answer,
        probs: None,
    }))
}

fn graded(data: &Val, correct: bool) -> Body {
    let answer = data
        .get("picked")
        .and_then(text)
        .or_else(|| data.get("sampled").and_then(text));
    Body::Graded {
        credit: if correct { 1.0 } else { 0.0 },
        gold: expected(data).join(" | "),
        answer,
    }
}
