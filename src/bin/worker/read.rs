//! Reading a run's dropped files in the worker: each file's bytes arrive as messages (a byte
//! stream's reads) and are pushed into the session as they come; the session chooses how to read
//! them. What is the browser's alone stays here: the size limits of a tab, progress, cancels, and
//! turns of the event loop.

use crate::decode::Decoded;
use crate::file_stream::FileStream;
use crate::worker::{current, post, scope};
use scorelens::formats::{detect, HEAD};
use scorelens::session::whole::{read_whole, too_big, Whole};
use scorelens::session::Feed;
use scorelens::web::protocol::FromWorker;
use scorelens::Session;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

/// Bytes between two progress messages: few messages, yet progress moves and a cancel is
/// felt within a fraction of a second.
const CHUNK: usize = 8 << 20;

/// Milliseconds of reading between two turns of the event loop (`breathe`).
const BREATHE_MS: f64 = 200.0;

/// The largest file the page reads with a format that holds the whole file in memory (JSON
/// documents, archives, CSV): with the buffer's growth and the parse, several times this must
/// fit in the 4 GiB a wasm32 worker can have. Line-based formats stream and have no size limit
/// (their lines have one, the session's `scorelens::session::MAX_LINE`, as natively: a longer
/// line is skipped with a warning as it streams).
/// A compressed file is held to it by its decoded bytes, as they arrive (`Whole`).
const WHOLE_FILE_CAP: u64 = 512 << 20;

/// Lets the worker take its messages: resumes in a macrotask (a timeout of 0).
async fn breathe() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = JsFuture::from(p).await;
}

/// Why reading stopped early.
pub enum Stop {
    Cancelled,
    Read(String),
    /// Over what the tab can hold: the message says why.
    TooBig(String),
}

/// `file`'s first bytes, which detect its format (the rest streams through `FileStream`).
pub async fn head(file: &File) -> Result<Vec<u8>, Stop> {
    let read = |e: JsValue| Stop::Read(format!("{e:?}"));
    let end = file.size().min(HEAD as f64);
    let blob = file.slice_with_f64_and_f64(0.0, end).map_err(read)?;
    let buf = JsFuture::from(blob.array_buffer()).await.map_err(read)?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// True when the run will almost surely hold more items than the browser resamples: its first
/// file is line-based, and its first lines, as long as the rest, would make more than twice
/// `max_items` lines in the run's `total` bytes. Such a run keeps no bootstrap sample while it
/// is read (building one for its first items cost a fifth of the worker's time on 100 MB);
/// should it end with few enough items after all, the worker reads it again for its sample, so
/// no run loses its intervals to the guess.
pub fn surely_too_many(first: &File, head: &[u8], total: f64, max_items: usize) -> bool {
    let Some(format) = detect(&first.name(), head) else {
        return false;
    };
    let lines = head.iter().filter(|&&b| b == b'\n').count();
    let per_line = head.len() as f64 / lines.max(1) as f64;
    !read_whole(format.name(), head) && lines > 0 && total / per_line > 2.0 * max_items as f64
}

/// Pushes the run's files into `session` as their reads arrive; returns the run's size in
/// bytes. `progress` posts progress messages (the first read, which the page waits for). A stop
/// of the session (strict mode met a warning) ends the reading: `finish` then says why.
pub async fn read_all(
    session: &mut Session,
    run: u32,
    generation: u32,
    files: &[File],
    progress: bool,
) -> Result<f64, Stop> {
    let total: f64 = files.iter().map(|f| f.size()).sum();
    let mut done = 0.0;
    let mut chunk = Vec::new();
    for file in files {
        let name = file.name();
        let size = file.size();
        let mut head = head(file).await?;
        if !current(run, generation) {
            return Err(Stop::Cancelled);
        }
        if crate::decode::decodes(file, &head) {
            let mut decoded = Decoded::open(file, &mut head)?;
            let mut feed = session.add(&name, &head, None);
            let at = Progress {
                run,
                generation,
                name: &name,
                start: done,
                total,
                progress,
            };
            if !push_decoded(&mut feed, file, &mut decoded, head, at).await? {
                return Ok(total);
            }
            done += size;
            continue;
        }
        let mut feed = session.add(&name, &head, Some(size as u64));
        let format = feed.format();
        if let Some(format) =
            format.filter(|f| size > WHOLE_FILE_CAP as f64 && read_whole(f, &head))
        {
            let why = too_big(&name, Some(size), format, WHOLE_FILE_CAP);
            return Err(Stop::TooBig(why));
        }
        let mut stream = FileStream::open(file).map_err(Stop::Read)?;
        let mut posted = done;
        let mut breathed = js_sys::Date::now();
        loop {
            // A read that finished while the last one was parsed resumes this loop in a
            // microtask, so a fast source (a file in memory) never hands the event loop
            // back: messages (Cancel) would wait for the end. A macrotask now and then.
            if js_sys::Date::now() - breathed > BREATHE_MS {
                breathe().await;
                breathed = js_sys::Date::now();
            }
            // Each read is parsed as it comes, the next one already under way: waiting for
            // several reads before parsing left the worker idle 10-15% of a 100 MB run.
            chunk.clear();
            stream.read_into(&mut chunk).await.map_err(Stop::Read)?;
            if !current(run, generation) {
                return Err(Stop::Cancelled);
            }
            if chunk.is_empty() {
                break;
            }
            if !feed.push(&chunk) {
                return Ok(total);
            }
            done += chunk.len() as f64;
            if !progress || done - posted < CHUNK as f64 {
                continue;
            }
            posted = done;
            post(&FromWorker::Progress {
                run,
                file: name.clone(),
                done,
                total,
            });
        }
    }
    Ok(total)
}

/// Where a file's reading stands among the run's files, for its progress messages.
struct Progress<'a> {
    run: u32,
    generation: u32,
    name: &'a str,
    /// Bytes of the run's files before this one.
    start: f64,
    total: f64,
    progress: bool,
}

/// Pushes a compressed or UTF-16 file's content into `feed` from its decoded `head` on, a piece
/// at a time, with the plain files' limits and turns of the event loop; false once the session
/// wants no more. Progress counts the file's own bytes.
async fn push_decoded(
    feed: &mut Feed<'_>,
    file: &File,
    decoded: &mut Decoded,
    head: Vec<u8>,
    at: Progress<'_>,
) -> Result<bool, Stop> {
    let format = feed.format();
    // A format read whole is held to the plain file's cap by the bytes it decodes to.
    let mut whole = Whole::new(format, &head, WHOLE_FILE_CAP);
    let mut chunk = head;
    let (mut posted, mut breathed) = (0.0, js_sys::Date::now());
    while !chunk.is_empty() {
        if !whole.add(chunk.len()) {
            let why = too_big(at.name, None, format.unwrap_or_default(), WHOLE_FILE_CAP);
            return Err(Stop::TooBig(why));
        }
        if !feed.push(&chunk) {
            return Ok(false);
        }
        let done = at.start + decoded.file_bytes();
        if at.progress && done - posted >= CHUNK as f64 {
            posted = done;
            post(&FromWorker::Progress {
                run: at.run,
                file: at.name.to_string(),
                done,
                total: at.total,
            });
        }
        if js_sys::Date::now() - breathed > BREATHE_MS {
            breathe().await;
            breathed = js_sys::Date::now();
            if !current(at.run, at.generation) {
                return Err(Stop::Cancelled);
            }
        }
        chunk.clear();
        decoded.read_into(file, &mut chunk, PIECE)?;
    }
    Ok(true)
}

/// Decoded bytes pushed into the session at a time.
const PIECE: usize = 1 << 20;
