//! Sources a face reads asynchronously (`session::Blob`, the browser's File) read by the session
//! as it chooses: every kind of file (plain, JSON read whole, gzip, zstd, UTF-16, a zip's entry),
//! with blocking reads or without (a page's main thread), in any read size, gives the report the
//! same bytes give; a format read whole is held to `Options::whole_cap` by its size or its
//! decoded bytes; the face's `Pace` hears the file's bytes as they are read and can stop them.

use flate2::write::GzEncoder;
use scorelens::session::{list_zip_read, Blob, Ended, Pace, Pull, ReadSeek, Steady, ZipListing};
use scorelens::{score_sources, Error, Options, Session, Source};
use std::future::Future;
use std::io::{self, Cursor, Write};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// Runs a future whose awaits never wait (these blobs are in memory) to its end.
fn now<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = f.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// A file in memory, read as a browser's would be.
struct MemBlob {
    name: String,
    bytes: Vec<u8>,
    /// Whether the face may block (a worker) or not (a page's main thread).
    can_block: bool,
    /// Bytes per stream read.
    read: usize,
    tag: Option<String>,
}

fn blob(name: &str, bytes: &[u8], can_block: bool, read: usize) -> MemBlob {
    MemBlob {
        name: name.to_string(),
        bytes: bytes.to_vec(),
        can_block,
        read,
        tag: None,
    }
}

struct Reads<'a> {
    bytes: &'a [u8],
    at: usize,
    size: usize,
}

impl Pull for Reads<'_> {
    async fn pull(&mut self, into: &mut Vec<u8>) -> io::Result<()> {
        let end = (self.at + self.size).min(self.bytes.len());
        into.extend_from_slice(&self.bytes[self.at..end]);
        self.at = end;
        Ok(())
    }
}

impl Blob for MemBlob {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn size(&self) -> u64 {
        self.bytes.len() as u64
    }
    async fn slice(&self, start: u64, end: u64) -> io::Result<Vec<u8>> {
        let end = (end as usize).min(self.bytes.len());
        Ok(self.bytes[(start as usize).min(end)..end].to_vec())
    }
    fn stream(&self) -> io::Result<impl Pull> {
        Ok(Reads {
            bytes: &self.bytes,
            at: 0,
            size: self.read,
        })
    }
    fn blocking(&self) -> Option<Box<dyn ReadSeek>> {
        self.can_block
            .then(|| Box::new(Cursor::new(self.bytes.clone())) as Box<dyn ReadSeek>)
    }
    fn zip_entry(&self) -> Option<String> {
        self.tag.clone()
    }
}

/// Records the file bytes it is told of; stops after `stop_after` chunks when given.
#[derive(Default)]
struct Watch {
    seen: Vec<u64>,
    stop_after: Option<usize>,
}

impl Pace for Watch {
    async fn between(&mut self, file_bytes: u64) -> bool {
        self.seen.push(file_bytes);
        self.stop_after.is_none_or(|n| self.seen.len() < n)
    }
}

fn by_blob(b: &MemBlob, opts: &Options) -> Result<String, Error> {
    let mut s = Session::new(opts)?;
    assert_eq!(now(s.read_blob(b, &mut Steady))?, Ended::Read);
    Ok(s.finish()?.report.to_json())
}

fn by_bytes(name: &str, bytes: &[u8]) -> String {
    let f = score_sources([Source::bytes(name, bytes)], &Options::default()).unwrap();
    f.report.to_json()
}

fn sample(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn utf16(bytes: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(bytes).unwrap();
    let mut out = vec![0xFF, 0xFE];
    text.encode_utf16()
        .for_each(|u| out.extend(u.to_le_bytes()));
    out
}

#[test]
fn every_kind_of_file_gives_the_report_its_bytes_give() {
    let choice = sample("www/samples/choice.jsonl");
    let judge = sample("www/samples/rewardbench-v1-judge.json");
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("choice.jsonl", choice.clone()),
        ("rewardbench-v1-judge.json", judge.clone()),
        ("choice.jsonl.gz", gzip(&choice)),
        ("judge.json.gz", gzip(&judge)),
        ("choice.jsonl", utf16(&choice)),
        (
            "choice.jsonl.gz",
            sample("tests/fixtures/compressed/choice.jsonl.gz"),
        ),
    ];
    for (name, bytes) in &files {
        let want = by_bytes(name, bytes);
        for can_block in [true, false] {
            for read in [1000, 64 << 10] {
                let got = by_blob(&blob(name, bytes, can_block, read), &Options::default());
                assert_eq!(
                    got.unwrap(),
                    want,
                    "{name}, blocking {can_block}, reads of {read}"
                );
            }
        }
    }
}

#[test]
fn a_zips_entry_given_as_its_own_bytes_reads_as_in_the_zip() {
    let zip = sample("tests/fixtures/zip/mixed.zip");
    let listing: ZipListing = list_zip_read("mixed.zip", Cursor::new(&zip[..]))
        .unwrap()
        .unwrap();
    assert!(listing.entries.len() >= 2);
    for e in &listing.entries {
        let stored = &zip[e.start as usize..(e.start + e.compressed) as usize];
        let name = e.name.rsplit('/').next().unwrap();
        let source = Source::zip_entry_read(name, &zip[e.start as usize..], e).unwrap();
        let want = score_sources([source], &Options::default()).map(|f| f.report.to_json());
        for can_block in [true, false] {
            let mut b = blob(name, stored, can_block, 4096);
            b.tag = Some(e.tag());
            let mut s = Session::new(&Options::default()).unwrap();
            now(s.read_blob(&b, &mut Steady)).unwrap();
            let got = s.finish().map(|f| f.report.to_json());
            assert_eq!(got, want, "{}", e.name);
        }
        // Its first bytes, decoded, are what grouping reads.
        let mut b = blob(name, stored, true, 4096);
        b.tag = Some(e.tag());
        let head = now(scorelens::session::first_bytes(&b)).unwrap();
        let source = Source::zip_entry_read(name, &zip[e.start as usize..], e).unwrap();
        assert_eq!(head, source.peek_as(name).unwrap().1, "{}", e.name);
    }
    // A tag that is not one is a read error naming the file.
    let mut b = blob("x.jsonl", b"{}", true, 10);
    b.tag = Some("method=8".into());
    let mut s = Session::new(&Options::default()).unwrap();
    let err = now(s.read_blob(&b, &mut Steady)).unwrap_err();
    assert!(
        matches!(&err, Error::Io { file, .. } if file == "x.jsonl"),
        "{err}"
    );
}

#[test]
fn a_file_read_whole_is_held_to_the_cap_and_lines_are_not() {
    let judge = sample("www/samples/rewardbench-v1-judge.json");
    let choice = sample("www/samples/choice.jsonl");
    let cap = judge.len() as u64 - 1;
    let opts = Options {
        whole_cap: Some(cap),
        ..Options::default()
    };
    // A JSON document one byte over: stopped by its size before a byte is read.
    let err = by_blob(&blob("judge.json", &judge, true, 4096), &opts).unwrap_err();
    let Error::TooBig { file, why } = &err else {
        panic!("{err}")
    };
    assert_eq!(file, "judge.json");
    assert!(why.starts_with("judge.json is 0.0 GB: a "), "{why}");
    // Gzipped, by its decoded bytes, blocking or not.
    for can_block in [true, false] {
        let err = by_blob(
            &blob("judge.json.gz", &gzip(&judge), can_block, 4096),
            &opts,
        );
        let err = err.unwrap_err();
        assert!(
            err.to_string().starts_with(&format!(
                "judge.json.gz holds more than {} MB once decompressed",
                cap >> 20
            )),
            "{err}"
        );
    }
    // The same cap is no limit to JSON Lines, however long, nor to a document within it.
    let long = choice.repeat(1 + (cap as usize) / choice.len());
    assert!(long.len() as u64 > cap);
    by_blob(&blob("long.jsonl", &long, true, 4096), &opts).unwrap();
    let within = Options {
        whole_cap: Some(judge.len() as u64),
        ..Options::default()
    };
    by_blob(&blob("judge.json", &judge, true, 4096), &within).unwrap();
    by_blob(&blob("judge.json.gz", &gzip(&judge), true, 4096), &within).unwrap();
    // Natively there is no cap, and `Session::read` holds bytes to one when it is set.
    let mut s = Session::new(&opts).unwrap();
    let err = s.read(Source::bytes("judge.json", &judge)).unwrap_err();
    assert!(matches!(err, Error::TooBig { .. }));
}

#[test]
fn the_pace_hears_the_files_bytes_and_can_stop_the_reading() {
    let choice = sample("www/samples/choice.jsonl");
    let packed = gzip(&choice.repeat(40));
    for (b, end) in [
        (blob("choice.jsonl", &choice, true, 1000), choice.len()),
        (blob("big.jsonl.gz", &packed, true, 1000), packed.len()),
    ] {
        let mut watch = Watch::default();
        let mut s = Session::new(&Options::default()).unwrap();
        assert_eq!(now(s.read_blob(&b, &mut watch)).unwrap(), Ended::Read);
        assert!(watch.seen.len() > 1, "{}: told more than once", b.name);
        assert!(
            watch.seen.windows(2).all(|w| w[0] <= w[1]),
            "{:?}",
            watch.seen
        );
        assert_eq!(*watch.seen.last().unwrap() as usize, end, "{}", b.name);
        // Stopped after two chunks: halted, and the session can still end the run.
        let mut stop = Watch {
            stop_after: Some(2),
            ..Watch::default()
        };
        let mut s = Session::new(&Options::default()).unwrap();
        assert_eq!(now(s.read_blob(&b, &mut stop)).unwrap(), Ended::Halted);
        assert_eq!(stop.seen.len(), 2);
        s.finish().unwrap();
    }
}

#[test]
fn strict_mode_stops_the_blob_and_finish_says_why() {
    let mut bytes = sample("www/samples/choice.jsonl");
    bytes.extend_from_slice(b"not json\n");
    bytes.extend(sample("www/samples/choice.jsonl"));
    let opts = Options {
        strict: true,
        ..Options::default()
    };
    let mut s = Session::new(&opts).unwrap();
    let b = blob("bad.jsonl", &bytes, true, 100);
    assert_eq!(now(s.read_blob(&b, &mut Steady)).unwrap(), Ended::Stopped);
    let err = s.finish().unwrap_err();
    assert!(
        matches!(&err, Error::Strict(w) if w.file == "bad.jsonl"),
        "{err}"
    );
}
