//! File formats: each reader turns bytes into items and pushes them, with warnings, into a `Sink`.
//!
//! Like ripgrep's searcher and sink, the reader drives: it never hands back a list for someone else
//! to walk again, so a file streams through the metrics in one pass. Readers know their format and
//! nothing about metrics or benchmarks. A format registers itself in `FORMATS`; `detect` asks each
//! one how sure it is that a file is its own.

pub mod canonical;
pub mod cluster_field;
pub mod csv;
pub mod decision_bench;
pub mod evals_api;
pub mod helm;
pub mod inspect;
pub mod jevbench;
pub mod json;
pub mod lighteval;
pub mod lines;
pub mod lm_eval;
pub mod non_finite;
pub mod openai_evals;
pub mod promptfoo;
pub mod rewardbench;
pub mod rows;
pub mod shelf;
pub mod unknown;
pub(crate) mod zip_method;

use crate::items::Item;
use crate::reported::{Reported, TextLengths};
use crate::warning::Warning;
pub use shelf::Shelf;
pub use unknown::unknown_format;

/// File-level facts a reader may find.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meta {
    /// The model that produced the predictions.
    Model,
    /// The benchmark (a profile name) the file names or its layout implies.
    Benchmark,
    /// The format's version or variant as detected, e.g. `0.4.3+` or `eval-set-scores v2`.
    FormatVersion,
    /// One line of how the file maps onto items, e.g. "probabilities: softmax over option
    /// loglikelihoods"; may be sent several times, each adds a line.
    Mapping,
    /// A unit of the file that is neither an item nor an error (another filter's line, a header
    /// event): counted per file as not applicable. The value says what it was.
    NotApplicable,
}

/// Receives what a reader finds, in file order.
pub trait Sink {
    /// A scorable item (it may carry invalid probabilities or an invalid answer).
    fn item(&mut self, item: Item);
    /// An item that belongs to an earlier file of the run, for formats that join files and emit
    /// in `Format::end_run`; `file` names it so that the per-file counts stay right.
    fn item_in(&mut self, file: &str, item: Item);
    /// A data error: the unit at this place could not be scored and is skipped (SPEC §1).
    fn skip(&mut self, warning: Warning);
    /// An output error or a notice; whatever it concerns is still scored.
    fn warn(&mut self, warning: Warning);
    /// A file-level fact such as the model name.
    fn meta(&mut self, key: Meta, value: &str);
    /// A figure the tool itself reported.
    fn reported(&mut self, figure: Reported);
    /// The lengths of a row's response texts, at the end of its file; a sink that computes no
    /// baseline from them ignores them.
    fn lengths(&mut self, _lengths: TextLengths) {}
    /// State kept across the files of one run, for formats whose files only make sense together.
    fn shelf(&mut self) -> &mut Shelf;
    /// Whether the sink wants no more (strict mode met a warning): a reader checks it between
    /// units and stops reading, as ripgrep's searcher stops when its sink says so.
    fn stopped(&self) -> bool {
        false
    }
}

/// A format reader fed the file's bytes in chunks of any size.
pub trait Reader {
    fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink);
    fn finish(&mut self, sink: &mut dyn Sink);
}

/// What a reader is asked beside the bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// A field whose value names an item's cluster (`--cluster FIELD`): a reader that knows the
    /// field reads it into `Item::cluster` in place of the format's own cluster; a dotted name
    /// (`metadata.passage`) walks into objects when no key has the whole name.
    pub cluster_field: Option<std::sync::Arc<str>>,
    /// For a file that holds several runs (`Format::parts`): read only the items of this part
    /// (a `Part::select`); `None` reads every part, each item's id prefixed with its part so
    /// that none collides.
    pub part: Option<String>,
    /// A field whose value names each item's group (`--group-by VAR`), for formats whose items
    /// have named fields and no group of their own (promptfoo's test vars).
    pub group_field: Option<std::sync::Arc<str>>,
}

/// A format scorelens reads.
pub trait Format: Sync {
    /// Short name shown in reports, e.g. `lm-eval`.
    fn name(&self) -> &'static str;
    /// One line for `scorelens formats` and the docs.
    fn describe(&self) -> &'static str;
    /// How sure the format is that the file is its own, from its name and first bytes (at least
    /// the first 64 KiB, or the whole file when shorter): `None` when it is not, else a
    /// confidence, higher winning. Content decides; the name only breaks ties.
    fn sniff(&self, file: &str, head: &[u8]) -> Option<u8>;
    /// A reader for one file.
    fn reader(&self, file: &str) -> Box<dyn Reader>;
    /// A reader for one file with the caller's options; a format that reads no named fields
    /// ignores them (the session says so when no item had the field).
    fn reader_with(&self, file: &str, _options: &ReadOptions) -> Box<dyn Reader> {
        self.reader(file)
    }
    /// Whether `reader_with` reads `ReadOptions::cluster_field`.
    fn reads_fields(&self) -> bool {
        false
    }
    /// Whether `reader_with` reads `ReadOptions::group_field`.
    fn reads_group_field(&self) -> bool {
        false
    }
    /// Called once after the last file of a run, to report what was left on the shelf unmatched.
    fn end_run(&self, _sink: &mut dyn Sink) {}
    /// The runs a file holds when one file may hold several (promptfoo's provider × prompt, the
    /// Evals API's run ids), as far as its first bytes tell; empty when the file is one run.
    fn parts(&self, _path: &str, _head: &[u8]) -> Vec<Part> {
        Vec::new()
    }
}

/// One run inside a file that may hold several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Files whose parts share a key are one run (the pages of one Evals API run).
    pub key: String,
    /// How the run is called.
    pub name: String,
    /// Whether `name` is the tool's own name for the run (an Evals API run object's `name`),
    /// which wins over a name made from ids.
    pub named: bool,
    /// What the reader is told to read (`ReadOptions::part`).
    pub select: String,
}

/// Every format this build reads.
pub static FORMATS: &[&dyn Format] = &[
    &canonical::Canonical,
    &lm_eval::LmEvalSamples,
    &lm_eval::results::LmEvalResults,
    &helm::SCENARIO_STATE,
    &helm::PER_INSTANCE_STATS,
    &helm::STATS,
    &helm::COMPANION,
    &openai_evals::OpenAiEvals,
    &promptfoo::Promptfoo,
    &evals_api::EvalsApi,
    &lighteval::LightevalDetails,
    &csv::CsvTable,
    &jevbench::JevBench,
    &inspect::Inspect,
    &decision_bench::DecisionBench,
    &rewardbench::arrays::RewardBenchArrays,
    &rewardbench::jsonl::RewardBenchJsonl,
    &rewardbench::aggregate::RewardBenchAggregate,
];

/// How many leading bytes `detect` wants to see.
pub const HEAD: usize = 64 * 1024;

/// The format that claims the file most surely, if any does.
pub fn detect(file: &str, head: &[u8]) -> Option<&'static dyn Format> {
    FORMATS
        .iter()
        .filter_map(|f| f.sniff(file, head).map(|c| (c, *f)))
        .max_by_key(|(c, _)| *c)
        .map(|(_, f)| f)
}

/// The format with this name.
pub fn by_name(name: &str) -> Option<&'static dyn Format> {
    FORMATS.iter().copied().find(|f| f.name() == name)
}

/// The keys of the first JSON object in `head`, in order (at most 12).
pub fn first_keys(head: &[u8]) -> Vec<String> {
    // Python's bare NaN/Infinity (lm-eval, HELM, Inspect write them) must not end the scan.
    let head = non_finite::sanitize(head);
    let text = String::from_utf8_lossy(&head);
    let Some(start) = text.find('{') else {
        return Vec::new();
    };
    // An object that starts the file or a top-level array; a `{` inside other text (an HTML
    // page, prose) is not one.
    let before = text[..start].trim_start_matches('\u{feff}').trim();
    if !(before.is_empty() || before == "[") {
        return Vec::new();
    }
    let mut keys = Vec::new();
    let mut de = serde_json::Deserializer::from_str(&text[start..]);
    let mut visitor = KeyCollector(&mut keys);
    let _ = serde::de::DeserializeSeed::deserialize(&mut visitor, &mut de);
    keys
}

struct KeyCollector<'k>(&'k mut Vec<String>);

impl<'de, 'k> serde::de::DeserializeSeed<'de> for &mut KeyCollector<'k> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, 'k> serde::de::Visitor<'de> for &mut KeyCollector<'k> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(k) = map.next_key::<String>()? {
            if self.0.len() < 12 {
                self.0.push(k);
            }
            map.next_value::<serde::de::IgnoredAny>()?;
        }
        Ok(())
    }
}
