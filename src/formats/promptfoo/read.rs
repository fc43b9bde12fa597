//! Reading a promptfoo file whole: the output document's `results.results` (with each run's own
//! `metrics` in `results.prompts`) or a JSON Lines export, and the figures kept beside ours.

use super::row::{kind, Row};
use crate::formats::json::{short_error, ArrayEnd};
use crate::formats::rows::{each_in, each_line, error_line};
use crate::formats::{first_keys, Meta, Reader, Sink};
use crate::items::{Body, Item};
use crate::reported::Reported;
use crate::warning::Warning;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// One entry of `results.prompts`: a provider × prompt and promptfoo's own figures for it.
#[derive(Deserialize)]
pub struct PromptHead {
    #[serde(default)]
    provider: String,
    #[serde(default)]
    label: String,
    #[serde(default)]
    raw: String,
    #[serde(default)]
    metrics: Option<Value>,
}

impl PromptHead {
    pub fn part(&self) -> String {
        let prompt = if self.label.is_empty() {
            &self.raw
        } else {
            &self.label
        };
        format!("[{}] {prompt}", self.provider)
    }
}

/// The entries of `results.prompts` in the first bytes of an output document (it comes before
/// the results, so a long file's first 64 KiB hold it).
pub fn prompt_heads(head: &[u8]) -> Vec<PromptHead> {
    let text = String::from_utf8_lossy(head);
    let Some(at) = text.find("\"prompts\"") else {
        return Vec::new();
    };
    let Some(open) = text[at..].find('[') else {
        return Vec::new();
    };
    let mut de = serde_json::Deserializer::from_str(&text[at + open..]);
    Vec::<PromptHead>::deserialize(&mut de).unwrap_or_default()
}

#[derive(Deserialize)]
struct Document<'a> {
    #[serde(borrow)]
    results: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Results<'a> {
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    prompts: Vec<PromptHead>,
    #[serde(borrow)]
    results: Option<&'a RawValue>,
}

/// Per-run sums over the files of a run, reported when the run ends.
#[derive(Default)]
pub struct Tally {
    /// Whether one part was read (its figures cover the run) or every part (each its own scope).
    selected: bool,
    parts: Vec<PartTally>,
}

struct PartTally {
    name: String,
    score: (f64, u64),
    named: Vec<(String, f64, u64)>,
}

impl Tally {
    fn add(&mut self, row: &Row) {
        let at = match self.parts.iter().position(|p| p.name == row.part) {
            Some(at) => at,
            None => {
                self.parts.push(PartTally {
                    name: row.part.clone(),
                    score: (0.0, 0),
                    named: Vec::new(),
                });
                self.parts.len() - 1
            }
        };
        let p = &mut self.parts[at];
        if let Some(s) = row.score {
            p.score.0 += s;
            p.score.1 += 1;
        }
        for (k, v) in &row.named {
            match p.named.iter_mut().find(|(n, _, _)| n == k) {
                Some(e) => {
                    e.1 += v;
                    e.2 += 1;
                }
                None => p.named.push((k.clone(), *v, 1)),
            }
        }
    }

    pub fn report(self, sink: &mut dyn Sink) {
        for p in self.parts {
            let scope = if self.selected {
                String::new()
            } else {
                p.name.clone()
            };
            let mut put = |name: String, value: f64, note: &str| {
                sink.reported(Reported {
                    source: "scorelens".to_string(),
                    name,
                    scope: scope.clone(),
                    value,
                    note: note.to_string(),
                })
            };
            if p.score.1 > 0 {
                put("score".into(), p.score.0 / p.score.1 as f64, "mean of promptfoo's per-test score (its weighted assertion score) over the tests");
            }
            for (k, sum, n) in p.named {
                put(format!("namedScores.{k}"), sum / n as f64, "mean of the named score over the tests that have it, as promptfoo's view shows it");
            }
        }
    }
}

pub struct PromptfooReader {
    file: String,
    part: Option<String>,
    group_by: Option<String>,
    buffer: Vec<u8>,
}

impl PromptfooReader {
    pub fn new(file: &str, part: Option<&str>, group_by: Option<&str>) -> Self {
        PromptfooReader {
            file: file.to_string(),
            part: part.map(str::to_string),
            group_by: group_by.map(str::to_string),
            buffer: Vec::new(),
        }
    }
}

impl Reader for PromptfooReader {
    fn feed(&mut self, chunk: &[u8], _sink: &mut dyn Sink) {
        self.buffer.extend_from_slice(chunk);
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let buffer = std::mem::take(&mut self.buffer);
        let body = buffer
            .strip_prefix(crate::formats::lines::BOM)
            .unwrap_or(&buffer);
        let mut file = FileState {
            file: &self.file,
            part: self.part.as_deref(),
            errored: 0,
            other_parts: 0,
            group_by: self.group_by.as_deref(),
            groups: Vec::new(),
            no_var: 0,
        };
        let text = body.trim_ascii_start();
        if !(text.starts_with(b"{") || text.starts_with(b"[")) {
            sink.meta(Meta::FormatVersion, "promptfoo results (CSV export)");
            super::csv::read(body, &mut file, sink);
        } else if first_keys(body).iter().any(|k| k == "evalId") {
            let version = document(body, &mut file, sink);
            sink.meta(Meta::FormatVersion, &version);
        } else {
            sink.meta(Meta::FormatVersion, "promptfoo results (JSON Lines export)");
            each_line(body, &mut |n, b| file.row(n, b, sink));
        }
        file.summarise(sink);
    }
}

/// Reads the output document; its version line.
fn document(body: &[u8], file: &mut FileState, sink: &mut dyn Sink) -> String {
    let results = serde_json::from_slice::<Document>(body)
        .map_err(|e| (error_line(&e), short_error(&e)))
        .and_then(|d| d.results.ok_or((None, "no `results` object".to_string())))
        .and_then(|r| {
            serde_json::from_str::<Results>(r.get())
                .map_err(|e| (None, format!("`results`: {}", short_error(&e))))
        });
    let results = match results {
        Ok(r) => r,
        Err((line, why)) => {
            let why = format!("not a promptfoo results document: {why}; nothing in it is scored");
            sink.skip(Warning::new(file.file, line, why));
            return "promptfoo results".to_string();
        }
    };
    let version = match results.version {
        Some(v) => format!("promptfoo results v{v} (JSON)"),
        None => "promptfoo results (JSON)".to_string(),
    };
    if results.version.is_some_and(|v| v < 3) {
        let why =
            "results written before format version 3 (promptfoo 0.60): its rows may lack testIdx";
        sink.warn(Warning::new(file.file, None, why));
    }
    for p in &results.prompts {
        file.tool_figures(p, sink);
    }
    let Some(rows) = results.results else {
        sink.skip(Warning::new(
            file.file,
            None,
            "`results.results` is missing: no test results to score",
        ));
        return version;
    };
    if let ArrayEnd::Broken(e) | ArrayEnd::Trailing(e) =
        each_in(body, rows, &mut |n, b| file.row(n, b, sink))
    {
        let why = format!(
            "`results.results` is malformed here, so the rest is lost: {}",
            short_error(&e)
        );
        sink.skip(Warning::new(file.file, None, why));
    }
    version
}

pub(super) struct FileState<'a> {
    pub(super) file: &'a str,
    pub(super) part: Option<&'a str>,
    errored: u64,
    pub(super) other_parts: u64,
    /// The var whose value is each test's group (`--group-by VAR`).
    group_by: Option<&'a str>,
    /// The groups seen, each name shared by its items.
    groups: Vec<std::sync::Arc<str>>,
    /// Tests without the var.
    no_var: u64,
}

impl FileState<'_> {
    fn row(&mut self, n: u64, bytes: &[u8], sink: &mut dyn Sink) {
        if sink.stopped() {
            return;
        }
        let skip =
            |sink: &mut dyn Sink, why: String| sink.skip(Warning::new(self.file, Some(n), why));
        let value: Value = match serde_json::from_slice(bytes) {
            Ok(v) => v,
            Err(e) => return skip(sink, format!("not valid JSON: {}", short_error(&e))),
        };
        if !value.is_object() {
            return skip(
                sink,
                format!("expected a result object, found {}", kind(&value)),
            );
        }
        let row = match Row::read(&value) {
            Ok(r) => r,
            Err(why) => return skip(sink, why),
        };
        if self.part.is_some_and(|p| p != row.part) {
            self.other_parts += 1;
            return sink.meta(Meta::NotApplicable, "a result of another provider × prompt");
        }
        if value.get("score").is_some_and(|s| !s.is_number()) {
            let why = "`score` is not a number: the test is scored, and left out of the mean score";
            sink.warn(Warning::new(self.file, Some(n), why));
        }
        self.take(row, n, sink);
    }

    /// One test of the run: counted in the run's figures and handed on as an item.
    pub(super) fn take(&mut self, row: Row, n: u64, sink: &mut dyn Sink) {
        let shelf = sink.shelf().get::<Tally>();
        shelf.selected = self.part.is_some();
        shelf.add(&row);
        self.errored += u64::from(row.errored);
        let id = match self.part {
            Some(_) => row.test.to_string(),
            None => format!("{} {}", row.part, row.test),
        };
        let group = self.group_by.and_then(|var| {
            let Some((_, value)) = row.vars.iter().find(|(k, _)| k == var) else {
                self.no_var += 1;
                return None;
            };
            Some(match self.groups.iter().find(|g| ***g == **value) {
                Some(g) => g.clone(),
                None => {
                    let g: std::sync::Arc<str> = value.as_str().into();
                    self.groups.push(g.clone());
                    g
                }
            })
        });
        sink.item(Item {
            id: id.as_str().into(),
            line: Some(n),
            group,
            tier: None,
            split: None,
            modality: None,
            cluster: None,
            body: Body::Graded {
                credit: if row.success { 1.0 } else { 0.0 },
                gold: row.description,
                answer: row.answer,
            },
        });
    }

    /// The run's model: the provider of the selected `[provider] prompt`.
    pub(super) fn name_model(&self, sink: &mut dyn Sink) {
        if let Some(s) = self.part {
            let provider = s
                .strip_prefix('[')
                .and_then(|s| s.split_once("] "))
                .map_or(s, |(m, _)| m);
            sink.meta(Meta::Model, provider);
        }
    }

    /// promptfoo's own figures for one provider × prompt (`results.prompts[].metrics`).
    fn tool_figures(&self, p: &PromptHead, sink: &mut dyn Sink) {
        let part = p.part();
        if self.part.is_some_and(|s| s != part) {
            return;
        }
        self.name_model(sink);
        let Some(Value::Object(m)) = &p.metrics else {
            return;
        };
        let scope = if self.part.is_some() {
            String::new()
        } else {
            part
        };
        let mut put = |name: String, value: f64, note: &str| {
            sink.reported(Reported {
                source: "promptfoo".to_string(),
                name,
                scope: scope.clone(),
                value,
                note: note.to_string(),
            })
        };
        for (k, note) in [
            ("testPassCount", "tests passed: scorelens' correct items"),
            ("testFailCount", "tests failed, errors not included"),
            (
                "testErrorCount",
                "tests errored: scorelens counts them wrong, with no answer",
            ),
            ("score", "sum of the per-test scores"),
            ("assertPassCount", ""),
            ("assertFailCount", ""),
        ] {
            if let Some(v) = m.get(k).and_then(Value::as_f64) {
                put(k.to_string(), v, note);
            }
        }
        if let Some(Value::Object(named)) = m.get("namedScores") {
            for (k, v) in named {
                if let Some(v) = v.as_f64() {
                    put(
                        format!("namedScores.{k}"),
                        v,
                        "sum of the named score over the tests that have it",
                    );
                }
            }
        }
    }

    fn summarise(&self, sink: &mut dyn Sink) {
        let lines: &[&str] = &[
            "items: one per test (id: its testIdx, the same for every provider × prompt)",
            "correct: promptfoo's success (every assertion passed); accuracy only, no probabilities",
            "score and namedScores: kept as figures, the mean over the tests, beside promptfoo's sums",
        ];
        for l in lines {
            sink.meta(Meta::Mapping, l);
        }
        match self.part {
            Some(p) => sink.meta(Meta::Mapping, &format!("run: the results of {p}")),
            None => sink.meta(
                Meta::Mapping,
                "runs: every provider × prompt, ids prefixed with `[provider] prompt`",
            ),
        }
        if self.errored > 0 {
            let what = if self.errored == 1 {
                "result"
            } else {
                "results"
            };
            let why = format!("{} {what} errored (promptfoo counts errors apart from failures): scored as wrong, with no answer", self.errored);
            sink.warn(Warning::new(self.file, None, why));
        }
        if let Some(var) = self.group_by {
            sink.meta(Meta::Mapping, &format!("groups: the test var `{var}`"));
            if self.no_var > 0 {
                let tests = if self.no_var == 1 {
                    "test has"
                } else {
                    "tests have"
                };
                let why = format!(
                    "{} {tests} no var `{var}`: {} in no group",
                    self.no_var,
                    if self.no_var == 1 {
                        "it is"
                    } else {
                        "they are"
                    }
                );
                sink.warn(Warning::new(self.file, None, why));
            }
        }
    }
}
