//! What RewardBench's three file layouts share (FORMATS.md §6, §7): recognising them by content
//! and turning one row into an item.
//!
//! The layouts themselves live beside this file: `arrays` (the `eval-set-scores` object of
//! parallel arrays), `jsonl` (the `rewardbench` CLI's `_outputs.jsonl`) and `aggregate`
//! (`eval-set/<model>.json` and the CLI's summary).

pub mod aggregate;
pub mod arrays;
pub mod jsonl;

use crate::formats::json::Val;
use crate::formats::non_finite::string_end;
use crate::formats::Sink;
use crate::items::{best_of_n_credit, Body, Item};
use crate::reported::TextLengths;
use crate::warning::Warning;

/// The keys at the top level of the first JSON object in `head`, each with the first byte of its
/// value (`b'['`, `b'"'`, a digit, ...; 0 when the head ends first). Tolerates a head cut short and
/// bare `NaN` literals, which a JSON parser would stop at.
pub fn top_keys(head: &[u8]) -> Vec<(String, u8)> {
    let body = head
        .strip_prefix(crate::formats::lines::BOM)
        .unwrap_or(head);
    let mut keys = Vec::new();
    let mut i = match body.iter().position(|b| !b.is_ascii_whitespace()) {
        Some(p) if body[p] == b'{' => p + 1,
        _ => return keys,
    };
    let (mut depth, mut expect_key) = (1usize, true);
    while i < body.len() {
        let b = body[i];
        match b {
            b'"' => {
                let end = string_end(body, i + 1);
                if depth == 1 && expect_key {
                    let key = String::from_utf8_lossy(&body[i + 1..end.min(body.len())]);
                    let mut j = end + 1;
                    while j < body.len() && (body[j].is_ascii_whitespace() || body[j] == b':') {
                        j += 1;
                    }
                    keys.push((key.into_owned(), body.get(j).copied().unwrap_or(0)));
                    expect_key = false;
                }
                i = end;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => expect_key = true,
            _ => {}
        }
        i += 1;
    }
    keys
}

/// Whether `keys` has `name` with a value starting with `first` (any value when `first` is None).
pub fn has(keys: &[(String, u8)], name: &str, first: Option<u8>) -> bool {
    keys.iter()
        .any(|(k, b)| k == name && first.is_none_or(|f| *b == f))
}

/// A reward score: a number, a one-element list `[x]` (RewardBench's pipelines return shape
/// (B, 1)), or a quoted non-finite literal. `Err` says why it is not a score.
pub fn score(v: &Val) -> Result<f64, String> {
    match v {
        Val::Int(i) => Ok(*i as f64),
        Val::Float(x) => Ok(*x),
        Val::List(one) if one.len() == 1 => score(&one[0]),
        Val::Str(s) => match s.as_ref() {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(format!("the string \"{s}\", not a number")),
        },
        other => Err(format!("{}, not a number", other.kind())),
    }
}

/// Characters (Unicode scalar values, as Python's `len`) of every string inside a value: a
/// templated text, or the `content` and `role` of a list of messages.
pub fn text_len(v: &Val) -> usize {
    match v {
        Val::Str(s) => s.chars().count(),
        Val::List(xs) => xs.iter().map(text_len).sum(),
        Val::Map(kv) => kv.iter().map(|(_, x)| text_len(x)).sum(),
        _ => 0,
    }
}

/// The fields of one row, whichever layout it came from.
#[derive(Debug, Default)]
pub struct Row<'v, 'a> {
    pub id: Option<&'v Val<'a>>,
    pub subset: Option<&'v Val<'a>>,
    pub results: Option<&'v Val<'a>>,
    pub chosen: Option<&'v Val<'a>>,
    pub rejected: Option<&'v Val<'a>>,
    /// RewardBench 2: every candidate's score, correct ones first.
    pub scores: Option<&'v Val<'a>>,
    pub num_correct: Option<&'v Val<'a>>,
    pub text_chosen: Option<&'v Val<'a>>,
    pub text_rejected: Option<&'v Val<'a>>,
    /// RewardBench 2: every candidate's text.
    pub texts: Option<&'v Val<'a>>,
}

/// What a file's rows add up to beyond their items.
#[derive(Debug, Default)]
pub struct FileTally {
    /// The rows' response lengths, in row order, handed on at the end of the file.
    lengths: Vec<TextLengths>,
    /// Rows whose `results` disagree with the credit recomputed from the scores.
    disagree: u64,
    /// The first few of them, for the warning.
    disagree_rows: Vec<String>,
    /// Whether any of them is a best-of-n row (RewardBench 2).
    disagree_best_of: bool,
    /// Rows credited from a judge's `results`.
    judged: u64,
}

/// How a row becomes an item; `Err` is a data error (the row is skipped).
pub fn row_item(row: &Row, n: usize, line: u64, tally: &mut FileTally) -> Result<Item, String> {
    let id = match row.id {
        Some(Val::Str(s)) => s.to_string(),
        Some(Val::Int(i)) => i.to_string(),
        Some(v) => return Err(format!("`id` is {}, not a string or integer", v.kind())),
        None => return Err("no `id`".to_string()),
    };
    let subset = match row.subset {
        Some(Val::Str(s)) => s.to_string(),
        Some(v) => return Err(format!("id {id}: `subset` is {}, not a string", v.kind())),
        None => return Err(format!("id {id}: no `subset`")),
    };
    let at = |why: String| format!("row {n} (id {id}, {subset}): {why}");
    let body = if let Some(scores) = present(row.scores) {
        best_of_n(scores, row.num_correct).map_err(at)?
    } else if let (Some(c), Some(r)) = (present(row.chosen), present(row.rejected)) {
        let chosen = finite(c, "scores_chosen").map_err(at)?;
        let rejected = finite(r, "scores_rejected").map_err(at)?;
        Body::Pair { chosen, rejected }
    } else if let Some(r) = present(row.results) {
        let verdict = judged(r).map_err(at)?;
        tally.judged += 1;
        verdict
    } else {
        return Err(at(
            "no scores (`scores_chosen`/`scores_rejected` or `scores`) and no `results`".into(),
        ));
    };
    let credit = match &body {
        Body::Pair { chosen, rejected } => Some(if chosen > rejected { 1.0 } else { 0.0 }),
        Body::BestOfN { scores, .. } if !subset.eq_ignore_ascii_case("ties") => {
            Some(best_of_n_credit(scores))
        }
        _ => None,
    };
    if let (Some(credit), Some(r)) = (credit, present(row.results).and_then(Val::as_f64)) {
        if credit != r {
            tally.disagree += 1;
            tally.disagree_best_of |= matches!(body, Body::BestOfN { .. });
            if tally.disagree_rows.len() < 5 {
                tally.disagree_rows.push(format!("row {n} (id {id})"));
            }
        }
    }
    if let Some(lengths) = text_lengths(row, &body) {
        tally.lengths.push(TextLengths {
            group: subset.clone(),
            lengths,
            best_of_n: matches!(body, Body::BestOfN { .. }),
        });
    }
    // RewardBench v1 ids repeat across the prior sets' subsets, so they are qualified by subset.
    let id = match &body {
        Body::Pair { .. } | Body::Graded { .. } if row.num_correct.is_none() => {
            format!("{subset}/{id}")
        }
        _ => id,
    };
    Ok(Item {
        id: id.into(),
        line: Some(line),
        group: Some(subset.into()),
        tier: None,
        split: None,
        modality: None,
        cluster: None,
        body,
    })
}

/// A field that is there and not null.
fn present<'v, 'a>(v: Option<&'v Val<'a>>) -> Option<&'v Val<'a>> {
    v.filter(|v| !matches!(v, Val::Null))
}

/// A finite score, or why not: a non-finite score (a NaN the tool wrote) is reported as a warning
/// and its row left out, since no figure can be made from it.
fn finite(v: &Val, what: &str) -> Result<f64, String> {
    let x = score(v).map_err(|why| format!("`{what}` is {why}"))?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!(
            "`{what}` is {x}; the item is left out (the official scorer counts such a comparison as wrong)"
        ))
    }
}

fn best_of_n(scores: &Val, num_correct: Option<&Val>) -> Result<Body, String> {
    let Val::List(xs) = scores else {
        return Err(format!("`scores` is {}, not a list", scores.kind()));
    };
    let scores = xs
        .iter()
        .enumerate()
        .map(|(i, x)| finite(x, &format!("scores[{i}]")))
        .collect::<Result<Vec<f64>, String>>()?;
    if scores.len() < 2 {
        return Err("`scores` needs at least 2 candidates".to_string());
    }
    let wanted = match num_correct {
        None | Some(Val::Null) => Ok(1),
        Some(Val::Int(k)) => usize::try_from(*k).map_err(|_| k.to_string()),
        Some(other) => Err(other.kind().to_string()),
    };
    let num_correct = match wanted {
        Ok(k) if (1..scores.len()).contains(&k) => Ok(k),
        Ok(k) => Err(k.to_string()),
        Err(shown) => Err(shown),
    }
    .map_err(|shown| {
        format!(
            "`num_correct` is {shown}, not between 1 and the {} candidates - 1",
            scores.len()
        )
    })?;
    Ok(Body::BestOfN {
        scores,
        num_correct,
    })
}

/// A generative judge's verdict: `results` is the credit (1 chosen, 0 rejected, 0.5 a tie or an
/// unparseable judgement in v1; 1/k for a k-way tie in v2).
fn judged(r: &Val) -> Result<Body, String> {
    let credit = match r {
        Val::Bool(b) => f64::from(u8::from(*b)),
        v => v.as_f64().ok_or(format!(
            "`results` is {}, not a number, and there are no scores",
            v.kind()
        ))?,
    };
    if !(0.0..=1.0).contains(&credit) {
        return Err(format!("`results` {credit} is outside [0, 1]"));
    }
    let answer = if credit == 1.0 {
        "chosen"
    } else if credit == 0.0 {
        "rejected"
    } else {
        "tie or unparseable judgement"
    };
    Ok(Body::Graded {
        credit,
        gold: "chosen".to_string(),
        answer: Some(answer.to_string()),
    })
}

/// The lengths of a row's response texts, when they are all there: one per candidate of a
/// best-of-n row, else the chosen and the rejected one.
fn text_lengths(row: &Row, body: &Body) -> Option<Vec<usize>> {
    match body {
        Body::BestOfN { scores, .. } => {
            let Some(Val::List(texts)) = row.texts else {
                return None;
            };
            let lengths: Vec<usize> = texts.iter().map(text_len).collect();
            (lengths.len() == scores.len()).then_some(lengths)
        }
        _ => Some(vec![
            text_len(row.text_chosen?),
            text_len(row.text_rejected?),
        ]),
    }
}

impl FileTally {
    /// Hands on what the file's rows added up to: their response lengths (for the profile's
    /// length baseline), and the warnings about the file's own `results`.
    pub fn finish(self, file: &str, sink: &mut dyn Sink) {
        for lengths in self.lengths {
            sink.lengths(lengths);
        }
        if self.disagree > 0 {
            let why = format!(
                "{} rows carry a `results` that differs from the credit recomputed from their scores ({}{}); \
                 scorelens uses the scores{}",
                self.disagree,
                self.disagree_rows.join(", "),
                if self.disagree > 5 { ", ..." } else { "" },
                if self.disagree_best_of {
                    " (RewardBench 2 files written before PR #236 gave full credit on tied scores)"
                } else {
                    ""
                }
            );
            sink.warn(Warning::new(file, None, why));
        }
        if self.judged > 0 {
            sink.meta(
                crate::formats::Meta::Mapping,
                "no scores (a generative judge): each row's `results` (1 chosen, 0 rejected, 0.5 tie or error) is its credit",
            );
        }
    }
}

#[cfg(test)]
mod tests;
