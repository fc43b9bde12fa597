//! Reading Evals API files whole: a page of output items, a JSON array or JSON Lines of them, or
//! a run object, each item checked and turned into a graded item.

use super::tally::Tally;
use crate::formats::json::{each_element, short_error, ArrayEnd};
use crate::formats::rows::{each_in, each_line, error_line};
use crate::formats::{first_keys, Meta, Reader, Sink};
use crate::items::{Body, Item};
use crate::warning::Warning;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

#[derive(Deserialize)]
struct Page<'a> {
    #[serde(borrow)]
    data: &'a RawValue,
}

pub struct EvalsApiReader {
    file: String,
    part: Option<String>,
    buffer: Vec<u8>,
    errored: u64,
    items: u64,
}

impl EvalsApiReader {
    pub fn new(file: &str, part: Option<&str>) -> Self {
        EvalsApiReader {
            file: file.to_string(),
            part: part.map(str::to_string),
            buffer: Vec::new(),
            errored: 0,
            items: 0,
        }
    }
}

impl Reader for EvalsApiReader {
    fn feed(&mut self, chunk: &[u8], _sink: &mut dyn Sink) {
        self.buffer.extend_from_slice(chunk);
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let buffer = std::mem::take(&mut self.buffer);
        let body = buffer
            .strip_prefix(crate::formats::lines::BOM)
            .unwrap_or(&buffer);
        sink.shelf().get::<Tally>().selected = self.part.is_some();
        let keys = first_keys(body);
        let has = |k: &str| keys.iter().any(|x| x == k);
        let layout = if body.trim_ascii_start().starts_with(b"[") {
            let end = each_element(body, &mut |_, n, b| self.row(n, b, sink));
            if let ArrayEnd::Broken(e) | ArrayEnd::Trailing(e) = end {
                self.broken("the JSON array", &e, sink);
            }
            "output items (JSON array)"
        } else if has("data") && !has("datasource_item_id") {
            match serde_json::from_slice::<Page>(body) {
                Ok(page) => {
                    let end = each_in(body, page.data, &mut |n, b| self.row(n, b, sink));
                    if let ArrayEnd::Broken(e) | ArrayEnd::Trailing(e) = end {
                        self.broken("`data`", &e, sink);
                    }
                }
                Err(e) => {
                    let why = format!(
                        "not a page of output items: {}; nothing in it is scored",
                        short_error(&e)
                    );
                    sink.skip(Warning::new(&self.file, error_line(&e), why));
                }
            }
            "a page of output items"
        } else if has("eval_id") && !has("datasource_item_id") {
            self.run_object(body, sink);
            "run object"
        } else {
            each_line(body, &mut |n, b| self.row(n, b, sink));
            "output items (JSON Lines)"
        };
        sink.meta(Meta::FormatVersion, &format!("Evals API {layout}"));
        if self.items > 0 {
            for l in [
                "items: one per datasource_item_id; correct when the API's status is pass (every grader passed)",
                "graders: each result's passed and score kept per grader name, as a pass rate and a mean score",
            ] {
                sink.meta(Meta::Mapping, l);
            }
            match &self.part {
                Some(p) => sink.meta(Meta::Mapping, &format!("run: the items of run {p}")),
                None => sink.meta(
                    Meta::Mapping,
                    "runs: every run id, ids prefixed with the run id",
                ),
            }
        }
        if self.errored > 0 {
            let what = if self.errored == 1 {
                "sample"
            } else {
                "samples"
            };
            let why = format!("{} {what} errored (the API counts them apart from the failures): scored as wrong, with no answer", self.errored);
            sink.warn(Warning::new(&self.file, None, why));
        }
    }
}

impl EvalsApiReader {
    fn broken(&self, what: &str, e: &serde_json::Error, sink: &mut dyn Sink) {
        let why = format!(
            "{what} is malformed here, so the rest is lost: {}",
            short_error(e)
        );
        sink.skip(Warning::new(&self.file, error_line(e), why));
    }

    fn row(&mut self, n: u64, bytes: &[u8], sink: &mut dyn Sink) {
        if sink.stopped() {
            return;
        }
        let skip =
            |sink: &mut dyn Sink, why: String| sink.skip(Warning::new(&self.file, Some(n), why));
        let v: Value = match serde_json::from_slice(bytes) {
            Ok(v) => v,
            Err(e) => return skip(sink, format!("not valid JSON: {}", short_error(&e))),
        };
        let text = |k: &str| v.get(k).and_then(Value::as_str);
        if text("object") != Some("eval.run.output_item") {
            return skip(
                sink,
                "not an output item (`object` is not eval.run.output_item)".into(),
            );
        }
        let Some(run) = text("run_id") else {
            return skip(sink, "an output item without a string `run_id`".into());
        };
        let item = match v.get("datasource_item_id") {
            Some(Value::Number(x)) if x.is_u64() || x.is_i64() => x.to_string(),
            Some(Value::String(s)) => s.clone(),
            _ => {
                return skip(
                    sink,
                    "an output item without an integer `datasource_item_id`".into(),
                )
            }
        };
        let Some(status) = text("status") else {
            return skip(sink, "an output item without a string `status`".into());
        };
        if self.part.as_deref().is_some_and(|p| p != run) {
            return sink.meta(Meta::NotApplicable, "an output item of another run");
        }
        let sample = v.get("sample");
        let error = sample
            .and_then(|s| s.get("error"))
            .and_then(|e| e.get("code"))
            .and_then(Value::as_str)
            .is_some_and(|c| !c.is_empty());
        let errored = status == "error" || error;
        let mut graders = Vec::new();
        match v.get("results") {
            Some(Value::Array(rs)) => {
                for (i, r) in rs.iter().enumerate() {
                    let name = r.get("name").and_then(Value::as_str);
                    match (name, r.get("passed").and_then(Value::as_bool)) {
                        (Some(name), Some(passed)) => graders.push((
                            name.to_string(),
                            passed,
                            r.get("score").and_then(Value::as_f64),
                        )),
                        _ => {
                            let why = format!("grader result {} has no string `name` and boolean `passed`: left out of the grader figures", i + 1);
                            sink.warn(Warning::new(&self.file, Some(n), why));
                        }
                    }
                }
            }
            Some(Value::Null) | None => {}
            Some(_) => {
                let why = "`results` is not a list: left out of the grader figures";
                sink.warn(Warning::new(&self.file, Some(n), why));
            }
        }
        let answer = sample
            .filter(|_| !errored)
            .and_then(|s| s.get("output"))
            .and_then(|o| o.get(0))
            .and_then(|m| m.get("content"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let tally = sink.shelf().get::<Tally>().run(run);
        match (errored, status == "pass") {
            (true, _) => tally.errored += 1,
            (false, true) => tally.passed += 1,
            (false, false) => tally.failed += 1,
        }
        if !errored {
            for (name, passed, score) in graders {
                let at = match tally.graders.iter().position(|g| g.0 == name) {
                    Some(at) => at,
                    None => {
                        tally.graders.push((name, 0, 0, 0.0, 0));
                        tally.graders.len() - 1
                    }
                };
                let g = &mut tally.graders[at];
                g.1 += 1;
                g.2 += u64::from(passed);
                if let Some(s) = score {
                    g.3 += s;
                    g.4 += 1;
                }
            }
        }
        self.items += 1;
        self.errored += u64::from(errored);
        let id = match self.part {
            Some(_) => item,
            None => format!("{run}/{item}"),
        };
        let gold = v
            .get("datasource_item")
            .map(|d| short(&d.to_string()))
            .unwrap_or_default();
        sink.item(Item {
            id: id.as_str().into(),
            line: Some(n),
            group: None,
            tier: None,
            split: None,
            modality: None,
            cluster: None,
            body: Body::Graded {
                credit: if status == "pass" && !errored {
                    1.0
                } else {
                    0.0
                },
                gold,
                answer,
            },
        });
    }

    /// A run object (`eval.run`): the model, and the API's counts beside ours.
    fn run_object(&mut self, body: &[u8], sink: &mut dyn Sink) {
        let v: Value = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => {
                let why = format!("not valid JSON: {}", short_error(&e));
                return sink.skip(Warning::new(&self.file, error_line(&e), why));
            }
        };
        let Some(id) = v.get("id").and_then(Value::as_str) else {
            return sink.skip(Warning::new(
                &self.file,
                None,
                "a run object without a string `id`",
            ));
        };
        sink.meta(Meta::NotApplicable, "a run object");
        if self.part.as_deref().is_some_and(|p| p != id) {
            return;
        }
        if let Some(model) = v.get("model").and_then(Value::as_str) {
            sink.meta(Meta::Model, model);
        }
        sink.meta(Meta::Mapping, "run object: names the run; its result_counts and per_testing_criteria_results are shown beside ours");
        let mut api = Vec::new();
        if let Some(Value::Object(counts)) = v.get("result_counts") {
            for (k, x) in counts {
                if let Some(x) = x.as_f64() {
                    api.push((format!("result_counts.{k}"), x));
                }
            }
        }
        if let Some(Value::Array(cs)) = v.get("per_testing_criteria_results") {
            for c in cs {
                let name = c.get("testing_criteria").and_then(Value::as_str);
                let count = |k: &str| c.get(k).and_then(Value::as_f64);
                if let (Some(name), Some(p), Some(f)) = (name, count("passed"), count("failed")) {
                    api.push((format!("{name} passed"), p));
                    api.push((format!("{name} failed"), f));
                    if p + f > 0.0 {
                        api.push((format!("{name} pass rate"), p / (p + f)));
                    }
                }
            }
        }
        sink.shelf().get::<Tally>().run(id).api.extend(api);
    }
}

/// A datasource item for display: at most 200 characters of its JSON.
fn short(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
