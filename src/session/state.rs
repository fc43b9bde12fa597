//! What a reader's sink updates during a run: the items scored, ids seen, warnings kept, files
//! read, and whether strict mode asks the readers to stop.

use crate::explore::Explorer;
use crate::formats::{Format, Meta, Shelf, Sink};
use crate::id_set::{IdHash, IdSet};
use crate::items::Item;
use crate::metrics::bootstrap::Sample;
use crate::profiles::resampling;
use crate::profiles::{Context, Profile, Scorer};
use crate::report::FileSummary;
use crate::reported::{Reported, TextLengths};
use crate::warning::Warning;

/// At most this many warnings are kept; the rest are counted in a final one.
pub const MAX_WARNINGS: usize = 1000;

/// Everything the reader's sink updates.
pub(super) struct State {
    pub(super) chosen: Option<&'static Profile>,
    pub(super) scorer: Option<Scorer>,
    pub(super) ctx: Context,
    pub(super) seen: IdSet,
    pub(super) items: u64,
    pub(super) skipped: u64,
    pub(super) warnings: Vec<Warning>,
    pub(super) dropped_warnings: u64,
    pub(super) first_warning: Option<Warning>,
    pub(super) file: Option<FileSummary>,
    pub(super) files: Vec<FileSummary>,
    pub(super) reported: Vec<Reported>,
    pub(super) shelf: Shelf,
    /// Formats that read at least one file, for their end-of-run check.
    pub(super) used: Vec<&'static dyn Format>,
    /// Per-item records, kept only on request (`Options::items`).
    pub(super) explorer: Option<Explorer>,
    /// Compact per-item records for intervals and comparisons, kept only on request
    /// (`Options::sample`); made with the profile at the first item.
    pub(super) sample: Option<Sample>,
    pub(super) want_sample: bool,
    /// Items scored that named a cluster of their own.
    pub(super) clustered_items: u64,
    /// The user's cluster rule (`Options::cluster`).
    pub(super) cluster: Option<crate::metrics::bootstrap::ClusterBy>,
    /// The file being read has no field of the user's name to read (its format reads none):
    /// its items' own clusters are dropped, so that they are not reported under that name.
    pub(super) no_cluster_field: bool,
    /// The most items the sample may hold; past it, it is freed (`Options::sample`).
    pub(super) sample_cap: usize,
    /// Items the profile admitted, counted once the sample was freed at its cap.
    pub(super) sample_dropped: Option<u64>,
    /// Strict mode: the first warning stops the run.
    pub(super) strict: bool,
    /// Set at the first warning in strict mode: readers stop, and so does the session's reading.
    pub(super) stopped: bool,
}

impl State {
    pub(super) fn new(chosen: Option<&'static Profile>, opts: &super::Options) -> State {
        State {
            chosen,
            scorer: None,
            ctx: Context::default(),
            seen: IdSet::default(),
            items: 0,
            skipped: 0,
            warnings: Vec::new(),
            dropped_warnings: 0,
            first_warning: None,
            file: None,
            files: Vec::new(),
            reported: Vec::new(),
            shelf: Shelf::default(),
            used: Vec::new(),
            explorer: opts.items.map(Explorer::new),
            sample: None,
            want_sample: opts.sample.is_some()
                || opts.bootstrap.is_some()
                || opts.cluster.is_some(),
            cluster: opts.cluster.clone(),
            no_cluster_field: false,
            clustered_items: 0,
            sample_cap: opts.sample.unwrap_or(usize::MAX),
            sample_dropped: None,
            strict: opts.strict,
            stopped: false,
        }
    }

    fn file_name(&self) -> &str {
        self.file.as_ref().map_or("", |f| f.name.as_str())
    }

    /// Scores one item of `file` (`None`: the file being read), unless its id was seen before;
    /// `hash` is its id's `IdSet::hash` when the block reader already computed it.
    pub(super) fn add(&mut self, file: Option<&str>, item: &mut Item, hash: Option<IdHash>) {
        if self.no_cluster_field {
            item.cluster = None;
        }
        if let Some(why) = crate::item_check::inconsistency(item) {
            let why = format!(
                "item `{}` is inconsistent as read ({why}); skipped",
                item.id
            );
            let name = file.unwrap_or(self.file_name()).to_string();
            return self.skip(Warning::new(&name, item.line, why));
        }
        let hash = hash.unwrap_or_else(|| IdSet::hash(&item.id));
        if !self.seen.insert_hashed(hash) {
            let why = format!(
                "id `{}` was already seen; this later item is skipped",
                item.id
            );
            let name = file.unwrap_or(self.file_name()).to_string();
            return self.skip(Warning::new(&name, item.line, why));
        }
        if self.want_sample && self.sample.is_none() && self.sample_dropped.is_none() {
            let by = self.cluster.clone().unwrap_or_default();
            self.sample = Some(resampling::sample_for(self.scorer().profile()).cluster_by(by));
        }
        // The scorer made now, so that its field is borrowed beside the explorer and the sample:
        // moving those (some 250 bytes each) out and back for every item was a tenth of the
        // CLI's main thread.
        self.scorer();
        let (cap, mut dropped) = (self.sample_cap, self.sample_dropped);
        let (explorer, sample) = (&mut self.explorer, &mut self.sample);
        if let Some(scorer) = self.scorer.as_mut() {
            scorer.update_seen_in(item, |i| {
                if let Some(e) = explorer.as_mut() {
                    e.add(i);
                }
                if let Some(n) = dropped.as_mut() {
                    *n += 1;
                } else if let Some(s) = sample.as_mut() {
                    if s.len() < cap {
                        s.push(i);
                    } else {
                        // Past the cap: free the records now, before the run grows further.
                        dropped = Some(s.len() as u64 + 1);
                        *sample = None;
                    }
                }
            });
        }
        self.sample_dropped = dropped;
        self.items += 1;
        self.clustered_items += u64::from(item.cluster.is_some());
        let summary = match file {
            None => self.file.as_mut(),
            Some(name) => self.summary_of(name),
        };
        if let Some(f) = summary {
            f.items += 1;
        }
    }

    /// The summary of the named file: the one being read, else an earlier one of the run.
    fn summary_of(&mut self, name: &str) -> Option<&mut FileSummary> {
        match self.file.as_mut() {
            Some(f) if f.name == name => Some(f),
            _ => self.files.iter_mut().rev().find(|f| f.name == name),
        }
    }

    fn record(&mut self, w: Warning) {
        if self.first_warning.is_none() {
            self.first_warning = Some(w.clone());
            self.stopped = self.strict;
        }
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(w);
        } else {
            self.dropped_warnings += 1;
        }
    }

    /// The scorer, created at the first item with the profile known by then.
    fn scorer(&mut self) -> &mut Scorer {
        if self.scorer.is_none() {
            let profile = match (self.chosen, &self.ctx.benchmark) {
                (Some(p), _) => p,
                (None, Some(b)) => Profile::parse(b).unwrap_or_else(Profile::generic),
                (None, None) => Profile::generic(),
            };
            self.chosen = Some(profile);
        }
        let profile = self.chosen.unwrap_or_else(Profile::generic);
        self.scorer.get_or_insert_with(|| Scorer::new(profile))
    }
}

impl Sink for State {
    fn item(&mut self, mut item: Item) {
        self.add(None, &mut item, None);
    }

    fn item_in(&mut self, file: &str, mut item: Item) {
        self.add(Some(file), &mut item, None);
    }

    fn skip(&mut self, warning: Warning) {
        self.skipped += 1;
        if let Some(f) = self.summary_of(&warning.file) {
            f.skipped += 1;
        }
        self.record(warning);
    }

    fn warn(&mut self, warning: Warning) {
        self.record(warning);
    }

    fn reported(&mut self, figure: Reported) {
        self.reported.push(figure);
    }

    fn lengths(&mut self, lengths: TextLengths) {
        // The file being read is the next one of `files`.
        self.ctx.texts.push((self.files.len(), lengths));
    }

    fn shelf(&mut self) -> &mut Shelf {
        &mut self.shelf
    }

    fn stopped(&self) -> bool {
        self.stopped
    }

    fn meta(&mut self, key: Meta, value: &str) {
        let file = self.file.as_mut();
        match key {
            Meta::FormatVersion => {
                if let Some(f) = file {
                    f.version = Some(value.to_string());
                }
            }
            Meta::Mapping => {
                if let Some(f) = file.filter(|f| !f.mapping.iter().any(|m| m == value)) {
                    f.mapping.push(value.to_string());
                }
            }
            Meta::NotApplicable => {
                if let Some(f) = file {
                    f.not_applicable += 1;
                }
            }
            Meta::Model => {
                self.ctx.model.get_or_insert_with(|| value.to_string());
            }
            Meta::Benchmark => {
                if self.ctx.benchmark.is_none() {
                    self.ctx.benchmark = Some(value.to_string());
                    self.check_benchmark(value);
                }
            }
        }
    }
}

impl State {
    /// Says when the file's benchmark cannot set the profile.
    fn check_benchmark(&mut self, name: &str) {
        let file = self.file_name().to_string();
        match (Profile::parse(name), self.chosen, &self.scorer) {
            (None, None, _) => self.record(Warning::new(
                &file,
                None,
                format!("unknown benchmark `{name}`; scored with the generic profile"),
            )),
            (Some(p), Some(current), Some(_)) if p != current => self.record(Warning::new(
                &file,
                None,
                format!(
                    "the file names benchmark `{name}` only after items were scored as `{}`; pass --profile {} to use its rules",
                    current.name,
                    p.name
                ),
            )),
            _ => {}
        }
    }
}
