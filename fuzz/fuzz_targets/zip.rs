//! Fuzzes a dropped zip read as a folder, as the CLI and the page read one: the archive's
//! directory listed (`session::list_zip_read`), each entry's first bytes decoded to group the
//! entries into runs (`Source::peek_as`, `runs::find`), then each run scored from its entries
//! decoded as they stream (`Source::zip_entry_read`); an Inspect log, or no zip at all, is scored
//! as one file.
//!
//! Input: byte 0 picks the archive's name (a zip of results or an `.eval` log), how the entries
//! are grouped, and whether the rest is the archive itself or files (in `common::paths`' layout)
//! that the target zips first, so that the fuzzer also reaches entries whose CRC-32 matches.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::runs::{self, Grouping, Offered};
use scorelens::session::{list_zip_read, ZipEntry, ZipListing};
use scorelens::{score_sources, Options, Source};
use std::io::{Cursor, Write};

/// Entries scored at most, so that an archive of thousands of tiny entries stays one quick input.
const MAX_ENTRIES: usize = 200;

/// The files zipped into one archive, stored (the reader's DEFLATE and zstd come from the seeds).
fn zip_of(files: &[(String, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in files {
        if w.start_file(name.as_str(), opts).is_err() || w.write_all(bytes).is_err() {
            return Vec::new();
        }
    }
    w.finish().map(Cursor::into_inner).unwrap_or_default()
}

/// The entry as a source named `shown`, read from the archive where the directory says it starts.
fn entry<'a>(archive: &'a [u8], e: &ZipEntry, shown: String) -> std::io::Result<Source<'a>> {
    let start = usize::try_from(e.start).unwrap_or(usize::MAX);
    Source::zip_entry_read(shown, archive.get(start..).unwrap_or_default(), e)
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let built;
    let archive = if mode & 1 == 0 {
        rest
    } else {
        built = zip_of(&common::paths(rest));
        &built[..]
    };
    let name = if mode & 2 == 0 {
        "results.zip"
    } else {
        "log.eval"
    };
    let how = [Grouping::Found, Grouping::OneRun, Grouping::PerFile][usize::from(mode >> 2) % 3];
    let opts = Options {
        items: Some(1000),
        ..Options::default()
    };
    let listing = match list_zip_read(name, Cursor::new(archive)) {
        Err(_) => return,
        Ok(None | Some(ZipListing { inspect: true, .. })) => {
            let _ = score_sources([Source::bytes(name, archive)], &opts);
            return;
        }
        Ok(Some(listing)) => listing,
    };
    // A folder's walk goes in name order, folders depth first; hidden files are skipped.
    for pair in listing.entries.windows(2) {
        assert!(pair[0].name.split('/').le(pair[1].name.split('/')));
    }
    for e in &listing.entries {
        assert!(!e.name.is_empty() && !e.name.ends_with('/'));
        assert!(!e.name.split('/').any(|p| p.starts_with('.')), "{}", e.name);
        assert!(!e.name.starts_with("__MACOSX/"), "{}", e.name);
    }
    let entries = &listing.entries[..listing.entries.len().min(MAX_ENTRIES)];
    // Grouping sees each entry under the zip's name, decoded (gzip, zstd, UTF-16) as it will be
    // read; an entry that cannot be decoded is set aside.
    let peeked: Vec<Option<(String, Vec<u8>)>> = entries
        .iter()
        .map(|e| {
            let shown = format!("{name}/{}", e.name);
            entry(archive, e, shown.clone())
                .and_then(|source| source.peek_as(&shown))
                .ok()
        })
        .collect();
    let offered: Vec<(usize, Offered)> = peeked
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.as_ref().map(|(path, head)| (i, Offered { path, head })))
        .collect();
    let only: Vec<Offered> = offered.iter().map(|(_, o)| *o).collect();
    let found = runs::find(&only, how);
    for run in found.runs.iter().take(16) {
        let sources: Result<Vec<Source>, _> = run
            .files
            .iter()
            .map(|&k| {
                let e = &entries[offered[k].0];
                let shown = format!("{name}/{}", e.name);
                entry(archive, e, shown)
            })
            .collect();
        if let Ok(sources) = sources {
            if let Ok(f) = score_sources(sources, &opts) {
                let _ = f.report.to_json();
            }
        }
    }
});
