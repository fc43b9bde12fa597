//! Compressed and UTF-16 sources, recognised by their first bytes: gzip and zstd are decoded, and
//! UTF-16 transcoded to UTF-8, as they are read, so a `.jsonl.gz` or a PowerShell file is just
//! another source whose bytes stream to the readers (never whole in memory) and scores as the
//! file it holds.

use ruzstd::decoding::{FrameDecoder, StreamingDecoder};
use std::io::{self, BufRead, BufReader, Read};

/// How a source's bytes are compressed or encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Compression {
    Gzip,
    Zstd,
    /// UTF-16 with a byte-order mark; `true` for big-endian.
    Utf16(bool),
    /// A Parquet table, read whole and turned into JSON Lines of its rows (natively; the page
    /// loads its decoder only when such a file is dropped, and hands the session the rows).
    #[cfg(not(target_arch = "wasm32"))]
    Parquet,
}

/// The compression `start` (a source's first bytes, at least 4 of them when it has them) shows.
pub(super) fn sniff(start: &[u8]) -> Option<Compression> {
    match start {
        [0x1f, 0x8b, ..] => Some(Compression::Gzip),
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
        #[cfg(not(target_arch = "wasm32"))]
        [b'P', b'A', b'R', b'1', ..] => Some(Compression::Parquet),
        _ => super::utf16::sniff(start).map(Compression::Utf16),
    }
}

/// The name a compressed source's content goes by: without its compression suffix, so that
/// detection and the readers that read names (HELM's file names, a JevBench tier) see the file
/// inside (`run.jsonl.gz` holds `run.jsonl`).
pub fn inner_name(name: &str) -> &str {
    [".gz", ".gzip", ".zst", ".zstd"]
        .iter()
        .find_map(|ext| {
            let cut = name.len().checked_sub(ext.len())?;
            let (stem, tail) = name.split_at_checked(cut)?;
            tail.eq_ignore_ascii_case(ext).then_some(stem)
        })
        .unwrap_or(name)
}

/// `read`'s bytes decoded. Every gzip member is read (a file of concatenated members, as
/// `cat a.gz b.gz` makes, is one stream), and so is every zstd frame.
pub(super) fn decode<'a>(
    kind: Compression,
    read: impl Read + Send + 'a,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    match kind {
        Compression::Gzip => utf16_inside(Box::new(flate2::read::MultiGzDecoder::new(
            io::BufReader::new(read),
        ))),
        Compression::Zstd => utf16_inside(Box::new(ZstdFrames::new(BufReader::new(read))?)),
        Compression::Utf16(big_endian) => Ok(Box::new(super::utf16::Utf16::new(read, big_endian))),
        #[cfg(not(target_arch = "wasm32"))]
        Compression::Parquet => parquet_rows(read).map(|rows| Box::new(io::Cursor::new(rows)) as _),
    }
}

/// The largest Parquet file read: a table is decoded whole (its index is at its end), so it must
/// fit in memory with the JSON of its rows (at most `scorelens_parquet::MAX_OUTPUT`).
#[cfg(not(target_arch = "wasm32"))]
pub const PARQUET_CAP: u64 = 1 << 30;

/// A Parquet table's rows as JSON Lines, or why not in the user's words.
#[cfg(not(target_arch = "wasm32"))]
fn parquet_rows(read: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    read.take(PARQUET_CAP + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > PARQUET_CAP {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "a Parquet table over {} MiB, which is read whole: split it into smaller files",
                PARQUET_CAP >> 20
            ),
        ));
    }
    scorelens_parquet::to_json_lines(bytes, scorelens_parquet::MAX_OUTPUT)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The decompressed bytes, transcoded when they are UTF-16 (a PowerShell file, gzipped).
fn utf16_inside<'a>(mut read: Box<dyn Read + Send + 'a>) -> io::Result<Box<dyn Read + Send + 'a>> {
    let mut start = Vec::with_capacity(2);
    (&mut read).take(2).read_to_end(&mut start)?;
    let big_endian = super::utf16::sniff(&start);
    let whole = io::Cursor::new(start).chain(read);
    Ok(match big_endian {
        Some(big_endian) => Box::new(super::utf16::Utf16::new(whole, big_endian)),
        None => Box::new(whole),
    })
}

fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}"))
}

/// A zstd stream of one frame or several, one after the other (ruzstd's decoder reads one).
pub(super) struct ZstdFrames<R: BufRead> {
    frame: Option<StreamingDecoder<R, FrameDecoder>>,
}

impl<R: BufRead> ZstdFrames<R> {
    pub(super) fn new(read: R) -> io::Result<Self> {
        let frame = StreamingDecoder::new(read).map_err(invalid)?;
        Ok(ZstdFrames { frame: Some(frame) })
    }
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(frame) = self.frame.as_mut() else {
                return Ok(0);
            };
            let n = frame.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The frame has ended: another follows unless the source has.
            let Some(frame) = self.frame.take() else {
                return Ok(0);
            };
            let (mut source, decoder) = frame.into_parts();
            if source.fill_buf()?.is_empty() {
                return Ok(0);
            }
            self.frame =
                Some(StreamingDecoder::new_with_decoder(source, decoder).map_err(invalid)?);
        }
    }
}

/// What `start` (a source's first bytes, at least 4 of them when it has them) shows the source
/// is compressed or encoded with, in a user's words: such a source is read through `decoded`.
pub fn encoding(start: &[u8]) -> Option<&'static str> {
    sniff(start).map(|kind| match kind {
        Compression::Gzip => "gzip",
        Compression::Zstd => "zstd",
        Compression::Utf16(_) => "UTF-16",
        #[cfg(not(target_arch = "wasm32"))]
        Compression::Parquet => "Parquet",
    })
}

/// `read`'s bytes as the readers see them: decoded (gzip, zstd) and transcoded (UTF-16) as they
/// are read, or as they are when neither. For callers that push a source's bytes into the
/// session themselves (`Session::add`): the fuzz targets and tests.
pub fn decoded<'a>(read: impl Read + Send + 'a) -> io::Result<Box<dyn Read + Send + 'a>> {
    let mut read = read;
    let mut start = Vec::with_capacity(4);
    (&mut read).take(4).read_to_end(&mut start)?;
    let kind = sniff(&start);
    let whole = io::Cursor::new(start).chain(read);
    match kind {
        None => Ok(Box::new(whole)),
        Some(kind) => decode(kind, whole),
    }
}

/// The first `HEAD` bytes of what `read` holds, decoded as the session would decode them (gzip,
/// zstd, UTF-16), and the name its content goes by: for grouping files into runs before any is
/// read.
pub fn peek(name: &str, read: impl Read + Send) -> io::Result<(String, Vec<u8>)> {
    let mut decoded = decoded(read)?;
    let mut head = Vec::with_capacity(crate::formats::HEAD);
    (&mut decoded)
        .take(crate::formats::HEAD as u64)
        .read_to_end(&mut head)?;
    Ok((inner_name(name).to_string(), head))
}
