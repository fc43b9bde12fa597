//! JevBench harness output (FORMATS §8): task files (`easy.jsonl`, `original.jsonl`, `hard.jsonl`)
//! and the harness's `results.jsonl`, dropped together and joined on `task_id` = `id`.
//!
//! Results rows carry no type, gold or tier, so neither file scores alone. Each file's rows go onto
//! the run's `Shelf`; after the last file `end_run` joins them (so the order of the files does not
//! matter), names the benchmark from the tiers present, and emits the items.

pub mod join;
pub mod rows;

use crate::formats::json::{pick, PickError};
use crate::formats::lines::{is_blank, Lines};
use crate::formats::{first_keys, Format, Meta, Reader, Sink};
use crate::items::Tier;
use crate::warning::Warning;
use rows::{Row, Task, FIELDS};
use std::collections::{HashMap, HashSet};

/// The JevBench format.
pub struct JevBench;

/// What the files of one run left on the shelf.
#[derive(Debug, Default)]
pub struct Pending {
    /// Task files in the order read: name, and the tier its name gives.
    pub task_files: Vec<(String, Option<Tier>)>,
    pub result_files: Vec<String>,
    pub tasks: Vec<Task>,
    pub task_ids: HashSet<String>,
    /// Results rows by task id; the first row for an id wins.
    pub results: HashMap<String, Row>,
}

impl Format for JevBench {
    fn name(&self) -> &'static str {
        "jevbench"
    }

    fn describe(&self) -> &'static str {
        "JevBench task files (easy/original/hard.jsonl) plus the harness's results.jsonl, joined on id"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        let task = has("id") && has("question") && has("labels");
        let result = has("task_id") && (has("probs") || has("valid") || has("predicted"));
        (task || result).then_some(8)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(JevReader {
            file: file.to_string(),
            lines: Lines::default(),
            kind: None,
        })
    }

    fn end_run(&self, sink: &mut dyn Sink) {
        if let Some(pending) = sink.shelf().take::<Pending>() {
            crate::formats::jevbench::join::join(pending, sink);
        }
    }
}

/// Which of the two files this is, decided by its first row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileKind {
    Tasks,
    Results,
}

struct JevReader {
    file: String,
    lines: Lines,
    kind: Option<FileKind>,
}

impl Reader for JevReader {
    fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        let Self { file, lines, kind } = self;
        lines.feed(chunk, |n, b| {
            if !sink.stopped() {
                read_line(file, kind, n, b, sink)
            }
        });
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let Self { file, lines, kind } = self;
        lines.finish(|n, b| read_line(file, kind, n, b, sink));
    }
}

/// The tier a task file's name gives: `easy`, `original` (standard), `standard`, `judge` or
/// `hard` as a word of the file's base name, when exactly one such word occurs.
pub fn tier_from_name(file: &str) -> Option<Tier> {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.split('.').next().unwrap_or(base);
    let mut found = stem
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| match w.to_ascii_lowercase().as_str() {
            "original" => Some(Tier::Standard),
            other => Tier::parse(other),
        });
    let first = found.next()?;
    found.all(|t| t == first).then_some(first)
}

fn read_line(
    file: &str,
    kind: &mut Option<FileKind>,
    line: u64,
    bytes: &[u8],
    sink: &mut dyn Sink,
) {
    if is_blank(bytes) {
        return;
    }
    let skip = |sink: &mut dyn Sink, why: String| sink.skip(Warning::new(file, Some(line), why));
    let picked = match pick(bytes, &FIELDS) {
        Ok(p) => p,
        Err(PickError::Syntax(msg)) => return skip(sink, format!("not valid JSON: {msg}")),
        Err(PickError::NotObject(k)) => {
            return skip(sink, format!("expected a JSON object, found {k}"))
        }
    };
    if let Some(key) = picked.duplicate {
        return skip(sink, format!("field `{key}` appears twice"));
    }
    let f = picked.values;
    let this = if f[rows::f::TASK_ID].is_some() {
        FileKind::Results
    } else if f[rows::f::QUESTION].is_some() || f[rows::f::LABELS].is_some() {
        FileKind::Tasks
    } else {
        return skip(
            sink,
            "neither a JevBench task (id, question, labels, expected) nor a results row (task_id, probs)"
                .to_string(),
        );
    };
    match *kind {
        None => {
            *kind = Some(this);
            start_file(file, this, sink);
        }
        Some(k) if k != this => {
            let why = "a task row and a results row in the same file; this row is skipped";
            return skip(sink, why.to_string());
        }
        Some(_) => {}
    }
    match this {
        FileKind::Results => match rows::result_row(&f, line) {
            Ok((id, row, model)) => {
                if let Some(m) = model {
                    sink.meta(Meta::Model, &m);
                }
                let pending = sink.shelf().get::<Pending>();
                let index = pending.result_files.len().saturating_sub(1);
                if pending.results.contains_key(&id) {
                    return skip(
                        sink,
                        format!("a second results row for task `{id}`; the first one is kept"),
                    );
                }
                pending.results.insert(id, Row { file: index, ..row });
            }
            Err(why) => skip(sink, why),
        },
        FileKind::Tasks => {
            let pending = sink.shelf().get::<Pending>();
            let (index, tier) = match pending.task_files.last() {
                Some((_, tier)) => (pending.task_files.len() - 1, *tier),
                None => (0, None),
            };
            match rows::task(&f, line, index, tier) {
                Ok(task) if pending.task_ids.contains(&task.id) => {
                    let why = format!(
                        "task id `{}` was already seen; this later task is skipped",
                        task.id
                    );
                    skip(sink, why)
                }
                Ok(task) => {
                    pending.task_ids.insert(task.id.clone());
                    pending.tasks.push(task);
                }
                Err(why) => skip(sink, why),
            }
        }
    }
}

/// Records a new file on the shelf and says how it is read.
fn start_file(file: &str, kind: FileKind, sink: &mut dyn Sink) {
    match kind {
        FileKind::Tasks => {
            let tier = tier_from_name(file);
            sink.shelf()
                .get::<Pending>()
                .task_files
                .push((file.to_string(), tier));
            sink.meta(Meta::FormatVersion, "task file");
            let from = match tier {
                Some(t) => format!(
                    "tier `{}` from the file name unless a row has `tier`",
                    t.name()
                ),
                None => "tier from each row's `tier` field (the file name names none)".to_string(),
            };
            sink.meta(Meta::Mapping, &from);
            sink.meta(
                Meta::Mapping,
                "type from question.type (noul = binary, score = rating); gold from `expected`; gold_probs from provenance.gold_probs",
            );
        }
        FileKind::Results => {
            sink.shelf()
                .get::<Pending>()
                .result_files
                .push(file.to_string());
            sink.meta(Meta::FormatVersion, "results");
            sink.meta(
                Meta::Mapping,
                "joined to the task files on task_id = id; answer from `predicted`, else the arg-max of `probs`; valid: false is an invalid answer",
            );
        }
    }
}
