//! Turns one Decision Bench answer (with its corpus question, when known) into a choice item: the
//! model's own label is the answer (the benchmark's protocol), and the probabilities are read as
//! SPEC §2 reads any `probs`, with a notice where the protocol would have rejected them.

use crate::formats::decision_bench::rows::{Case, Row};
use crate::items::{Body, Item, OptionItem, OptionKind};
use crate::probs::{self, Source};

/// The protocol's tolerance on the probability total.
pub const SUM_TOLERANCE: f64 = 0.02;

/// The item for `row`, or the data error that keeps it out. `fallback_k` is set for a row whose
/// options are known nowhere: the option count of its task's other rows (0 when unknown).
pub fn build(
    row: &Row,
    case: Option<&Case>,
    fallback_k: Option<usize>,
    notes: &mut Vec<String>,
) -> Result<Item, String> {
    let gold = match (&row.gold, case) {
        (Some(g), Some(c)) if *g != c.gold => {
            notes.push(format!(
                "gold `{g}` differs from the corpus gold `{}`; the row's is used",
                c.gold
            ));
            g.clone()
        }
        (Some(g), _) => g.clone(),
        (None, Some(c)) => c.gold.clone(),
        (None, None) => return Err("no gold".to_string()),
    };
    let mut options: Vec<String> = match (case, &row.probabilities) {
        (Some(c), _) => c.options.clone(),
        (None, Some(Ok(pairs))) => pairs.iter().map(|(k, _)| k.clone()).collect(),
        (None, _) => vec![gold.clone()],
    };
    if let Some(k) = fallback_k {
        notes.push(match k {
            0 => "no probabilities and no corpus row: the number of options is unknown".to_string(),
            k => format!("no probabilities and no corpus row: {k} options assumed, as in the task's other rows"),
        });
        for i in options.len()..k {
            options.push(format!("(option {})", i + 1));
        }
    }
    let gold_index = options
        .iter()
        .position(|o| *o == gold)
        .ok_or_else(|| format!("gold `{gold}` is not among the options"))?;
    let ok = row.status == "ok";
    let answer = match (&row.answer, ok) {
        (Some(a), true) => {
            let i = options.iter().position(|o| o == a);
            if i.is_none() {
                notes.push(format!("answer `{a}` is not an option: invalid"));
            }
            i
        }
        _ => None,
    };
    let probs = if ok {
        distribution(row, &options, notes)
    } else {
        None
    };
    if let Some(c) = row.correct {
        if c != (answer == Some(gold_index)) {
            notes.push(format!(
                "the row says correct = {c}, but answer and gold say otherwise"
            ));
        }
    }
    if let (Some(conf), Some(a), Some(p)) = (row.confidence, answer, &probs) {
        let q = p.p[a] / p.sum;
        if (q - conf).abs() > 1e-6 {
            notes.push(format!(
                "confidence {conf} differs from the answer's normalised probability {q}"
            ));
        }
    }
    Ok(Item {
        id: row.id.as_str().into(),
        line: Some(row.line),
        group: row
            .category
            .as_deref()
            .or_else(|| case.and_then(|c| c.category.as_deref()))
            .map(Into::into),
        tier: None,
        split: None,
        modality: row.modality.or_else(|| case.and_then(|c| c.modality)),
        cluster: None,
        body: Body::Option(OptionItem {
            kind: OptionKind::Choice,
            options: options.into(),
            gold: gold_index,
            gold_probs: None,
            answer,
            probs,
        }),
    })
}

/// The row's probabilities as SPEC §2 reads any `probs`: labels outside the options are outside
/// mass, options without a value are 0, a total above 1.02 (or of 0) is an output error.
///
/// The benchmark's protocol is stricter (exactly the options, total within 0.02 of 1) and then
/// renormalises; conditioning is that renormalisation. Where the protocol would have rejected the
/// answer but SPEC keeps it (a total below 0.98, a missing or extra label), a notice says so.
fn distribution(
    row: &Row,
    options: &[String],
    notes: &mut Vec<String>,
) -> Option<crate::items::Probs> {
    let pairs = match row.probabilities.as_ref()? {
        Ok(p) => p,
        Err(why) => {
            notes.push(format!("probabilities left out: {why}"));
            return None;
        }
    };
    let mut values = vec![None; options.len()];
    let mut extra = Vec::new();
    for (label, p) in pairs {
        match options.iter().position(|o| o == label) {
            Some(i) => values[i] = Some(*p),
            None => extra.push(label.as_str()),
        }
    }
    let missing: Vec<&str> = options
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(o, _)| o.as_str())
        .collect();
    let probs = match probs::build(&values, Source::Probs) {
        Ok(p) => p,
        Err(why) => {
            notes.push(format!("probabilities left out: {why}"));
            return None;
        }
    };
    let mut departures = Vec::new();
    if probs.sum < 1.0 - SUM_TOLERANCE {
        departures.push(format!("they sum to {}", probs.sum));
    }
    if !extra.is_empty() {
        departures.push(format!("`{}` is not an option", extra.join("`, `")));
    }
    if !missing.is_empty() {
        departures.push(format!("option `{}` has none", missing.join("`, `")));
    }
    if !departures.is_empty() {
        notes.push(format!(
            "{}: the benchmark's protocol (total within {SUM_TOLERANCE} of 1 over exactly the options) would reject this answer; kept as SPEC §2 reads it, with outside mass {:.4}",
            departures.join(", "),
            probs.outside.unwrap_or(0.0)
        ));
    }
    Some(probs)
}
