//! Compressed (gzip, zstd), UTF-16 and zipped files in the worker: read with `FileReaderSync` (a
//! dedicated worker may block on its own reads) through the session's own decoders
//! (`scorelens::session::decoded`, and `zipped::entry` for a zip's entry), a piece at a time, so a
//! gigabyte of JSON Lines gzipped scores in the memory of one piece and cancels are still heard
//! between pieces.

use crate::read::Stop;
use js_sys::Uint8Array;
use scorelens::formats::HEAD;
use scorelens::session::zipped;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use web_sys::{File, FileReaderSync};

/// Bytes of the file read per `FileReaderSync` call.
const PIECE: u64 = 1 << 20;

/// A dropped file read with blocking reads, from its start or where it is sought to.
pub struct SyncFile {
    file: File,
    reader: FileReaderSync,
    size: u64,
    /// Bytes of the file read so far, shared with the loop that posts progress.
    at: Arc<AtomicU64>,
}

// SAFETY: the worker's wasm has no threads (it is built without atomics), so the JS handles this
// holds never leave the thread that made them; `Send` is asked for by the session's decoders,
// which natively may run on another thread.
unsafe impl Send for SyncFile {}

impl SyncFile {
    pub fn new(file: &File) -> Result<Self, wasm_bindgen::JsValue> {
        Ok(SyncFile {
            file: file.clone(),
            reader: FileReaderSync::new()?,
            size: file.size() as u64,
            at: Arc::new(AtomicU64::new(0)),
        })
    }
}

impl Seek for SyncFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let at = self.at.load(Ordering::Relaxed);
        let to = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.size.checked_add_signed(d),
            SeekFrom::Current(d) => at.checked_add_signed(d),
        };
        let to = to.ok_or_else(|| io::Error::other("a seek before the file's start"))?;
        self.at.store(to, Ordering::Relaxed);
        Ok(to)
    }
}

impl Read for SyncFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let at = self.at.load(Ordering::Relaxed);
        let end = self.size.min(at + PIECE.min(buf.len() as u64));
        if end <= at {
            return Ok(0);
        }
        let fail = |e: wasm_bindgen::JsValue| io::Error::other(format!("{e:?}"));
        let blob = self
            .file
            .slice_with_f64_and_f64(at as f64, end as f64)
            .map_err(fail)?;
        let buffer = self.reader.read_as_array_buffer(&blob).map_err(fail)?;
        let bytes = Uint8Array::new(&buffer);
        let n = bytes.length() as usize;
        bytes.copy_to(&mut buf[..n]);
        self.at.store(at + n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A compressed or UTF-16 file's bytes, decoded as they are read.
pub struct Decoded {
    read: Box<dyn Read + Send>,
    /// Bytes of the file (not of its content) read so far: what progress counts.
    at: Arc<AtomicU64>,
}

impl Decoded {
    /// Opens `file` and reads its content's first `HEAD` bytes into `head`.
    pub fn open(file: &File, head: &mut Vec<u8>) -> Result<Self, Stop> {
        let fail = |e: wasm_bindgen::JsValue| Stop::Read(format!("{e:?}"));
        let source = SyncFile::new(file).map_err(fail)?;
        let at = source.at.clone();
        // The decoders ask for a few KiB at a time, and each blocking read of the file costs far
        // more than its bytes, so the file is read a piece at a time (docs/performance.md).
        let source = io::BufReader::with_capacity(PIECE as usize, source);
        let inner: Box<dyn Read + Send> = match crate::unzip::entry_of(file) {
            Some(entry) => zipped::entry(source, &entry).map_err(|e| unreadable(file, e))?,
            None => Box::new(source),
        };
        let mut read = scorelens::session::decoded(inner).map_err(|e| unreadable(file, e))?;
        head.clear();
        (&mut read)
            .take(HEAD as u64)
            .read_to_end(head)
            .map_err(|e| unreadable(file, e))?;
        Ok(Decoded { read, at })
    }

    /// Appends up to `limit` more bytes of the content to `into`; none once it has ended.
    pub fn read_into(&mut self, file: &File, into: &mut Vec<u8>, limit: usize) -> Result<(), Stop> {
        (&mut self.read)
            .take(limit as u64)
            .read_to_end(into)
            .map(drop)
            .map_err(|e| unreadable(file, e))
    }

    /// Bytes of the file read so far.
    pub fn file_bytes(&self) -> f64 {
        self.at.load(Ordering::Relaxed) as f64
    }
}

/// A file whose compressed content could not be decoded (a truncated download, say).
fn unreadable(file: &File, e: io::Error) -> Stop {
    Stop::Read(format!("{}: {e}", file.name()))
}

/// True when `file`, whose first bytes are `head`, is read through `Decoded`: compressed,
/// UTF-16, or a zip's entry.
pub fn decodes(file: &File, head: &[u8]) -> bool {
    scorelens::session::encoding(head).is_some() || crate::unzip::entry_of(file).is_some()
}

/// `file`'s content's first `HEAD` bytes (decoded when compressed or UTF-16), for grouping files
/// into runs; or why it cannot be decoded, with its raw first bytes.
pub fn peek(file: &File, raw: Vec<u8>) -> Result<Vec<u8>, (Vec<u8>, String)> {
    let kind = match (
        crate::unzip::entry_of(file),
        scorelens::session::encoding(&raw),
    ) {
        (Some(_), _) => "zipped",
        (None, Some(kind)) => kind,
        (None, None) => return Ok(raw),
    };
    let mut head = Vec::new();
    match Decoded::open(file, &mut head) {
        Ok(_) => Ok(head),
        Err(Stop::Read(why) | Stop::TooBig(why)) => {
            let why = why.split_once(": ").map_or(why.as_str(), |(_, w)| w);
            let why = format!("a {kind} file that could not be decoded (cut short?): {why}");
            Err((raw, why))
        }
        Err(Stop::Cancelled) => Ok(raw),
    }
}
