//! Turns one canonical JSON object into an `Item`, keeping SPEC §1's two kinds of error apart.
//!
//! A data error (`Err`) means the item cannot be scored and is skipped. An output error means the
//! model's output is malformed: the item is still built, with its probabilities or answer marked
//! invalid, and the reason is pushed onto `notes` for the reader to report.

use crate::formats::json::Val;
use crate::items::{Body, ConsistencyItem, Item, Modality, MultiItem, OptionItem, OptionKind};
use crate::items::{Split, Tier};
use crate::probs::{self, Source};
use std::borrow::Cow;
use std::sync::Arc;

/// The keys the canonical reader looks at; every other key is skipped unparsed.
pub const FIELDS: [&str; 29] = [
    "scorelens",
    "id",
    "type",
    "model",
    "benchmark",
    "group",
    "element",
    "category",
    "subset",
    "tier",
    "split",
    "modality",
    "options",
    "gold",
    "gold_probs",
    "answer",
    "probs",
    "logprobs",
    "loglikelihoods",
    "p_yes",
    "steps",
    "chosen",
    "rejected",
    "scores",
    "num_correct",
    "answers",
    "consistent",
    "cluster",
    "passage_id",
];

/// Field positions in `FIELDS`.
pub mod f {
    pub const HEADER: usize = 0;
    pub const ID: usize = 1;
    pub const TYPE: usize = 2;
    pub const MODEL: usize = 3;
    pub const BENCHMARK: usize = 4;
    pub const GROUP: usize = 5; // element, category, subset follow as aliases
    pub const TIER: usize = 9;
    pub const SPLIT: usize = 10;
    pub const MODALITY: usize = 11;
    pub const OPTIONS: usize = 12;
    pub const GOLD: usize = 13;
    pub const GOLD_PROBS: usize = 14;
    pub const ANSWER: usize = 15;
    pub const PROBS: usize = 16;
    pub const LOGPROBS: usize = 17;
    pub const LOGLIKELIHOODS: usize = 18;
    pub const P_YES: usize = 19;
    pub const STEPS: usize = 20;
    pub const CHOSEN: usize = 21;
    pub const REJECTED: usize = 22;
    pub const SCORES: usize = 23;
    pub const NUM_CORRECT: usize = 24;
    pub const ANSWERS: usize = 25;
    pub const CONSISTENT: usize = 26;
    pub const CLUSTER: usize = 27; // passage_id follows as an alias
}

pub type Fields<'a> = [Option<Val<'a>>; FIELDS.len()];

/// A field's value, with `null` read as absent (SPEC §1: `answer: null` means no answer).
fn get<'v, 'a>(fields: &'v Fields<'a>, i: usize) -> Option<&'v Val<'a>> {
    fields[i].as_ref().filter(|v| !matches!(v, Val::Null))
}

/// The option list of the last item read, shared with the next items that list the same labels
/// (a file's items nearly always do), so that they allocate no labels of their own; and the
/// group names read so far, each shared by the items of its group (`Labels::group`).
#[derive(Debug, Default)]
pub struct Labels {
    last: Option<Arc<[String]>>,
    groups: GroupNames,
    /// The user's cluster field (`--cluster FIELD`), read in place of `cluster`/`passage_id`.
    pub(crate) cluster_field: Option<Arc<str>>,
}

/// Slots of the group-name table; it keeps at most `GROUP_NAMES` names.
const GROUP_SLOTS: usize = 1024;

/// Group names shared at most; past them (a file whose every item has a group of its own) each
/// item gets its own copy, as before.
const GROUP_NAMES: usize = GROUP_SLOTS / 2;

/// The group names seen, found by a hash of the name, linearly probed.
#[derive(Debug, Default)]
struct GroupNames {
    slots: Vec<Option<Arc<str>>>,
    len: usize,
}

impl GroupNames {
    fn get(&mut self, name: &str) -> Arc<str> {
        if self.slots.is_empty() {
            self.slots = vec![None; GROUP_SLOTS];
        }
        let mut h = rustc_hash::FxHasher::default();
        std::hash::Hasher::write(&mut h, name.as_bytes());
        let mut at = std::hash::Hasher::finish(&h) as usize % GROUP_SLOTS;
        // At most half the slots are taken, so the probe ends at an empty one.
        loop {
            match &mut self.slots[at] {
                Some(known) if crate::formats::canonical::fast::same(known, name) => {
                    return known.clone()
                }
                Some(_) => at = (at + 1) % GROUP_SLOTS,
                empty => {
                    let shared: Arc<str> = name.into();
                    if self.len < GROUP_NAMES {
                        *empty = Some(shared.clone());
                        self.len += 1;
                    }
                    return shared;
                }
            }
        }
    }
}

impl Labels {
    /// The last list, when `xs` spells exactly it.
    fn reuse(&self, xs: &[Val]) -> Option<Arc<[String]>> {
        let last = self.last.as_ref()?;
        let same = last.len() == xs.len()
            && xs
                .iter()
                .zip(last.iter())
                .all(|(x, l)| matches!(x, Val::Str(s) if s.as_ref() == l.as_str()));
        same.then(|| last.clone())
    }

    /// The last list, when `xs` spells exactly it (for the fast path's plain strings).
    pub(crate) fn reuse_strs(&self, xs: &[&str]) -> Option<Arc<[String]>> {
        let last = self.last.as_ref()?;
        let same = last.len() == xs.len()
            && xs
                .iter()
                .zip(last.iter())
                .all(|(x, l)| crate::formats::canonical::fast::same(x, l));
        same.then(|| last.clone())
    }

    /// The group name `name`, shared with the earlier items of that group.
    pub(crate) fn group(&mut self, name: &str) -> Arc<str> {
        self.groups.get(name)
    }

    /// Keeps `xs` as the last list and returns it shared.
    pub(crate) fn remember(&mut self, xs: &[&str]) -> Arc<[String]> {
        let list: Arc<[String]> = xs.iter().map(|x| x.to_string()).collect();
        self.last = Some(list.clone());
        list
    }
}

/// Builds the item; `line` is where it starts.
pub fn build(fields: &Fields, line: u64, notes: &mut Vec<String>) -> Result<Item, String> {
    build_with(fields, line, notes, &mut Labels::default())
}

/// `build` for a reader that keeps `labels` from one item to the next.
pub fn build_with(
    fields: &Fields,
    line: u64,
    notes: &mut Vec<String>,
    labels: &mut Labels,
) -> Result<Item, String> {
    let id = match get(fields, f::ID) {
        Some(Val::Str(s)) => s.to_string(),
        Some(Val::Int(i)) => i.to_string(),
        Some(v) => {
            return Err(format!(
                "`id` must be a string or an integer, not {}",
                v.kind()
            ))
        }
        None => return Err("no `id`".to_string()),
    };
    let kind = match get(fields, f::TYPE) {
        None => "choice",
        Some(Val::Str(s)) => match s.as_ref() {
            "choice" => "choice",
            "binary" | "noul" => "binary",
            "rating" | "score" => "rating",
            "multi" => "multi",
            "pair" => "pair",
            "best_of_n" => "best_of_n",
            "consistency" => "consistency",
            other => return Err(format!("unknown type `{other}`")),
        },
        Some(v) => return Err(format!("`type` must be a string, not {}", v.kind())),
    };
    let body = match kind {
        "choice" => option_item(fields, OptionKind::Choice, notes, labels)?,
        "binary" => option_item(fields, OptionKind::Binary, notes, labels)?,
        "rating" => option_item(fields, OptionKind::Rating, notes, labels)?,
        "multi" => multi_item(fields, notes)?,
        "pair" => Body::Pair {
            chosen: score(fields, f::CHOSEN, "chosen")?,
            rejected: score(fields, f::REJECTED, "rejected")?,
        },
        "best_of_n" => best_of_n(fields)?,
        _ => consistency_item(fields)?,
    };
    let group = (f::GROUP..f::GROUP + 4).find_map(|i| get(fields, i));
    let group = match group {
        None => None,
        Some(v) => Some(
            labels.group(
                &v.as_label()
                    .ok_or_else(|| format!("the group must be a string, not {}", v.kind()))?,
            ),
        ),
    };
    // A cluster named by a string or a number (passage 17); anything else is noted and left out.
    let cluster = (f::CLUSTER..f::CLUSTER + 2)
        .find_map(|i| get(fields, i))
        .and_then(|v| match v.as_label() {
            Some(name) => Some(labels.group(&name)),
            None => {
                notes.push(format!(
                    "the cluster must be a string or a number, not {}; the item is its own cluster",
                    v.kind()
                ));
                None
            }
        });
    Ok(Item {
        id: id.into(),
        line: Some(line),
        group,
        tier: keyword(fields, f::TIER, "tier", Tier::parse, notes),
        split: keyword(fields, f::SPLIT, "split", Split::parse, notes),
        modality: keyword(fields, f::MODALITY, "modality", Modality::parse, notes),
        cluster,
        body,
    })
}

/// An optional keyword field; an unknown value is noted and ignored.
fn keyword<T>(
    fields: &Fields,
    i: usize,
    name: &str,
    parse: fn(&str) -> Option<T>,
    notes: &mut Vec<String>,
) -> Option<T> {
    let v = get(fields, i)?;
    let parsed = match v {
        Val::Str(s) => parse(s),
        _ => None,
    };
    if parsed.is_none() {
        notes.push(format!("unknown {name} {}; ignored", show(v)));
    }
    parsed
}

/// A short rendering of a value for messages.
fn show(v: &Val) -> String {
    match v {
        Val::Str(s) => format!("`{s}`"),
        Val::Int(i) => format!("`{i}`"),
        Val::Float(x) => format!("`{x}`"),
        Val::Bool(b) => format!("`{b}`"),
        other => other.kind().to_string(),
    }
}

/// A label for a binary field: booleans mean yes/no.
fn label<'a>(v: &Val<'a>, binary: bool) -> Option<Cow<'a, str>> {
    match v {
        Val::Bool(b) if binary => Some(Cow::Borrowed(if *b { "yes" } else { "no" })),
        _ => v.as_label(),
    }
}

fn label_list(v: &Val, what: &str) -> Result<Vec<String>, String> {
    let Val::List(xs) = v else {
        return Err(format!(
            "`{what}` must be a list of labels, not {}",
            v.kind()
        ));
    };
    xs.iter()
        .map(|x| {
            x.as_label()
                .map(Cow::into_owned)
                .ok_or_else(|| format!("`{what}` holds {}, not a label", x.kind()))
        })
        .collect()
}

const BINARY_OPTIONS: &str = "a binary item's options must be [\"no\", \"yes\"]";

fn options(fields: &Fields, kind: Option<OptionKind>) -> Result<Vec<String>, String> {
    let binary = kind == Some(OptionKind::Binary);
    let options = match get(fields, f::OPTIONS) {
        None if binary => return Ok(vec!["no".to_string(), "yes".to_string()]),
        None => return Err("no `options`".to_string()),
        Some(v) => label_list(v, "options")?,
    };
    if binary && options != ["no", "yes"] {
        return Err(BINARY_OPTIONS.to_string());
    }
    if options.len() < 2 {
        return Err(format!("needs at least 2 options, has {}", options.len()));
    }
    for (i, o) in options.iter().enumerate() {
        if options[..i].contains(o) {
            return Err(format!("option `{o}` is listed twice"));
        }
    }
    Ok(options)
}

fn index(options: &[String], label: &str) -> Option<usize> {
    options.iter().position(|o| o == label)
}

/// The item's options: the last item's list when it names the same labels, else read anew.
fn shared_options(
    fields: &Fields,
    kind: OptionKind,
    labels: &mut Labels,
) -> Result<Arc<[String]>, String> {
    let listed = get(fields, f::OPTIONS);
    if let Some(Val::List(xs)) = listed {
        if let Some(last) = labels.reuse(xs) {
            // Its count and distinctness passed when it was first read; only the binary rule
            // depends on the item.
            if kind == OptionKind::Binary && *last != ["no", "yes"] {
                return Err(BINARY_OPTIONS.to_string());
            }
            return Ok(last);
        }
    }
    let options: Arc<[String]> = options(fields, Some(kind))?.into();
    if listed.is_some() {
        labels.last = Some(options.clone());
    }
    Ok(options)
}

fn option_item(
    fields: &Fields,
    kind: OptionKind,
    notes: &mut Vec<String>,
    labels: &mut Labels,
) -> Result<Body, String> {
    let binary = kind == OptionKind::Binary;
    let options = shared_options(fields, kind, labels)?;
    let gold = match get(fields, f::GOLD) {
        None => return Err("no `gold`".to_string()),
        Some(v) => {
            let l = label(v, binary)
                .ok_or_else(|| format!("`gold` must be a label, not {}", v.kind()))?;
            index(&options, &l).ok_or_else(|| format!("gold `{l}` is not among the options"))?
        }
    };
    let gold_probs = match get(fields, f::GOLD_PROBS) {
        None => None,
        Some(v) => Some(gold_probs(v, &options)?),
    };
    let probs = read_probs(fields, &options, binary, notes);
    let answer = match get(fields, f::ANSWER) {
        None => probs.as_ref().map(|p| p.argmax()),
        Some(v) => match label(v, binary) {
            Some(l) => index(&options, &l),
            None => {
                notes.push(format!("`answer` is {}; counted as invalid", v.kind()));
                None
            }
        },
    };
    Ok(Body::Option(OptionItem {
        kind,
        options,
        gold,
        gold_probs,
        answer,
        probs,
    }))
}

/// A reference distribution: an object label → probability, or a list in option order.
fn gold_probs(v: &Val, options: &[String]) -> Result<Vec<f64>, String> {
    let bad = |why: String| format!("`gold_probs` {why}");
    let mut g = vec![0.0; options.len()];
    match v {
        Val::Map(entries) => {
            for (k, x) in entries {
                let i =
                    index(options, k).ok_or_else(|| bad(format!("names `{k}`, not an option")))?;
                g[i] = x
                    .as_f64()
                    .ok_or_else(|| bad(format!("holds {}", x.kind())))?;
            }
        }
        Val::List(xs) if xs.len() == options.len() => {
            for (i, x) in xs.iter().enumerate() {
                g[i] = x
                    .as_f64()
                    .ok_or_else(|| bad(format!("holds {}", x.kind())))?;
            }
        }
        _ => return Err(bad("must be an object label → probability".to_string())),
    }
    if g.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return Err(bad("holds a negative probability".to_string()));
    }
    let sum: f64 = g.iter().sum();
    if (sum - 1.0).abs() > 0.02 {
        return Err(bad(format!("sums to {sum}, not 1")));
    }
    Ok(g.into_iter().map(|x| x / sum).collect())
}

/// The item's probabilities from `probs`, `p_yes`, `logprobs` or `loglikelihoods`, in that order.
///
/// A malformed value is an output error: noted, and the item keeps no probabilities.
fn read_probs(
    fields: &Fields,
    options: &[String],
    binary: bool,
    notes: &mut Vec<String>,
) -> Option<crate::items::Probs> {
    let (source, v) = if let Some(v) = get(fields, f::PROBS) {
        (Source::Probs, v)
    } else if let (true, Some(v)) = (binary, get(fields, f::P_YES)) {
        return p_yes(v, notes);
    } else if let Some(v) = get(fields, f::LOGPROBS) {
        (Source::Logprobs, v)
    } else {
        (Source::Loglikelihoods, get(fields, f::LOGLIKELIHOODS)?)
    };
    let result = per_option(v, options, source.field()).and_then(|xs| probs::build(&xs, source));
    match result {
        Ok(p) => Some(p),
        Err(why) => {
            notes.push(format!("{why}; probabilities invalid"));
            None
        }
    }
}

fn p_yes(v: &Val, notes: &mut Vec<String>) -> Option<crate::items::Probs> {
    let result = match v.as_f64() {
        Some(p) if (0.0..=1.0).contains(&p) => {
            probs::build(&[Some(1.0 - p), Some(p)], Source::Probs)
        }
        Some(p) => Err(format!("`p_yes` {p} is outside [0, 1]")),
        None => Err(format!("`p_yes` is {}, not a number", v.kind())),
    };
    match result {
        Ok(p) => Some(p),
        Err(why) => {
            notes.push(format!("{why}; probabilities invalid"));
            None
        }
    }
}

/// One number per option from an object label → number; labels outside the options are ignored.
fn per_option(v: &Val, options: &[String], field: &str) -> Result<Vec<Option<f64>>, String> {
    let Val::Map(entries) = v else {
        return Err(format!(
            "`{field}` is {}, not an object label → number",
            v.kind()
        ));
    };
    let mut out = vec![None; options.len()];
    for (k, x) in entries {
        let Some(i) = index(options, k) else { continue };
        let x = x
            .as_f64()
            .ok_or_else(|| format!("{field}[`{k}`] is {}, not a number", x.kind()))?;
        if out[i].replace(x).is_some() {
            return Err(format!("{field} names `{k}` twice"));
        }
    }
    Ok(out)
}

/// A reward score: a number or a one-element list holding one.
fn score(fields: &Fields, i: usize, name: &str) -> Result<f64, String> {
    let v = get(fields, i).ok_or_else(|| format!("no `{name}`"))?;
    let x = match v {
        Val::List(xs) if xs.len() == 1 => xs[0].as_f64(),
        other => other.as_f64(),
    };
    x.ok_or_else(|| {
        format!(
            "`{name}` must be a number or a one-element list, not {}",
            v.kind()
        )
    })
}

fn best_of_n(fields: &Fields) -> Result<Body, String> {
    let Some(Val::List(xs)) = get(fields, f::SCORES) else {
        return Err("`scores` must be a list of numbers".to_string());
    };
    let scores = xs
        .iter()
        .map(|x| match x {
            Val::List(one) if one.len() == 1 => one[0].as_f64(),
            other => other.as_f64(),
        })
        .collect::<Option<Vec<f64>>>()
        .ok_or("`scores` must be a list of numbers")?;
    if scores.len() < 2 {
        return Err(format!(
            "`scores` needs at least 2 candidates, has {}",
            scores.len()
        ));
    }
    let num_correct = match get(fields, f::NUM_CORRECT) {
        None => 1,
        // No `as` cast: on wasm32 a large count would wrap into range.
        Some(Val::Int(n)) => match usize::try_from(*n) {
            Ok(n) if (1..scores.len()).contains(&n) => n,
            _ => {
                return Err(format!(
                    "`num_correct` {n} is not between 1 and the {} candidates - 1",
                    scores.len()
                ))
            }
        },
        Some(v) => {
            return Err(format!(
                "`num_correct` must be an integer, not {}",
                v.kind()
            ))
        }
    };
    Ok(Body::BestOfN {
        scores,
        num_correct,
    })
}

fn multi_item(fields: &Fields, notes: &mut Vec<String>) -> Result<Body, String> {
    let options = options(fields, None)?;
    let to_indices = |labels: Vec<String>| -> Option<Vec<usize>> {
        labels.iter().map(|l| index(&options, l)).collect()
    };
    let gold = match get(fields, f::GOLD) {
        None => return Err("no `gold`".to_string()),
        Some(v @ Val::List(_)) => {
            let g = label_list(v, "gold")?;
            to_indices(g).ok_or("`gold` names a label that is not among the options")?
        }
        Some(v) => {
            let l = v.as_label().ok_or("`gold` must be a list of labels")?;
            vec![index(&options, &l)
                .ok_or_else(|| format!("gold `{l}` is not among the options"))?]
        }
    };
    if gold.is_empty() {
        return Err("`gold` is an empty set".to_string());
    }
    let answer = match get(fields, f::ANSWER) {
        None => None,
        Some(v @ Val::List(_)) => label_list(v, "answer").ok().and_then(to_indices),
        Some(v) => v
            .as_label()
            .and_then(|l| index(&options, &l))
            .map(|i| vec![i]),
    };
    let steps = match get(fields, f::STEPS) {
        None => None,
        Some(Val::List(xs)) => {
            let parsed: Result<Vec<Vec<f64>>, String> = xs
                .iter()
                .map(|s| {
                    let v = per_option(s, &options, "steps")?;
                    Ok(v.into_iter().map(|x| x.unwrap_or(0.0)).collect())
                })
                .collect();
            match parsed {
                Ok(s) => Some(s),
                Err(why) => {
                    notes.push(format!("{why}; step probabilities invalid"));
                    None
                }
            }
        }
        Some(v) => {
            notes.push(format!("`steps` is {}, not a list; ignored", v.kind()));
            None
        }
    };
    Ok(Body::Multi(MultiItem {
        options,
        gold,
        answer,
        steps,
    }))
}

fn consistency_item(fields: &Fields) -> Result<Body, String> {
    let lists = match get(fields, f::OPTIONS) {
        Some(Val::List(xs)) if xs.len() == 2 => [
            label_list(&xs[0], "options")?,
            label_list(&xs[1], "options")?,
        ],
        _ => {
            return Err(
                "a consistency item's `options` must be a list of two label lists".to_string(),
            )
        }
    };
    let pair = |v: &Val, what: &str| -> Result<(Option<usize>, Option<usize>), String> {
        match v {
            Val::List(xs) if xs.len() == 2 => Ok((
                xs[0].as_label().and_then(|l| index(&lists[0], &l)),
                xs[1].as_label().and_then(|l| index(&lists[1], &l)),
            )),
            _ => Err(format!("`{what}` must be a pair of labels")),
        }
    };
    let Some(Val::List(cs)) = get(fields, f::CONSISTENT) else {
        return Err("`consistent` must be a list of answer pairs".to_string());
    };
    let mut consistent = Vec::with_capacity(cs.len());
    for c in cs {
        match pair(c, "consistent")? {
            (Some(a), Some(b)) if !consistent.contains(&(a, b)) => consistent.push((a, b)),
            (Some(_), Some(_)) => {}
            _ => return Err("`consistent` names a label that is not among the options".to_string()),
        }
    }
    if consistent.is_empty() {
        return Err("`consistent` is empty".to_string());
    }
    let answered = match get(fields, f::ANSWERS) {
        None => None,
        Some(v) => match pair(v, "answers") {
            Ok((Some(a), Some(b))) => Some((a, b)),
            _ => None,
        },
    };
    Ok(Body::Consistency(ConsistencyItem {
        sizes: (lists[0].len(), lists[1].len()),
        consistent_pairs: consistent.len(),
        consistent: answered.map(|a| consistent.contains(&a)),
    }))
}

/// The header's or an item's `model` and `benchmark`, when they are strings.
pub fn meta<'a>(fields: &'a Fields, i: usize) -> Option<&'a str> {
    match get(fields, i) {
        Some(Val::Str(s)) => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_names_are_shared_and_read_back_as_given() {
        let mut labels = Labels::default();
        // More names than the table keeps: the later ones are still right, each its own copy.
        let names: Vec<String> = (0..GROUP_NAMES + 300)
            .map(|i| format!("group-{i}-{}", "x".repeat(i % 13)))
            .collect();
        let first: Vec<Arc<str>> = names.iter().map(|n| labels.group(n)).collect();
        for _ in 0..2 {
            for (i, n) in names.iter().enumerate() {
                let g = labels.group(n);
                assert_eq!(&*g, n.as_str());
                assert_eq!(Arc::ptr_eq(&g, &first[i]), i < GROUP_NAMES, "{n}");
            }
        }
        assert_eq!(&*labels.group(""), "");
    }
}
