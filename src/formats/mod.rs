//! File formats: each reader turns bytes into items and pushes them, with warnings, into a `Sink`.
//!
//! Like ripgrep's searcher and sink, the reader drives: it never hands back a list for someone else
//! to walk again, so a file streams through the metrics in one pass. Readers know their format and
//! nothing about metrics or benchmarks.

pub mod canonical;
pub mod canonical_item;
pub mod json;
pub mod lines;

use crate::items::Item;
use crate::warning::Warning;

/// File-level facts a reader may find.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meta {
    /// The model that produced the predictions.
    Model,
    /// The benchmark (profile) the file names.
    Benchmark,
}

/// Receives what a reader finds, in file order.
pub trait Sink {
    /// A scorable item (it may carry invalid probabilities or an invalid answer).
    fn item(&mut self, item: Item);
    /// A data error: the unit at this place could not be scored and is skipped (SPEC §1).
    fn skip(&mut self, warning: Warning);
    /// An output error or a notice; whatever it concerns is still scored.
    fn warn(&mut self, warning: Warning);
    /// A file-level fact such as the model name.
    fn meta(&mut self, key: Meta, value: &str);
}

/// A format reader fed the file's bytes in chunks of any size.
pub trait Reader {
    fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink);
    fn finish(&mut self, sink: &mut dyn Sink);
}

/// The formats scorelens reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// scorelens' own JSON Lines / JSON array (SPEC §1).
    Canonical,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Canonical => "scorelens",
        }
    }

    /// Every format this build reads, for messages and the embedding API.
    pub fn all() -> &'static [Format] {
        &[Format::Canonical]
    }

    /// A reader for one file of this format.
    pub fn reader(self, file: &str) -> Box<dyn Reader> {
        match self {
            Format::Canonical => Box::new(canonical::Canonical::new(file)),
        }
    }
}

/// Decides a file's format from its name and first bytes.
pub fn detect(_file: &str, _head: &[u8]) -> Format {
    Format::Canonical
}
