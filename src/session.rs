//! One scoring run: files are fed in (whole or in chunks), items stream into the scorer, and
//! `finish` gives the report. The CLI, the worker and the embed API all drive this.

use crate::explore::Explorer;
use crate::formats::canonical::chunks::{self, Block, Event};
use crate::formats::canonical::item::Labels;
use crate::formats::{self, Format, Meta, Reader, Shelf, Sink};
use crate::id_set::{IdHash, IdSet};
use crate::items::Item;
use crate::metrics::bootstrap::{BootstrapOptions, Sample};
use crate::profiles::resampling;
use crate::profiles::{Context, Profile, Scorer};
use crate::report::{FileSummary, Report};
use crate::reported::{Reported, TextLengths};
use crate::warning::Warning;
use crate::Error;

/// Blocks of this many bytes for `read` of a large file.
const READ_BLOCK: usize = 1 << 20;

/// Items whose seen-id slots `replay` loads at once.
const TOUCH: usize = 256;

/// At most this many warnings are kept; the rest are counted in a final one.
pub const MAX_WARNINGS: usize = 1000;

/// What the caller chooses.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// A profile name; `None` lets the file's header or `benchmark` field decide.
    pub profile: Option<String>,
    /// Turn the first warning into an error.
    pub strict: bool,
}

/// A finished run: the report and the per-item records kept on request.
#[derive(Debug)]
pub struct Finished {
    pub report: Report,
    pub explorer: Option<Explorer>,
    pub sample: Option<Sample>,
    /// `Some(n)` when the sample was asked for with a cap (`Session::keep_sample_up_to`) and the
    /// run passed it: `sample` is then `None`, and `n` items were admitted by the profile.
    pub sample_dropped: Option<u64>,
}

/// Everything the reader's sink updates.
struct State {
    chosen: Option<&'static Profile>,
    scorer: Option<Scorer>,
    ctx: Context,
    seen: IdSet,
    items: u64,
    skipped: u64,
    warnings: Vec<Warning>,
    dropped_warnings: u64,
    first_warning: Option<Warning>,
    file: Option<FileSummary>,
    files: Vec<FileSummary>,
    reported: Vec<Reported>,
    shelf: Shelf,
    /// Formats that read at least one file, for their end-of-run check.
    used: Vec<&'static dyn Format>,
    /// Per-item records, kept only on request (`Session::keep_items`).
    explorer: Option<Explorer>,
    /// Compact per-item records for intervals and comparisons, kept only on request
    /// (`Session::keep_sample`); made with the profile at the first item.
    sample: Option<Sample>,
    want_sample: bool,
    /// The most items the sample may hold; past it, it is freed (`keep_sample_up_to`).
    sample_cap: usize,
    /// Items the profile admitted, counted once the sample was freed at its cap.
    sample_dropped: Option<u64>,
}

/// A scoring run in progress.
pub struct Session {
    reader: Option<Box<dyn Reader>>,
    /// The current file when it is canonical JSON Lines: `feed` reads its lines in blocks.
    lines: Option<Box<LineFeed>>,
    state: State,
    strict: bool,
    /// Bootstrap intervals to add at `finish` (`Session::bootstrap`).
    bootstrap: Option<BootstrapOptions>,
}

/// A canonical JSON Lines file fed in chunks, read in blocks as `read_blocks` reads them: the
/// replay warms the seen-id table ahead of its inserts, which `Reader::feed` cannot (in the
/// browser's worker, where files come in chunks, that was a cache miss an item).
#[derive(Debug, Default)]
struct LineFeed {
    name: String,
    stream: chunks::Stream,
    /// The block being replayed; its lists keep their memory from block to block.
    block: Block,
    /// The option lists and group names of the blocks read so far.
    labels: Labels,
    /// Lines of the file before the next block.
    before: u64,
}

impl Session {
    pub fn new(opts: &Options) -> Result<Session, Error> {
        let chosen = match &opts.profile {
            None => None,
            Some(name) => {
                Some(Profile::parse(name).ok_or_else(|| Error::UnknownProfile(name.clone()))?)
            }
        };
        Ok(Session {
            reader: None,
            lines: None,
            strict: opts.strict,
            bootstrap: None,
            state: State {
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
                explorer: None,
                sample: None,
                want_sample: false,
                sample_cap: usize::MAX,
                sample_dropped: None,
            },
        })
    }

    /// Starts a file; `head` is its first bytes (`formats::HEAD` of them, or the whole file when
    /// shorter), used to detect the format. Returns the format's name, `None` when no format
    /// claims the file (that is reported as a warning and the file's bytes are ignored).
    pub fn begin_file(&mut self, name: &str, head: &[u8]) -> Option<&'static str> {
        self.begin_file_as(name, head, formats::detect(name, head))
    }

    /// Starts a file read by the given format, detection skipped (`None`: as an unknown format).
    /// For callers that know the format, and for the fuzz targets that drive one reader each.
    pub fn begin_file_as(
        &mut self,
        name: &str,
        head: &[u8],
        format: Option<&'static dyn Format>,
    ) -> Option<&'static str> {
        self.end_file();
        if let Some(e) = self.state.explorer.as_mut() {
            e.begin_file(name);
        }
        self.state.file = Some(FileSummary {
            name: name.to_string(),
            format: format.map_or("unknown", |f| f.name()).to_string(),
            version: None,
            mapping: Vec::new(),
            items: 0,
            skipped: 0,
            not_applicable: 0,
        });
        match format {
            Some(f) => {
                self.reader = Some(f.reader(name));
                if !self.state.used.iter().any(|u| u.name() == f.name()) {
                    self.state.used.push(f);
                }
            }
            None => self
                .state
                .skip(Warning::new(name, None, formats::unknown_format(head))),
        }
        format.map(|f| f.name())
    }

    /// Feeds the next chunk of the current file.
    pub fn feed(&mut self, chunk: &[u8]) {
        if let Some(mut lines) = self.lines.take() {
            self.feed_lines(&mut lines, Some(chunk));
            self.lines = Some(lines);
            return;
        }
        if let Some(r) = self.reader.as_mut() {
            r.feed(chunk, &mut self.state);
        }
    }

    /// Ends the current file, if one is open.
    pub fn end_file(&mut self) {
        if let Some(mut lines) = self.lines.take() {
            self.feed_lines(&mut lines, None);
        }
        if let Some(mut r) = self.reader.take() {
            r.finish(&mut self.state);
        }
        if let Some(f) = self.state.file.take() {
            self.state.files.push(f);
        }
    }

    /// From now on `feed` reads the current file's chunks in blocks of whole lines, replayed as
    /// `read_blocks` replays them, when the file is canonical JSON Lines (its first bytes `head`);
    /// true if so. The report is the same; what changes is speed: the replay warms the seen-id
    /// table ahead of its inserts, which the line reader cannot. For a caller that gets a large
    /// file in chunks (the browser's worker).
    pub fn feed_in_blocks(&mut self, head: &[u8]) -> bool {
        let canonical = self.canonical_lines(head);
        if let Some(file) = self.state.file.as_ref().filter(|_| canonical) {
            self.lines = Some(Box::new(LineFeed {
                name: file.name.clone(),
                ..LineFeed::default()
            }));
        }
        canonical
    }

    /// Whether the file just begun, whose first bytes are `head`, is canonical JSON Lines: the
    /// layout whose blocks of lines may be read on their own (`formats::canonical::chunks`).
    fn canonical_lines(&self, head: &[u8]) -> bool {
        self.reader.is_some()
            && self
                .state
                .file
                .as_ref()
                .is_some_and(|f| f.format == formats::canonical::Canonical.name())
            && chunks::is_lines(head)
    }

    /// The blocks of whole lines that `chunk` completes, read and replayed in order; with no
    /// chunk, the file's last line when it has no newline.
    fn feed_lines(&mut self, lines: &mut LineFeed, chunk: Option<&[u8]>) {
        let LineFeed {
            name,
            stream,
            block,
            labels,
            before,
        } = lines;
        let mut each = |part: &[u8]| {
            chunks::read_block_with(name, part, block, labels);
            self.replay_in_place(block, *before);
            *before += block.lines;
        };
        match chunk {
            Some(chunk) => stream.push(chunk, READ_BLOCK, &mut each),
            None => stream.finish(&mut each),
        }
    }

    /// Reads one whole file. A large canonical JSON Lines file goes through `read_blocks`, whose
    /// replay warms the seen-id table ahead of its inserts; the report is the same.
    pub fn read(&mut self, name: &str, bytes: &[u8]) {
        if bytes.len() > READ_BLOCK {
            return self.read_blocks(name, bytes, READ_BLOCK);
        }
        self.begin_file(name, &bytes[..bytes.len().min(formats::HEAD)]);
        self.expect_lines(&bytes[..bytes.len().min(formats::HEAD)], bytes.len());
        self.feed(bytes);
        self.end_file();
    }

    /// Starts a whole file for block reading: true when it is canonical JSON Lines, whose blocks
    /// of lines (`chunks::split`, `read_block`) may then be read in any order, on any
    /// thread, and given to `replay` in file order; false when the caller must `feed` it instead.
    pub fn begin_blocks(&mut self, name: &str, bytes: &[u8]) -> bool {
        self.begin_blocks_of(name, &bytes[..bytes.len().min(formats::HEAD)], bytes.len())
    }

    /// `begin_blocks` for a file of `len` bytes of which only the first, `head`, are read yet
    /// (`formats::HEAD` of them, or all when shorter).
    pub fn begin_blocks_of(&mut self, name: &str, head: &[u8], len: usize) -> bool {
        self.begin_file(name, head);
        let blocks = self.canonical_lines(head);
        if blocks {
            self.expect_lines(head, len);
        }
        blocks
    }

    /// Room in the seen-id set for the ids of the current file, of `len` bytes whose first are
    /// `head`, guessed as one id a line from the first lines' length, so that the set keeps one
    /// table (`IdSet`); at most 8M ids (80 MiB), should the first lines be unlike the rest. The
    /// explorer, if kept, makes room for as many records at once (up to its cap). Nothing for a
    /// file no format claimed.
    pub fn expect_lines(&mut self, head: &[u8], len: usize) {
        if self.reader.is_none() {
            return;
        }
        let lines = head.iter().filter(|&&b| b == b'\n').count().max(1);
        let ids = (len / (head.len() / lines).max(16)).min(1 << 23);
        self.state.seen.reserve(ids);
        if let Some(explorer) = &mut self.state.explorer {
            explorer.reserve(ids);
        }
    }

    /// The records the explorer has room for (tests of `expect_lines`).
    #[cfg(test)]
    pub(crate) fn explorer_room(&self) -> usize {
        self.state.explorer.as_ref().map_or(0, Explorer::room)
    }

    /// Takes in one block of the current file as if its lines had been fed; `lines_before` is the
    /// number of lines of the file before the block. Blocks must come in file order.
    pub fn replay(&mut self, mut block: Block, lines_before: u64) {
        self.replay_in_place(&mut block, lines_before);
    }

    /// `replay`, leaving the events in `block`: the CLI hands it back to a worker, which frees
    /// the items it allocated and fills the lists again (`chunks::read_block_into`).
    pub fn replay_in_place(&mut self, block: &mut Block, lines_before: u64) {
        let shift = |line: Option<u64>| line.map(|l| l + lines_before);
        let mut items = 0;
        // In place: an item is not moved out of the list to be scored.
        for event in block.events.iter_mut() {
            match event {
                Event::Item(item) => {
                    // The seen-id table's slots for the next items, loaded together.
                    if items % TOUCH == 0 {
                        let next = block.id_hashes.get(items..).unwrap_or_default();
                        self.state.seen.touch(&next[..next.len().min(TOUCH)]);
                    }
                    let hash = block.id_hashes.get(items).copied();
                    items += 1;
                    item.line = shift(item.line);
                    self.state.add(None, item, hash);
                }
                // Rare (a line skipped or noted): a copy is kept.
                Event::Skip(w) => {
                    w.line = shift(w.line);
                    self.state.skip(w.clone());
                }
                Event::Warn(w) => {
                    w.line = shift(w.line);
                    self.state.warn(w.clone());
                }
                Event::Meta(key, value) => self.state.meta(*key, value),
            }
        }
    }

    /// `read`, with a canonical JSON Lines file cut into blocks of about `size` bytes, each read
    /// on its own and replayed in order: what the CLI does on several cores, here on one. The
    /// report is the same as `read`'s.
    pub fn read_blocks(&mut self, name: &str, bytes: &[u8], size: usize) {
        if self.begin_blocks(name, bytes) {
            let (mut before, mut labels, mut block) = (0, Labels::default(), Block::default());
            for part in chunks::split(bytes, size) {
                chunks::read_block_with(name, part, &mut block, &mut labels);
                self.replay_in_place(&mut block, before);
                before += block.lines;
            }
        } else {
            self.feed(bytes);
        }
        self.end_file();
    }

    /// Items scored so far.
    pub fn items(&self) -> u64 {
        self.state.items
    }

    /// Keeps a compact record of each scored item (at most `cap`) for `finish_explored`.
    pub fn keep_items(&mut self, cap: usize) {
        self.state.explorer = Some(Explorer::new(cap));
    }

    /// Keeps a compact record of each scored item for intervals and paired comparisons
    /// (`finish_sampled`).
    pub fn keep_sample(&mut self) {
        self.keep_sample_up_to(usize::MAX);
    }

    /// `keep_sample`, for runs of at most `cap` admitted items: once a run passes it, the sample
    /// is freed and no more is kept, and `Finished::sample_dropped` says so (the browser, which
    /// resamples only small runs, keeps no per-item sample for a large file).
    pub fn keep_sample_up_to(&mut self, cap: usize) {
        self.state.want_sample = true;
        self.state.sample_cap = cap;
    }

    /// Adds bootstrap intervals to the report at `finish` (and keeps the sample they need).
    pub fn bootstrap(&mut self, opts: BootstrapOptions) {
        self.keep_sample();
        self.bootstrap = Some(opts);
    }

    /// The report, or the error that stops it.
    pub fn finish(self) -> Result<Report, Error> {
        self.finish_explored().map(|(report, _)| report)
    }

    /// The report and, when `keep_items` was called, the items' records.
    pub fn finish_explored(self) -> Result<(Report, Option<Explorer>), Error> {
        self.finish_sampled().map(|f| (f.report, f.explorer))
    }

    /// The report with the records kept on request: the explorer's (`keep_items`) and the
    /// bootstrap's (`keep_sample`, sealed and ready to resample or compare).
    pub fn finish_sampled(mut self) -> Result<Finished, Error> {
        self.end_file();
        for f in std::mem::take(&mut self.state.used) {
            f.end_run(&mut self.state);
        }
        let s = self.state;
        if self.strict {
            if let Some(w) = s.first_warning {
                return Err(Error::Strict(w));
            }
        }
        let mut warnings = s.warnings;
        if s.dropped_warnings > 0 {
            warnings.push(Warning {
                file: String::new(),
                line: None,
                reason: format!("{} more warnings not shown", s.dropped_warnings),
            });
        }
        // A file of the tool's own figures (an aggregate) makes a report even without items.
        if s.items == 0 && s.reported.is_empty() {
            return Err(Error::NoItems(warnings));
        }
        // With no item the scorer was never made; the files' benchmark still picks the profile.
        let named = s.ctx.benchmark.as_deref().and_then(Profile::parse);
        let profile = s.chosen.or(named).unwrap_or_else(Profile::generic);
        let mut scorer = s.scorer.unwrap_or_else(|| Scorer::new(profile));
        scorer.settle();
        let mut explorer = s.explorer;
        if let Some(e) = explorer.as_mut() {
            // From the scorer's own lists: the explorer keeps no copy of the confidences.
            e.set_mass_bins(
                scorer.mass_bins(crate::items::Mode::Conditioning),
                scorer.mass_bins(crate::items::Mode::Mixing),
            );
        }
        let mut ctx = s.ctx;
        ctx.reported = s.reported;
        let mut report = scorer.finish(&ctx);
        report.files = s.files;
        report.skipped = s.skipped;
        // Warnings the profile raised (a null section, say) follow those of the files.
        warnings.append(&mut report.warnings);
        report.warnings = warnings;
        let mut sample = s.sample;
        if let Some(sample) = sample.as_mut() {
            sample.seal(&report);
            if let Some(opts) = &self.bootstrap {
                report.intervals.bootstrap = Some(sample.bootstrap(opts));
            }
        }
        Ok(Finished {
            report,
            explorer,
            sample,
            sample_dropped: s.sample_dropped,
        })
    }
}

impl State {
    fn file_name(&self) -> &str {
        self.file.as_ref().map_or("", |f| f.name.as_str())
    }

    /// Scores one item of `file` (`None`: the file being read), unless its id was seen before;
    /// `hash` is its id's `IdSet::hash` when the block reader already computed it.
    fn add(&mut self, file: Option<&str>, item: &mut Item, hash: Option<IdHash>) {
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
            self.sample = Some(resampling::sample_for(self.scorer().profile()));
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
