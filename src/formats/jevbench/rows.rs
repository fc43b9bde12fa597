//! One JevBench row at a time: a task row into a `Task`, a harness results row into a `Row`
//! (FORMATS §8.2, §8.3). Nothing here joins; `join` does.

use crate::formats::json::Val;
use crate::items::{Modality, OptionKind, Split, Tier};
use std::borrow::Cow;

/// The keys read from either kind of row; every other key is skipped unparsed.
pub const FIELDS: [&str; 15] = [
    "id",
    "task_id",
    "question",
    "labels",
    "expected",
    "provenance",
    "tier",
    "split",
    "group",
    "modality",
    "valid",
    "ok",
    "probs",
    "predicted",
    "model",
];

/// Positions in `FIELDS`.
pub mod f {
    pub const ID: usize = 0;
    pub const TASK_ID: usize = 1;
    pub const QUESTION: usize = 2;
    pub const LABELS: usize = 3;
    pub const EXPECTED: usize = 4;
    pub const PROVENANCE: usize = 5;
    pub const TIER: usize = 6;
    pub const SPLIT: usize = 7;
    pub const GROUP: usize = 8;
    pub const MODALITY: usize = 9;
    pub const VALID: usize = 10;
    pub const OK: usize = 11;
    pub const PROBS: usize = 12;
    pub const PREDICTED: usize = 13;
    pub const MODEL: usize = 14;
}

type Fields<'a> = [Option<Val<'a>>; FIELDS.len()];

/// A task row, ready to be joined with its result.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub id: String,
    /// Index of its task file in `Pending::task_files`.
    pub file: usize,
    pub line: u64,
    pub kind: OptionKind,
    pub labels: Vec<String>,
    pub gold: usize,
    pub gold_probs: Option<Vec<f64>>,
    pub tier: Option<Tier>,
    pub split: Option<Split>,
    pub group: Option<String>,
    pub modality: Option<Modality>,
}

/// A harness results row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Index of its results file in `Pending::result_files`.
    pub file: usize,
    pub line: u64,
    /// False when the harness marked the row `valid: false` or `ok: false`.
    pub valid: bool,
    /// Label → number as given; `Err` when `probs` is malformed (an output error).
    pub probs: Result<Option<Vec<(String, f64)>>, String>,
    /// The harness's own answer label (its ties go to the smallest label).
    pub predicted: Option<String>,
}

/// A field, with `null` read as absent.
fn get<'v, 'a>(fields: &'v Fields<'a>, i: usize) -> Option<&'v Val<'a>> {
    fields.get(i)?.as_ref().filter(|v| !matches!(v, Val::Null))
}

fn id_of(v: Option<&Val>, name: &str) -> Result<String, String> {
    match v {
        Some(Val::Str(s)) => Ok(s.to_string()),
        Some(Val::Int(i)) => Ok(i.to_string()),
        Some(other) => Err(format!(
            "`{name}` must be a string or an integer, not {}",
            other.kind()
        )),
        None => Err(format!("no `{name}`")),
    }
}

/// A label: a string, an integer, or (for noul) a boolean meaning yes/no.
fn label<'a>(v: &Val<'a>) -> Option<Cow<'a, str>> {
    match v {
        Val::Bool(b) => Some(Cow::Borrowed(if *b { "yes" } else { "no" })),
        other => other.as_label(),
    }
}

/// Reads one task row; `file_tier` is the tier its file name gives.
pub fn task(
    fields: &Fields,
    line: u64,
    file: usize,
    file_tier: Option<Tier>,
) -> Result<Task, String> {
    let id = id_of(get(fields, f::ID), "id")?;
    let qtype = match get(fields, f::QUESTION).and_then(|q| q.get("type")) {
        Some(Val::Str(s)) => s.to_string(),
        Some(v) => return Err(format!("question.type must be a string, not {}", v.kind())),
        None => return Err("no question.type".to_string()),
    };
    let kind = match qtype.as_str() {
        "choice" => OptionKind::Choice,
        "noul" | "binary" => OptionKind::Binary,
        "score" | "rating" => OptionKind::Rating,
        other => {
            return Err(format!(
                "unknown question.type `{other}` (choice, noul or score)"
            ))
        }
    };
    let labels = match get(fields, f::LABELS) {
        Some(Val::List(xs)) => xs
            .iter()
            .map(|x| x.as_label().map(Cow::into_owned))
            .collect::<Option<Vec<String>>>()
            .ok_or("`labels` must be a list of strings")?,
        Some(v) => return Err(format!("`labels` must be a list, not {}", v.kind())),
        None => return Err("no `labels`".to_string()),
    };
    let labels = check_labels(labels, kind)?;
    let gold = match get(fields, f::EXPECTED) {
        None => {
            return Err(
                "`expected` is null: JevBench marks the item unscorable, so it is skipped"
                    .to_string(),
            )
        }
        Some(v) => {
            let l =
                label(v).ok_or_else(|| format!("`expected` must be a label, not {}", v.kind()))?;
            labels
                .iter()
                .position(|x| *x == l)
                .ok_or_else(|| format!("expected `{l}` is not among the labels"))?
        }
    };
    let gold_probs = match get(fields, f::PROVENANCE).and_then(|p| p.get("gold_probs")) {
        None | Some(Val::Null) => None,
        Some(v) => Some(gold_probs(v, &labels)?),
    };
    let tier = match get(fields, f::TIER) {
        Some(Val::Str(s)) if s == "original" => Some(Tier::Standard),
        Some(Val::Str(s)) => Some(Tier::parse(s).ok_or_else(|| format!("unknown tier `{s}`"))?),
        Some(v) => return Err(format!("`tier` must be a string, not {}", v.kind())),
        None => file_tier,
    };
    let split = match get(fields, f::SPLIT) {
        Some(Val::Str(s)) if s == "public" || s == "open" => Some(Split::Open),
        Some(Val::Str(s)) if s == "sealed" => Some(Split::Sealed),
        _ => None,
    };
    let group = get(fields, f::GROUP)
        .and_then(|g| g.as_label())
        .map(Cow::into_owned);
    let modality = match get(fields, f::MODALITY) {
        Some(Val::Str(s)) => Modality::parse(s),
        _ => None,
    };
    Ok(Task {
        id,
        file,
        line,
        kind,
        labels,
        gold,
        gold_probs,
        tier,
        split,
        group,
        modality,
    })
}

/// At least two distinct labels; a noul item's are `no` and `yes`, put in that order.
fn check_labels(labels: Vec<String>, kind: OptionKind) -> Result<Vec<String>, String> {
    if labels.len() < 2 {
        return Err(format!("needs at least 2 labels, has {}", labels.len()));
    }
    for (i, l) in labels.iter().enumerate() {
        if labels[..i].contains(l) {
            return Err(format!("label `{l}` is listed twice"));
        }
    }
    if kind == OptionKind::Binary {
        if labels.len() != 2 || !labels.iter().all(|l| l == "no" || l == "yes") {
            return Err("a noul item's labels must be \"no\" and \"yes\"".to_string());
        }
        return Ok(vec!["no".to_string(), "yes".to_string()]);
    }
    Ok(labels)
}

/// provenance.gold_probs: label → probability, summing to 1 within 0.02, rescaled to 1.
fn gold_probs(v: &Val, labels: &[String]) -> Result<Vec<f64>, String> {
    let Val::Map(entries) = v else {
        return Err(format!(
            "provenance.gold_probs must be an object label → probability, not {}",
            v.kind()
        ));
    };
    let mut g = vec![0.0; labels.len()];
    for (k, x) in entries {
        let i = labels
            .iter()
            .position(|l| l == k)
            .ok_or_else(|| format!("provenance.gold_probs names `{k}`, not a label"))?;
        match x.as_f64() {
            Some(p) if p.is_finite() && p >= 0.0 => g[i] = p,
            _ => return Err(format!("provenance.gold_probs[`{k}`] is not a probability")),
        }
    }
    let sum: f64 = g.iter().sum();
    if (sum - 1.0).abs() > 0.02 {
        return Err(format!("provenance.gold_probs sums to {sum}, not 1"));
    }
    Ok(g.into_iter().map(|x| x / sum).collect())
}

/// Reads one results row: its task id, the row, and the model name if it gives one.
pub fn result_row(fields: &Fields, line: u64) -> Result<(String, Row, Option<String>), String> {
    let id = id_of(get(fields, f::TASK_ID), "task_id")?;
    let flag = |i: usize| match get(fields, i) {
        Some(Val::Bool(b)) => Some(*b),
        _ => None,
    };
    let valid = flag(f::VALID) != Some(false) && flag(f::OK) != Some(false);
    let probs = match get(fields, f::PROBS) {
        None => Ok(None),
        Some(Val::Map(entries)) => entries
            .iter()
            .map(|(k, x)| match x.as_f64() {
                Some(p) => Ok((k.to_string(), p)),
                None => Err(format!("probs[`{k}`] is {}, not a number", x.kind())),
            })
            .collect::<Result<Vec<_>, String>>()
            .map(Some),
        Some(v) => Err(format!(
            "`probs` is {}, not an object label → number",
            v.kind()
        )),
    };
    let predicted = get(fields, f::PREDICTED)
        .and_then(label)
        .map(Cow::into_owned);
    let row = Row {
        file: 0,
        line,
        valid,
        probs,
        predicted,
    };
    let model = match get(fields, f::MODEL) {
        Some(Val::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    Ok((id, row, model))
}
