//! Inspect AI logs (format version 2): a `.json` EvalLog with its samples inline, or a `.eval` ZIP
//! archive of `header.json` and `samples/*.json` (or only `summaries.json`).
//!
//! Both are single documents, so the reader buffers the file and reads it at `finish`. One item per
//! sample: the answer is the scorer's `answer`, the credit its `value` (C 1, P 0.5, I/N 0,
//! numbers), epochs are reduced by the mean, and the per-option probabilities are read at the
//! answer-letter token's `top_logprobs`. Inspect's own metrics are shown beside ours.

pub mod eval;
pub mod json;
pub mod reduce;
pub mod sample;

use crate::formats::json::Val;
use crate::formats::non_finite::sanitize;
use crate::formats::{first_keys, Format, Meta, ReadOptions, Reader, Sink};
use crate::reported::Reported;
use crate::warning::Warning;
use eval::{Archive, LIMITS, MAGIC};
use json::{parse, Log, Sample};
use reduce::Collector;

/// The Inspect log format.
pub struct Inspect;

impl Format for Inspect {
    fn name(&self) -> &'static str {
        "inspect"
    }

    fn describe(&self) -> &'static str {
        "Inspect AI log: .eval archive (zstd or DEFLATE) or .json EvalLog; scorer answers and values, logprobs, epochs"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        if head.starts_with(MAGIC) {
            return first_entry(head)
                .filter(|n| {
                    ["header.json", "summaries.json", "reductions.json"].contains(n)
                        || n.starts_with("_journal/")
                        || n.starts_with("samples/")
                })
                .map(|_| 10);
        }
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        (has("version") && has("eval") && (has("samples") || has("results") || has("plan")))
            .then_some(10)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        self.reader_with(file, &ReadOptions::default())
    }

    fn reads_fields(&self) -> bool {
        true
    }

    fn reader_with(&self, file: &str, options: &ReadOptions) -> Box<dyn Reader> {
        Box::new(InspectReader {
            file: file.to_string(),
            bytes: Vec::new(),
            cluster_field: options.cluster_field.clone(),
        })
    }
}

/// The name in the archive's first local file header.
fn first_entry(head: &[u8]) -> Option<&str> {
    let len = usize::from(u16::from_le_bytes([*head.get(26)?, *head.get(27)?]));
    std::str::from_utf8(head.get(30..30 + len)?).ok()
}

/// Buffers one log and reads it whole.
pub struct InspectReader {
    file: String,
    bytes: Vec<u8>,
    /// The user's cluster field: a key of each sample's `metadata`.
    cluster_field: Option<std::sync::Arc<str>>,
}

impl Reader for InspectReader {
    fn feed(&mut self, chunk: &[u8], _sink: &mut dyn Sink) {
        self.bytes.extend_from_slice(chunk);
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let bytes = std::mem::take(&mut self.bytes);
        if bytes.starts_with(MAGIC) {
            read_archive(&self.file, &bytes, self.collector(), sink);
        } else {
            read_json(&self.file, &bytes, self.collector(), sink);
        }
    }
}

impl InspectReader {
    fn collector(&self) -> Collector {
        let mut collector = Collector::default();
        collector.cluster_field = self.cluster_field.clone();
        collector
    }
}

fn read_json(file: &str, bytes: &[u8], mut collector: Collector, sink: &mut dyn Sink) {
    let clean = sanitize(bytes);
    let log: Log = match parse(&clean) {
        Ok(log) => log,
        Err(why) => return sink.skip(Warning::new(file, None, why)),
    };
    let scorer = header(file, &log, ".json", sink);
    let samples = log.samples.as_deref().unwrap_or(&[]);
    if samples.is_empty() {
        let why = "the log holds no samples (was it written with --no-log-samples?)";
        return sink.skip(Warning::new(file, None, why));
    }
    let scorer = scorer.or_else(|| first_scorer(samples)).unwrap_or_default();
    for (n, sample) in samples.iter().enumerate() {
        collector.add(sample, &scorer, &format!("samples[{n}]"), file, sink);
    }
    finish(file, collector, &scorer, true, sink);
}

fn read_archive(file: &str, bytes: &[u8], mut collector: Collector, sink: &mut dyn Sink) {
    let mut archive = match Archive::open(bytes, LIMITS) {
        Ok(a) => a,
        Err(why) => return sink.skip(Warning::new(file, None, why)),
    };
    let names = archive.names();
    let entry = |archive: &mut Archive, name: &str, sink: &mut dyn Sink| {
        archive
            .read(name)
            .map_err(|why| sink.skip(Warning::new(file, None, format!("entry `{name}`: {why}"))))
            .ok()
    };
    // header.json is written when the run ends; an unfinished run has only the journal's start.
    let head_name = ["header.json", "_journal/start.json"]
        .into_iter()
        .find(|n| archive.has(n));
    let head_bytes = head_name.and_then(|n| entry(&mut archive, n, sink));
    let mut scorer = None;
    match (head_name, head_bytes.as_deref().map(sanitize)) {
        (Some(name), Some(clean)) => match parse::<Log>(&clean) {
            Ok(log) => {
                if name != "header.json" {
                    let why = "no header.json (the run did not finish): read the journal's start.json instead";
                    sink.warn(Warning::new(file, None, why));
                }
                scorer = header(file, &log, ".eval", sink);
            }
            Err(why) => sink.warn(Warning::new(file, None, format!("entry `{name}`: {why}"))),
        },
        (None, _) => sink.warn(Warning::new(
            file,
            None,
            "the archive has no header.json: model, task and Inspect's own metrics are unknown",
        )),
        _ => {}
    }
    let samples: Vec<&String> = names.iter().filter(|n| is_sample(n)).collect();
    let mut with_outputs = true;
    if samples.is_empty() {
        // summaries.json holds every sample's scores but no `output`, hence no logprobs.
        let lists: Vec<&String> = match names.iter().find(|n| *n == "summaries.json") {
            Some(s) => vec![s],
            None => names
                .iter()
                .filter(|n| n.starts_with("_journal/summaries/"))
                .collect(),
        };
        if lists.is_empty() {
            // A log still being written holds only `_journal/start.json` until a sample ends.
            let why = if head_name == Some("_journal/start.json") {
                "the log is still being written: no sample has finished yet (it holds only \
                 _journal/); drop it again once samples have finished or the run has ended"
            } else {
                "the archive has neither samples/*.json nor summaries.json: nothing to score"
            };
            return sink.skip(Warning::new(file, None, why));
        }
        with_outputs = false;
        for name in lists {
            let Some(raw) = entry(&mut archive, name, sink) else {
                continue;
            };
            let clean = sanitize(&raw);
            match parse::<Vec<Sample>>(&clean) {
                Ok(list) => {
                    let scorer = scorer
                        .get_or_insert_with(|| first_scorer(&list).unwrap_or_default())
                        .clone();
                    for (n, s) in list.iter().enumerate() {
                        collector.add(s, &scorer, &format!("{name}[{n}]"), file, sink);
                    }
                }
                Err(why) => sink.skip(Warning::new(file, None, format!("entry `{name}`: {why}"))),
            }
        }
    }
    for name in samples {
        let Some(raw) = entry(&mut archive, name, sink) else {
            continue;
        };
        let clean = sanitize(&raw);
        match parse::<Sample>(&clean) {
            Ok(s) => {
                let scorer = scorer
                    .get_or_insert_with(|| {
                        first_scorer(std::slice::from_ref(&s)).unwrap_or_default()
                    })
                    .clone();
                collector.add(&s, &scorer, name, file, sink);
            }
            Err(why) => sink.skip(Warning::new(file, None, format!("entry `{name}`: {why}"))),
        }
    }
    let methods = archive.methods();
    sink.meta(
        Meta::Mapping,
        &format!("archive entries compressed with {methods}"),
    );
    finish(
        file,
        collector,
        &scorer.unwrap_or_default(),
        with_outputs,
        sink,
    );
}

/// A sample entry: `samples/<id>_epoch_<n>.json`, or the chunked layout's `samples/<dir>/sample.json`.
fn is_sample(name: &str) -> bool {
    match name.strip_prefix("samples/") {
        Some(rest) => match rest.split_once('/') {
            None => rest.ends_with(".json"),
            Some((_, inner)) => inner == "sample.json",
        },
        None => false,
    }
}

/// Reports the header's facts and Inspect's own metrics; returns the scorer to read.
fn header(file: &str, log: &Log, container: &str, sink: &mut dyn Sink) -> Option<String> {
    let eval = log.eval.as_ref();
    if let Some(model) = eval.and_then(|e| e.model.as_deref()) {
        sink.meta(Meta::Model, model);
    }
    let inspect = eval
        .and_then(|e| e.packages.as_ref())
        .and_then(|p| match p.get("inspect_ai") {
            Some(Val::Str(v)) => Some(format!(", inspect_ai {v}")),
            _ => None,
        })
        .unwrap_or_default();
    let version = log.version.map_or("?".to_string(), |v| v.to_string());
    sink.meta(
        Meta::FormatVersion,
        &format!("log v{version} {container}{inspect}"),
    );
    if let Some(task) = eval.and_then(|e| e.task.as_deref()) {
        sink.meta(Meta::Mapping, &format!("task `{task}`"));
    }
    match log.status.as_deref() {
        Some("success") | None => {}
        Some(status) => sink.warn(Warning::new(
            file,
            None,
            format!("the run's status is `{status}`, not success: samples may be missing"),
        )),
    }
    let results = log.results.as_ref()?;
    let scorer = results
        .headline
        .as_ref()
        .and_then(|h| h.score.as_deref())
        .or_else(|| results.scores.first().map(|s| s.name.as_ref()))?
        .to_string();
    for score in &results.scores {
        let reducer = score.reducer.as_deref();
        if score.name == scorer.as_str() {
            if let Some(r) = reducer.filter(|r| *r != "mean") {
                sink.warn(Warning::new(file, None, format!(
                    "Inspect reduced epochs with `{r}`; scorelens reduces them by the mean, so its accuracy may differ from Inspect's"
                )));
            }
        }
        let Some(Val::Map(metrics)) = &score.metrics else {
            continue;
        };
        for (name, metric) in metrics {
            let Some(value) = metric.get("value").and_then(Val::as_f64) else {
                continue;
            };
            let note = match (name.as_ref(), score.name == scorer.as_str()) {
                ("accuracy", true) => format!(
                    "mean of the scorer's values over samples{}; equals scorelens accuracy when every sample is scored",
                    reducer.map(|r| format!(" after the `{r}` epoch reducer")).unwrap_or_default()
                ),
                _ => "Inspect's own figure".to_string(),
            };
            sink.reported(Reported {
                source: "Inspect".to_string(),
                name: name.to_string(),
                scope: score.name.to_string(),
                value,
                note,
            });
        }
    }
    Some(scorer)
}

/// The first scorer named in the samples' `scores`, when the header names none.
fn first_scorer(samples: &[Sample]) -> Option<String> {
    samples.iter().find_map(|s| match &s.scores {
        Some(Val::Map(m)) => m.first().map(|(k, _)| k.to_string()),
        _ => None,
    })
}

fn finish(file: &str, mut collector: Collector, scorer: &str, outputs: bool, sink: &mut dyn Sink) {
    collector.finish(file, sink);
    sink.meta(Meta::Mapping, &format!(
        "one item per sample; answer = scorer `{scorer}`'s answer, credit = its value (C 1, P 0.5, I 0, N 0 and invalid, numbers as given)"
    ));
    if outputs {
        sink.meta(Meta::Mapping, "probabilities: exp of the answer-letter token's top_logprobs, letter case and spaces merged; options outside the top-N count 0 (outside mass)");
    } else {
        sink.meta(
            Meta::Mapping,
            "read from summaries.json, which has no model output: no probabilities",
        );
    }
    if collector.multi_epoch > 0 {
        sink.meta(Meta::Mapping, &format!(
            "{} with several epochs: credit = mean over epochs (Inspect's default reducer), graded without probabilities",
            plural(collector.multi_epoch, "sample", "samples")
        ));
    }
    if collector.unscored > 0 {
        sink.meta(
            Meta::Mapping,
            &format!(
                "{} unscored by the scorer (NaN) left out, as Inspect does",
                plural(collector.unscored, "epoch", "epochs")
            ),
        );
    }
}

/// "1 epoch", "2 epochs".
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
