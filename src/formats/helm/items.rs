//! HELM request states (joined with their per-instance stats when those were dropped too) turned
//! into items, following HELM's adapters (FORMATS.md §5.3, §5.6):
//!
//! - `multiple_choice_joint`: the answer is the top completion mapped through `output_mapping`;
//!   its probability is the one known `logprobs` value, so conditioning and mixing both differ
//!   from HELM's raw `max_prob` (SPEC §4).
//! - `multiple_choice_separate_*`: one score per reference (the reference tokens' logprob per
//!   token, or original minus calibration), a softmax over them: conditioning is HELM's own
//!   `max_prob`, so `ece_em` equals HELM's `ece_10_bin`.

use crate::formats::helm::files::{is_null, key, InstanceStats, RequestState, ScenarioState};
use crate::formats::{Meta, Sink};
use crate::items::{argmax, Body, Item, OptionItem, OptionKind};
use crate::probs::{self, Source};
use crate::warning::Warning;
use std::collections::{BTreeMap, HashMap};

const CORRECT: &str = "correct";

/// What one item said, kept to cross-check HELM's per-instance stats whenever they arrive.
pub struct Facts {
    pub key: String,
    pub answer: Option<usize>,
    pub correct: bool,
    /// The probability HELM calls `max_prob` under this adapter, when known.
    pub max_prob: Option<f64>,
}

/// Pushes the items of one run and returns their facts for `cross_check`.
pub fn emit(file: &str, state: &ScenarioState, sink: &mut dyn Sink) -> Vec<Facts> {
    let method = state.adapter_spec.method.as_deref().unwrap_or("");
    let spec = &state.adapter_spec;
    if let Some(m) = spec.model.as_ref().or(spec.model_deployment.as_ref()) {
        sink.meta(Meta::Model, m);
    }
    let mut facts = Vec::new();
    if method.starts_with("multiple_choice_separate") {
        separate_items(file, state, method, &mut facts, sink);
    } else {
        joint_items(file, state, &mut facts, sink);
    }
    mapping(method, sink);
    if several_trials(state) {
        sink.meta(
            Meta::Mapping,
            "clusters: the train trials of one instance are one cluster (resampled together; `--cluster cluster` gives their clustered standard errors)",
        );
    }
    facts
}

/// Compares the items with HELM's per-instance stats (unperturbed): exact_match, max_prob and,
/// for separate adapters, predicted_index.
pub fn cross_check(file: &str, facts: &[Facts], stats: &[InstanceStats], sink: &mut dyn Sink) {
    sink.meta(Meta::Mapping, "per_instance_stats.json joined on instance id and train trial: exact_match, predicted_index and max_prob cross-check each item");
    let by_key: HashMap<String, &InstanceStats> = stats
        .iter()
        .filter(|s| is_null(&s.perturbation))
        .map(|s| (key(&s.instance_id, s.train_trial_index), s))
        .collect();
    let mut bad: Vec<&str> = Vec::new();
    let mut unmatched = 0u64;
    for f in facts {
        let Some(s) = by_key.get(&f.key) else {
            unmatched += 1;
            continue;
        };
        let em = s
            .get("exact_match")
            .is_some_and(|e| (e >= 0.5) != f.correct);
        let prob = match (s.get("max_prob"), f.max_prob) {
            (Some(h), Some(ours)) => (h - ours).abs() > 1e-9,
            _ => false,
        };
        let pick = match (s.get("predicted_index"), f.answer) {
            (Some(h), Some(a)) => h != a as f64,
            _ => false,
        };
        if em || prob || pick {
            bad.push(&f.key);
        }
    }
    if let Some(first) = bad.first() {
        let why = format!("on {} instances (first {first}) HELM's per-instance stats disagree with the answer or probability read from scenario_state.json", bad.len());
        sink.warn(Warning::new(file, None, why));
    }
    if unmatched > 0 {
        let why = format!("{unmatched} items have no entry in per_instance_stats.json: are both files from one run?");
        sink.warn(Warning::new(file, None, why));
    }
}

fn mapping(method: &str, sink: &mut dyn Sink) {
    let lines: &[&str] = if method.starts_with("multiple_choice_separate") {
        &[
            "items: one per instance and train trial of the unperturbed request states; group = split",
            "options: the references; gold: the reference tagged correct",
            "probabilities: softmax over the per-reference scores HELM uses (logprob per reference token; calibrated: original minus calibration), so conditioning equals HELM's max_prob",
            "answer: the first reference with the largest score (HELM's predicted_index)",
        ]
    } else {
        &[
            "items: one per instance and train trial of the unperturbed request states; group = split",
            "options: the references; gold: the reference tagged correct",
            "answer: the top completion mapped through output_mapping (off-menu is invalid)",
            "probabilities: only the answer's, exp(completion logprob), as logprobs; HELM's max_prob is that raw value, which neither conditioning nor mixing reproduces",
        ]
    };
    for l in lines {
        sink.meta(Meta::Mapping, l);
    }
}

/// Options and gold positions of an instance; `Err` when no reference is tagged correct.
fn references(rs: &RequestState) -> Result<(Vec<String>, Vec<usize>), String> {
    let refs = &rs.instance.references;
    let mut options: Vec<String> = Vec::with_capacity(refs.len());
    for (i, r) in refs.iter().enumerate() {
        let t = r.output.text.clone();
        options.push(if options.contains(&t) {
            format!("{t} (#{})", i + 1)
        } else {
            t
        });
    }
    let golds: Vec<usize> = (0..refs.len())
        .filter(|&i| refs[i].tags.iter().any(|t| t == CORRECT))
        .collect();
    if options.len() < 2 {
        return Err(format!(
            "has {} references; a choice needs 2",
            options.len()
        ));
    }
    if golds.is_empty() {
        return Err("no reference is tagged correct".to_string());
    }
    Ok((options, golds))
}

/// The item of request state `rs` under key `k`. With several train trials (`trials`), the
/// trials of one instance are one cluster: they ask the same question.
fn item(rs: &RequestState, k: &str, body: Body, trials: bool) -> Item {
    Item {
        id: k.into(),
        line: None,
        group: rs.instance.split.as_deref().map(Into::into),
        tier: None,
        split: None,
        modality: None,
        cluster: rs.instance.id.as_deref().filter(|_| trials).map(Into::into),
        body,
    }
}

/// Whether the run repeats its instances over several train trials.
fn several_trials(state: &ScenarioState) -> bool {
    state
        .request_states
        .iter()
        .any(|rs| rs.train_trial_index > 0)
}

/// Whether a request state is scored: unperturbed, and not a calibration request.
fn wanted(rs: &RequestState) -> bool {
    is_null(&rs.instance.perturbation) && rs.request_mode.as_deref() != Some("calibration")
}

fn joint_items(file: &str, state: &ScenarioState, facts: &mut Vec<Facts>, sink: &mut dyn Sink) {
    let trials = several_trials(state);
    for (i, rs) in state.request_states.iter().enumerate() {
        let id = rs
            .instance
            .id
            .clone()
            .unwrap_or_else(|| format!("request {i}"));
        let k = key(&id, rs.train_trial_index);
        let place = format!("request_states[{i}] (instance {k}): ");
        if !wanted(rs) {
            sink.meta(Meta::NotApplicable, "perturbed request state");
            continue;
        }
        let (options, golds) = match references(rs) {
            Ok(x) => x,
            Err(why) => {
                sink.skip(Warning::new(file, None, format!("{place}{why}")));
                continue;
            }
        };
        let Some(top) = rs.result.as_ref().and_then(|r| {
            r.completions
                .iter()
                .reduce(|a, b| if b.logprob > a.logprob { b } else { a })
        }) else {
            sink.skip(Warning::new(file, None, format!("{place}no completion")));
            continue;
        };
        let pred = top.text.trim();
        let text = match &rs.output_mapping {
            Some(m) => m.get(pred).map(String::as_str),
            None => Some(pred),
        };
        let refs = &rs.instance.references;
        let answer = text.and_then(|t| refs.iter().position(|r| r.output.text == t));
        let gold = match answer {
            Some(a) if golds.contains(&a) => a,
            _ => golds[0],
        };
        let probs = answer.and_then(|a| {
            let mut lp = vec![None; options.len()];
            lp[a] = Some(top.logprob);
            match probs::build(&lp, Source::Logprobs) {
                Ok(p) => Some(p),
                Err(why) => {
                    sink.warn(Warning::new(
                        file,
                        None,
                        format!("{place}{why}; probabilities invalid"),
                    ));
                    None
                }
            }
        });
        facts.push(Facts {
            key: k.clone(),
            answer: None,
            correct: answer.is_some_and(|a| golds.contains(&a)),
            max_prob: Some(crate::math::exp(top.logprob)),
        });
        let body = Body::Option(OptionItem {
            kind: OptionKind::Choice,
            options: options.into(),
            gold,
            gold_probs: None,
            answer,
            probs,
        });
        sink.item(item(rs, &k, body, trials));
    }
}

/// The log-probability of a reference's span at the end of the echoed completion. HELM counts
/// the tokens of `" " + reference`: the final tokens whose text is exactly that, else (for
/// tokenizers that mark spaces otherwise) the shortest run whose trimmed text is the reference.
fn span_logprob(rs: &RequestState, reference: &str) -> Option<(f64, usize)> {
    let tokens = &rs.result.as_ref()?.completions.first()?.tokens;
    let exact = format!(" {reference}");
    let want = reference.trim();
    let mut joined = String::new();
    let mut trimmed = None;
    for n in 1..=tokens.len() {
        joined.insert_str(0, &tokens[tokens.len() - n].text);
        if joined == exact {
            trimmed = Some(n);
            break;
        }
        if trimmed.is_none() && joined.trim() == want {
            trimmed = Some(n);
        }
        if joined.len() > exact.len() + 8 {
            break;
        }
    }
    let n = trimmed?;
    let lp = tokens[tokens.len() - n..].iter().map(|t| t.logprob).sum();
    Some((lp, n))
}

fn separate_items(
    file: &str,
    state: &ScenarioState,
    method: &str,
    facts: &mut Vec<Facts>,
    sink: &mut dyn Sink,
) {
    let trials = several_trials(state);
    // key -> (first request state, reference index -> (original, calibration) logprob and length)
    type Spans = BTreeMap<usize, (Option<(f64, usize)>, Option<(f64, usize)>)>;
    let mut order: Vec<String> = Vec::new();
    let mut runs: HashMap<String, (&RequestState, Spans)> = HashMap::new();
    for (i, rs) in state.request_states.iter().enumerate() {
        if !is_null(&rs.instance.perturbation) {
            sink.meta(Meta::NotApplicable, "perturbed request state");
            continue;
        }
        let id = rs
            .instance
            .id
            .clone()
            .unwrap_or_else(|| format!("request {i}"));
        let k = key(&id, rs.train_trial_index);
        let Some(r) = rs.reference_index else {
            continue;
        };
        let text = rs
            .instance
            .references
            .get(r)
            .map_or("", |x| x.output.text.as_str());
        let span = span_logprob(rs, text);
        let entry = runs.entry(k.clone()).or_insert_with(|| {
            order.push(k.clone());
            (rs, BTreeMap::new())
        });
        let slot = entry.1.entry(r).or_default();
        if rs.request_mode.as_deref() == Some("calibration") {
            slot.1 = span;
        } else {
            slot.0 = span;
        }
    }
    let calibrated = method.ends_with("calibrated");
    for k in order {
        let Some((rs, spans)) = runs.get(&k) else {
            continue;
        };
        let place = format!("instance {k}: ");
        let (options, golds) = match references(rs) {
            Ok(x) => x,
            Err(why) => {
                sink.skip(Warning::new(file, None, format!("{place}{why}")));
                continue;
            }
        };
        let scores: Option<Vec<f64>> = (0..options.len())
            .map(|r| match spans.get(&r)? {
                (Some((lp, _)), Some((cal, _))) if calibrated => Some(lp - cal),
                (Some((lp, n)), _) if !calibrated => Some(lp / *n as f64),
                _ => None,
            })
            .collect();
        let Some(scores) = scores else {
            let why = format!(
                "{place}a reference's request or its tokens are missing, so its score is unknown"
            );
            sink.skip(Warning::new(file, None, why));
            continue;
        };
        let answer = argmax(&scores);
        let gold = if golds.contains(&answer) {
            answer
        } else {
            golds[0]
        };
        let values: Vec<Option<f64>> = scores.iter().map(|&s| Some(s)).collect();
        let probs = match probs::build(&values, Source::Loglikelihoods) {
            Ok(p) => Some(p),
            Err(why) => {
                sink.warn(Warning::new(
                    file,
                    None,
                    format!("{place}{why}; probabilities invalid"),
                ));
                None
            }
        };
        let max_prob = probs
            .as_ref()
            .map(|p| p.p.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        facts.push(Facts {
            key: k.clone(),
            answer: Some(answer),
            correct: golds.contains(&answer),
            max_prob,
        });
        let body = Body::Option(OptionItem {
            kind: OptionKind::Choice,
            options: options.into(),
            gold,
            gold_probs: None,
            answer: Some(answer),
            probs,
        });
        sink.item(item(rs, &k, body, trials));
    }
}
