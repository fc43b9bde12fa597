//! UTF-16 sources (Windows PowerShell's `>` writes UTF-16 LE with a byte-order mark) score as the
//! UTF-8 file they hold, whichever byte order, whether read from memory or a reader, and inside
//! gzip; a file in UTF-16 without a mark is described, not misread.

use flate2::write::GzEncoder;
use scorelens::{score_sources, Error, Options, Report, Source};
use std::io::Write;

const TEXT: &str = "{\"scorelens\": 1, \"model\": \"m\"}\r\n\
{\"id\": \"é1\", \"options\": [\"Ä\", \"B\"], \"gold\": \"Ä\", \"probs\": {\"Ä\": 0.7, \"B\": 0.3}}\r\n\
{\"id\": \"q2\", \"options\": [\"A\", \"𝔹\"], \"gold\": \"𝔹\", \"probs\": {\"A\": 0.6, \"𝔹\": 0.4}}\r\n\
not json\r\n";

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian {
        vec![0xfe, 0xff]
    } else {
        vec![0xff, 0xfe]
    };
    for u in text.encode_utf16() {
        out.extend(if big_endian {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        });
    }
    out
}

fn report(source: Source) -> Report {
    score_sources([source], &Options::default()).unwrap().report
}

#[test]
fn utf16_in_either_byte_order_gives_the_utf8_files_report() {
    let want = report(Source::bytes("run.jsonl", TEXT.as_bytes())).to_json();
    // The bad line keeps its number: line 4 in both encodings.
    assert!(want.contains("\"line\": 4"), "{want}");
    assert!(want.contains("\"items\": 2"));
    for big_endian in [false, true] {
        let bytes = utf16(TEXT, big_endian);
        let r = report(Source::bytes("run.jsonl", &bytes));
        assert_eq!(r.to_json(), want, "big-endian {big_endian}, bytes");
        let r = report(Source::reader(
            "run.jsonl",
            Some(bytes.len() as u64),
            &bytes[..],
        ));
        assert_eq!(r.to_json(), want, "big-endian {big_endian}, reader");
    }
}

#[test]
fn utf16_inside_gzip_is_transcoded_too() {
    let want = report(Source::bytes("run.jsonl", TEXT.as_bytes())).to_json();
    let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(&utf16(TEXT, false)).unwrap();
    let packed = e.finish().unwrap();
    let r = report(Source::bytes("run.jsonl.gz", &packed));
    assert_eq!(r.to_json().replace("run.jsonl.gz", "run.jsonl"), want);
}

#[test]
fn utf16_without_a_mark_is_named_in_the_message() {
    let bytes: Vec<u8> = TEXT.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let Err(Error::NoItems(w)) =
        score_sources([Source::bytes("ps.jsonl", &bytes)], &Options::default())
    else {
        panic!("a file in UTF-16 without a mark is no items")
    };
    assert!(
        w[0].reason
            .starts_with("not a file scorelens reads: text in UTF-16 (little-endian"),
        "{}",
        w[0].reason
    );
}
