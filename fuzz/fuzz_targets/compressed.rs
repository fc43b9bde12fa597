//! Fuzzes gzip and zstd sources, decoded as they stream: as the CLI reads a file (`Source::bytes`
//! and `Source::reader`, which must give the same report) and as the page's worker reads one
//! (`session::decoded`, then `Session::add` fed in chunks, which must give it too). Memory must
//! stay bounded whatever the stream claims: the fuzzer's RSS limit catches a bomb that is held.
//!
//! Input: byte 0 picks the stream and the name, byte 1 the size of the reads; the rest is
//! either the stream as given, or content the target compresses first (gzip, zstd, two members
//! or frames, UTF-16 inside gzip), or bytes behind a gzip or zstd magic that only claim to be one.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::formats::HEAD;
use scorelens::{score_sources, Options, Session, Source};
use std::io::{Read, Write};

/// Names the sources go by: detection and the readers look past the compression's suffix.
const NAMES: &[&str] = &[
    "predictions.jsonl.gz",
    "predictions.jsonl.zst",
    "results.json.gz",
    "samples_sci_mc_2026-11-29T20-46-19.400381.jsonl.gz",
    "table.csv.zst",
    "log.jsonl",
    "scenario_state.json.gz",
    "results.jsonl.zstd",
];

/// Decoded bytes past which the session is not run on an input (a bomb of gigabytes is a slow
/// input, not a finding): the decoders alone still read up to `PROBE`.
const SCORED: u64 = 8 << 20;
const PROBE: u64 = 256 << 20;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = e.write_all(bytes);
    e.finish().unwrap_or_default()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

/// UTF-16 LE with its byte-order mark, as PowerShell writes.
fn utf16(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = vec![0xff, 0xfe];
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

/// A reader that hands out at most `size` bytes a read, so that the decoders see short reads.
struct Short<'a> {
    bytes: &'a [u8],
    size: usize,
}

impl Read for Short<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.size).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// How many bytes `stream` decodes to (up to `PROBE` and one), and whether it decodes cleanly.
fn decoded_len(stream: &[u8]) -> (u64, bool) {
    let Ok(read) = scorelens::session::decoded(stream) else {
        return (0, false);
    };
    let mut read = read.take(PROBE + 1);
    let mut buf = vec![0u8; 64 << 10];
    let mut total = 0u64;
    loop {
        match read.read(&mut buf) {
            Ok(0) => return (total, true),
            Ok(n) => total += n as u64,
            Err(_) => return (total, false),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [mode, size, rest @ ..] = data else {
        return;
    };
    let half = rest.len() / 2;
    let stream: Vec<u8> = match mode % 8 {
        0 | 1 => rest.to_vec(),
        2 => gzip(rest),
        3 => [gzip(&rest[..half]), gzip(&rest[half..])].concat(),
        4 => zstd(rest),
        5 => [zstd(&rest[..half]), zstd(&rest[half..])].concat(),
        6 => [&[0x1f, 0x8b][..], rest].concat(),
        _ => match mode & 0x10 {
            0 => [&[0x28, 0xb5, 0x2f, 0xfd][..], rest].concat(),
            _ => gzip(&utf16(rest)),
        },
    };
    let name = NAMES[usize::from(mode >> 5) % NAMES.len()];
    let size = usize::from(*size).max(1) * if size & 1 == 0 { 1 } else { 509 };

    // The decoders alone: whatever a stream declares, reading it holds no more than a read's worth.
    let (decoded, clean) = decoded_len(&stream);
    if decoded > SCORED {
        return;
    }

    let opts = Options {
        items: Some(1000),
        ..Options::default()
    };
    let show = |r: Result<scorelens::Finished, scorelens::Error>| r.map(|f| f.report.to_json());
    let bytes = show(score_sources([Source::bytes(name, &stream)], &opts));
    let read = Short {
        bytes: &stream,
        size,
    };
    let reader = show(score_sources([Source::reader(name, None, read)], &opts));
    // A stream that cannot be decoded is an error either way; the reason may name another spot.
    assert_eq!(bytes.is_ok(), reader.is_ok(), "{bytes:?} {reader:?}");
    if clean {
        assert_eq!(
            bytes, reader,
            "a file read whole and read in pieces scored differently"
        );
    }

    // The worker's way: its own decoding, the decoded head for detection, then chunks.
    let Ok(mut session) = Session::new(&opts) else {
        return;
    };
    let Ok(mut read) = scorelens::session::decoded(Short {
        bytes: &stream,
        size,
    }) else {
        return;
    };
    let mut head = Vec::new();
    if (&mut read)
        .take(HEAD as u64)
        .read_to_end(&mut head)
        .is_err()
    {
        return;
    }
    let mut feed = session.add(name, &head, None);
    feed.push(&head);
    let mut chunk = Vec::new();
    loop {
        chunk.clear();
        if (&mut read)
            .take(size as u64)
            .read_to_end(&mut chunk)
            .is_err()
        {
            return;
        }
        if chunk.is_empty() || !feed.push(&chunk) {
            break;
        }
    }
    feed.end();
    let worker = show(session.finish());
    assert_eq!(
        bytes, worker,
        "the worker's reading scored differently from the CLI's"
    );
});
