//! Grouping dropped files into runs in the worker (`scorelens::runs::find`, on each file's decoded
//! first bytes), so that the page carries neither the format detectors nor the decoders.

use crate::decode::peek;
use crate::read::head;
use crate::worker::post;
use scorelens::runs::{find, Grouping, Offered};
use scorelens::session::inner_name;
use scorelens::web::protocol::FromWorker;
use wasm_bindgen::JsCast;
use web_sys::File;

/// Reads the first bytes of each file and answers `Grouped`.
pub fn start(seq: u32, files: js_sys::Array, paths: Vec<String>, how: Grouping) {
    let files: Vec<File> = files.iter().filter_map(|f| f.dyn_into().ok()).collect();
    wasm_bindgen_futures::spawn_local(async move {
        let mut heads = Vec::with_capacity(files.len());
        // Files that could not be decoded, and why: listed with the files not read.
        let mut undecoded = Vec::new();
        for (i, file) in files.iter().enumerate() {
            // A file the browser cannot read (moved, say) has no first bytes: no reader claims
            // it, and it is listed with the files not read.
            let raw = head(file).await.unwrap_or_default();
            heads.push(peek(file, raw).unwrap_or_else(|(raw, why)| {
                undecoded.push((i, why));
                raw
            }));
        }
        // Readers that go by names see the file inside (`run.jsonl.gz` holds `run.jsonl`).
        let inner: Vec<&str> = paths.iter().map(|p| inner_name(p)).collect();
        let offered: Vec<Offered<'_>> = inner
            .iter()
            .zip(&heads)
            .map(|(path, head)| Offered { path, head })
            .collect();
        let mut found = find(&offered, how);
        for (i, why) in undecoded {
            if let Some(entry) = found.ignored.iter_mut().find(|(j, _)| *j == i) {
                entry.1 = why;
            }
        }
        post(&FromWorker::Grouped {
            seq,
            summary: found.summary(),
            found,
        });
    });
}
