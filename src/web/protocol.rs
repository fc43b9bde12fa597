//! The messages between the page and the scoring worker: one enum for each direction.
//!
//! Both sides convert with `serde_wasm_bindgen`. Files travel as handles, not bytes: the `Array`
//! of `File`s is kept as it is (`preserve`), which needs an externally tagged enum (an internally
//! tagged one loses it). Numbers cross as JS numbers, so every f64 arrives bit for bit.

use crate::compare::Comparison;
use crate::explore::{Filter, Page};
use crate::report::intervals::BootstrapIntervals;
use crate::runs::{Found, Grouping};
use crate::{Report, Warning};
use serde::{Deserialize, Serialize};

/// From the page to the worker.
#[derive(Debug, Serialize, Deserialize)]
pub enum ToWorker {
    /// Score these files as one run; a run id already scored is scored again (a new profile).
    Score {
        run: u32,
        #[serde(with = "serde_wasm_bindgen::preserve")]
        files: js_sys::Array,
        profile: Option<String>,
        /// The cluster rule (`ClusterBy::parse`'s names); `None` lets the file decide.
        cluster: Option<String>,
        /// The run inside files that hold several (`Options::part`).
        part: Option<String>,
    },
    /// Stop scoring the run at the next chunk.
    Cancel { run: u32 },
    /// A page of the run's items for the explorer; `seq` comes back with the answer.
    Items {
        run: u32,
        seq: u32,
        filter: Filter,
        offset: u64,
        limit: u64,
    },
    /// The run was closed: free its items.
    Forget { run: u32 },
    /// Compare these scored runs pairwise (paired bootstrap, McNemar, items in one file only); a
    /// newer `Compare` replaces this one, and `seq` comes back with the answer.
    Compare {
        seq: u32,
        runs: Vec<u32>,
        resamples: u32,
        seed: u64,
    },
    /// Stop the comparison `seq` at its next slice of resamples.
    StopCompare { seq: u32 },
    /// Rank these scored runs under these names (one paired bootstrap, rank intervals, Holm-
    /// adjusted pairs); a newer `Rank` replaces this one at its next slice.
    Rank {
        seq: u32,
        runs: Vec<u32>,
        names: Vec<String>,
        resamples: u32,
        seed: u64,
    },
    /// Show leaderboard `seq` ranked on another figure.
    RankBy { seq: u32, figure: String },
    /// Group these files (with their paths in a dropped folder) into runs (`crate::runs`).
    Group {
        seq: u32,
        #[serde(with = "serde_wasm_bindgen::preserve")]
        files: js_sys::Array,
        paths: Vec<String>,
        how: Grouping,
    },
    /// The run on screen: its intervals are drawn before the other runs'.
    Showing { run: u32 },
}

pub use crate::catalog::Named;

/// How many groups the page's report holds at most: past it, the worker sends the largest
/// (`report::groups::keep_largest`) and keeps every group in the report's JSON and HTML. A run
/// whose `group` is an id has one group per item, and the page draws and sorts what it holds.
pub const GROUPS_HELD: usize = 1000;

/// Text made in the worker for a download (the report's JSON, its HTML file, its tables), sent as
/// a Blob: a report of 200,000 groups is 52 MB of JSON, and a string that size costs the page's
/// main thread 0.1 to 0.5 s to receive (more when it holds one non-Latin-1 character), a Blob
/// nothing, and the download needs no copy.
#[derive(Clone, Debug)]
pub struct Text(send_wrapper::SendWrapper<wasm_bindgen::JsValue>);

impl Text {
    /// The text as a UTF-8 Blob.
    pub fn new(s: &str) -> Text {
        let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(s));
        // The constructor throws only on a bad argument, which a string never is; `undefined`
        // (no Blob, the export says it failed) if it ever did.
        let blob = web_sys::Blob::new_with_str_sequence(&parts).map_or(
            wasm_bindgen::JsValue::UNDEFINED,
            wasm_bindgen::JsValue::from,
        );
        Text(send_wrapper::SendWrapper::new(blob))
    }

    /// A writer whose bytes become a `Text` (`TextWriter::finish`).
    pub fn writer() -> TextWriter {
        TextWriter {
            piece: Vec::new(),
            blob: None,
        }
    }

    /// The tables as CSV and as Markdown, each written into a Blob a piece at a time.
    pub fn tables<C: crate::table::Written>(tables: &[crate::table::Table<C>]) -> (Text, Text) {
        let (mut csv, mut md) = (Text::writer(), Text::writer());
        // A TextWriter never fails a write.
        let _ = crate::table::csv_into(tables, &mut csv);
        let _ = crate::table::markdown_into(tables, &mut md);
        (csv.finish(), md.finish())
    }

    /// `tables` for tables made a piece at a time (`layout::each_piece`): each piece is written
    /// to both Blobs and let go before the next is made.
    pub fn pieces<C: crate::table::Written>(
        make: impl FnOnce(&mut dyn FnMut(crate::table::Piece<C>)),
    ) -> (Text, Text) {
        let mut w = crate::table::PieceWriter::new(Text::writer(), Text::writer());
        // A TextWriter never fails a write.
        make(&mut |p| {
            let _ = w.piece(&p);
        });
        match w.finish() {
            Ok((csv, md)) => (csv.finish(), md.finish()),
            Err(_) => (Text::new(""), Text::new("")),
        }
    }

    pub fn blob(&self) -> Option<&web_sys::Blob> {
        wasm_bindgen::JsCast::dyn_ref(&*self.0)
    }
}

/// Bytes written a piece at a time into a Blob (as `std::io::Write` or `std::fmt::Write`): each
/// MiB joins the Blob as it fills, so that neither the worker's wasm memory nor its JS heap holds
/// the whole text. The JSON of a report of 200,000 groups is 52 MB; written whole, as a string and
/// then a JS string, it raised the worker's memory by about 150 MB.
pub struct TextWriter {
    piece: Vec<u8>,
    blob: Option<web_sys::Blob>,
}

/// How much a `TextWriter` gathers before it hands the piece to the Blob.
const PIECE: usize = 1 << 20;

impl TextWriter {
    /// Adds the gathered piece to the Blob.
    fn hand_on(&mut self) {
        if self.piece.is_empty() {
            return;
        }
        let parts = js_sys::Array::new();
        if let Some(b) = self.blob.take() {
            parts.push(&b);
        }
        // SAFETY: the view into wasm memory is read only by the Blob's constructor, which copies
        // the bytes at once (the File API's "process blob parts"), and nothing between here and
        // there allocates, so the memory cannot move under it. A copy into a fresh JS array
        // instead left a MiB of garbage in the worker's JS heap per piece (60 MB on 200,000 groups).
        let bytes = unsafe { js_sys::Uint8Array::view(&self.piece) };
        parts.push(&bytes);
        // The constructor throws only on a bad part, which a Blob and bytes never are.
        self.blob = web_sys::Blob::new_with_u8_array_sequence(&parts).ok();
        self.piece.clear();
    }

    /// The text written.
    pub fn finish(mut self) -> Text {
        self.hand_on();
        match self.blob.take() {
            Some(b) => Text(send_wrapper::SendWrapper::new(b.into())),
            None => Text::new(""),
        }
    }
}

impl std::io::Write for TextWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.piece.capacity() == 0 {
            self.piece.reserve_exact(PIECE);
        }
        self.piece.extend_from_slice(bytes);
        if self.piece.len() >= PIECE {
            self.hand_on();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::fmt::Write for TextWriter {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        std::io::Write::write_all(self, s.as_bytes()).map_err(|_| std::fmt::Error)
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        *self.0 == *other.0
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_wasm_bindgen::preserve::serialize(&*self.0, s)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        let v: wasm_bindgen::JsValue = serde_wasm_bindgen::preserve::deserialize(d)?;
        Ok(Text(send_wrapper::SendWrapper::new(v)))
    }
}

/// A finished run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    /// The report; of a run with more than `GROUPS_HELD` groups, only the largest of them.
    pub report: Report,
    /// How many groups the run has (the report's `groups` may hold fewer).
    pub groups_total: u64,
    /// The whole report exactly as the CLI's `--json` prints it.
    pub json: Text,
    /// The report as one HTML file, the CLI's `--format html` (`crate::html`): written in the
    /// worker, so that the page carries no renderer.
    pub html: Text,
    /// The report's tables (`crate::layout`, the CLI's, every group) as CSV and Markdown, written
    /// in the worker so that the page carries neither the tables nor, for them, the writers.
    pub csv: Text,
    pub md: Text,
    /// Items kept for the explorer, and those beyond its cap.
    pub kept: u64,
    pub dropped: u64,
    /// Bytes read and the wall time it took, in milliseconds.
    pub bytes: f64,
    pub millis: f64,
    /// Items that named a cluster of their own (`cluster`, `passage_id`): the cluster menu
    /// offers the file's field when there are some.
    #[serde(default)]
    pub clustered_items: u64,
    /// The planning panel's body, laid out in the worker (`html::planning`, an `html::node::Node`
    /// as JSON) from the report's `intervals.clustered` when it has one.
    #[serde(default)]
    pub planning: Option<String>,
}

/// One figure's leaderboard as the page shows it, laid out in the worker
/// (src/bin/worker/leaderboard.rs), so that the page only mounts it. The tree is a string: a
/// deserialiser of it would cost the page more than all the rest of the view (the page parses it
/// with the browser's `JSON.parse` and walks it). The exports are Blobs: the JSON of 50 runs is
/// about 19 MB, which as a string would cost the page's main thread a long task to receive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankedView {
    /// The figure menu, the ranking and its plot with their buttons, the export buttons: an
    /// `html::node::Node` as JSON.
    pub view: String,
    /// `scorelens leaderboard --json`, and `--format csv|markdown|html --by FIGURE`.
    pub json: Text,
    pub csv: Text,
    pub markdown: Text,
    pub html: Text,
}

/// From the worker to the page.
#[derive(Debug, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker runs; messages sent before this are lost, so the page waits for it.
    Ready {
        profiles: Vec<Named>,
        formats: Vec<Named>,
    },
    /// Bytes of the run read so far; `file` is being read.
    Progress {
        run: u32,
        file: String,
        done: f64,
        total: f64,
    },
    Scored {
        run: u32,
        scored: Box<Scored>,
    },
    /// No report: the error and, when there were any, the warnings that explain it.
    Failed {
        run: u32,
        error: String,
        warnings: Vec<Warning>,
    },
    Cancelled {
        run: u32,
    },
    Items {
        run: u32,
        seq: u32,
        page: Page,
    },
    /// Bootstrap resamples of a scored run's intervals drawn so far (src/bin/worker/intervals.rs).
    IntervalsProgress {
        run: u32,
        done: u32,
        total: u32,
    },
    /// The run's bootstrap intervals, and its report JSON and HTML with them as
    /// `report.intervals.bootstrap` (the CLI's `score --json --bootstrap 2000 --seed 2024`, and
    /// with `--format html`).
    Intervals {
        run: u32,
        bootstrap: Box<BootstrapIntervals>,
        json: Text,
        html: Text,
    },
    /// The run's intervals are not computed in the browser, and why.
    IntervalsSkipped {
        run: u32,
        reason: String,
    },
    /// Paired resamples of comparison `seq` drawn so far, of `total` (all pairs).
    CompareProgress {
        seq: u32,
        done: u32,
        total: u32,
    },
    /// The comparison, and its JSON exactly as `scorelens compare --json` prints it, and its HTML
    /// (the runs' reports too) as `compare --format html` does.
    Compared {
        seq: u32,
        comparison: Box<Comparison>,
        json: String,
        html: String,
        /// Each pair's differences and McNemar's test (`compare::tables`), as CSV and Markdown.
        csv: Text,
        md: Text,
    },
    /// No comparison: why (a run is not scored, or was closed).
    CompareFailed {
        seq: u32,
        error: String,
    },
    /// Paired resamples of leaderboard `seq` drawn so far, of `total`.
    RankProgress {
        seq: u32,
        done: u32,
        total: u32,
    },
    /// Leaderboard `seq` on one figure.
    Ranked {
        seq: u32,
        shown: Box<RankedView>,
    },
    /// No leaderboard: why (a run is not scored, or was closed).
    RankFailed {
        seq: u32,
        error: String,
    },
    /// Every task of a closed (forgotten) run has ended: no message about it follows.
    Stopped {
        run: u32,
    },
    /// Comparison `seq` was stopped and has ended: no message about it follows.
    CompareStopped {
        seq: u32,
    },
    /// How the files of `Group` `seq` fall into runs, and that in one line (`Found::summary`).
    /// `files` and `paths` are the files grouped, which `found` indexes: those sent, but with a
    /// zip of files replaced by its entries (each a `File`).
    Grouped {
        seq: u32,
        found: Found,
        summary: String,
        #[serde(with = "serde_wasm_bindgen::preserve")]
        files: js_sys::Array,
        paths: Vec<String>,
    },
    /// The worker panicked and is about to stop (a wasm trap): the page fails the runs under way
    /// and starts a new worker.
    Panicked {
        error: String,
    },
}
