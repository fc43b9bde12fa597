//! lm-evaluation-harness `--log_samples` files: the v0.4.3+ JSON Lines and the v0.4.0–0.4.2
//! indented JSON array, one sample per (doc, filter), read into items per filter (FORMATS.md §3).
//!
//! The reader drives the per-sample mapping in `sample` and keeps what spans the file:
//! the filters seen (each becomes its own group), lm-eval's `acc_norm` recomputed per group and
//! shown beside the headline `acc`, and the self-check of the recomputed answers against the
//! logged per-sample `acc`.

pub mod results;
pub mod sample;

use crate::formats::cluster_field::cluster_in_json;
use crate::formats::json::{each_element, pick, short_error, ArrayEnd, PickError};
use crate::formats::lines::{is_blank, Lines, BOM};
use crate::formats::{first_keys, Format, Meta, ReadOptions, Reader, Sink};
use crate::reported::Reported;
use crate::warning::Warning;
use sample::{Built, Sample, FIELDS};
use std::collections::HashMap;

/// The samples format.
pub struct LmEvalSamples;

impl Format for LmEvalSamples {
    fn name(&self) -> &'static str {
        "lm-eval"
    }

    fn describe(&self) -> &'static str {
        "lm-evaluation-harness --log_samples files (samples_<task>_<date>.jsonl; v0.4.0-0.4.2 JSON arrays too)"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        let responses = has("resps") || has("filtered_resps") || has("arguments");
        (has("doc_id") && responses).then_some(20)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        self.reader_with(file, &ReadOptions::default())
    }

    fn reads_fields(&self) -> bool {
        true
    }

    fn reader_with(&self, file: &str, options: &ReadOptions) -> Box<dyn Reader> {
        let state = FileState {
            cluster_field: options.cluster_field.clone(),
            ..FileState::default()
        };
        Box::new(SamplesReader {
            file: file.to_string(),
            task: task_name(file),
            layout: Layout::Undecided(Vec::new()),
            state,
        })
    }
}

/// The task name from `samples_<task>_<date>.jsonl`; the file's stem when it has another name.
pub fn task_name(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base
        .strip_suffix(".jsonl")
        .or_else(|| base.strip_suffix(".json"))
        .unwrap_or(base);
    let Some(rest) = stem.strip_prefix("samples_") else {
        return old_task_name(stem).to_string();
    };
    match rest.rsplit_once('_') {
        Some((task, date)) if !task.is_empty() && looks_like_date(date) => task.to_string(),
        _ => rest.to_string(),
    }
}

/// v0.4.0–0.4.2 name files `<model_args, / as __>_<task>`: the task follows the last `=` value's
/// first `_` (`pretrained=org__m,dtype=float_arc_easy`), or the leading `_` of empty model args.
fn old_task_name(stem: &str) -> &str {
    let tail = stem.rsplit('=').next().unwrap_or(stem);
    match tail.split_once('_') {
        Some((_, task)) if stem.contains('=') && !task.is_empty() => task,
        _ => stem
            .strip_prefix('_')
            .filter(|t| !t.is_empty())
            .unwrap_or(stem),
    }
}

/// `2026-11-29T10-15-02.123456`: lm-eval's `date_id`, an ISO time with `-` for `:`.
fn looks_like_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-'
}

enum Layout {
    Undecided(Vec<u8>),
    Lines(Lines),
    Array(Vec<u8>),
}

/// What the reader learns over the whole file.
#[derive(Default)]
pub struct FileState {
    /// The user's cluster field (`--cluster FIELD`: a sample's key, or `doc.KEY`).
    pub cluster_field: Option<std::sync::Arc<str>>,
    /// Filters in the order first seen, with the recomputed acc_norm (hits, docs) of each.
    pub filters: Vec<(String, u64, u64)>,
    /// Occurrences of each doc id, for files that name no filter.
    pub unnamed: HashMap<String, u32>,
    /// Whether any line lacked the `filter` field.
    pub no_filter_field: bool,
    /// Lines whose logged `acc` disagrees with the recomputed answer.
    pub mismatches: Vec<u64>,
    pub choice_items: u64,
    pub graded_items: u64,
    pub mutual_info: bool,
}

impl FileState {
    /// The position of a filter in `filters`, added when new.
    pub fn filter(&mut self, name: &str) -> usize {
        match self.filters.iter().position(|(f, _, _)| f == name) {
            Some(i) => i,
            None => {
                self.filters.push((name.to_string(), 0, 0));
                self.filters.len() - 1
            }
        }
    }
}

/// The group of a task's filter: the task alone for lm-eval's default filter `none`.
pub fn group_name(task: &str, filter: &str) -> String {
    if filter == "none" {
        task.to_string()
    } else {
        format!("{task} · {filter}")
    }
}

/// Reads one samples file.
pub struct SamplesReader {
    file: String,
    task: String,
    layout: Layout,
    state: FileState,
}

impl Reader for SamplesReader {
    fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        if let Layout::Undecided(head) = &mut self.layout {
            head.extend_from_slice(chunk);
            let body = head.strip_prefix(BOM).unwrap_or(head);
            let Some(&first) = body.iter().find(|b| !b.is_ascii_whitespace()) else {
                return;
            };
            let head = std::mem::take(head);
            self.layout = if first == b'[' {
                sink.meta(Meta::FormatVersion, "0.4.0-0.4.2 (one JSON array)");
                Layout::Array(Vec::new())
            } else {
                sink.meta(Meta::FormatVersion, "0.4.3+ (JSON Lines)");
                Layout::Lines(Lines::default())
            };
            return self.feed(&head, sink);
        }
        let (file, task, state) = (&self.file, &self.task, &mut self.state);
        match &mut self.layout {
            Layout::Array(buffer) => buffer.extend_from_slice(chunk),
            Layout::Lines(lines) => lines.feed(chunk, |n, b| {
                if !is_blank(b) && !sink.stopped() {
                    read_object(file, task, n, b, "", state, sink)
                }
            }),
            Layout::Undecided(_) => {}
        }
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let (file, task) = (&self.file, &self.task);
        let state = &mut self.state;
        match std::mem::replace(&mut self.layout, Layout::Undecided(Vec::new())) {
            Layout::Lines(mut lines) => lines.finish(|n, b| {
                if !is_blank(b) {
                    read_object(file, task, n, b, "", state, sink)
                }
            }),
            Layout::Array(buffer) => read_array(file, task, &buffer, state, sink),
            Layout::Undecided(_) => {}
        }
        summarise(file, task, state, sink);
    }
}

/// Reads one sample (a line, or an array element) and pushes its item or the reason it has none.
fn read_object(
    file: &str,
    task: &str,
    line: u64,
    bytes: &[u8],
    place: &str,
    state: &mut FileState,
    sink: &mut dyn Sink,
) {
    let skip = |sink: &mut dyn Sink, why: String| {
        sink.skip(Warning::new(file, Some(line), format!("{place}{why}")));
    };
    let picked = match pick(bytes, &FIELDS) {
        Ok(p) => p,
        Err(PickError::Syntax(msg)) => return skip(sink, format!("not valid JSON: {msg}")),
        Err(PickError::NotObject(kind)) => {
            return skip(sink, format!("expected a JSON object, found {kind}"))
        }
    };
    if let Some(key) = picked.duplicate {
        return skip(sink, format!("field `{key}` appears twice"));
    }
    let sample = Sample {
        fields: &picked.values,
        task,
        line,
    };
    let mut notes = Vec::new();
    match sample::build(&sample, state, &mut notes) {
        Ok(Built::Item(mut item)) => {
            if let Some(name) = state.cluster_field.as_deref() {
                item.cluster = cluster_in_json(bytes, name, &mut notes).map(Into::into);
            }
            for n in notes {
                sink.warn(Warning::new(file, Some(line), format!("{place}{n}")));
            }
            sink.item(*item);
        }
        Ok(Built::NotApplicable(what)) => sink.meta(Meta::NotApplicable, &what),
        Err(why) => skip(sink, why),
    }
}

/// After the last sample: per-filter notices, the recomputed acc_norm, the self-check, the mapping.
fn summarise(file: &str, task: &str, state: &FileState, sink: &mut dyn Sink) {
    if state.choice_items > 0 {
        for line in [
            "items: one per (doc, filter); each filter of a task is its own group",
            "options: the continuations arguments.gen_args_i.arg_1 without the target delimiter",
            "gold: target, a choice position or a choice's text",
            "probabilities: softmax over option loglikelihoods (lm-eval keeps no outside mass, so every mixing figure is null)",
            "answer: argmax of the raw loglikelihoods, lm-eval's acc, the headline; acc_norm (loglikelihood / characters of the choice) is shown beside it",
        ] {
            sink.meta(Meta::Mapping, line);
        }
    }
    if state.mutual_info {
        sink.meta(
            Meta::Mapping,
            "acc_mutual_info: only the k conditional of the 2k requests are options",
        );
    }
    if state.graded_items > 0 {
        sink.meta(
            Meta::Mapping,
            "generate_until: accuracy from the per-sample exact_match lm-eval logged; no probabilities",
        );
    }
    if state.filters.len() > 1 {
        let names: Vec<&str> = state.filters.iter().map(|(f, _, _)| f.as_str()).collect();
        let why = format!(
            "{} filters ({}): each is scored as its own group; the pooled figures count every document once per filter",
            names.len(),
            names.join(", ")
        );
        sink.warn(Warning::new(file, None, why));
    }
    if state.no_filter_field && state.unnamed.values().any(|&n| n > 1) {
        sink.warn(Warning::new(
            file,
            None,
            "doc ids repeat and the lines name no filter (written before lm-eval PR #2517): the n-th line of a doc is read as the n-th filter",
        ));
    }
    if let Some(first) = state.mismatches.first() {
        let why = format!(
            "on {} samples (first at line {first}) the logged acc disagrees with the raw argmax against the target: check how the target was read",
            state.mismatches.len()
        );
        sink.warn(Warning::new(file, None, why));
    }
    for (filter, hits, docs) in &state.filters {
        if *docs > 0 {
            sink.reported(Reported {
                source: "scorelens".to_string(),
                name: "acc_norm".to_string(),
                scope: group_name(task, filter),
                value: *hits as f64 / *docs as f64,
                note: "lm-eval's acc_norm recomputed from the loglikelihoods: argmax of loglikelihood / characters of the choice; the headline accuracy is acc, the raw argmax".to_string(),
            });
        }
    }
}

/// Reads the v0.4.0–0.4.2 array element by element, so one bad element does not lose the rest.
fn read_array(file: &str, task: &str, buffer: &[u8], state: &mut FileState, sink: &mut dyn Sink) {
    let end = each_element(buffer, &mut |n, line, text| {
        read_object(
            file,
            task,
            line,
            text,
            &format!("element {n}: "),
            state,
            sink,
        );
    });
    if let ArrayEnd::Broken(e) | ArrayEnd::Trailing(e) = end {
        let why = format!(
            "the JSON array is malformed here, so the rest of the file is lost: {}",
            short_error(&e)
        );
        sink.skip(Warning::new(file, Some(e.line() as u64), why));
    }
}
