//! Sources a face reads asynchronously (a browser's File or Blob), read into the session as the
//! session chooses: a plain file streamed, a compressed, UTF-16 or zipped one decoded with
//! blocking reads where the face may block (a worker), or from its stored bytes in memory where it
//! may not (a page's main thread). The face supplies the reads, progress and cancels (`Pace`);
//! the limits are the session's (`Options::whole_cap`).

use super::decompress::{decoded, sniff};
use super::pull::{Blocking, Counted, Ended, Pace, Pull};
use super::whole::{read_whole, Whole};
use super::{guarded, zipped, Session};
use crate::formats::{detect, HEAD};
use crate::Error;
use std::future::Future;
use std::io::{self, Read, Seek};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A source the face reads asynchronously.
pub trait Blob {
    /// The name reports give it.
    fn name(&self) -> String;
    /// Its stored size in bytes.
    fn size(&self) -> u64;
    /// Its stored bytes `start..end` (fewer at its end).
    fn slice(&self, start: u64, end: u64) -> impl Future<Output = io::Result<Vec<u8>>>;
    /// Its stored bytes from the start, a read at a time.
    fn stream(&self) -> io::Result<impl Pull>;
    /// Blocking reads of its stored bytes from the start, where the face may block (a worker);
    /// `None` where it may not (a page's main thread).
    fn blocking(&self) -> Option<Box<dyn ReadSeek>>;
    /// When the blob is one entry of a zip (its stored, compressed bytes): the entry's tag
    /// (`ZipEntry::tag`), which says how to decode it.
    fn zip_entry(&self) -> Option<String>;
}

/// A blocking reader that can seek (a zip's directory is at its end).
pub trait ReadSeek: Read + Seek + Send {}

impl<T: Read + Seek + Send> ReadSeek for T {}

/// Decoded bytes read at a time from a compressed source.
const PIECE: usize = 1 << 20;

/// A blocking reader that counts the stored bytes read through it (what progress counts).
struct Counting {
    inner: Box<dyn ReadSeek>,
    at: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.at.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The blob's zip entry, from its tag; `None` when it is not one.
fn entry_of(blob: &impl Blob, name: &str) -> io::Result<Option<zipped::Entry>> {
    blob.zip_entry()
        .map(|tag| zipped::Entry::from_tag(name, blob.size(), &tag))
        .transpose()
}

/// The blob's stored bytes as blocking reads: the face's own (`blocking`), or, where it may not
/// block, its bytes read into memory first.
async fn stored(
    blob: &impl Blob,
    blocking: Option<Box<dyn ReadSeek>>,
) -> io::Result<Box<dyn ReadSeek>> {
    match blocking {
        Some(read) => Ok(read),
        None => Ok(Box::new(io::Cursor::new(blob.slice(0, blob.size()).await?))),
    }
}

/// `stored` as the readers see it: a zip entry's bytes inflated and checked, then gzip, zstd or
/// UTF-16 decoded. The decoders ask for a few KiB at a time, and each blocking read of a
/// browser's file costs far more than its bytes: the stored bytes are read a piece at a time.
fn decoding(
    stored: impl Read + Send + 'static,
    entry: Option<&zipped::Entry>,
) -> io::Result<Box<dyn Read + Send>> {
    let source = io::BufReader::with_capacity(PIECE, stored);
    let inner: Box<dyn Read + Send> = match entry {
        Some(entry) => zipped::entry(source, entry)?,
        None => Box::new(source),
    };
    decoded(inner)
}

/// The first `HEAD` bytes `read` gives, which detect the format.
fn head_of(read: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD);
    read.take(HEAD as u64).read_to_end(&mut head)?;
    Ok(head)
}

impl Session {
    /// Reads `blob` into the run, with the face's `pace` between chunks. A read error or a limit
    /// passed is the error; strict mode's stop is `Ended::Stopped` (`finish` gives its warning).
    pub async fn read_blob(
        &mut self,
        blob: &impl Blob,
        pace: &mut impl Pace,
    ) -> Result<Ended, Error> {
        let name = blob.name();
        let read = self.read_blob_from(&name, blob, pace).await;
        if !matches!(read, Ok(Ended::Read | Ended::Stopped)) {
            self.end_file();
        }
        read
    }

    async fn read_blob_from(
        &mut self,
        name: &str,
        blob: &impl Blob,
        pace: &mut impl Pace,
    ) -> Result<Ended, Error> {
        let size = blob.size();
        let fail = |e: io::Error| Error::io(name, e);
        let raw = blob.slice(0, size.min(HEAD as u64)).await.map_err(fail)?;
        let entry = entry_of(blob, name).map_err(fail)?;
        if entry.is_none() && sniff(&raw).is_none() {
            let (format, lines) = guarded::detect(name, &raw);
            self.begin(name, &lines, Some(size), format, true);
            let mut whole = Whole::new(format.map(|f| f.name()), &raw, self.whole_cap);
            if whole.over(size) {
                return Err(whole.too_big_at(name, Some(size)));
            }
            let mut stream = blob.stream().map_err(fail)?;
            return self
                .pump(
                    name,
                    Vec::new(),
                    &mut stream,
                    &mut whole,
                    Counted::Pulled,
                    pace,
                )
                .await;
        }
        // A compressed source's size says nothing of what it holds: it is held to the cap by its
        // decoded bytes. Where the face cannot block, its stored bytes are read into memory
        // first, and those are held to the cap too.
        let blocking = blob.blocking();
        if blocking.is_none() {
            let whole = Whole::new(Some("compressed"), b"", self.whole_cap);
            if whole.over(size) {
                return Err(whole.too_big_at(name, Some(size)));
            }
        }
        let at = Arc::new(AtomicU64::new(0));
        let counting = Counting {
            inner: stored(blob, blocking).await.map_err(fail)?,
            at: Arc::clone(&at),
        };
        let mut read = decoding(counting, entry.as_ref()).map_err(fail)?;
        let head = head_of(&mut read).map_err(fail)?;
        let (format, lines) = guarded::detect(name, &head);
        self.begin(name, &lines, None, format, true);
        let mut whole = Whole::new(format.map(|f| f.name()), &head, self.whole_cap);
        let file_bytes = || at.load(Ordering::Relaxed);
        let mut pull = Blocking { read, piece: PIECE };
        self.pump(
            name,
            head,
            &mut pull,
            &mut whole,
            Counted::Under(&file_bytes),
            pace,
        )
        .await
    }
}

/// True when a run whose first source is `first` and whose sources total `total` bytes will
/// almost surely hold more than `items` items: `first` is line-based, and its first lines, as
/// long as the rest, would make more than twice `items` lines. A face that keeps per-item
/// records only for small runs decides so before reading (reading one for the first items of a
/// large run costs more than it saves).
pub async fn surely_more_items(first: &impl Blob, total: u64, items: usize) -> bool {
    let end = first.size().min(HEAD as u64);
    let Ok(head) = first.slice(0, end).await else {
        return false;
    };
    let Some(format) = detect(&first.name(), &head) else {
        return false;
    };
    let lines = head.iter().filter(|&&b| b == b'\n').count();
    let per_line = head.len() as f64 / lines.max(1) as f64;
    !read_whole(format.name(), &head) && lines > 0 && total as f64 / per_line > 2.0 * items as f64
}

/// A source's content's first bytes, decoded when it is compressed, UTF-16 or a zip's entry
/// (what grouping files into runs reads), or its stored first bytes and why they could not be
/// decoded.
pub async fn first_bytes(blob: &impl Blob) -> Result<Vec<u8>, (Vec<u8>, String)> {
    let name = blob.name();
    let end = blob.size().min(HEAD as u64);
    // A file the browser cannot read (moved, say) has no first bytes: no reader claims it.
    let raw = blob.slice(0, end).await.unwrap_or_default();
    let kind = match (blob.zip_entry(), super::encoding(&raw)) {
        (Some(_), _) => "zipped",
        (None, Some(kind)) => kind,
        (None, None) => return Ok(raw),
    };
    let decode = async {
        let entry = entry_of(blob, &name)?;
        let stored = stored(blob, blob.blocking()).await?;
        head_of(&mut decoding(stored, entry.as_ref())?)
    };
    decode.await.map_err(|why| {
        (
            raw,
            format!("a {kind} file that could not be decoded (cut short?): {why}"),
        )
    })
}

/// What a source is to grouping, once its first bytes say whether it is a zip.
pub enum Zip {
    /// Not a zip of files (an Inspect log, or no zip at all): one file.
    File,
    /// A zip of files: its entries, in a folder's walk order, and those that cannot be read
    /// (a path in the zip and why).
    Folder {
        entries: Vec<zipped::Entry>,
        unreadable: Vec<(String, String)>,
    },
    /// A zip whose directory cannot be read, and why.
    Damaged(String),
}

/// Opens `blob` as a folder when it is a zip of result files. Where the face cannot block, a
/// zip is one file (its entries are listed where reads may block: the worker).
pub async fn open_zip(blob: &impl Blob) -> Zip {
    let magic = blob.slice(0, 4).await.unwrap_or_default();
    if magic != zipped::MAGIC {
        return Zip::File;
    }
    let Some(read) = blob.blocking() else {
        return Zip::File;
    };
    match zipped::list(&blob.name(), read) {
        Ok(None | Some(zipped::Listing { inspect: true, .. })) => Zip::File,
        Err(why) => Zip::Damaged(why),
        Ok(Some(listing)) => Zip::Folder {
            entries: listing.entries,
            unreadable: listing.unreadable,
        },
    }
}
