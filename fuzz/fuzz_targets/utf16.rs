//! Fuzzes UTF-16 sources (what Windows PowerShell's `>` writes): little- and big-endian, with and
//! without a byte-order mark, odd lengths, lone surrogates, read in pieces of any size. A file
//! read whole, read in short pieces and read as the page's worker reads it must score alike; and
//! valid UTF-16 with its mark must score as the UTF-8 text it holds.
//!
//! Input: byte 0 picks the byte order, the mark, whether the rest is UTF-16 as given or UTF-8
//! text the target encodes (with a lone surrogate put in, or not), and the name; byte 1 the size
//! of the reads.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::formats::HEAD;
use scorelens::{score_sources, Options, Session, Source};
use std::io::Read;

/// A reader that hands out at most `size` bytes a read, so that a code unit or a surrogate pair
/// is cut anywhere.
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

fuzz_target!(|data: &[u8]| {
    let [mode, pick, rest @ ..] = data else {
        return;
    };
    let big_endian = mode & 1 != 0;
    let bom = mode & 2 != 0;
    let raw = mode & 4 != 0;
    let lone = mode & 8 != 0;
    let name = common::NAMES[usize::from(mode >> 4) % common::NAMES.len()];
    let size = usize::from(*pick).max(1) * if pick & 0x80 == 0 { 1 } else { 1021 };
    let unit = |u: u16| {
        if big_endian {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        }
    };
    let text = String::from_utf8_lossy(rest);
    let mut file = Vec::new();
    if bom {
        file.extend(unit(0xfeff));
    }
    if raw {
        file.extend_from_slice(rest);
    } else {
        let mut units: Vec<u16> = text.encode_utf16().collect();
        if lone {
            let at = usize::from(*pick) % (units.len() + 1);
            units.insert(at, if pick & 1 == 0 { 0xd800 } else { 0xdc00 });
        }
        file.extend(units.into_iter().flat_map(unit));
    }

    let opts = Options {
        items: Some(1000),
        ..Options::default()
    };
    let show = |r: Result<scorelens::Finished, scorelens::Error>| r.map(|f| f.report.to_json());
    let whole = show(score_sources([Source::bytes(name, &file)], &opts));
    let short = Short { bytes: &file, size };
    let pieces = show(score_sources([Source::reader(name, None, short)], &opts));
    assert_eq!(
        whole, pieces,
        "read whole and read in pieces scored differently"
    );

    if bom && !raw && !lone {
        let utf8 = show(score_sources(
            [Source::reader(name, None, text.as_bytes())],
            &opts,
        ));
        assert_eq!(
            whole, utf8,
            "UTF-16 scored otherwise than the UTF-8 it holds"
        );
    }

    // The worker's way: decoded, the decoded head for detection, then chunks.
    let Ok(mut session) = Session::new(&opts) else {
        return;
    };
    let Ok(mut read) = scorelens::session::decoded(Short { bytes: &file, size }) else {
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
        whole, worker,
        "the worker's reading scored differently from the CLI's"
    );
});
