//! HELM run folders (FORMATS.md §5): `scenario_state.json` and `per_instance_stats.json` joined
//! through the shelf (whichever arrives second completes the pair), and `stats.json`, whose
//! run-level figures (`ece_10_bin`, `exact_match`, …) are shown beside ours as HELM reported them.

pub mod files;
pub mod items;

use crate::formats::lines::BOM;
use crate::formats::{first_keys, Format, Meta, Reader, Sink};
use crate::reported::Reported;
use crate::warning::Warning;
use files::{is_null, InstanceStats, ScenarioState, Stat};
use items::{cross_check, emit, Facts};
use serde::de::DeserializeOwned;

/// One half of a run waiting on the shelf for the other: the items' facts (the items themselves
/// are pushed as soon as scenario_state.json is read), or the per-instance stats.
#[derive(Default)]
pub struct HelmShelf {
    facts: Option<(String, Vec<Facts>)>,
    stats: Option<(String, Vec<InstanceStats>)>,
}

/// Which HELM file a reader reads.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    ScenarioState,
    InstanceStats,
    RunStats,
    /// `run_spec.json` or `scenario.json`: part of the folder, nothing to score.
    Companion,
}

/// A HELM file format.
pub struct Helm(Kind);

pub static SCENARIO_STATE: Helm = Helm(Kind::ScenarioState);
pub static PER_INSTANCE_STATS: Helm = Helm(Kind::InstanceStats);
pub static STATS: Helm = Helm(Kind::RunStats);
pub static COMPANION: Helm = Helm(Kind::Companion);

impl Format for Helm {
    fn name(&self) -> &'static str {
        match self.0 {
            Kind::ScenarioState => "helm-scenario-state",
            Kind::InstanceStats => "helm-per-instance-stats",
            Kind::RunStats => "helm-stats",
            Kind::Companion => "helm-run-file",
        }
    }

    fn describe(&self) -> &'static str {
        match self.0 {
            Kind::ScenarioState => "HELM scenario_state.json (joined with per_instance_stats.json when dropped together)",
            Kind::InstanceStats => "HELM per_instance_stats.json (read with its scenario_state.json)",
            Kind::RunStats => "HELM stats.json: its figures (ece_10_bin, exact_match) are shown beside ours",
            Kind::Companion => "HELM's other run and suite files (run_spec.json, scenario.json, display_predictions.json, instances.json, summary.json, …): recognised, nothing to score",
        }
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        let body = head.strip_prefix(BOM).unwrap_or(head);
        let array = body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
        let yes = match self.0 {
            Kind::ScenarioState => has("adapter_spec") && has("request_states"),
            // display_predictions.json also starts with `instance_id` and `stats`.
            Kind::InstanceStats => {
                array && has("instance_id") && has("stats") && !has("predicted_text")
            }
            Kind::RunStats => array && has("name") && has("count") && has("sum_squared"),
            Kind::Companion => {
                let run_spec = has("scenario_spec") && has("adapter_spec") && has("metric_specs");
                let scenario = has("name") && has("description") && has("definition_path");
                // helm-summarize's files: per run, the display and instance lists; per suite,
                // summary.json, run_specs.json, runs.json, schema.json and groups.json.
                let display =
                    array && has("instance_id") && (has("predicted_text") || has("request"));
                let instances = array && has("input") && has("references") && has("split");
                let suite = (has("suite") && has("date"))
                    || (array && has("run_path") && has("run_spec"))
                    || (has("metrics") && has("run_groups"))
                    || (array && has("title") && has("header") && has("rows"));
                // run_spec.json is one object, the suite's run_specs.json a list of them.
                run_spec || (scenario && !array) || display || instances || suite
            }
        };
        yes.then_some(20)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        Box::new(HelmReader {
            kind: self.0,
            file: file.to_string(),
            buffer: Vec::new(),
        })
    }

    fn end_run(&self, sink: &mut dyn Sink) {
        if matches!(self.0, Kind::RunStats | Kind::Companion) {
            return;
        }
        let Some(shelf) = sink.shelf().take::<HelmShelf>() else {
            return;
        };
        if let Some((file, _)) = shelf.facts {
            let why = "read without its per_instance_stats.json: nothing to cross-check";
            sink.warn(Warning::new(&file, None, why));
        }
        if let Some((file, _)) = shelf.stats {
            let why = "per_instance_stats.json without its scenario_state.json has no options or answers: not scored (drop both files of the run)";
            sink.warn(Warning::new(&file, None, why));
        }
    }
}

/// Buffers one HELM file (each is a single JSON value) and reads it at the end.
struct HelmReader {
    kind: Kind,
    file: String,
    buffer: Vec<u8>,
}

fn parse<T: DeserializeOwned>(file: &str, bytes: &[u8], sink: &mut dyn Sink) -> Option<T> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    // Python's json writes a NaN statistic as a bare `NaN`: read as null (the value is absent).
    let clean = crate::formats::non_finite::sanitize(bytes);
    if clean.len() != bytes.len() {
        let why = "the file holds Python's bare NaN/Infinity literals, which are not JSON; read as absent values";
        sink.warn(Warning::new(file, None, why));
    }
    match serde_json::from_slice(&clean) {
        Ok(v) => Some(v),
        Err(e) => {
            let msg = e.to_string();
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            let why = format!("not a HELM file this reader understands: {msg}");
            sink.skip(Warning::new(file, Some(e.line() as u64), why));
            None
        }
    }
}

impl Reader for HelmReader {
    fn feed(&mut self, chunk: &[u8], _sink: &mut dyn Sink) {
        self.buffer.extend_from_slice(chunk);
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let file = self.file.clone();
        let bytes = std::mem::take(&mut self.buffer);
        match self.kind {
            Kind::ScenarioState => {
                let Some(states) = parse::<ScenarioState>(&file, &bytes, sink) else {
                    return;
                };
                let method = states.adapter_spec.method.clone().unwrap_or_default();
                sink.meta(
                    Meta::FormatVersion,
                    &format!("scenario_state, adapter {method}"),
                );
                let facts = emit(&file, &states, sink);
                let shelf = sink.shelf().get::<HelmShelf>();
                let earlier = shelf.facts.take();
                match shelf.stats.take() {
                    Some((_, stats)) => cross_check(&file, &facts, &stats, sink),
                    None => shelf.facts = Some((file.clone(), facts)),
                }
                if let Some((other, _)) = earlier {
                    let why = "another scenario_state.json followed before its per_instance_stats.json: nothing to cross-check";
                    sink.warn(Warning::new(&other, None, why));
                }
            }
            Kind::InstanceStats => {
                let Some(stats) = parse::<Vec<InstanceStats>>(&file, &bytes, sink) else {
                    return;
                };
                sink.meta(Meta::FormatVersion, "per_instance_stats");
                let shelf = sink.shelf().get::<HelmShelf>();
                match shelf.facts.take() {
                    Some((_, facts)) => cross_check(&file, &facts, &stats, sink),
                    None => shelf.stats = Some((file, stats)),
                }
            }
            Kind::Companion => {
                sink.meta(Meta::FormatVersion, "run folder file");
                sink.meta(Meta::NotApplicable, "HELM run file with nothing to score");
            }
            Kind::RunStats => {
                let Some(stats) = parse::<Vec<Stat>>(&file, &bytes, sink) else {
                    return;
                };
                sink.meta(Meta::FormatVersion, "stats");
                sink.meta(
                    Meta::Mapping,
                    "run-level figures HELM computed, shown beside ours; no items",
                );
                report(&stats, sink);
            }
        }
    }
}

/// The run-level figures worth showing beside ours, unperturbed, per split.
fn report(stats: &[Stat], sink: &mut dyn Sink) {
    for s in stats {
        let note = match s.name.name.as_str() {
            "ece_10_bin" => "equal-mass ECE, 10 bins, on HELM's max_prob: equals scorelens ece_em (conditioning) for the separate adapters; for the joint adapter max_prob is the raw probability of the generated answer, neither conditioned nor mixed (SPEC §4)",
            "ece_1_bin" => "|mean max_prob - accuracy| over the run",
            "exact_match" => "HELM's accuracy; a tie among separate-adapter references earns the correct share",
            "max_prob" => "mean confidence HELM assigned (see ece_10_bin for its definition)",
            "platt_ece_10_bin" | "selective_acc@10" | "selective_cov_acc_area" => "HELM's own calibration figure; scorelens has no counterpart",
            _ => continue,
        };
        if !is_null(&s.name.perturbation) || s.name.sub_split.is_some() {
            continue;
        }
        let Some(value) = s.value() else { continue };
        sink.reported(Reported {
            source: "HELM".to_string(),
            name: s.name.name.clone(),
            scope: s.name.split.clone().unwrap_or_default(),
            value,
            note: note.to_string(),
        });
    }
}
