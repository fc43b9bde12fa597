//! Gathers an Inspect log's samples by id and turns each into one item, reducing its epochs by
//! the mean as Inspect's default reducer does.
//!
//! Ids repeat across epochs, so nothing is emitted until the log has been read. A one-epoch
//! multiple-choice sample whose verdict agrees with `answer == target` becomes a plain choice (or
//! multi-select) item with its probabilities; anything else (partial credit, a mean over epochs,
//! a free-form answer, a verdict that disagrees with the letters) is graded with the scorer's credit.

use crate::formats::inspect::json::Sample;
use crate::formats::inspect::sample::{self, letter, letters, Epoch, Question};
use crate::formats::json::Val;
use crate::formats::{Meta, Sink};
use crate::items::{Body, Item, MultiItem, OptionItem, OptionKind};
use crate::probs::{self, Source};
use crate::warning::Warning;
use std::collections::HashMap;
use std::sync::Arc;

/// The samples of one log, by id in first-seen order.
#[derive(Debug, Default)]
pub struct Collector {
    order: Vec<String>,
    by_id: HashMap<String, (Question, Vec<(u64, Epoch)>)>,
    /// The user's cluster field, a key of the sample's `metadata` (`--cluster KEY` or
    /// `--cluster metadata.KEY`), and each sample's cluster under it (its first epoch's).
    pub cluster_field: Option<Arc<str>>,
    clusters: HashMap<String, Arc<str>>,
    /// How many samples had more than one epoch, and how many epochs were unscored.
    pub multi_epoch: u64,
    pub unscored: u64,
}

impl Collector {
    /// Reads one sample (one epoch); `place` names it in warnings.
    pub fn add(
        &mut self,
        sample: &Sample,
        scorer: &str,
        place: &str,
        file: &str,
        sink: &mut dyn Sink,
    ) {
        let id = match &sample.id {
            Val::Str(s) => s.to_string(),
            Val::Int(i) => i.to_string(),
            other => {
                let why = format!(
                    "{place}: `id` is {}, not a string or an integer",
                    other.kind()
                );
                return sink.skip(Warning::new(file, None, why));
            }
        };
        let epoch = sample.epoch.unwrap_or(1);
        let place = format!("{place} (sample {id}, epoch {epoch})");
        let mut notes = Vec::new();
        let read = sample::read(sample, scorer, &mut notes);
        for n in notes {
            sink.warn(Warning::new(file, None, format!("{place}: {n}")));
        }
        let (question, verdict) = match read {
            Ok(r) => r,
            Err(why) => return sink.skip(Warning::new(file, None, format!("{place}: {why}"))),
        };
        if let Some(name) = self.cluster_field.as_deref() {
            if !self.clusters.contains_key(&id) {
                let key = name.strip_prefix("metadata.").unwrap_or(name);
                let mut notes = Vec::new();
                let cluster = sample
                    .metadata
                    .as_ref()
                    .and_then(|m| crate::formats::cluster_field::cluster_of(m, key, &mut notes));
                for n in notes {
                    sink.warn(Warning::new(file, None, format!("{place}: {n}")));
                }
                if let Some(c) = cluster {
                    self.clusters.insert(id.clone(), c.as_ref().into());
                }
            }
        }
        match self.by_id.get_mut(&id) {
            None => {
                self.order.push(id.clone());
                self.by_id.insert(id, (question, vec![(epoch, verdict)]));
            }
            Some((known, epochs)) => {
                if *known != question {
                    let why = format!("{place}: its choices or target differ from an earlier epoch; the first are kept");
                    sink.warn(Warning::new(file, None, why));
                }
                // A re-logged epoch supersedes the earlier record, as in Inspect.
                epochs.retain(|(e, _)| *e != epoch);
                epochs.push((epoch, verdict));
            }
        }
    }

    /// Emits one item per sample.
    pub fn finish(&mut self, file: &str, sink: &mut dyn Sink) {
        for id in std::mem::take(&mut self.order) {
            let Some((question, epochs)) = self.by_id.remove(&id) else {
                continue;
            };
            let scored: Vec<&Epoch> = epochs
                .iter()
                .map(|(_, e)| e)
                .filter(|e| e.credit.is_some())
                .collect();
            self.unscored += (epochs.len() - scored.len()) as u64;
            if scored.is_empty() {
                sink.meta(Meta::NotApplicable, "unscored sample");
                continue;
            }
            if epochs.len() > 1 {
                self.multi_epoch += 1;
            }
            let mut notes = Vec::new();
            let body = body(&question, &scored, &mut notes);
            for n in notes {
                sink.warn(Warning::new(file, None, format!("sample {id}: {n}")));
            }
            let cluster = self.clusters.remove(&id);
            sink.item(Item {
                id: id.into(),
                line: None,
                group: None,
                tier: None,
                split: None,
                modality: None,
                cluster,
                body,
            });
        }
    }
}

/// The item body for a sample's scored epochs (at least one).
fn body(question: &Question, scored: &[&Epoch], notes: &mut Vec<String>) -> Body {
    let credits: Vec<f64> = scored.iter().filter_map(|e| e.credit).collect();
    let credit = credits.iter().sum::<f64>() / credits.len() as f64;
    if let [one] = scored {
        let right = if credit == 1.0 {
            Some(true)
        } else if credit == 0.0 {
            Some(false)
        } else {
            None
        };
        match question {
            Question::Single { k, gold } => {
                let answer = one
                    .answer
                    .as_deref()
                    .and_then(letters)
                    .and_then(|a| match a[..] {
                        [i] if i < *k => Some(i),
                        _ => None,
                    });
                if right == Some(answer == Some(*gold)) {
                    return Body::Option(OptionItem {
                        kind: OptionKind::Choice,
                        options: (0..*k).map(letter).collect(),
                        gold: *gold,
                        gold_probs: None,
                        answer,
                        probs: option_probs(one, notes),
                    });
                }
                disagree(one, credit, &letter(*gold), notes);
            }
            Question::Several { k, gold } => {
                let answer = one
                    .answer
                    .as_deref()
                    .and_then(letters)
                    .filter(|a| a.iter().all(|&i| i < *k));
                let same = answer
                    .as_ref()
                    .is_some_and(|a| a.len() == gold.len() && a.iter().all(|i| gold.contains(i)));
                if right == Some(same) {
                    return Body::Multi(MultiItem {
                        options: (0..*k).map(letter).collect(),
                        gold: gold.clone(),
                        answer,
                        steps: None,
                    });
                }
                disagree(one, credit, &gold_text(question), notes);
            }
            Question::Free { .. } => {}
        }
    }
    let mut answers: Vec<&str> = Vec::new();
    for a in scored.iter().filter_map(|e| e.answer.as_deref()) {
        if !answers.contains(&a) {
            answers.push(a);
        }
    }
    Body::Graded {
        credit,
        gold: gold_text(question),
        answer: (!answers.is_empty()).then(|| answers.join(" / ")),
    }
}

fn disagree(epoch: &Epoch, credit: f64, gold: &str, notes: &mut Vec<String>) {
    if credit == 0.0 || credit == 1.0 {
        notes.push(format!(
            "the scorer gave credit {credit} to answer {:?} against target {gold}; its verdict is kept",
            epoch.answer.as_deref().unwrap_or("")
        ));
    }
}

fn gold_text(question: &Question) -> String {
    match question {
        Question::Single { gold, .. } => letter(*gold),
        Question::Several { gold, .. } => gold
            .iter()
            .map(|&g| letter(g))
            .collect::<Vec<_>>()
            .join(", "),
        Question::Free { target } => target.clone(),
    }
}

/// The epoch's letter probabilities as validated `Probs`; a malformed set is noted and dropped.
fn option_probs(epoch: &Epoch, notes: &mut Vec<String>) -> Option<crate::items::Probs> {
    let values = epoch.probs.as_ref()?;
    match probs::build(values, Source::Probs) {
        Ok(p) => Some(p),
        Err(why) => {
            notes.push(format!("answer-letter probabilities left out: {why}"));
            None
        }
    }
}
