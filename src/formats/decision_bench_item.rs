//! Turns one Decision Bench answer (with its corpus question, when known) into a choice item, by
//! the benchmark's protocol: the model's own label is the answer, and probabilities are valid only
//! over exactly the options, each in [0, 1], summing to 1 within 0.02; they are then renormalised.

use super::decision_bench_rows::{Case, Row};
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
        id: row.id.clone(),
        line: Some(row.line),
        group: row
            .category
            .clone()
            .or_else(|| case.and_then(|c| c.category.clone())),
        tier: None,
        split: None,
        modality: row.modality.or_else(|| case.and_then(|c| c.modality)),
        body: Body::Option(OptionItem {
            kind: OptionKind::Choice,
            options,
            gold: gold_index,
            gold_probs: None,
            answer,
            probs,
        }),
    })
}

/// The row's probabilities by the protocol: exactly the options, each in [0, 1], summing to 1
/// within 0.02, then renormalised. Anything else is an output error: noted, left out.
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
    for (label, p) in pairs {
        match options.iter().position(|o| o == label) {
            Some(i) => values[i] = Some(*p),
            None => {
                notes.push(format!(
                    "probabilities left out: `{label}` is not an option"
                ));
                return None;
            }
        }
    }
    if let Some(i) = values.iter().position(Option::is_none) {
        notes.push(format!(
            "probabilities left out: option `{}` has none",
            options[i]
        ));
        return None;
    }
    let sum: f64 = values.iter().flatten().sum();
    if !((1.0 - SUM_TOLERANCE)..=(1.0 + SUM_TOLERANCE)).contains(&sum) {
        notes.push(format!(
            "probabilities left out: they sum to {sum}, not 1 within {SUM_TOLERANCE}"
        ));
        return None;
    }
    if let Some(bad) = values.iter().flatten().find(|p| !(0.0..=1.0).contains(*p)) {
        notes.push(format!("probabilities left out: {bad} is not in [0, 1]"));
        return None;
    }
    let normalised: Vec<Option<f64>> = values.iter().map(|v| v.map(|p| p / sum)).collect();
    match probs::build(&normalised, Source::Probs) {
        Ok(p) => Some(p),
        Err(why) => {
            notes.push(format!("probabilities left out: {why}"));
            None
        }
    }
}
