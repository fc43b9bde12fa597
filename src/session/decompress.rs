//! Compressed sources, recognised by their magic bytes: gzip and zstd are decoded as they are
//! read, so a `.jsonl.gz` is just another source whose bytes stream to the readers (never whole
//! in memory) and a compressed file scores as the file it holds.

use ruzstd::decoding::{FrameDecoder, StreamingDecoder};
use std::io::{self, BufRead, BufReader, Read};

/// How a source's bytes are compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Compression {
    Gzip,
    Zstd,
}

/// The compression `start` (a source's first bytes, at least 4 of them when it has them) shows.
pub(super) fn sniff(start: &[u8]) -> Option<Compression> {
    match start {
        [0x1f, 0x8b, ..] => Some(Compression::Gzip),
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
        _ => None,
    }
}

/// The name a compressed source's content goes by: without its compression suffix, so that
/// detection and the readers that read names (HELM's file names, a JevBench tier) see the file
/// inside (`run.jsonl.gz` holds `run.jsonl`).
pub(super) fn inner_name(name: &str) -> &str {
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
    Ok(match kind {
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(io::BufReader::new(read))),
        Compression::Zstd => Box::new(ZstdFrames::new(BufReader::new(read))?),
    })
}

fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}"))
}

/// A zstd stream of one frame or several, one after the other (ruzstd's decoder reads one).
struct ZstdFrames<R: BufRead> {
    frame: Option<StreamingDecoder<R, FrameDecoder>>,
}

impl<R: BufRead> ZstdFrames<R> {
    fn new(read: R) -> io::Result<Self> {
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
