//! OpenAI Evals API output items (`/evals/{eval_id}/runs/{run_id}/output_items`): each run id is
//! a run, each `datasource_item_id` an item that passes when the API's `status` is `pass`, and
//! each grader a figure (its pass rate and mean score) beside ours.
//!
//! Items come as the API returns them: a page (`{"object": "list", "data": […]}`), a JSON array or
//! JSON Lines; the pages of one run join into one run by its id, and so does the run object
//! (`eval.run`) dropped beside them, which names the run and brings the API's own counts.

mod read;
mod tally;

use crate::formats::{first_keys, Format, Part, ReadOptions, Reader, Sink};

/// The Evals API format.
pub struct EvalsApi;

const ITEM: &str = "\"eval.run.output_item\"";

/// Whether `text` has `"object"` set to `value` (a quoted JSON string), whatever the spacing.
fn object_is(text: &str, value: &str) -> bool {
    text.match_indices("\"object\"").any(|(at, k)| {
        let rest = text[at + k.len()..].trim_start();
        rest.strip_prefix(':')
            .is_some_and(|r| r.trim_start().starts_with(value))
    })
}

/// The string values of `key` in `text`, in order, each once.
fn values_of(text: &str, key: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (at, k) in text.match_indices(key) {
        let rest = text[at + k.len()..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else {
            continue;
        };
        let mut de = serde_json::Deserializer::from_str(rest.trim_start());
        if let Ok(v) = <String as serde::Deserialize>::deserialize(&mut de) {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

impl Format for EvalsApi {
    fn name(&self) -> &'static str {
        "evals-api"
    }

    fn describe(&self) -> &'static str {
        "OpenAI Evals API output items (a page, an array or JSON Lines) and run objects: one run per run id, a figure per grader"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        let text = String::from_utf8_lossy(head);
        let item =
            has("object") && has("datasource_item_id") && has("results") && object_is(&text, ITEM);
        let page = has("object") && has("data") && object_is(&text, ITEM);
        let run = has("object") && has("eval_id") && object_is(&text, "\"eval.run\"");
        (item || page || run).then_some(30)
    }

    fn parts(&self, _path: &str, head: &[u8]) -> Vec<Part> {
        let text = String::from_utf8_lossy(head);
        if object_is(&text, "\"eval.run\"") && !object_is(&text, ITEM) {
            // A run object: its `id` is the run id and `name` the run's own name.
            let v: serde_json::Value = serde_json::from_slice(head).unwrap_or_default();
            let Some(id) = v.get("id").and_then(|i| i.as_str()) else {
                return Vec::new();
            };
            let name = v
                .get("name")
                .and_then(|n| n.as_str())
                .filter(|n| !n.is_empty());
            return vec![Part {
                key: format!("evals-api:{id}"),
                name: name.unwrap_or(id).to_string(),
                named: name.is_some(),
                select: id.to_string(),
            }];
        }
        values_of(&text, "\"run_id\"")
            .into_iter()
            .map(|id| Part {
                key: format!("evals-api:{id}"),
                name: id.clone(),
                named: false,
                select: id,
            })
            .collect()
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        self.reader_with(file, &ReadOptions::default())
    }

    fn reader_with(&self, file: &str, options: &ReadOptions) -> Box<dyn Reader> {
        Box::new(read::EvalsApiReader::new(file, options.part.as_deref()))
    }

    fn end_run(&self, sink: &mut dyn Sink) {
        if let Some(tally) = sink.shelf().take::<tally::Tally>() {
            tally.report(sink);
        }
    }
}
