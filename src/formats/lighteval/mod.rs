//! lighteval's details: one row per sample (`doc`, `model_response`, `metric`), as lighteval
//! writes them to `details/<model>/<date>/details_<task>_<date>.parquet` (read as JSON Lines
//! once the session has turned the table's rows into JSON, `scorelens_parquet`), or as JSON
//! Lines (`datasets`' `to_json`). Each task is a group, each folder of details a run.

pub mod row;

use crate::formats::json::short_error;
use crate::formats::lines::{is_blank, Lines};
use crate::formats::non_finite::sanitize;
use crate::formats::{first_keys, Format, Meta, Reader, Sink};
use crate::reported::Reported;
use crate::warning::Warning;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The lighteval details format.
pub struct LightevalDetails;

impl Format for LightevalDetails {
    fn name(&self) -> &'static str {
        "lighteval"
    }

    fn describe(&self) -> &'static str {
        "lighteval details (details_<task>_<date>.parquet, or as JSON Lines): one item per sample, probabilities from the choices' loglikelihoods"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        (has("doc") && has("model_response") && has("metric")).then_some(30)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(DetailsReader {
            file: file.to_string(),
            lines: Lines::default(),
            tasks: BTreeMap::new(),
            mismatches: Vec::new(),
            started: false,
            choice_items: 0,
            graded_items: 0,
            pmi: false,
        })
    }
}

/// What a task's rows add up to, for the figures reported beside ours.
#[derive(Default)]
struct Task {
    group: Option<Arc<str>>,
    /// Per-sample metric → (sum, rows).
    metrics: BTreeMap<String, (f64, u64)>,
    /// acc_norm recomputed: (hits, rows with usable loglikelihoods).
    norm: (u64, u64),
}

struct DetailsReader {
    file: String,
    lines: Lines,
    tasks: BTreeMap<String, Task>,
    mismatches: Vec<u64>,
    started: bool,
    choice_items: u64,
    graded_items: u64,
    pmi: bool,
}

/// The task a file's rows belong to when a row names none: `details_<task>_<date>.parquet`'s
/// `<task>`, else the file's name.
fn task_from_name(file: &str) -> String {
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = name.split('.').next().unwrap_or(name);
    let inner = stem.strip_prefix("details_").unwrap_or(stem);
    match inner.rsplit_once('_') {
        Some((task, date)) if date.starts_with(|c: char| c.is_ascii_digit()) => task.to_string(),
        _ => inner.to_string(),
    }
}

impl DetailsReader {
    fn line(&mut self, n: u64, bytes: &[u8], sink: &mut dyn Sink) {
        if is_blank(bytes) {
            return;
        }
        if !self.started {
            self.started = true;
            sink.meta(Meta::FormatVersion, "lighteval details");
        }
        // A row written by Python's `json` may hold a bare NaN: read as null, as a Parquet NaN is.
        let text = sanitize(bytes);
        let value: serde_json::Value = match serde_json::from_slice(&text) {
            Ok(v) => v,
            Err(e) => {
                let why = format!("not valid JSON: {}", short_error(&e));
                sink.skip(Warning::new(&self.file, Some(n), why));
                return;
            }
        };
        let task = row::task_of(&value)
            .map(str::to_string)
            .unwrap_or_else(|| task_from_name(&self.file));
        let id = match value.get("doc").and_then(|d| d.get("id")) {
            Some(serde_json::Value::String(s)) if !s.is_empty() => format!("{task}/{s}"),
            Some(serde_json::Value::Number(x)) => format!("{task}/{x}"),
            _ => format!("{task}/row {n}"),
        };
        let entry = self.tasks.entry(task.clone()).or_default();
        let group = entry
            .group
            .get_or_insert_with(|| Arc::from(task.as_str()))
            .clone();
        match row::read(&value, n, &id, &group) {
            Ok(read) => {
                for (name, x) in &read.metrics {
                    let m = entry.metrics.entry(name.clone()).or_default();
                    m.0 += x;
                    m.1 += 1;
                }
                if let Some(hit) = read.norm_hit {
                    entry.norm.0 += u64::from(hit);
                    entry.norm.1 += 1;
                }
                if read.mismatch {
                    self.mismatches.push(n);
                }
                if let Some(note) = read.note {
                    sink.warn(Warning::new(&self.file, Some(n), note));
                }
                self.pmi |= read.pmi;
                match read.item.body {
                    crate::items::Body::Graded { .. } => self.graded_items += 1,
                    _ => self.choice_items += 1,
                }
                sink.item(read.item);
            }
            Err(why) => sink.skip(Warning::new(&self.file, Some(n), why)),
        }
    }

    /// After the last row: the mapping, the self-check, and lighteval's per-task figures.
    fn summarise(&self, sink: &mut dyn Sink) {
        if self.choice_items > 0 {
            for line in [
                "items: one per row (doc × model_response × metric); each task (doc.task_name) is a group",
                "options: doc.choices; gold: doc.gold_index (a list: any of them is right)",
                "probabilities: softmax over model_response.logprobs, one per choice (lighteval keeps no outside mass, so every mixing figure is null)",
                "answer: argmax of the loglikelihoods, lighteval's acc; acc_norm (loglikelihood / characters of the choice) is shown beside it",
            ] {
                sink.meta(Meta::Mapping, line);
            }
        }
        if self.pmi {
            sink.meta(
                Meta::Mapping,
                "PMI tasks: the second half of the loglikelihoods (the unconditioned ones) is not an option",
            );
        }
        if self.graded_items > 0 {
            sink.meta(
                Meta::Mapping,
                "generative rows: correctness from the logged metric (em, exact_match, quasi_exact_match, prefix_exact_match, extractive_match, pass@1, acc, first found); no probabilities",
            );
        }
        if let Some(first) = self.mismatches.first() {
            let rows = match self.mismatches.len() {
                1 => "1 row".to_string(),
                n => format!("{n} rows"),
            };
            let why = format!(
                "on {rows} (first at line {first}) the logged acc disagrees with the argmax of the loglikelihoods against doc.gold_index: check the file was not edited",
            );
            sink.warn(Warning::new(&self.file, None, why));
        }
        for (task, t) in &self.tasks {
            for (name, (sum, rows)) in &t.metrics {
                sink.reported(Reported {
                    source: "lighteval".to_string(),
                    name: name.clone(),
                    scope: task.clone(),
                    value: sum / *rows as f64,
                    note: "the mean of the per-sample metric lighteval logged, which is its task figure for every metric it averages (not for corpus-level ones such as BLEU or corpus F1)".to_string(),
                });
            }
            if t.norm.1 > 0 {
                sink.reported(Reported {
                    source: "scorelens".to_string(),
                    name: "acc_norm".to_string(),
                    scope: task.clone(),
                    value: t.norm.0 as f64 / t.norm.1 as f64,
                    note: "lighteval's acc_norm recomputed from the loglikelihoods: argmax of loglikelihood / characters of the choice; the headline accuracy is acc, the raw argmax".to_string(),
                });
            }
        }
    }
}

impl Reader for DetailsReader {
    fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.feed(chunk, |n, bytes| {
            if !sink.stopped() {
                self.line(n, bytes, sink)
            }
        });
        self.lines = lines;
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.finish(|n, bytes| self.line(n, bytes, sink));
        self.lines = lines;
        self.summarise(sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_named_by_its_file_when_its_rows_do_not_say() {
        assert_eq!(
            task_from_name("d/details_mmlu:anatomy|5_2026-12-06T05-15-54.004570.parquet"),
            "mmlu:anatomy|5"
        );
        assert_eq!(task_from_name("rows.jsonl"), "rows");
    }
}
