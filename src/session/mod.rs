//! One scoring run: sources in, `Finished` out. The CLI, the worker and the widget hand a
//! `Session` their inputs (`read` for a `Source` read here, `add` for bytes pushed as they
//! arrive), and the session alone chooses how to read them: a format's reader fed in chunks,
//! canonical JSON Lines in blocks (on every core natively), a whole document gathered by its
//! reader.

mod blob;
mod blocks;
#[cfg(not(target_arch = "wasm32"))]
mod cores;
mod decompress;
mod finish;
mod guarded;
mod guarded_read;
mod line_guard;
mod pull;
mod source;
mod state;
mod streams;
mod utf16;
mod whole;
mod zipped;

pub use blob::{first_bytes, open_zip, surely_more_items, Blob, ReadSeek, Zip};
pub use decompress::{decoded, encoding, inner_name, peek};
pub use line_guard::MAX_LINE;
pub use pull::{Ended, Pace, Pull, Steady};
pub use source::{Input, Source};
pub use state::MAX_WARNINGS;
pub use zipped::{
    list as list_zip_read, list_path as list_zip, Entry as ZipEntry, Listing as ZipListing,
};

use crate::explore::Explorer;
use crate::formats::canonical::chunks;
use crate::formats::{self, Format, Reader};
use crate::metrics::bootstrap::{BootstrapOptions, ClusterBy, Sample};
use crate::profiles::Profile;
use crate::report::{FileSummary, Report};
use crate::warning::Warning;
use crate::Error;
use blocks::LineFeed;
use guarded::Guarded;
use state::State;
use std::io::{self, Read};
use std::ops::Range;

/// What the caller chooses: how to score, and what to keep besides the report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// A profile name; `None` lets the file's header or `benchmark` field decide.
    pub profile: Option<String>,
    /// Stop at the first warning and make it the run's error.
    pub strict: bool,
    /// Keep a compact record of each scored item, at most this many (`Finished::explorer`; the
    /// page's explorer).
    pub items: Option<usize>,
    /// Keep the compact per-item sample that intervals and comparisons resample
    /// (`Finished::sample`), for runs of at most this many admitted items (`usize::MAX`: any):
    /// past it the sample is freed, and `Finished::sample_dropped` says so (the browser
    /// resamples only small runs and keeps its memory bounded so).
    pub sample: Option<usize>,
    /// Add bootstrap intervals to the report (the sample is kept for them).
    pub bootstrap: Option<BootstrapOptions>,
    /// Which items belong together (`--cluster`); `None` takes the file's own cluster field
    /// where items have one. When given, the sample is kept and the report gains the clustered
    /// standard errors, the design effect and the planning figures (`intervals.clustered`).
    pub cluster: Option<ClusterBy>,
    /// The run to read from files that hold several (`formats::Part::select`: a promptfoo
    /// provider × prompt, an Evals API run id); `None` reads them all, ids prefixed by run.
    pub part: Option<String>,
    /// A field whose value is each item's group (`--group-by VAR`), for formats whose items have
    /// named fields and no group of their own: promptfoo's test vars.
    pub group_by: Option<String>,
    /// The most bytes of a source held in memory by a format that reads its file whole (a JSON
    /// document, an archive, a table): past it the source is an error that says so
    /// (`Error::TooBig`). `None`: no cap (natively). The page sets one: a tab cannot hold more.
    pub whole_cap: Option<u64>,
}

/// A finished run: the report and the per-item records kept on request.
#[derive(Debug)]
pub struct Finished {
    pub report: Report,
    pub explorer: Option<Explorer>,
    pub sample: Option<Sample>,
    /// `Some(n)` when the sample was asked for with a cap (`Options::sample`) and the run passed
    /// it: `sample` is then `None`, and `n` items were admitted by the profile.
    pub sample_dropped: Option<u64>,
    /// Items that named a cluster of their own (a `cluster` or `passage_id` field): what a face
    /// offers `--cluster cluster` on.
    pub clustered_items: u64,
}

/// A scoring run in progress.
pub struct Session {
    reader: Option<Box<dyn Reader>>,
    /// The current file when it is canonical JSON Lines: its chunks are read in blocks.
    lines: Option<Box<LineFeed>>,
    state: State,
    bootstrap: Option<BootstrapOptions>,
    /// The current file's line guard, when it is line-based.
    guard: Option<Guarded>,
    /// Warnings kept before the current file began.
    file_warnings: usize,
    /// `Options::part`.
    part: Option<String>,
    /// `Options::group_by`.
    group_by: Option<std::sync::Arc<str>>,
    /// `Options::whole_cap`.
    whole_cap: Option<u64>,
}

/// A source pushed into the session as its bytes arrive (`Session::add`), for a caller that
/// drives the reading itself (the fuzz targets, tests of chunk boundaries); the faces hand the
/// session a `Source` or a `Blob` instead. Dropping it ends the source.
pub struct Feed<'s> {
    session: &'s mut Session,
    format: Option<&'static str>,
}

impl Feed<'_> {
    /// The format that reads the source, `None` when no format claims it (that is a warning,
    /// and its bytes are ignored).
    pub fn format(&self) -> Option<&'static str> {
        self.format
    }

    /// Pushes the source's next bytes (from its first byte on, `head` included); false once the
    /// session wants no more (strict mode met a warning): the caller then stops reading.
    pub fn push(&mut self, chunk: &[u8]) -> bool {
        self.session.push(chunk)
    }

    /// Ends the source, as dropping it does.
    pub fn end(self) {}

    /// The records the explorer has room for (tests of `expect_lines`).
    #[cfg(test)]
    pub(crate) fn explorer_room(&self) -> usize {
        self.session
            .state
            .explorer
            .as_ref()
            .map_or(0, Explorer::room)
    }
}

impl Drop for Feed<'_> {
    fn drop(&mut self) {
        self.session.end_file();
    }
}

/// Scores the sources as one run: the one way every face scores a run.
pub fn score_sources<'a, S: Into<Source<'a>>>(
    sources: impl IntoIterator<Item = S>,
    opts: &Options,
) -> Result<Finished, Error> {
    let mut session = Session::new(opts)?;
    for source in sources {
        session.read(source.into())?;
    }
    session.finish()
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
            state: State::new(chosen, opts),
            bootstrap: opts.bootstrap,
            guard: None,
            file_warnings: 0,
            part: opts.part.clone(),
            group_by: opts.group_by.as_deref().map(Into::into),
            whole_cap: opts.whole_cap,
        })
    }

    /// Reads a whole source into the run; a gzip or zstd source is decoded as it is read.
    /// Strict mode's first warning stops the reading and is returned, as is a source that could
    /// not be read.
    pub fn read(&mut self, source: Source<'_>) -> Result<(), Error> {
        let name = source.name;
        let fail = |e: io::Error| Error::io(name.as_str(), e);
        let read = match source.body {
            source::Body::Bytes(bytes) => match decompress::sniff(bytes) {
                None => self.read_bytes(&name, bytes),
                Some(kind) => decompress::decode(kind, bytes)
                    .map_err(fail)
                    .and_then(|read| self.read_stream(&name, None, read)),
            },
            source::Body::Read { len, mut read } => {
                // The first bytes say whether the source is compressed; they are read again.
                let mut start = Vec::with_capacity(4);
                match (&mut read).take(4).read_to_end(&mut start) {
                    Err(e) => Err(fail(e)),
                    Ok(_) => {
                        let whole = io::Cursor::new(start.clone()).chain(read);
                        match decompress::sniff(&start) {
                            None => self.read_stream(&name, len, whole),
                            Some(kind) => decompress::decode(kind, whole)
                                .map_err(fail)
                                .and_then(|read| self.read_stream(&name, None, read)),
                        }
                    }
                }
            }
        };
        if let Err(e) = read {
            self.end_file();
            return Err(e);
        }
        match (self.state.stopped, &self.state.first_warning) {
            (true, Some(w)) => Err(Error::Strict(w.clone())),
            _ => Ok(()),
        }
    }

    /// Starts a source whose bytes the caller pushes as they arrive: `head` is its first bytes
    /// (`formats::HEAD` of them, or all when shorter), which detect the format; `len` its size
    /// when known, which sizes the seen-id set.
    /// A compressed source's `head` and chunks are its decoded bytes (`decoded`); its `name`
    /// may keep the compression's suffix, which detection looks past.
    pub fn add(&mut self, name: &str, head: &[u8], len: Option<u64>) -> Feed<'_> {
        let (format, lines) = guarded::detect(name, head);
        self.begin(name, &lines, len, format, true);
        Feed {
            format: format.map(|f| f.name()),
            session: self,
        }
    }

    /// `add`, read by the given format's own reader, with detection and block reading skipped
    /// (`None`: as an unknown format): for the fuzz targets, which drive one reader each, and
    /// the tests that compare the block reading with the reader.
    pub fn add_as(
        &mut self,
        name: &str,
        head: &[u8],
        len: Option<u64>,
        format: Option<&'static dyn Format>,
    ) -> Feed<'_> {
        self.begin(name, head, len, format, false);
        Feed {
            format: format.map(|f| f.name()),
            session: self,
        }
    }

    /// The report, or the error that stops it, with what `Options` asked to keep.
    pub fn finish(mut self) -> Result<Finished, Error> {
        self.end_file();
        self.state.finish(self.bootstrap.as_ref())
    }

    /// Starts a file read by `format`; true when it is read in blocks (canonical JSON Lines, when
    /// `blocks` allows it).
    fn begin(
        &mut self,
        name: &str,
        head: &[u8],
        len: Option<u64>,
        format: Option<&'static dyn Format>,
        blocks: bool,
    ) -> bool {
        self.end_file();
        self.guard_for(format, head);
        self.file_warnings = self.state.warnings.len();
        let state = &mut self.state;
        if let Some(e) = state.explorer.as_mut() {
            e.begin_file(name);
        }
        state.file = Some(FileSummary {
            name: name.to_string(),
            format: format.map_or("unknown", |f| f.name()).to_string(),
            version: None,
            mapping: Vec::new(),
            items: 0,
            skipped: 0,
            not_applicable: 0,
        });
        let Some(f) = format else {
            let why = formats::unknown_format(head);
            crate::formats::Sink::skip(state, Warning::new(name, None, why));
            return false;
        };
        let field: Option<std::sync::Arc<str>> = state
            .cluster
            .as_ref()
            .and_then(|c| c.field())
            .map(Into::into);
        let read = formats::ReadOptions {
            cluster_field: field.clone(),
            part: self.part.clone(),
            group_field: self.group_by.clone(),
        };
        self.reader = Some(f.reader_with(name, &read));
        if let Some(var) = self.group_by.as_deref().filter(|_| !f.reads_group_field()) {
            let why = format!(
                "--group-by {var} is read in promptfoo results only: this {} file's items keep the groups it gives them",
                f.name()
            );
            crate::formats::Sink::warn(state, Warning::new(name, None, why));
        }
        state.no_cluster_field = field.is_some() && !f.reads_fields();
        if let Some(field) = field.as_deref().filter(|_| state.no_cluster_field) {
            let why = format!(
                "{} files have no fields scorelens reads by name, so `--cluster {field}` leaves this file's items each its own cluster; --cluster group clusters by group",
                f.name()
            );
            crate::formats::Sink::warn(state, Warning::new(name, None, why));
        }
        if !state.used.iter().any(|u| u.name() == f.name()) {
            state.used.push(f);
        }
        if let Some(len) = len {
            self.expect_lines(head, len);
        }
        // The parallel blocks read SPEC §1's fields only, not a field the user names.
        let blocks = blocks
            && field.is_none()
            && f.name() == formats::canonical::Canonical.name()
            && chunks::is_lines(head);
        if blocks {
            self.lines = Some(Box::new(LineFeed::new(name)));
        }
        blocks
    }

    /// Room in the seen-id set for the ids of the current file, of `len` bytes whose first are
    /// `head`, guessed as one id a line from the first lines' length, so that the set keeps one
    /// table (`IdSet`); at most 8M ids (80 MiB), should the first lines be unlike the rest. The
    /// explorer, if kept, makes room for as many records at once (up to its cap).
    fn expect_lines(&mut self, head: &[u8], len: u64) {
        let lines = head.iter().filter(|&&b| b == b'\n').count().max(1);
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        let ids = (len / (head.len() / lines).max(16)).min(1 << 23);
        self.state.seen.reserve(ids);
        if let Some(explorer) = &mut self.state.explorer {
            explorer.reserve(ids);
        }
    }

    /// Feeds the next chunk of the current file; false once strict mode stopped the run.
    fn push(&mut self, chunk: &[u8]) -> bool {
        if self.state.stopped {
            return false;
        }
        self.push_guarded(chunk);
        !self.state.stopped
    }

    /// Feeds bytes that passed the guard (if the file has one) to the file's reader.
    fn push_reader(&mut self, chunk: &[u8]) {
        if self.state.stopped {
            return;
        }
        if let Some(mut lines) = self.lines.take() {
            self.feed_lines(&mut lines, Some(chunk));
            self.lines = Some(lines);
        } else if let Some(r) = self.reader.as_mut() {
            r.feed(chunk, &mut self.state);
        }
    }

    /// Ends the current file, if one is open.
    fn end_file(&mut self) {
        if !self.state.stopped {
            self.finish_guard();
        }
        let stopped = self.state.stopped;
        if let Some(mut lines) = self.lines.take().filter(|_| !stopped) {
            self.feed_lines(&mut lines, None);
        }
        if let Some(mut r) = self.reader.take().filter(|_| !stopped) {
            r.finish(&mut self.state);
        }
        self.report_guard();
        if let Some(f) = self.state.file.take() {
            self.state.files.push(f);
        }
    }
}

/// True when the file named `name` whose content's first bytes are `head` holds several runs, or
/// names the one it holds (`Format::parts`): it is read as the runs it holds.
pub fn holds_parts(name: &str, head: &[u8]) -> bool {
    formats::detect(name, head).is_some_and(|f| !f.parts(name, head).is_empty())
}

/// `draw` of the resamples `0..resamples` in parts, in resample order: natively one part per
/// core (each resample has its own seeded stream, so the parts equal one draw of them all).
pub fn spread<T: Send>(resamples: u32, draw: impl Fn(Range<u32>) -> T + Sync) -> Vec<T> {
    #[cfg(not(target_arch = "wasm32"))]
    return cores::spread(resamples, draw);
    #[cfg(target_arch = "wasm32")]
    return vec![draw(0..resamples)];
}
