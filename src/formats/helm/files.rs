//! The shapes of HELM's run files, as far as scorelens reads them (FORMATS.md §5): typed serde
//! structs for `scenario_state.json`, `per_instance_stats.json` and `stats.json`; every other
//! field is skipped.

use serde::Deserialize;
use std::collections::BTreeMap;

/// `scenario_state.json`.
#[derive(Debug, Deserialize)]
pub struct ScenarioState {
    pub adapter_spec: AdapterSpec,
    #[serde(default)]
    pub request_states: Vec<RequestState>,
}

#[derive(Debug, Default, Deserialize)]
pub struct AdapterSpec {
    #[serde(default)]
    pub method: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub model_deployment: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct RequestState {
    pub instance: Instance,
    #[serde(default)]
    pub reference_index: Option<usize>,
    #[serde(default)]
    pub request_mode: Option<String>,
    #[serde(default)]
    pub train_trial_index: u32,
    #[serde(default)]
    pub output_mapping: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub result: Option<RequestResult>,
}

#[derive(Debug, Deserialize)]
pub struct Instance {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub split: Option<String>,
    #[serde(default)]
    pub references: Vec<Reference>,
    #[serde(default)]
    pub perturbation: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
pub struct Reference {
    pub output: Output,
    #[serde(default)]
    pub tags: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub struct Output {
    #[serde(default)]
    pub text: String,
}

#[derive(Debug, Deserialize)]
pub struct RequestResult {
    #[serde(default)]
    pub completions: Vec<Completion>,
}

#[derive(Debug, Deserialize)]
pub struct Completion {
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub logprob: f64,
    #[serde(default)]
    pub tokens: Vec<Token>,
}

#[derive(Debug, Deserialize)]
pub struct Token {
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub logprob: f64,
}

/// One entry of `per_instance_stats.json`.
#[derive(Debug, Deserialize)]
pub struct InstanceStats {
    pub instance_id: String,
    #[serde(default)]
    pub train_trial_index: u32,
    #[serde(default)]
    pub perturbation: Option<serde_json::Value>,
    #[serde(default)]
    pub stats: Vec<Stat>,
}

/// A HELM `Stat`: per instance `count` is 1 and `mean` equals `sum`.
#[derive(Debug, Deserialize)]
pub struct Stat {
    pub name: StatName,
    #[serde(default)]
    pub count: f64,
    #[serde(default)]
    pub sum: f64,
    #[serde(default)]
    pub mean: Option<f64>,
}

#[derive(Debug, Deserialize)]
pub struct StatName {
    pub name: String,
    #[serde(default)]
    pub split: Option<String>,
    #[serde(default)]
    pub sub_split: Option<String>,
    #[serde(default)]
    pub perturbation: Option<serde_json::Value>,
}

impl Stat {
    /// The mean, or sum / count when `mean` is absent.
    pub fn value(&self) -> Option<f64> {
        self.mean
            .or_else(|| (self.count > 0.0).then(|| self.sum / self.count))
    }
}

impl InstanceStats {
    /// The unperturbed value of the named stat.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.stats
            .iter()
            .find(|s| s.name.name == name && is_null(&s.name.perturbation))
            .and_then(Stat::value)
    }
}

/// True when a `perturbation` field is absent or null.
pub fn is_null(v: &Option<serde_json::Value>) -> bool {
    matches!(v, None | Some(serde_json::Value::Null))
}

/// The key an instance and trial share across the two files.
pub fn key(instance_id: &str, trial: u32) -> String {
    if trial == 0 {
        instance_id.to_string()
    } else {
        format!("{instance_id}/trial {trial}")
    }
}
