//! Decision Bench files (FORMATS §9): published `predictions.jsonl`, a local run's `results.jsonl`
//! (`answers: {question: {label, probabilities}}` per row), and the corpus `cases.jsonl`.
//!
//! A predictions row carries its gold and is scored at once. A results row has no gold and a
//! corpus row no answer: they meet on the shelf and are joined by row id, whichever file comes
//! first. Probabilities are read as SPEC §2 says (conditioning is the protocol's renormalisation);
//! the model's own label is scored, never the arg-max.

pub mod item;
pub mod rows;

use crate::formats::json::{pick, PickError};
use crate::formats::lines::{is_blank, Lines};
use crate::formats::{Format, Meta, Reader, Sink};
use crate::warning::Warning;
use rows::{Row, FIELDS};
use std::collections::HashMap;

/// The Decision Bench formats.
pub struct DecisionBench;

/// Which file this is, decided by its first row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Predictions,
    Results,
    Corpus,
}

fn layout(bytes: &[u8]) -> Option<Layout> {
    let picked = pick(bytes, &FIELDS).ok()?;
    let has = |k: &str| {
        FIELDS
            .iter()
            .position(|f| *f == k)
            .is_some_and(|i| picked.values[i].is_some())
    };
    if has("row_id") && (has("probabilities") || has("answer")) && (has("gold") || has("status")) {
        Some(Layout::Predictions)
    } else if has("case_id") && has("answers") && has("status") {
        Some(Layout::Results)
    } else if has("id") && has("questions") {
        Some(Layout::Corpus)
    } else {
        None
    }
}

impl Format for DecisionBench {
    fn name(&self) -> &'static str {
        "decision-bench"
    }

    fn describe(&self) -> &'static str {
        "Decision Bench predictions.jsonl, a run's results.jsonl, and the corpus cases.jsonl (joined by row id)"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let head = head
            .strip_prefix(crate::formats::lines::BOM)
            .unwrap_or(head);
        let first = head.split(|&b| b == b'\n').find(|l| !is_blank(l))?;
        layout(first).map(|_| 10)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(DecisionBenchReader {
            file: file.to_string(),
            lines: Lines::default(),
            layout: None,
            results: Vec::new(),
            seen: HashMap::new(),
        })
    }

    fn end_run(&self, sink: &mut dyn Sink) {
        rows::join_at_end(sink);
    }
}

struct DecisionBenchReader {
    file: String,
    lines: Lines,
    layout: Option<Layout>,
    /// A run's results rows, last record per row winning (the file is append-only).
    results: Vec<Row>,
    /// Position in `results` of each row id.
    seen: HashMap<String, usize>,
}

impl Reader for DecisionBenchReader {
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
        match self.layout {
            Some(Layout::Results) => {
                let results = std::mem::take(&mut self.results);
                sink.meta(
                    Meta::Mapping,
                    "a run's results.jsonl: the last record of a row supersedes earlier ones; gold and options come from the corpus cases.jsonl",
                );
                rows::park_or_emit(results, sink);
            }
            Some(Layout::Corpus) => {
                sink.meta(
                    Meta::Mapping,
                    "corpus cases.jsonl: options (in option_order), gold, category and modality, joined with answers by row id",
                );
                rows::corpus_done(&self.file, sink);
            }
            Some(Layout::Predictions) => {
                rows::predictions_done(&self.file, sink);
                sink.meta(
                    Meta::Mapping,
                    "published predictions.jsonl: one choice item per row; group = category",
                );
            }
            None => {}
        }
        if self.layout.is_some_and(|l| l != Layout::Corpus) {
            sink.meta(
                Meta::Mapping,
                "probabilities: as SPEC §2 (a total above 1.02 is invalid; below 1 the rest is outside mass; conditioning renormalises as the protocol does); the model's own label is its answer",
            );
            sink.meta(
                Meta::Mapping,
                "a row whose status is not ok has no valid answer and counts as wrong",
            );
        }
    }
}

impl DecisionBenchReader {
    fn line(&mut self, n: u64, bytes: &[u8], sink: &mut dyn Sink) {
        if is_blank(bytes) {
            return;
        }
        let file = self.file.clone();
        let picked = match pick(bytes, &FIELDS) {
            Ok(p) => p,
            Err(PickError::Syntax(msg)) => {
                return sink.skip(Warning::new(
                    &file,
                    Some(n),
                    format!("not valid JSON: {msg}"),
                ))
            }
            Err(PickError::NotObject(kind)) => {
                let why = format!("expected a JSON object, found {kind}");
                return sink.skip(Warning::new(&file, Some(n), why));
            }
        };
        let kind = match (self.layout, layout(bytes)) {
            (None, Some(l)) => {
                self.layout = Some(l);
                if l != Layout::Corpus {
                    sink.meta(Meta::Benchmark, "decision-bench");
                }
                let version = match l {
                    Layout::Predictions => "predictions.jsonl (schema 1)",
                    Layout::Results => "run results.jsonl",
                    Layout::Corpus => "corpus cases.jsonl",
                };
                sink.meta(Meta::FormatVersion, version);
                l
            }
            (Some(l), _) => l,
            (None, None) => {
                let why = "not a Decision Bench row (no row_id, case_id or questions)";
                return sink.skip(Warning::new(&file, Some(n), why));
            }
        };
        let values = picked.values;
        match kind {
            Layout::Corpus => match rows::case(&values) {
                Ok(cases) => rows::shelve_case(cases, &file, n, sink),
                Err(why) => sink.skip(Warning::new(&file, Some(n), why)),
            },
            Layout::Predictions => match rows::prediction(&values, &file, n) {
                Ok(row) => rows::emit_or_park(row, sink),
                Err(why) => sink.skip(Warning::new(&file, Some(n), why)),
            },
            Layout::Results => match rows::result(&values, &file, n) {
                Ok(found) => {
                    for row in found {
                        match self
                            .seen
                            .get(&row.id)
                            .and_then(|&i| self.results.get_mut(i))
                        {
                            Some(old) => {
                                *old = row;
                                sink.meta(Meta::NotApplicable, "superseded results record");
                            }
                            None => {
                                self.seen.insert(row.id.clone(), self.results.len());
                                self.results.push(row);
                            }
                        }
                    }
                }
                Err(why) => sink.skip(Warning::new(&file, Some(n), why)),
            },
        }
    }
}
