//! Per-item records for the browser's item explorer, kept only when a caller asks for them.
//!
//! The report holds figures, not items. The explorer needs each scored item's id, group, labels,
//! correctness and confidence, so a `Session` can keep them here: compact fixed-size records
//! (labels, groups and files interned, every id in one string), never the raw JSON, and at most
//! `cap` of them. The reliability diagram's equal-mass bins are the report's (`bins_em`).

use crate::items::{Body, Item, Mode};
use crate::metrics::calibration::confidence;
use crate::metrics::outcome;
use serde::{Deserialize, Serialize};
use strings::{Interner, Recent};

mod strings;

/// How many records a session keeps by default (40 bytes each, plus the id).
pub const DEFAULT_CAP: usize = 1_000_000;

/// Marks an invalid answer in a record.
const NONE: u32 = u32::MAX;

/// One item, compactly: strings are indices into the explorer's tables.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Record {
    id_end: u32,
    line: u32,
    file: u32,
    group: u32,
    kind: u32,
    gold: u32,
    answer: u32,
    credit: f32,
    /// Confidence under conditioning and mixing (f32 is plenty to show and to filter on); NaN
    /// when there is none (an `Option<f32>` pair would take 8 bytes more a record).
    confidence: [f32; 2],
}

impl Record {
    /// The confidence under reading 0 (conditioning) or 1 (mixing), if any.
    fn confidence(&self, reading: usize) -> Option<f32> {
        self.confidence
            .get(reading)
            .copied()
            .filter(|c| !c.is_nan())
    }
}

/// Which items a query shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Show {
    #[default]
    All,
    /// Credit below 1.
    Wrong,
    /// The answer is invalid (absent or not a valid option).
    Invalid,
    /// Wrong although the conditioning confidence is at least the threshold.
    ConfidentWrong,
}

/// In which order a query lists items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// As read.
    #[default]
    File,
    /// Highest conditioning confidence first; items without one last.
    Confidence,
}

/// A query over the kept records.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Filter {
    pub show: Show,
    /// Confidence threshold for `ConfidentWrong`.
    pub threshold: f64,
    /// Case-insensitive substring of the id, group or labels; empty matches every item.
    pub text: String,
    /// Only this group, when set.
    pub group: Option<String>,
    pub order: Order,
}

/// One item as the explorer lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Position among the kept records (read order).
    pub index: u32,
    pub id: String,
    pub file: String,
    pub line: Option<u64>,
    pub group: String,
    /// The item type as the canonical format spells it.
    pub kind: String,
    pub gold: String,
    /// `None` when the answer is invalid.
    pub answer: Option<String>,
    /// 1 right, 0 wrong, a fraction for best-of-n ties.
    pub credit: f64,
    pub confidence: Option<f64>,
    pub confidence_mixing: Option<f64>,
}

/// A page of query results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page {
    /// Matching items in all.
    pub total: u64,
    pub offset: u64,
    pub rows: Vec<Row>,
}

/// The kept records of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Explorer {
    cap: usize,
    /// Every kept id's UTF-8 bytes, one after another (`Record::id_end`); bytes, so that adding
    /// one needs no check (`Item.id` gives its bytes as they are), reading one checks it.
    ids: Vec<u8>,
    records: Vec<Record>,
    strings: Interner,
    recent: Recent,
    file: u32,
    /// Items seen beyond `cap`, counted but not kept.
    dropped: u64,
    /// The last query's matches, reused while the filter stays the same (scrolling).
    cached: Option<(Filter, Vec<u32>)>,
}

impl Explorer {
    /// An explorer that keeps at most `cap` records.
    pub fn new(cap: usize) -> Self {
        let mut strings = Interner::default();
        let file = strings.get("");
        Explorer {
            cap,
            ids: Vec::new(),
            records: Vec::new(),
            strings,
            recent: Recent::default(),
            file,
            dropped: 0,
            cached: None,
        }
    }

    /// Makes room for `items` more records (never past the cap) at once, when the reader can
    /// tell how many a file holds: growing by doubling copies the records each time, which in
    /// wasm is a copy into fresh memory while the old block is still held.
    pub fn reserve(&mut self, items: usize) {
        let room = self.cap.saturating_sub(self.records.len()).min(items);
        self.records.reserve_exact(room);
    }

    /// The records there is room for (tests).
    #[cfg(test)]
    pub(crate) fn room(&self) -> usize {
        self.records.capacity()
    }

    /// Items that follow belong to this file.
    pub fn begin_file(&mut self, name: &str) {
        self.file = self.strings.get(name);
    }

    /// Records one scored item (after the profile admitted it).
    pub fn add(&mut self, item: &Item) {
        let id = item.id.as_bytes();
        if self.records.len() >= self.cap || self.ids.len() + id.len() > u32::MAX as usize {
            self.dropped += 1;
            return;
        }
        let judged = outcome::outcome(item);
        let mut conf = [f32::NAN; 2];
        if let Body::Option(o) = &item.body {
            for (slot, mode) in [Mode::Conditioning, Mode::Mixing].into_iter().enumerate() {
                let c = o
                    .probs
                    .as_ref()
                    .and_then(|p| p.with_distribution(mode, |q| confidence(o, q)));
                if let Some(c) = c {
                    conf[slot] = c as f32;
                }
            }
        }
        let (gold, answer) = match &item.body {
            // The common case interns the option labels as they are, without a copy.
            Body::Option(o) => {
                let (recent, strings) = (&mut self.recent, &mut self.strings);
                (
                    recent.label(strings, &o.options, o.gold),
                    o.answer
                        .map_or(NONE, |a| recent.label(strings, &o.options, a)),
                )
            }
            _ => {
                let (gold, answer) = labels(item);
                (
                    self.strings.get(&gold),
                    answer.map_or(NONE, |a| self.strings.get(&a)),
                )
            }
        };
        if self.records.len() == self.records.capacity() {
            // Grow by doubling, but never past the cap (a full explorer holds no spare room).
            let len = self.records.len();
            self.records
                .reserve_exact(len.max(1024).min(self.cap.saturating_sub(len)).max(1));
        }
        self.ids.extend_from_slice(id);
        let record = Record {
            id_end: self.ids.len() as u32,
            line: item.line.map_or(0, |l| l.min(u64::from(u32::MAX)) as u32),
            file: self.file,
            group: self.recent.group(&mut self.strings, item.group.as_ref()),
            kind: self.recent.kind(&mut self.strings, item.type_name()),
            gold,
            answer,
            credit: judged.credit as f32,
            confidence: conf,
        };
        self.records.push(record);
        self.cached = None;
    }

    /// Records kept.
    /// Lets go of the room the records grew beyond the items (the run is over): the browser's
    /// worker, whose memory only grows, keeps an explorer for every run it holds.
    pub fn shrink_to_fit(&mut self) {
        self.ids.shrink_to_fit();
        self.records.shrink_to_fit();
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Items scored but not kept, because the cap was reached.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// `limit` matching rows from `offset` on, and how many match in all.
    pub fn query(&mut self, filter: &Filter, offset: u64, limit: u64) -> Page {
        let matches = match self.cached.take() {
            Some((f, m)) if f == *filter => m,
            _ => self.matching(filter),
        };
        let rows = matches
            .iter()
            .skip(offset as usize)
            .take(limit as usize)
            .filter_map(|&i| self.row(i))
            .collect();
        let total = matches.len() as u64;
        self.cached = Some((filter.clone(), matches));
        Page {
            total,
            offset,
            rows,
        }
    }

    fn matching(&self, f: &Filter) -> Vec<u32> {
        let needle = f.text.trim().to_lowercase();
        let group = f.group.as_ref().map(|g| self.strings.find(g));
        let mut out: Vec<u32> = (0..self.records.len() as u32)
            .filter(|&i| {
                let Some(r) = self.records.get(i as usize) else {
                    return false;
                };
                let shown = match f.show {
                    Show::All => true,
                    Show::Wrong => r.credit < 1.0,
                    Show::Invalid => r.answer == NONE,
                    Show::ConfidentWrong => {
                        r.credit < 1.0
                            && r.confidence(0).is_some_and(|c| f64::from(c) >= f.threshold)
                    }
                };
                shown
                    && group.is_none_or(|g| g == Some(r.group))
                    && (needle.is_empty() || self.mentions(i, r, &needle))
            })
            .collect();
        if f.order == Order::Confidence {
            let key = |i: &u32| {
                self.records
                    .get(*i as usize)
                    .and_then(|r| r.confidence(0))
                    .unwrap_or(f32::NEG_INFINITY)
            };
            out.sort_by(|a, b| key(b).total_cmp(&key(a)));
        }
        out
    }

    fn mentions(&self, i: u32, r: &Record, needle: &str) -> bool {
        let has = |s: &str| s.to_lowercase().contains(needle);
        has(self.id(i))
            || has(self.strings.name(r.group))
            || has(self.strings.name(r.gold))
            || (r.answer != NONE && has(self.strings.name(r.answer)))
    }

    fn id(&self, i: u32) -> &str {
        let start = match i.checked_sub(1) {
            Some(prev) => self.records.get(prev as usize).map_or(0, |r| r.id_end),
            None => 0,
        };
        let end = self.records.get(i as usize).map_or(start, |r| r.id_end);
        self.ids
            .get(start as usize..end as usize)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }

    fn row(&self, i: u32) -> Option<Row> {
        let r = self.records.get(i as usize)?;
        Some(Row {
            index: i,
            id: self.id(i).to_string(),
            file: self.strings.name(r.file).to_string(),
            line: (r.line > 0).then_some(u64::from(r.line)),
            group: self.strings.name(r.group).to_string(),
            kind: self.strings.name(r.kind).to_string(),
            gold: self.strings.name(r.gold).to_string(),
            answer: (r.answer != NONE).then(|| self.strings.name(r.answer).to_string()),
            credit: f64::from(r.credit),
            confidence: r.confidence(0).map(f64::from),
            confidence_mixing: r.confidence(1).map(f64::from),
        })
    }
}

/// The gold and the answer of an item as text; the answer is `None` when invalid.
fn labels(item: &Item) -> (String, Option<String>) {
    let pick = |options: &[String], i: usize| options.get(i).cloned().unwrap_or_default();
    let set = |options: &[String], idx: &[usize]| {
        let names: Vec<&str> = idx
            .iter()
            .filter_map(|&i| options.get(i).map(String::as_str))
            .collect();
        names.join(" + ")
    };
    match &item.body {
        Body::Option(o) => (
            pick(&o.options, o.gold),
            o.answer.map(|a| pick(&o.options, a)),
        ),
        Body::Multi(m) => (
            set(&m.options, &m.gold),
            m.answer.as_ref().map(|a| set(&m.options, a)),
        ),
        Body::Pair { chosen, rejected } => {
            let answer = if chosen > rejected {
                "chosen"
            } else if chosen < rejected {
                "rejected"
            } else {
                "tie"
            };
            ("chosen".to_string(), Some(answer.to_string()))
        }
        Body::BestOfN {
            scores,
            num_correct,
        } => {
            let gold = match num_correct {
                1 => "candidate 1".to_string(),
                n => format!("candidates 1-{n}"),
            };
            let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let top: Vec<String> = scores
                .iter()
                .enumerate()
                .filter(|(_, &s)| s == max)
                .map(|(i, _)| (i + 1).to_string())
                .collect();
            let answer = match top.len() {
                0 => None,
                1 => Some(format!("candidate {}", top.join(""))),
                _ => Some(format!("tie of {}", top.join(", "))),
            };
            (gold, answer)
        }
        Body::Consistency(c) => (
            "consistent".to_string(),
            c.consistent.map(|ok| {
                if ok {
                    "consistent".to_string()
                } else {
                    "inconsistent".to_string()
                }
            }),
        ),
        Body::Graded { gold, answer, .. } => (gold.clone(), answer.clone()),
    }
}

#[cfg(test)]
mod tests;
