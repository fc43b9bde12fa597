//! A browser's `File` or `Blob` as a source the session reads (`session::Blob`): the reads only,
//! shared by the worker and the widget. How to read it (streamed, decoded, held to a cap) is the
//! session's choice; the reads are the browser's: a byte stream into one reused buffer, blocking
//! reads where the thread may block (a worker), slices.

use crate::session::{Blob, Pace, Pull, ReadSeek};
use js_sys::{ArrayBuffer, Reflect, Uint8Array};
use std::io::{self, Read, Seek, SeekFrom};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, FileReaderSync, ReadableStreamByobReader};

/// The type of a zip entry's `File` (a slice of the zip), before its tag (`ZipEntry::tag`): the
/// worker makes such files of a dropped zip's entries, and the session decodes them.
pub const ZIP_ENTRY: &str = "application/x-scorelens-zip-entry";

/// The most bytes of a file the page (the app's worker, the widget) holds with a format that reads
/// the whole file in memory (JSON documents, archives, CSV, a compressed file on the page's
/// thread): with the buffer's growth and the parse, several times this must fit in the 4 GiB a
/// wasm32 instance can have. Line-based formats stream and have no size limit (their lines have
/// one, the session's `MAX_LINE`, as natively). A compressed file is held to it by its decoded
/// bytes. The session applies it (`Options::whole_cap`).
pub const WHOLE_FILE_CAP: u64 = 512 << 20;

/// Bytes the browser may write per stream read.
const ROOM: u32 = 1 << 20;

/// Bytes of a file read per blocking call.
const PIECE: u64 = 1 << 20;

/// Milliseconds of reading between two turns of the event loop (`Breathing`).
const BREATHE_MS: f64 = 200.0;

/// A browser's error, in the words every face shows.
fn unread(e: JsValue) -> io::Error {
    let why = e
        .dyn_ref::<js_sys::Error>()
        .and_then(|e| e.message().as_string())
        .unwrap_or_else(|| format!("{e:?}"));
    io::Error::other(format!("the browser could not read the file: {why}"))
}

/// A dropped or given file.
#[derive(Clone)]
pub struct BrowserFile {
    blob: web_sys::Blob,
    name: String,
}

impl BrowserFile {
    /// A `File`, named by its own name.
    pub fn file(file: &File) -> Self {
        BrowserFile {
            name: file.name(),
            blob: file.clone().into(),
        }
    }

    /// A `Blob` (or a `File`) under the name reports give it.
    pub fn named(blob: &web_sys::Blob, name: &str) -> Self {
        BrowserFile {
            blob: blob.clone(),
            name: name.to_string(),
        }
    }
}

impl Blob for BrowserFile {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn size(&self) -> u64 {
        self.blob.size() as u64
    }

    async fn slice(&self, start: u64, end: u64) -> io::Result<Vec<u8>> {
        let part = self
            .blob
            .slice_with_f64_and_f64(start as f64, end as f64)
            .map_err(unread)?;
        let buf = JsFuture::from(part.array_buffer()).await.map_err(unread)?;
        Ok(Uint8Array::new(&buf).to_vec())
    }

    fn stream(&self) -> io::Result<impl Pull> {
        FileStream::open(&self.blob)
    }

    fn blocking(&self) -> Option<Box<dyn ReadSeek>> {
        // `FileReaderSync` exists in workers only: on a page's main thread this is `None`.
        let reader = FileReaderSync::new().ok()?;
        Some(Box::new(SyncFile {
            blob: self.blob.clone(),
            reader,
            size: self.size(),
            at: 0,
        }))
    }

    fn zip_entry(&self) -> Option<String> {
        let kind = self.blob.type_();
        kind.strip_prefix(ZIP_ENTRY)
            .map(|tag| tag.trim_start_matches(';').trim().to_string())
    }
}

/// A file read through its byte stream into one buffer that goes back and forth between the
/// browser and the wasm (a BYOB reader), so reading a gigabyte leaves no slice per read for the
/// garbage collector to find (a 1 GB file must score in the page in under 300 MB: slices of
/// 8 MiB left the worker's JS heap at 70–110 MB). One read is always in flight while the last is
/// parsed.
struct FileStream {
    reader: ReadableStreamByobReader,
    /// The read in flight; none once the stream has ended.
    pending: Option<JsFuture>,
}

impl FileStream {
    /// Opens `blob`'s byte stream and asks for its first bytes.
    fn open(blob: &web_sys::Blob) -> io::Result<Self> {
        let reader = ReadableStreamByobReader::new(&blob.stream()).map_err(unread)?;
        let mut stream = FileStream {
            reader,
            pending: None,
        };
        stream.ask(&ArrayBuffer::new(ROOM));
        Ok(stream)
    }

    /// Asks the browser to write the next bytes into `buffer`.
    fn ask(&mut self, buffer: &ArrayBuffer) {
        let view = Uint8Array::new(buffer);
        self.pending = Some(JsFuture::from(
            self.reader.read_with_array_buffer_view(&view),
        ));
    }
}

impl Pull for FileStream {
    async fn pull(&mut self, into: &mut Vec<u8>) -> io::Result<()> {
        let start = into.len();
        while into.len() == start {
            let Some(read) = self.pending.take() else {
                return Ok(());
            };
            let result = read.await.map_err(unread)?;
            if Reflect::get(&result, &"done".into())
                .map_err(unread)?
                .is_truthy()
            {
                return Ok(());
            }
            let view: Uint8Array = Reflect::get(&result, &"value".into())
                .map_err(unread)?
                .dyn_into()
                .map_err(unread)?;
            into.resize(start + view.length() as usize, 0);
            view.copy_to(&mut into[start..]);
            let buffer: ArrayBuffer = view.buffer();
            self.ask(&buffer);
        }
        Ok(())
    }
}

impl Drop for FileStream {
    /// A read stopped early (a cancel, an error) stops the browser's reading too.
    fn drop(&mut self) {
        if self.pending.is_some() {
            let _ = self.reader.cancel();
        }
    }
}

/// A file read with blocking reads (`FileReaderSync`: a dedicated worker may block on its own
/// reads), a piece at a time.
struct SyncFile {
    blob: web_sys::Blob,
    reader: FileReaderSync,
    size: u64,
    at: u64,
}

// SAFETY: the wasm that reads files has no threads (it is built without atomics), so the JS
// handles this holds never leave the thread that made them; `Send` is asked for by the session's
// decoders, which natively may run on another thread.
unsafe impl Send for SyncFile {}

impl Read for SyncFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let end = self.size.min(self.at + PIECE.min(buf.len() as u64));
        if end <= self.at {
            return Ok(0);
        }
        let part = self
            .blob
            .slice_with_f64_and_f64(self.at as f64, end as f64)
            .map_err(unread)?;
        let buffer = self.reader.read_as_array_buffer(&part).map_err(unread)?;
        let bytes = Uint8Array::new(&buffer);
        let n = (bytes.length() as usize).min(buf.len());
        bytes.subarray(0, n as u32).copy_to(&mut buf[..n]);
        self.at += n as u64;
        Ok(n)
    }
}

impl Seek for SyncFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let to = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.size.checked_add_signed(d),
            SeekFrom::Current(d) => self.at.checked_add_signed(d),
        };
        self.at = to.ok_or_else(|| io::Error::other("a seek before the file's start"))?;
        Ok(self.at)
    }
}

/// Lets the event loop take its messages: resumes in a macrotask (a timeout of 0).
pub async fn breathe() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        let set = Reflect::get(&global, &"setTimeout".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        let queued = set.is_some_and(|set| set.call2(&global, &resolve, &0.into()).is_ok());
        if !queued {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    });
    let _ = JsFuture::from(p).await;
}

/// A pace that turns the event loop every `BREATHE_MS` of reading: a read that finished while the
/// last was parsed resumes the reading in a microtask, so a fast source (a file in memory) would
/// never hand the event loop back, and messages (a cancel, a click) would wait for the end.
pub struct Breathing {
    last: f64,
}

impl Breathing {
    pub fn new() -> Self {
        Breathing {
            last: js_sys::Date::now(),
        }
    }

    /// Turns the event loop if it is time.
    pub async fn turn(&mut self) {
        if js_sys::Date::now() - self.last > BREATHE_MS {
            breathe().await;
            self.last = js_sys::Date::now();
        }
    }
}

impl Default for Breathing {
    fn default() -> Self {
        Breathing::new()
    }
}

impl Pace for Breathing {
    async fn between(&mut self, _: u64) -> bool {
        self.turn().await;
        true
    }
}
