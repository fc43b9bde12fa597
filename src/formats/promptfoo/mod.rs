//! promptfoo results (`promptfoo eval -o results.json`, and its `.jsonl` export): each provider ×
//! prompt is a run, each test an item whose correctness is promptfoo's `success`.
//!
//! One file holds every provider × prompt of an eval, so the file offers one part per pair
//! (`Format::parts`), named as promptfoo's own table heads them (`[provider] prompt`); the item
//! id is the test's index, the same across the pairs, so that compare and the leaderboard join
//! the runs on the test. `score` and the named scores are kept as figures beside ours.

mod csv;
mod read;
mod row;

use crate::formats::{first_keys, Format, Part, ReadOptions, Reader};
use row::Row;

/// The promptfoo format.
pub struct Promptfoo;

impl Format for Promptfoo {
    fn name(&self) -> &'static str {
        "promptfoo"
    }

    fn describe(&self) -> &'static str {
        "promptfoo results (eval -o results.json, or .jsonl): one run per provider × prompt, accuracy from success"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        let text = String::from_utf8_lossy(head);
        // The output file: `{"evalId": …, "results": {"version": 3, …, "prompts": …}}`.
        let document = has("evalId") && has("results") && text.contains("\"prompts\"");
        // A JSON Lines export: one EvaluateResult a line (keys in promptfoo's order, so that
        // `success` and `testIdx` come past the first twelve).
        let line = has("promptIdx") && has("provider") && (has("promptId") || has("gradingResult"));
        // The CSV export: a header with `[provider] prompt` then `Status`.
        (document || line || csv::is_export(head)).then_some(30)
    }

    fn parts(&self, path: &str, head: &[u8]) -> Vec<Part> {
        let exported = csv::part_names(head);
        let names = if !exported.is_empty() {
            exported
        } else if first_keys(head).iter().any(|k| k == "evalId") {
            read::prompt_heads(head)
                .iter()
                .map(|p| p.part())
                .collect::<Vec<_>>()
        } else {
            let mut names: Vec<String> = Vec::new();
            crate::formats::rows::each_line(head, &mut |_, b| {
                let part = serde_json::from_slice::<serde_json::Value>(b)
                    .ok()
                    .and_then(|v| Row::part_of(&v));
                if let Some(p) = part.filter(|p| !names.contains(p)) {
                    names.push(p);
                }
            });
            names
        };
        names
            .into_iter()
            .enumerate()
            .map(|(i, name)| Part {
                key: format!("promptfoo:{path}#{i:04}"),
                select: name.clone(),
                name,
                named: false,
            })
            .collect()
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        self.reader_with(file, &ReadOptions::default())
    }

    fn reader_with(&self, file: &str, options: &ReadOptions) -> Box<dyn Reader> {
        Box::new(read::PromptfooReader::new(
            file,
            options.part.as_deref(),
            options.group_field.as_deref(),
        ))
    }

    fn reads_group_field(&self) -> bool {
        true
    }

    fn end_run(&self, sink: &mut dyn crate::formats::Sink) {
        if let Some(tally) = sink.shelf().take::<read::Tally>() {
            tally.report(sink);
        }
    }
}
