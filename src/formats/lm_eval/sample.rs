//! One lm-eval sample (one doc under one filter) turned into an item, with lm-eval's conventions:
//! string leaves (`"-1.25"`, `"False"`), one leading delimiter on each continuation, the target as
//! a position or a choice's text, and the 2k requests of `acc_mutual_info` (FORMATS.md §3).

use crate::formats::json::Val;
use crate::formats::lm_eval::{group_name, FileState};
use crate::items::{argmax, Body, Item, OptionItem, OptionKind};
use crate::probs::{self, Source};

/// The keys read from a sample; every other key is skipped unparsed.
pub const FIELDS: [&str; 10] = [
    "doc_id",
    "doc",
    "target",
    "arguments",
    "filtered_resps",
    "filter",
    "metrics",
    "acc",
    "acc_norm",
    "exact_match",
];

mod f {
    pub const DOC_ID: usize = 0;
    pub const DOC: usize = 1;
    pub const TARGET: usize = 2;
    pub const ARGUMENTS: usize = 3;
    pub const FILTERED: usize = 4;
    pub const FILTER: usize = 5;
    pub const METRICS: usize = 6;
    pub const ACC: usize = 7;
    pub const ACC_NORM: usize = 8;
    pub const EXACT_MATCH: usize = 9;
}

/// A sample's picked fields and where it sits.
pub struct Sample<'s, 'a> {
    pub fields: &'s [Option<Val<'a>>; FIELDS.len()],
    pub task: &'s str,
    pub line: u64,
}

/// What one sample gives.
pub enum Built {
    Item(Box<Item>),
    /// Neither an item nor an error (a perplexity sample, say): what it was.
    NotApplicable(String),
}

impl<'s, 'a> Sample<'s, 'a> {
    fn get(&self, i: usize) -> Option<&'s Val<'a>> {
        self.fields[i].as_ref().filter(|v| !matches!(v, Val::Null))
    }
}

/// A number, or a number written as a string as lm-eval writes its responses.
pub fn number(v: &Val) -> Option<f64> {
    match v {
        Val::Str(s) => s.trim().parse().ok(),
        Val::Bool(b) => Some(f64::from(u8::from(*b))),
        other => other.as_f64(),
    }
}

/// A string leaf, or a number or boolean shown as Python writes it.
fn text(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.to_string()),
        Val::Int(i) => Some(i.to_string()),
        Val::Float(x) => Some(x.to_string()),
        Val::Bool(b) => Some(if *b { "True" } else { "False" }.to_string()),
        _ => None,
    }
}

/// Builds the sample's item; `Err` is a data error (the sample is skipped).
pub fn build(s: &Sample, state: &mut FileState, notes: &mut Vec<String>) -> Result<Built, String> {
    let doc_id = match s.get(f::DOC_ID) {
        Some(Val::Int(i)) => i.to_string(),
        Some(Val::Str(x)) => x.to_string(),
        Some(v) => return Err(format!("`doc_id` must be an integer, not {}", v.kind())),
        None => return Err("no `doc_id`".to_string()),
    };
    let filter = match s.get(f::FILTER) {
        Some(v) => text(v).ok_or_else(|| format!("`filter` is {}, not a name", v.kind()))?,
        None => {
            state.no_filter_field = true;
            let n = state.unnamed.entry(doc_id.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                "none".to_string()
            } else {
                format!("filter {n}")
            }
        }
    };
    let group = group_name(s.task, &filter);
    let id = if filter == "none" {
        format!("{}/{doc_id}", s.task)
    } else {
        format!("{}/{filter}/{doc_id}", s.task)
    };
    let slot = state.filter(&filter);
    let requests = arguments(s.get(f::ARGUMENTS))?;
    let responses = match s.get(f::FILTERED) {
        Some(Val::List(xs)) => xs.as_slice(),
        Some(v) => return Err(format!("`filtered_resps` must be a list, not {}", v.kind())),
        None => return Err("no `filtered_resps`".to_string()),
    };
    let loglikelihoods = responses
        .iter()
        .all(|r| matches!(r, Val::List(p) if p.len() == 2));
    let body = if loglikelihoods && requests.len() >= 2 && responses.len() == requests.len() {
        let (body, norm_hit) = choice(s, state, &requests, responses, notes)?;
        if let Some(hit) = norm_hit {
            let entry = &mut state.filters[slot];
            entry.1 += u64::from(hit);
            entry.2 += 1;
        }
        state.choice_items += 1;
        body
    } else {
        // Log-likelihood pairs that do not pair up with the requests (parallel lists of unequal
        // length) cannot be read as choices; lm-eval's own per-sample verdict is all that is left.
        let unpaired =
            (loglikelihoods && !responses.is_empty() && requests.len() >= 2).then(|| {
                format!(
                    "{} log-likelihood responses for {} requests cannot be paired up",
                    responses.len(),
                    requests.len()
                )
            });
        match (graded(s, responses), unpaired) {
            (Some(body), unpaired) => {
                if let Some(why) = unpaired {
                    notes.push(format!(
                        "{why}: graded by the logged acc, without probabilities"
                    ));
                }
                state.graded_items += 1;
                body
            }
            (None, Some(why)) => return Err(format!("{why}, and no acc was logged")),
            (None, None) => {
                return Ok(Built::NotApplicable(format!(
                    "doc {doc_id}: neither a multiple-choice sample nor one with exact_match"
                )))
            }
        }
    };
    Ok(Built::Item(Box::new(Item {
        id: id.into(),
        line: Some(s.line),
        group: Some(group.into()),
        tier: None,
        split: None,
        modality: None,
        cluster: None,
        body,
    })))
}

/// One request's context and continuation (or generation arguments).
struct Request<'v, 'a> {
    context: Option<&'v Val<'a>>,
    continuation: Option<&'v Val<'a>>,
}

/// The requests in order: `{"gen_args_0": {"arg_0", "arg_1"}, …}` sorted by number (v0.4.3+), or
/// a list of argument lists (older arrays).
fn arguments<'v, 'a>(v: Option<&'v Val<'a>>) -> Result<Vec<Request<'v, 'a>>, String> {
    let pair = |v: &'v Val<'a>| match v {
        Val::Map(_) => Request {
            context: v.get("arg_0"),
            continuation: v.get("arg_1"),
        },
        Val::List(xs) => Request {
            context: xs.first(),
            continuation: xs.get(1),
        },
        _ => Request {
            context: None,
            continuation: None,
        },
    };
    match v {
        None => Err("no `arguments`".to_string()),
        Some(Val::Map(entries)) => {
            let mut numbered = Vec::with_capacity(entries.len());
            for (k, x) in entries {
                let n = k
                    .strip_prefix("gen_args_")
                    .and_then(|n| n.parse::<usize>().ok())
                    .ok_or_else(|| format!("`arguments` has the key `{k}`, not gen_args_N"))?;
                numbered.push((n, pair(x)));
            }
            numbered.sort_by_key(|(n, _)| *n);
            Ok(numbered.into_iter().map(|(_, r)| r).collect())
        }
        Some(Val::List(xs)) => Ok(xs.iter().map(pair).collect()),
        Some(v) => Err(format!("`arguments` must be an object, not {}", v.kind())),
    }
}

/// A multiple-choice sample: the body, and whether acc_norm's pick is the gold (None when the
/// loglikelihoods are unusable).
fn choice(
    s: &Sample,
    state: &mut FileState,
    requests: &[Request],
    responses: &[Val],
    notes: &mut Vec<String>,
) -> Result<(Body, Option<bool>), String> {
    let keep = match conditional(s, requests) {
        Some(keep) => {
            state.mutual_info = true;
            keep
        }
        None => (0..requests.len()).collect(),
    };
    let continuations: Vec<String> = keep
        .iter()
        .map(|&i| requests.get(i).and_then(|r| r.continuation).and_then(text))
        .collect::<Option<_>>()
        .ok_or("a multiple-choice request has no continuation `arg_1`")?;
    let options = choice_texts(s.get(f::DOC), &continuations);
    let lls: Vec<Option<f64>> = keep
        .iter()
        .map(|&i| match responses.get(i) {
            Some(Val::List(p)) => p.first().and_then(number),
            _ => None,
        })
        .collect();
    let gold = gold(s, &options, &continuations, &lls)?;
    let usable = lls.iter().all(|x| x.is_some_and(|v| !v.is_nan()));
    let raw: Vec<f64> = lls.iter().map(|x| x.unwrap_or(f64::NAN)).collect();
    let answer = if usable {
        Some(argmax(&raw))
    } else {
        notes.push("a loglikelihood is not a number; the answer is invalid".to_string());
        None
    };
    let probs = if usable {
        match probs::build(&lls, Source::Loglikelihoods) {
            Ok(p) => Some(p),
            Err(why) => {
                notes.push(format!("{why}; probabilities invalid"));
                None
            }
        }
    } else {
        None
    };
    if let (Some(a), Some(logged)) = (answer, s.get(f::ACC).and_then(number)) {
        if (a == gold) != (logged >= 0.5) {
            state.mismatches.push(s.line);
        }
    }
    let norm_hit = usable.then(|| {
        let per_char: Vec<f64> = raw
            .iter()
            .zip(&options)
            .map(|(ll, o)| ll / o.chars().count() as f64)
            .collect();
        argmax(&per_char) == gold
    });
    let body = Body::Option(OptionItem {
        kind: OptionKind::Choice,
        options: distinct(options).into(),
        gold,
        gold_probs: None,
        answer,
        probs,
    });
    Ok((body, norm_hit))
}

/// The positions of the conditional requests when the others are `acc_mutual_info`'s
/// unconditional ones (an empty context, the same continuation): the second half since v0.4.3,
/// every second request (interleaved) before. Older files have no `metrics` to say so.
fn conditional(s: &Sample, requests: &[Request]) -> Option<Vec<usize>> {
    let n = requests.len();
    let listed = match s.get(f::METRICS) {
        Some(Val::List(m)) => m
            .iter()
            .any(|x| matches!(x, Val::Str(name) if name == "acc_mutual_info")),
        _ => true,
    };
    if !listed || !n.is_multiple_of(2) || n < 4 {
        return None;
    }
    // v0.4.2 wrote the unconditional continuation without the target delimiter.
    let pairs_up = |c: &Request, u: &Request| {
        let empty = matches!(u.context, Some(Val::Str(x)) if x.is_empty());
        match (c.continuation.and_then(text), u.continuation.and_then(text)) {
            (Some(c), Some(u)) => empty && !u.is_empty() && c.ends_with(&u),
            _ => false,
        }
    };
    let (first, second) = requests.split_at(n / 2);
    if first.iter().zip(second).all(|(c, u)| pairs_up(c, u)) {
        return Some((0..n / 2).collect());
    }
    let interleaved = requests
        .chunks(2)
        .all(|p| p.len() == 2 && pairs_up(&p[0], &p[1]));
    interleaved.then(|| (0..n).step_by(2).collect())
}

/// The choice texts: `doc.choices` when each continuation ends with its entry, else each
/// continuation with one leading space (lm-eval's default target delimiter) stripped.
fn choice_texts(doc: Option<&Val>, continuations: &[String]) -> Vec<String> {
    if let Some(Val::List(xs)) = doc.and_then(|d| d.get("choices")) {
        let texts: Option<Vec<String>> = xs.iter().map(text).collect();
        if let Some(texts) = texts {
            let fits = texts.len() == continuations.len()
                && texts
                    .iter()
                    .zip(continuations)
                    .all(|(t, c)| c.ends_with(t.as_str()));
            if fits {
                return texts;
            }
        }
    }
    continuations
        .iter()
        .map(|c| c.strip_prefix(' ').unwrap_or(c).to_string())
        .collect()
}

/// Labels must be distinct; a repeated text gets its position appended (the gold stays by index).
pub(crate) fn distinct(options: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(options.len());
    for (i, o) in options.into_iter().enumerate() {
        if out.contains(&o) {
            out.push(format!("{o} (#{})", i + 1));
        } else {
            out.push(o);
        }
    }
    out
}

/// The gold position. `target` is a position (lm-eval turns a digit-only target into one) or a
/// choice's text; when both readings name a choice, the one the logged `acc` agrees with wins.
fn gold(
    s: &Sample,
    options: &[String],
    continuations: &[String],
    lls: &[Option<f64>],
) -> Result<usize, String> {
    let target = match s.get(f::TARGET) {
        Some(Val::List(_)) => {
            return Err("the target lists several gold choices; scorelens scores one".to_string())
        }
        Some(v) => text(v).ok_or_else(|| format!("`target` is {}", v.kind()))?,
        None => return Err("no `target`".to_string()),
    };
    if target.starts_with('[') && target.ends_with(']') {
        return Err(format!(
            "the target `{target}` lists several gold choices; scorelens scores one"
        ));
    }
    let k = options.len();
    let position = target.parse::<usize>().ok().filter(|&i| i < k);
    // A JSON integer (v0.4.0-0.4.2 write native values) can only be a position.
    if matches!(s.get(f::TARGET), Some(Val::Int(_))) {
        return position.ok_or_else(|| {
            format!(
                "target {target} is not a choice position (0-{})",
                k.saturating_sub(1)
            )
        });
    }
    let by_text = options
        .iter()
        .position(|o| *o == target)
        .or_else(|| continuations.iter().position(|c| *c == target))
        .or_else(|| options.iter().position(|o| o.trim() == target.trim()));
    match (position, by_text) {
        (Some(p), Some(t)) if p != t => {
            let raw: Option<Vec<f64>> = lls.iter().copied().collect();
            let logged = s.get(f::ACC).or(s.get(f::ACC_NORM)).and_then(number);
            match (raw, logged) {
                (Some(raw), Some(acc)) if (argmax(&raw) == t) == (acc >= 0.5) => Ok(t),
                _ => Ok(p),
            }
        }
        (Some(p), _) => Ok(p),
        (None, Some(t)) => Ok(t),
        (None, None) => Err(format!(
            "target `{target}` is neither a choice position (0-{}) nor a choice's text",
            k.saturating_sub(1)
        )),
    }
}

/// A generation sample graded by lm-eval's own per-sample `exact_match` (or `acc`).
fn graded(s: &Sample, responses: &[Val]) -> Option<Body> {
    let credit = s
        .get(f::EXACT_MATCH)
        .or(s.get(f::ACC))
        .and_then(number)
        .filter(|c| (0.0..=1.0).contains(c))?;
    let gold = s.get(f::TARGET).and_then(text).unwrap_or_default();
    let answer = match responses.first() {
        Some(Val::List(xs)) => xs.first().and_then(text),
        Some(v) => text(v),
        None => None,
    };
    Some(Body::Graded {
        credit,
        gold,
        answer,
    })
}
