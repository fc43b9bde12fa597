//! Folders dropped or chosen: every file under them, read recursively, with its path from the
//! folder's own name on (`runs/<suite>/<run>/…`), which is what groups a HELM suite or an
//! lm-eval output folder into runs. Hidden files and folders (a name starting with `.`) are
//! skipped, as a file manager hides them.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DataTransfer, File, FileSystemDirectoryEntry, FileSystemEntry, FileSystemFileEntry};

/// True when a path names a hidden file or lies in a hidden folder.
fn hidden(path: &str) -> bool {
    path.split('/').any(|part| part.starts_with('.'))
}

/// A dropped item: an entry of the file system (a file or a folder), or a file alone (one a page
/// made, which has no entry).
pub enum Dropped {
    Entry(FileSystemEntry),
    File(File),
}

/// The dropped items: taken at once, since the browser empties the `DataTransfer` once the drop
/// event has been handled.
pub fn dropped(data: &DataTransfer) -> Vec<Dropped> {
    let items = data.items();
    (0..items.length())
        .filter_map(|i| items.get(i))
        .filter(|item| item.kind() == "file")
        .filter_map(|item| match item.webkit_get_as_entry() {
            Ok(Some(entry)) => Some(Dropped::Entry(entry)),
            _ => item.get_as_file().ok().flatten().map(Dropped::File),
        })
        .collect()
}

/// Every file under the dropped items (files and folders), with its path, in the order dropped;
/// the worker puts a folder's files in path order (src/bin/worker/group.rs), so the page carries
/// no sort.
pub async fn files(dropped: Vec<Dropped>) -> Vec<(File, String)> {
    let mut out = Vec::new();
    let mut todo: Vec<Dropped> = dropped.into_iter().rev().collect();
    while let Some(item) = todo.pop() {
        let entry = match item {
            Dropped::File(f) => {
                if !hidden(&f.name()) {
                    out.push((f.clone(), f.name()));
                }
                continue;
            }
            Dropped::Entry(entry) => entry,
        };
        let path = entry.full_path().trim_start_matches('/').to_string();
        if hidden(&path) {
            continue;
        }
        if entry.is_directory() {
            let dir: FileSystemDirectoryEntry = entry.unchecked_into();
            todo.extend(read_dir(&dir).await.into_iter().rev().map(Dropped::Entry));
        } else if entry.is_file() {
            let file: FileSystemFileEntry = entry.unchecked_into();
            if let Some(f) = file_of(&file).await {
                out.push((f, path));
            }
        }
    }
    out
}

/// A folder's entries: `readEntries` gives them in batches, until one comes back empty.
async fn read_dir(dir: &FileSystemDirectoryEntry) -> Vec<FileSystemEntry> {
    let reader = dir.create_reader();
    let mut all = Vec::new();
    loop {
        let batch = call(&reader, "readEntries");
        let Ok(batch) = JsFuture::from(batch).await else {
            break;
        };
        let batch: Array = batch.unchecked_into();
        if batch.length() == 0 {
            break;
        }
        all.extend(batch.iter().map(|e| e.unchecked_into::<FileSystemEntry>()));
    }
    all
}

async fn file_of(entry: &FileSystemFileEntry) -> Option<File> {
    JsFuture::from(call(entry, "file"))
        .await
        .ok()?
        .dyn_into()
        .ok()
}

/// `this.method(resolve, reject)` as a promise: the entries' API takes callbacks (called through
/// `Reflect`, as web-sys's error-callback type would add bindings for this one use).
fn call(this: &JsValue, method: &str) -> Promise {
    Promise::new(&mut |resolve, reject| {
        let f = Reflect::get(this, &method.into()).map(|f| f.unchecked_into::<Function>());
        if let Err(e) = f.and_then(|f| f.call2(this, &resolve, &reject)) {
            let _ = reject.call1(&JsValue::NULL, &e);
        }
    })
}

/// Files chosen with the folder chooser (`webkitdirectory`), with their paths from the folder's
/// name on (`webkitRelativePath`); hidden ones skipped.
pub fn chosen(files: Vec<File>) -> Vec<(File, String)> {
    files
        .into_iter()
        .map(|f| {
            let path = Reflect::get(&f, &"webkitRelativePath".into())
                .ok()
                .and_then(|p| p.as_string())
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| f.name());
            (f, path)
        })
        .filter(|(_, path)| !hidden(path))
        .collect()
}
