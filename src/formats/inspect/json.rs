//! The parts of Inspect's log JSON that scoring needs, read with borrowed serde structs.
//!
//! Everything else (events, messages, usage) is skipped unparsed. Inspect writes non-finite floats
//! as the bare literals `NaN`, `Infinity` and `-Infinity` (pydantic's `ser_json_inf_nan =
//! "constants"`; a NaN score value marks an unscored sample), which is not JSON:
//! `non_finite::sanitize` turns them into `null` first, outside strings only.

use crate::formats::json::Val;
use serde::Deserialize;
use std::borrow::Cow;

/// The EvalLog: a whole `.json` log, or `header.json` of an archive (then without samples).
#[derive(Debug, Default, Deserialize)]
pub struct Log<'a> {
    pub version: Option<u64>,
    #[serde(borrow)]
    pub status: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub eval: Option<EvalSpec<'a>>,
    pub plan: Option<Plan>,
    #[serde(borrow)]
    pub results: Option<Results<'a>>,
    #[serde(borrow)]
    pub samples: Option<Vec<Sample<'a>>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct EvalSpec<'a> {
    #[serde(borrow)]
    pub task: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub model: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_val")]
    pub packages: Option<Val<'a>>,
    pub config: Option<EvalConfig>,
}

#[derive(Debug, Default, Deserialize)]
pub struct EvalConfig {
    pub epochs: Option<u64>,
    pub epochs_reducer: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Plan {
    pub config: Option<GenerateConfig>,
}

#[derive(Debug, Default, Deserialize)]
pub struct GenerateConfig {
    pub logprobs: Option<bool>,
    pub top_logprobs: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Results<'a> {
    pub total_samples: Option<u64>,
    pub completed_samples: Option<u64>,
    #[serde(borrow, default)]
    pub scores: Vec<EvalScore<'a>>,
    #[serde(borrow)]
    pub headline: Option<Headline<'a>>,
}

/// One scorer's results; `metrics` maps a metric name to `{name, value, ...}`.
#[derive(Debug, Default, Deserialize)]
pub struct EvalScore<'a> {
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    #[serde(borrow)]
    pub reducer: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_val")]
    pub metrics: Option<Val<'a>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Headline<'a> {
    #[serde(borrow)]
    pub score: Option<Cow<'a, str>>,
}

/// An EvalSample, or an EvalSampleSummary (which has no `output`).
#[derive(Debug, Deserialize)]
pub struct Sample<'a> {
    #[serde(borrow, deserialize_with = "val")]
    pub id: Val<'a>,
    pub epoch: Option<u64>,
    #[serde(borrow)]
    pub choices: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow, default, deserialize_with = "opt_val")]
    pub target: Option<Val<'a>>,
    /// Scorer name to Score, in the log's order.
    #[serde(borrow, default, deserialize_with = "opt_val")]
    pub scores: Option<Val<'a>>,
    #[serde(borrow)]
    pub output: Option<Output<'a>>,
    #[serde(borrow, default, deserialize_with = "opt_val")]
    pub attachments: Option<Val<'a>>,
    #[serde(borrow, default, deserialize_with = "opt_val")]
    pub error: Option<Val<'a>>,
    /// The sample's own fields (a passage, a source document): where `--cluster KEY` looks.
    #[serde(borrow, default, deserialize_with = "opt_val")]
    pub metadata: Option<Val<'a>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Output<'a> {
    #[serde(borrow, default)]
    pub choices: Vec<Choice<'a>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Choice<'a> {
    #[serde(borrow)]
    pub logprobs: Option<Logprobs<'a>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Logprobs<'a> {
    #[serde(borrow, default)]
    pub content: Vec<Logprob<'a>>,
}

/// One generated token, with the most likely alternatives at its position.
#[derive(Debug, Default, Deserialize)]
pub struct Logprob<'a> {
    #[serde(borrow)]
    pub token: Cow<'a, str>,
    pub logprob: Option<f64>,
    #[serde(borrow)]
    pub top_logprobs: Option<Vec<TopLogprob<'a>>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct TopLogprob<'a> {
    #[serde(borrow)]
    pub token: Cow<'a, str>,
    pub logprob: Option<f64>,
}

/// Reads a `Val`; it borrows for the input's lifetime, which outlives the struct's.
fn val<'de: 'a, 'a, D: serde::Deserializer<'de>>(d: D) -> Result<Val<'a>, D::Error> {
    Val::deserialize(d)
}

fn opt_val<'de: 'a, 'a, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Val<'a>>, D::Error> {
    Val::deserialize(d).map(Some)
}

/// Parses one JSON document (after `sanitize`) into `T`, naming the problem on failure.
pub fn parse<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, String> {
    serde_json::from_slice(bytes).map_err(|e| {
        if std::str::from_utf8(bytes).is_err() {
            "not valid UTF-8".to_string()
        } else {
            format!("not a valid Inspect log: {e}")
        }
    })
}
