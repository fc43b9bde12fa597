//! RewardBench's `eval-set-scores/<model>.json` (FORMATS.md §6.2, §7.2): one JSON object whose
//! columns are parallel arrays, row i of every array describing item i.
//!
//! The file is buffered whole (the arrays are only aligned once all are read). Each array is split
//! into borrowed raw elements without copying the texts, and rows are built one at a time, so a
//! bad row costs only itself. Python's bare `NaN`/`Infinity` literals are accepted and reported.

use crate::formats::json::Val;
use crate::formats::lines::BOM;
use crate::formats::non_finite::quote_non_finite;
use crate::formats::rewardbench::{has, row_item, top_keys, FileTally, Row};
use crate::formats::{Format, Meta, Reader, Sink};
use crate::warning::Warning;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// The `eval-set-scores` layout, v1 and v2.
pub struct RewardBenchArrays;

/// The columns read as arrays; every other key is skipped unparsed (`chat_template` and so on).
const COLUMNS: [&str; 10] = [
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

impl Format for RewardBenchArrays {
    fn name(&self) -> &'static str {
        "rewardbench-scores"
    }

    fn describe(&self) -> &'static str {
        "RewardBench eval-set-scores JSON (v1 pairs, v2 best-of-4 and Ties): one object of parallel arrays"
    }

    fn sniff(&self, file: &str, head: &[u8]) -> Option<u8> {
        let keys = top_keys(head);
        let array = |k: &str| has(&keys, k, Some(b'['));
        let columns = [
            "id",
            "subset",
            "results",
            "scores_chosen",
            "num_correct",
            "scores",
        ];
        let hits = columns.iter().filter(|c| array(c)).count();
        let named = file.contains("eval-set-scores") || file.contains("pref-sets-scores");
        match hits {
            0 => None,
            // Only `id` seen as an array: the other columns may lie past the head (less sure),
            // but not when the whole first object is in view (a JSON Lines item, say).
            1 if !array("subset") && !array("scores_chosen") => {
                (!first_value_complete(head)).then_some(6 + u8::from(named))
            }
            _ => Some(8 + u8::from(named)),
        }
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(ArraysReader {
            file: file.to_string(),
            buffer: Vec::new(),
        })
    }
}

/// Whether the head holds its first JSON value whole.
fn first_value_complete(head: &[u8]) -> bool {
    let body = head.strip_prefix(BOM).unwrap_or(head);
    let mut values =
        serde_json::Deserializer::from_slice(body).into_iter::<serde::de::IgnoredAny>();
    matches!(values.next(), Some(Ok(_)))
}

struct ArraysReader {
    file: String,
    buffer: Vec<u8>,
}

impl Reader for ArraysReader {
    fn feed(&mut self, chunk: &[u8], _sink: &mut dyn Sink) {
        self.buffer.extend_from_slice(chunk);
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let buffer = std::mem::take(&mut self.buffer);
        let body = buffer.strip_prefix(BOM).unwrap_or(&buffer);
        if let Err((line, why)) = read(&self.file, body, sink) {
            sink.skip(Warning::new(&self.file, line, why));
        }
    }
}

/// Line numbers of byte offsets.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &[u8]) -> Self {
        LineIndex(
            text.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        )
    }
    fn line(&self, offset: usize) -> u64 {
        self.0.partition_point(|&p| p < offset) as u64 + 1
    }
}

/// A file-level error: the line it is at, if known, and why.
type FileError = (Option<u64>, String);

fn read(file: &str, body: &[u8], sink: &mut dyn Sink) -> Result<(), FileError> {
    let text = quote_non_finite(body);
    let lines = LineIndex::new(&text);
    let text = std::str::from_utf8(&text).map_err(|e| {
        let line = lines.line(e.valid_up_to());
        (Some(line), "not valid UTF-8".to_string())
    })?;
    if text.len() != body.len() {
        sink.warn(Warning::new(
            file,
            None,
            "the file holds Python's bare NaN/Infinity literals, which are not JSON; read as non-finite numbers",
        ));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let top = de
        .deserialize_map(TopVisitor)
        .and_then(|t| de.end().map(|()| t))
        .map_err(|e| {
            let msg = e.to_string();
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            (Some(e.line() as u64), format!("not valid JSON: {msg}"))
        })?;
    let scalar = |k: &str| match top.scalars.iter().find(|(n, _)| n == k) {
        Some((_, Val::Str(s))) => Some(s.to_string()),
        _ => None,
    };
    let mut columns: Vec<(&str, Vec<&RawValue>)> = Vec::new();
    for (name, raw) in &top.columns {
        let elements: Vec<&RawValue> = serde_json::from_str(raw.get()).map_err(|_| {
            let line = lines.line(offset(text, raw.get()));
            (Some(line), format!("`{name}` is not a list"))
        })?;
        columns.push((name, elements));
    }
    let column = |k: &str| columns.iter().find(|(n, _)| *n == k).map(|(_, v)| v);
    let lengths: Vec<String> = columns
        .iter()
        .map(|(n, v)| format!("{n} {}", v.len()))
        .collect();
    let rows = columns.first().map_or(0, |(_, v)| v.len());
    if columns.iter().any(|(_, v)| v.len() != rows) {
        let why = format!(
            "the columns have unequal lengths ({}), so rows cannot be aligned; the file is not scored",
            lengths.join(", ")
        );
        return Err((None, why));
    }
    let (v2, pairs) = (
        column("scores").is_some(),
        column("scores_chosen").is_some() || column("scores_rejected").is_some(),
    );
    if column("id").is_none()
        || column("subset").is_none()
        || !(v2 || pairs || column("results").is_some())
    {
        let why = format!(
            "an object of arrays ({}) but not a RewardBench layout: it needs `id`, `subset` and \
             `scores_chosen`/`scores_rejected` (v1), `scores`/`num_correct` (v2) or `results` (a judge)",
            lengths.join(", ")
        );
        return Err((None, why));
    }
    if rows == 0 {
        return Err((None, "the columns are empty: no rows to score".to_string()));
    }
    if let Some(model) = scalar("model") {
        sink.meta(Meta::Model, &model);
    }
    let kind = scalar("model_type").unwrap_or_else(|| "model type not given".to_string());
    let (benchmark, version) = if v2 {
        ("rewardbench2", format!("eval-set-scores v2 ({kind})"))
    } else {
        ("rewardbench", format!("eval-set-scores v1 ({kind})"))
    };
    sink.meta(Meta::Benchmark, benchmark);
    sink.meta(Meta::FormatVersion, &version);
    sink.meta(Meta::Mapping, mapping(v2));
    let mut tally = FileTally::default();
    for i in 0..rows {
        let mut vals: Vec<(&str, Val)> = Vec::with_capacity(columns.len());
        let mut line = None;
        for (name, elements) in &columns {
            let Some(raw) = elements.get(i) else { continue };
            if *name == "id" {
                line = Some(lines.line(offset(text, raw.get())));
            }
            match serde_json::from_str::<Val>(raw.get()) {
                Ok(v) => vals.push((name, v)),
                Err(e) => {
                    let at = lines.line(offset(text, raw.get()));
                    let why = format!("row {}: `{name}` is not valid JSON: {e}", i + 1);
                    sink.warn(Warning::new(file, Some(at), why));
                }
            }
        }
        let get = |k: &str| vals.iter().find(|(n, _)| *n == k).map(|(_, v)| v);
        let row = Row {
            id: get("id"),
            subset: get("subset"),
            results: get("results"),
            chosen: get("scores_chosen"),
            rejected: get("scores_rejected"),
            scores: get("scores"),
            num_correct: get("num_correct"),
            text_chosen: get("text_chosen"),
            text_rejected: get("text_rejected"),
            texts: get("text"),
        };
        let line = line.unwrap_or(1);
        match row_item(&row, i + 1, line, &mut tally) {
            Ok(item) => sink.item(item),
            Err(why) => sink.skip(Warning::new(file, Some(line), why)),
        }
    }
    tally.finish(file, sink);
    Ok(())
}

fn mapping(v2: bool) -> &'static str {
    if v2 {
        "best-of-n rows: `scores` ([x] unwrapped), the first `num_correct` correct; credit 1/k when the first \
         candidate shares the maximum with k-1 others; Ties from scores, num_correct and the ref:/tied: ids, never `results`"
    } else {
        "pairs: `scores_chosen` > `scores_rejected`, strictly ([x] unwrapped); `results` only cross-checked; \
         ids qualified by subset (`<subset>/<id>`)"
    }
}

/// Byte offset of a borrowed slice within `text`.
fn offset(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// The top-level object: the wanted columns as raw slices, the other values as scalars.
struct Top<'a> {
    columns: Vec<(&'static str, &'a RawValue)>,
    scalars: Vec<(String, Val<'a>)>,
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of arrays")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
        let mut top = Top {
            columns: Vec::new(),
            scalars: Vec::new(),
        };
        while let Some(key) = map.next_key::<crate::formats::json::Key<'de>>()? {
            match COLUMNS.iter().find(|c| **c == key.0) {
                Some(c) if top.columns.iter().any(|(n, _)| n == c) => {
                    return Err(serde::de::Error::custom(format!("`{c}` appears twice")));
                }
                Some(c) => top.columns.push((c, map.next_value()?)),
                None if matches!(key.0.as_ref(), "model" | "model_type") => {
                    top.scalars.push((key.0.into_owned(), map.next_value()?));
                }
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(top)
    }
}
