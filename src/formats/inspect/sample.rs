//! Reads one Inspect sample (one epoch): the question it poses, the scorer's verdict and answer,
//! and the per-option probabilities at the answer-letter token.
//!
//! Conventions are Inspect's own: `value_to_float` gives C 1, P 0.5, I 0, N 0, numbers and
//! booleans as themselves, yes/true 1 and no/false 0; NaN means unscored (left out of metrics and
//! reducers). The `choice` scorer answers with letters A, B, ... in the order of `choices`.

use crate::formats::inspect::json::{Output, Sample};
use crate::formats::json::Val;
use std::borrow::Cow;

/// What a sample asks; the same in every epoch.
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// Multiple choice over `k` lettered options with one gold letter.
    Single { k: usize, gold: usize },
    /// Multiple choice with several gold letters (a list target, or "A, C").
    Several { k: usize, gold: Vec<usize> },
    /// A free-form answer judged by the scorer; the target text, for display.
    Free { target: String },
}

/// What one epoch's scorer said.
#[derive(Debug, Clone, PartialEq)]
pub struct Epoch {
    /// Credit in [0, 1]; `None` when the scorer left the epoch unscored (NaN).
    pub credit: Option<f64>,
    /// The scorer's answer; `None` when it recorded none (empty, or value `N`).
    pub answer: Option<String>,
    /// Per-option probability at the answer-letter token (None where the option is not in the
    /// top-N); `None` when the completion has no logprobs there.
    pub probs: Option<Vec<Option<f64>>>,
}

/// The score a scorer gave, turned into credit.
enum Value {
    Credit(f64),
    /// `N`: the scorer found no answer (credit 0, and the answer is invalid).
    NoAnswer,
    Unscored,
}

/// Reads the question and the named scorer's verdict; `Err` is a data error (the epoch is skipped).
pub fn read(
    sample: &Sample,
    scorer: &str,
    notes: &mut Vec<String>,
) -> Result<(Question, Epoch), String> {
    let attachments = sample.attachments.as_ref();
    let question = question(sample, attachments, notes)?;
    let Some(Val::Map(scores)) = &sample.scores else {
        return Err(match &sample.error {
            Some(Val::Null) | None => "the sample has no scores".to_string(),
            Some(_) => "the sample ended in an error and has no scores".to_string(),
        });
    };
    let score = scores
        .iter()
        .find(|(name, _)| name == scorer)
        .map(|(_, s)| s)
        .ok_or_else(|| format!("the sample has no score from scorer `{scorer}`"))?;
    let value = value(score.get("value").unwrap_or(&Val::Null), notes)?;
    let answer = match score.get("answer") {
        Some(Val::Str(s)) => Some(resolve(s, attachments, notes).into_owned()),
        _ => None,
    }
    .filter(|a| !a.trim().is_empty());
    let (credit, answer) = match value {
        Value::Credit(c) => (Some(c), answer),
        Value::NoAnswer => (Some(0.0), None),
        Value::Unscored => (None, answer),
    };
    let k = match question {
        Question::Single { k, .. } | Question::Several { k, .. } => k,
        Question::Free { .. } => 0,
    };
    let probs = match (&sample.output, k) {
        (Some(output), k) if k > 0 && !shuffled(score, attachments, notes) => {
            letter_probs(output, k)
        }
        _ => None,
    };
    Ok((
        question,
        Epoch {
            credit,
            answer,
            probs,
        },
    ))
}

fn question(
    sample: &Sample,
    attachments: Option<&Val>,
    notes: &mut Vec<String>,
) -> Result<Question, String> {
    let mut target = String::new();
    match &sample.target {
        Some(Val::Str(s)) => target.push_str(&resolve(s, attachments, notes)),
        Some(Val::List(parts)) => {
            for p in parts {
                match p {
                    Val::Str(s) => target.push_str(&resolve(s, attachments, notes)),
                    other => return Err(format!("`target` holds {}, not text", other.kind())),
                }
            }
        }
        Some(other) => return Err(format!("`target` is {}, not text", other.kind())),
        None => return Err("no `target`".to_string()),
    }
    let k = sample.choices.as_ref().map_or(0, Vec::len);
    if k == 0 {
        return Ok(Question::Free { target });
    }
    let gold = letters(&target).ok_or_else(|| {
        format!("`target` {target:?} is not option letters, though the sample has {k} choices")
    })?;
    if let Some(&bad) = gold.iter().find(|&&g| g >= k) {
        return Err(format!(
            "`target` names option {} but the sample has only {k} choices",
            letter(bad)
        ));
    }
    Ok(match gold.as_slice() {
        [one] => Question::Single { k, gold: *one },
        _ => Question::Several { k, gold },
    })
}

/// The option positions named by letters such as "B" or "A, C" (commas and spaces ignored, as
/// Inspect's `choice` scorer reads targets); `None` if anything else appears, or nothing.
pub fn letters(text: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for c in text.chars().filter(|c| *c != ',' && !c.is_whitespace()) {
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let i = usize::from(c.to_ascii_uppercase() as u8 - b'A');
        if !out.contains(&i) {
            out.push(i);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The letter of option `i`.
pub fn letter(i: usize) -> String {
    u8::try_from(i).ok().filter(|&i| i < 26).map_or_else(
        || format!("#{}", i + 1),
        |i| char::from(b'A' + i).to_string(),
    )
}

fn value(v: &Val, notes: &mut Vec<String>) -> Result<Value, String> {
    let credit = match v {
        Val::Null => return Ok(Value::Unscored),
        Val::Bool(b) => f64::from(u8::from(*b)),
        Val::Int(_) | Val::Float(_) => v.as_f64().unwrap_or(f64::NAN),
        Val::Str(s) => match s.as_ref() {
            "C" => 1.0,
            "P" => 0.5,
            "I" => 0.0,
            "N" => return Ok(Value::NoAnswer),
            other => match other.to_ascii_lowercase().as_str() {
                "yes" | "true" => 1.0,
                "no" | "false" => 0.0,
                lower => match lower.parse::<f64>() {
                    Ok(x) if x.is_finite() => x,
                    _ => {
                        notes.push(format!(
                            "score value {other:?} is not C, P, I, N, a number or yes/no; counted 0, as Inspect's value_to_float does"
                        ));
                        0.0
                    }
                },
            },
        },
        Val::List(_) | Val::Map(_) => {
            return Err(format!(
                "the score value is {}; scorelens reads one scalar value per scorer",
                v.kind()
            ))
        }
    };
    if !(0.0..=1.0).contains(&credit) {
        return Err(format!(
            "the score value {credit} is outside [0, 1], so it is not a credit"
        ));
    }
    Ok(Value::Credit(credit))
}

/// Resolves an `attachment://<hash>` reference (or the older `tc://`) through the sample's
/// attachments; a reference that is not there is kept as written, with a note.
pub fn resolve<'s>(
    s: &'s str,
    attachments: Option<&'s Val>,
    notes: &mut Vec<String>,
) -> Cow<'s, str> {
    let Some(hash) = s
        .strip_prefix("attachment://")
        .or_else(|| s.strip_prefix("tc://"))
    else {
        return Cow::Borrowed(s);
    };
    match attachments.and_then(|a| a.get(hash)) {
        Some(Val::Str(content)) => Cow::Borrowed(content.as_ref()),
        _ => {
            notes.push(format!(
                "`{s}` is not among the sample's attachments; kept as written"
            ));
            Cow::Borrowed(s)
        }
    }
}

/// True when the `choice` scorer says the choices were shuffled before the model saw them: the
/// completion's letters then differ from the answer's, and its logprobs cannot be mapped.
fn shuffled(score: &Val, attachments: Option<&Val>, notes: &mut Vec<String>) -> bool {
    let explanation = match score.get("explanation") {
        Some(Val::Str(s)) => resolve(s, attachments, notes),
        _ => return false,
    };
    let hit = explanation.starts_with("Choices were shuffled before generating");
    if hit {
        notes.push(
            "choices were shuffled before the model saw them; its logprobs use other letters and are not read".to_string(),
        );
    }
    hit
}

/// Per-option probability at the answer-letter token: the first non-blank token after the last
/// `ANSWER:` (Inspect's parser takes the last answer line). Its top alternatives are summed by
/// letter, whatever their case or surrounding spaces; letters absent from the top-N stay `None`.
pub fn letter_probs(output: &Output, k: usize) -> Option<Vec<Option<f64>>> {
    let content = &output.choices.first()?.logprobs.as_ref()?.content;
    let mut text = String::new();
    let mut starts = Vec::with_capacity(content.len());
    for t in content {
        starts.push(text.len());
        text.push_str(&t.token);
    }
    let upper = text.to_ascii_uppercase();
    let mut at = upper.rfind("ANSWER")? + "ANSWER".len();
    at += upper[at..].len() - upper[at..].trim_start().len();
    at = at + upper[at..].strip_prefix(':').map(|_| 1)?;
    at += upper[at..].len() - upper[at..].trim_start().len();
    if at >= upper.len() {
        return None;
    }
    let index = starts.iter().rposition(|&s| s <= at)?;
    let token = content.get(index)?;
    let mut probs: Vec<Option<f64>> = vec![None; k];
    let mut add = |tok: &str, lp: Option<f64>| {
        let mut chars = tok.trim().chars();
        if let (Some(c), None, Some(lp)) = (chars.next(), chars.next(), lp) {
            if let Some(&[i]) = letters(&c.to_string()).as_deref() {
                if let Some(slot) = probs.get_mut(i) {
                    *slot = Some(slot.unwrap_or(0.0) + crate::math::exp(lp));
                }
            }
        }
    };
    let top = token.top_logprobs.as_deref().unwrap_or(&[]);
    for t in top {
        add(&t.token, t.logprob);
    }
    if !top.iter().any(|t| t.token == token.token) {
        add(&token.token, token.logprob);
    }
    Some(probs)
}
