//! Grouping dropped files into runs in the worker (`scorelens::runs::find`, on each file's decoded
//! first bytes), so that the page carries neither the format detectors nor the decoders. A zip of
//! result files is opened as a folder here (`session::open_zip`), and its entries go back to the
//! page as files: slices of the zip whose type says how the session decodes them.

use crate::worker::post;
use scorelens::runs::{find, Grouping, Offered};
use scorelens::session::{first_bytes, inner_name, open_zip, Blob, Zip, ZipEntry};
use scorelens::web::blob::{BrowserFile, ZIP_ENTRY};
use scorelens::web::protocol::FromWorker;
use wasm_bindgen::JsCast;
use web_sys::{File, FilePropertyBag};

/// The entry's stored bytes as a `File` named as the entry, its type saying how to decode them.
fn entry_file(zip: &File, e: &ZipEntry) -> Option<File> {
    let end = e.start.checked_add(e.compressed)?;
    let blob = zip
        .slice_with_f64_and_f64(e.start as f64, end as f64)
        .ok()?;
    let name = e.name.rsplit('/').next().unwrap_or(&e.name);
    let bag = FilePropertyBag::new();
    bag.set_type(&format!("{ZIP_ENTRY}; {}", e.tag()));
    File::new_with_blob_sequence_and_options(&js_sys::Array::of1(&blob), name, &bag).ok()
}

/// Reads the first bytes of each file and answers `Grouped`.
pub fn start(seq: u32, files: js_sys::Array, paths: Vec<String>, how: Grouping) {
    let files: Vec<File> = files.iter().filter_map(|f| f.dyn_into().ok()).collect();
    wasm_bindgen_futures::spawn_local(async move {
        // Zips of files stand for their entries, in their place.
        let (mut all, mut all_paths) = (Vec::new(), Vec::new());
        // Files that could not be decoded (or opened, or that a zip holds and scorelens cannot
        // read), and why: listed with the files not read.
        let mut undecoded = Vec::new();
        for (file, path) in files.into_iter().zip(paths) {
            match open_zip(&BrowserFile::file(&file)).await {
                Zip::File => {}
                Zip::Damaged(why) => undecoded.push((all.len(), why)),
                Zip::Folder {
                    entries,
                    unreadable,
                } => {
                    for e in &entries {
                        if let Some(entry) = entry_file(&file, e) {
                            all.push(entry);
                            all_paths.push(format!("{path}/{}", e.name));
                        }
                    }
                    for (name, why) in unreadable {
                        undecoded.push((all.len(), why));
                        all.push(file.clone());
                        all_paths.push(format!("{path}/{name}"));
                    }
                    continue;
                }
            }
            all.push(file);
            all_paths.push(path);
        }
        // A Parquet table becomes the JSON Lines of its rows, under its own name, before its
        // first bytes are read: from here on it is any JSON Lines file (not inside a zip, whose
        // entries are not decoded, as natively).
        for (i, file) in all.iter_mut().enumerate() {
            let blob = BrowserFile::file(file);
            let raw = blob.slice(0, 4).await.unwrap_or_default();
            if !raw.starts_with(scorelens::web::parquet::MAGIC) || blob.zip_entry().is_some() {
                continue;
            }
            match crate::parquet::as_rows(file).await {
                Ok(rows) => *file = rows,
                Err(why) => undecoded.push((i, why)),
            }
        }
        let (files, paths) = (all, all_paths);
        let mut heads = Vec::with_capacity(files.len());
        for (i, file) in files.iter().enumerate() {
            if undecoded.iter().any(|(j, _)| *j == i) {
                // No reader claims what has no first bytes.
                heads.push(Vec::new());
                continue;
            }
            // A file the browser cannot read (moved, say) has no first bytes: no reader claims
            // it, and it is listed with the files not read.
            let head = first_bytes(&BrowserFile::file(file)).await;
            heads.push(head.unwrap_or_else(|(raw, why)| {
                undecoded.push((i, why));
                raw
            }));
        }
        // Files dropped one by one keep their order; a folder's follow in path order, as the
        // CLI walks a folder (the browser lists a folder's entries in no set order).
        let mut order: Vec<usize> = (0..paths.len()).collect();
        order.sort_by_key(|&i| {
            (
                paths[i].contains('/'),
                paths[i].contains('/').then(|| &paths[i]),
            )
        });
        // Readers that go by names see the file inside (`run.jsonl.gz` holds `run.jsonl`).
        let offered: Vec<Offered<'_>> = order
            .iter()
            .map(|&i| Offered {
                path: inner_name(&paths[i]),
                head: &heads[i],
            })
            .collect();
        let mut found = find(&offered, how);
        // Back to the indices the page sent.
        for run in &mut found.runs {
            run.files.iter_mut().for_each(|i| *i = order[*i]);
        }
        for (i, _) in &mut found.ignored {
            *i = order[*i];
        }
        for (i, why) in undecoded {
            if let Some(entry) = found.ignored.iter_mut().find(|(j, _)| *j == i) {
                entry.1 = why;
            }
        }
        post(&FromWorker::Grouped {
            seq,
            summary: found.summary(),
            found,
            files: files.iter().collect(),
            paths,
        });
    });
}
