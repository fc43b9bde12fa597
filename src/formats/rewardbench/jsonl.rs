//! The `rewardbench` CLI's `<model>_outputs.jsonl` (FORMATS.md §6.2): one JSON object per line
//! with `scores_chosen`, `scores_rejected`, `results`, the texts, and the dataset's `subset`, `id`.
//!
//! Lines stream through as chunks arrive; Python's bare `NaN`/`Infinity` literals are accepted and
//! reported as non-finite scores.

use crate::formats::json::{pick, PickError};
use crate::formats::lines::{is_blank, Lines};
use crate::formats::non_finite::quote_non_finite;
use crate::formats::rewardbench::{has, row_item, top_keys, FileTally, Row};
use crate::formats::{Format, Meta, Reader, Sink};
use crate::warning::Warning;

/// The CLI's per-row outputs.
pub struct RewardBenchJsonl;

const FIELDS: [&str; 10] = [
    "id",
    "subset",
    "results",
    "scores_chosen",
    "scores_rejected",
    "scores",
    "num_correct",
    "text_chosen",
    "text_rejected",
    "text",
];

impl Format for RewardBenchJsonl {
    fn name(&self) -> &'static str {
        "rewardbench-outputs"
    }

    fn describe(&self) -> &'static str {
        "the rewardbench CLI's <model>_outputs.jsonl: one row per pair with scores_chosen, scores_rejected, subset, id"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = top_keys(head);
        // A row: `subset` is a string (in eval-set-scores it is an array) beside the scores.
        let row = has(&keys, "subset", Some(b'"')) && !has(&keys, "id", Some(b'['));
        let scored = has(&keys, "scores_chosen", None) || has(&keys, "results", None);
        (row && scored).then_some(8)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(JsonlReader {
            file: file.to_string(),
            lines: Lines::default(),
            tally: FileTally::default(),
            started: false,
        })
    }
}

struct JsonlReader {
    file: String,
    lines: Lines,
    tally: FileTally,
    started: bool,
}

impl JsonlReader {
    fn line(&mut self, n: u64, bytes: &[u8], sink: &mut dyn Sink) {
        if is_blank(bytes) {
            return;
        }
        if !self.started {
            self.started = true;
            sink.meta(Meta::Benchmark, "rewardbench");
            sink.meta(Meta::FormatVersion, "rewardbench CLI outputs");
            sink.meta(
                Meta::Mapping,
                "pairs: `scores_chosen` > `scores_rejected`, strictly; `results` only cross-checked; \
                 ids qualified by subset (`<subset>/<id>`)",
            );
        }
        let text = quote_non_finite(bytes);
        if text.len() != bytes.len() {
            let why = "Python's bare NaN/Infinity literal, which is not JSON; read as a non-finite number";
            sink.warn(Warning::new(&self.file, Some(n), why));
        }
        let fields = match pick(&text, &FIELDS) {
            Ok(p) if p.duplicate.is_some() => {
                let why = format!("field `{}` appears twice", p.duplicate.unwrap_or_default());
                return sink.skip(Warning::new(&self.file, Some(n), why));
            }
            Ok(p) => p.values,
            Err(PickError::Syntax(msg)) => {
                let why = format!("not valid JSON: {msg}");
                return sink.skip(Warning::new(&self.file, Some(n), why));
            }
            Err(PickError::NotObject(kind)) => {
                let why = format!("expected a JSON object, found {kind}");
                return sink.skip(Warning::new(&self.file, Some(n), why));
            }
        };
        let row = Row {
            id: fields[0].as_ref(),
            subset: fields[1].as_ref(),
            results: fields[2].as_ref(),
            chosen: fields[3].as_ref(),
            rejected: fields[4].as_ref(),
            scores: fields[5].as_ref(),
            num_correct: fields[6].as_ref(),
            text_chosen: fields[7].as_ref(),
            text_rejected: fields[8].as_ref(),
            texts: fields[9].as_ref(),
        };
        match row_item(&row, n as usize, n, &mut self.tally) {
            Ok(item) => sink.item(item),
            Err(why) => sink.skip(Warning::new(&self.file, Some(n), why)),
        }
    }
}

impl Reader for JsonlReader {
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
        std::mem::take(&mut self.tally).finish(&self.file, sink);
    }
}
