//! A dropped zip of result files opened as a folder: its directory is read with blocking reads,
//! and each entry handed back to the page as a `File` that is a slice of the zip (no byte is
//! copied) and whose type says how to decode it, so that the page carries no zip code and
//! grouping and scoring take the entries as they take any file.

use crate::decode::SyncFile;
use scorelens::session::zipped::{self, Entry, Listing};
use web_sys::{File, FilePropertyBag};

/// The type of an entry's `File`, before its parameters (method, size, crc).
const MIME: &str = "application/x-scorelens-zip-entry";

/// What a dropped file is, once its first bytes say it may be a zip.
pub enum Opened {
    /// Not a zip of files (an Inspect log, or no zip at all): read as one file.
    File,
    /// A zip of files: its entries, each with its path under the zip's, and what cannot be read
    /// of it (a path and why).
    Folder {
        entries: Vec<(File, String)>,
        unreadable: Vec<(String, String)>,
    },
    /// A zip that cannot be opened, and why.
    Damaged(String),
}

/// Opens `file`, dropped at `path`, as a folder if it is a zip of result files.
pub fn open(file: &File, path: &str) -> Opened {
    let Ok(read) = SyncFile::new(file) else {
        return Opened::File;
    };
    match zipped::list(&file.name(), read) {
        Ok(None | Some(Listing { inspect: true, .. })) => Opened::File,
        Err(why) => Opened::Damaged(why),
        Ok(Some(listing)) => Opened::Folder {
            entries: listing
                .entries
                .iter()
                .filter_map(|e| Some((slice(file, e)?, format!("{path}/{}", e.name))))
                .collect(),
            unreadable: listing
                .unreadable
                .into_iter()
                .map(|(name, why)| (format!("{path}/{name}"), why))
                .collect(),
        },
    }
}

/// The entry's compressed bytes as a `File` named as the entry, its type saying how to decode
/// them (`entry_of`).
fn slice(zip: &File, e: &Entry) -> Option<File> {
    let end = e.start.checked_add(e.compressed)?;
    let blob = zip
        .slice_with_f64_and_f64(e.start as f64, end as f64)
        .ok()?;
    let name = e.name.rsplit('/').next().unwrap_or(&e.name);
    let bag = FilePropertyBag::new();
    bag.set_type(&format!(
        "{MIME}; method={}; size={}; crc={}",
        e.method, e.size, e.crc
    ));
    File::new_with_blob_sequence_and_options(&js_sys::Array::of1(&blob), name, &bag).ok()
}

/// How to decode `file` when it is a zip's entry made by `open`: `None` for any other file.
pub fn entry_of(file: &File) -> Option<Entry> {
    let kind = file.type_();
    let params = kind.strip_prefix(MIME)?;
    let param = |key: &str| {
        params
            .split(';')
            .filter_map(|p| p.trim().split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.to_string())
    };
    Some(Entry {
        name: file.name(),
        method: param("method")?.parse().ok()?,
        start: 0,
        compressed: file.size() as u64,
        size: param("size")?.parse().ok()?,
        crc: param("crc")?.parse().ok()?,
    })
}
