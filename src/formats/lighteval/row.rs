//! One lighteval detail row (`Detail`: `doc`, `model_response`, `metric`) turned into an item,
//! with lighteval's own conventions: the answer is `np.argmax` of the choices' loglikelihoods
//! (the first of equal ones), a `gold_index` list means any of them is right, and `acc_norm`
//! divides each loglikelihood by its choice's characters.

use crate::formats::lm_eval::sample::distinct;
use crate::items::{argmax, Body, Item, OptionItem, OptionKind};
use crate::probs::{self, Source};
use serde_json::Value;
use std::sync::Arc;

/// What a row becomes.
pub struct Read {
    pub item: Item,
    /// Whether the per-character pick (`acc_norm`) is a gold one: `None` without usable
    /// loglikelihoods.
    pub norm_hit: Option<bool>,
    /// The row's logged `metric.acc` disagrees with the argmax against the gold.
    pub mismatch: bool,
    /// The row's numeric per-sample metrics, as lighteval logged them.
    pub metrics: Vec<(String, f64)>,
    /// The loglikelihoods hold the unconditioned ones after the conditioned (PMI tasks).
    pub pmi: bool,
    /// What the row lacks that is still scored around (an output error).
    pub note: Option<String>,
}

/// The task a row belongs to: `doc.task_name` (`mmlu:anatomy|5`).
pub fn task_of(v: &Value) -> Option<&str> {
    v.get("doc")?.get("task_name")?.as_str()
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The gold positions: `gold_index` is a position or a list of them.
fn golds(doc: &Value, choices: usize) -> Result<Vec<usize>, String> {
    let raw = doc
        .get("gold_index")
        .ok_or("a `doc` without a `gold_index`")?;
    let list: Vec<&Value> = match raw {
        Value::Array(xs) => xs.iter().collect(),
        one => vec![one],
    };
    if list.is_empty() {
        return Err("an empty `gold_index`".to_string());
    }
    list.iter()
        .map(|x| {
            let i = x
                .as_u64()
                .ok_or_else(|| format!("a `gold_index` that is {}", kind(x)))?;
            usize::try_from(i)
                .ok()
                .filter(|&i| choices == 0 || i < choices)
                .ok_or_else(|| format!("`gold_index` {i} is past the {choices} choices"))
        })
        .collect()
}

/// The numeric per-sample metrics (`metric.acc`, `metric.em`, …); booleans count as 0/1.
fn metrics(v: &Value) -> Vec<(String, f64)> {
    match v.get("metric") {
        Some(Value::Object(m)) => m
            .iter()
            .filter_map(|(k, x)| {
                let n = match x {
                    Value::Bool(b) => Some(f64::from(u8::from(*b))),
                    other => other.as_f64(),
                };
                n.map(|n| (k.clone(), n))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The metrics a generative task's correctness is read from, in order of preference: lighteval's
/// exact-match family, then its pass@1 and accuracy names.
const GRADED: [&str; 8] = [
    "em",
    "exact_match",
    "quasi_exact_match",
    "prefix_exact_match",
    "extractive_match",
    "pass@1",
    "acc",
    "accuracy",
];

/// The item of row `v` (line `line`), its id `id`, in `group`.
pub fn read(v: &Value, line: u64, id: &str, group: &Arc<str>) -> Result<Read, String> {
    if !v.is_object() {
        return Err(format!("expected a detail object, found {}", kind(v)));
    }
    let doc = v
        .get("doc")
        .filter(|d| d.is_object())
        .ok_or("a row without a `doc` object")?;
    let response = v
        .get("model_response")
        .filter(|d| d.is_object())
        .ok_or("a row without a `model_response` object")?;
    let choices: Vec<String> = match doc.get("choices") {
        Some(Value::Array(xs)) => xs
            .iter()
            .map(|c| c.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or("a `doc.choices` entry that is not text")?,
        Some(Value::Null) | None => Vec::new(),
        Some(other) => return Err(format!("`doc.choices` is {}, not a list", kind(other))),
    };
    let logprobs: Vec<Option<f64>> = match response.get("logprobs") {
        Some(Value::Array(xs)) => xs.iter().map(Value::as_f64).collect(),
        _ => Vec::new(),
    };
    let golds = golds(doc, choices.len())?;
    let metrics = metrics(v);
    let n = choices.len();
    let scored_choice = n >= 2 && (logprobs.len() == n || logprobs.len() == 2 * n);
    let base = |body| Item {
        id: id.into(),
        line: Some(line),
        group: Some(group.clone()),
        tier: None,
        split: None,
        modality: None,
        cluster: None,
        body,
    };
    if !scored_choice {
        let (credit, answer, gold) = graded(response, &choices, &golds, &metrics)?;
        return Ok(Read {
            item: base(Body::Graded {
                credit,
                gold,
                answer,
            }),
            norm_hit: None,
            mismatch: false,
            metrics,
            pmi: false,
            note: None,
        });
    }
    let lls = &logprobs[..n];
    let usable = lls.iter().all(|x| x.is_some_and(f64::is_finite));
    let raw: Vec<f64> = lls.iter().map(|x| x.unwrap_or(f64::NAN)).collect();
    let answer = usable.then(|| argmax(&raw));
    let (probs, note) = if usable {
        match probs::build(lls, Source::Loglikelihoods) {
            Ok(p) => (Some(p), None),
            Err(why) => (None, Some(format!("{why}; probabilities invalid"))),
        }
    } else {
        let why =
            "a loglikelihood is not a number (a NaN is null in the table); the answer is invalid";
        (None, Some(why.to_string()))
    };
    let logged = metrics.iter().find(|(k, _)| k == "acc").map(|(_, x)| *x);
    let mismatch = match (answer, logged) {
        (Some(a), Some(acc)) => golds.contains(&a) != (acc >= 0.5),
        _ => false,
    };
    let norm_hit = usable.then(|| {
        let per_char: Vec<f64> = raw
            .iter()
            .zip(&choices)
            .map(|(ll, c)| ll / c.chars().count() as f64)
            .collect();
        golds.contains(&argmax(&per_char))
    });
    // Several golds: any of them is right (lighteval's `best_choice in gold_ixs`). An item has
    // one gold, so a right answer stands as its gold and a wrong one leaves the first.
    let gold = match answer {
        Some(a) if golds.contains(&a) => a,
        _ => golds[0],
    };
    let body = Body::Option(OptionItem {
        kind: OptionKind::Choice,
        options: distinct(choices).into(),
        gold,
        gold_probs: None,
        answer,
        probs,
    });
    Ok(Read {
        item: base(body),
        norm_hit,
        mismatch,
        metrics,
        pmi: logprobs.len() == 2 * n,
        note,
    })
}

/// A row without a loglikelihood per choice (a generative task): its credit from the first of
/// lighteval's correctness metrics it logged, the answer its first text, the gold its first gold
/// choice.
fn graded(
    response: &Value,
    choices: &[String],
    golds: &[usize],
    metrics: &[(String, f64)],
) -> Result<(f64, Option<String>, String), String> {
    let credit = GRADED
        .iter()
        .find_map(|name| metrics.iter().find(|(k, _)| k == name).map(|(_, x)| *x))
        .ok_or_else(|| {
            let logged: Vec<&str> = metrics.iter().map(|(k, _)| k.as_str()).collect();
            if logged.is_empty() {
                "a row with neither a loglikelihood per choice nor a numeric `metric`".to_string()
            } else {
                format!(
                    "a generative row whose metrics ({}) name no correctness: scorelens reads {}",
                    logged.join(", "),
                    GRADED.join(", ")
                )
            }
        })?;
    if !(0.0..=1.0).contains(&credit) {
        return Err(format!("a correctness metric of {credit}, outside [0, 1]"));
    }
    let answer = match response.get("text") {
        Some(Value::Array(xs)) => xs.first().and_then(Value::as_str).map(str::to_string),
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let gold = golds
        .first()
        .and_then(|&g| choices.get(g))
        .cloned()
        .unwrap_or_default();
    Ok((credit, answer, gold))
}
