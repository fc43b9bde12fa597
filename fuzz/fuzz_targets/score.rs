//! Fuzzes `score(bytes)` end to end: formats detected as for a user's drop, and the report from
//! chunked feeding must equal the report from whole files (readers take chunks of any size).
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::formats::HEAD;
use scorelens::{score, Input, Session};

fuzz_target!(|data: &[u8]| {
    let Some((chunk, options, files)) = common::split(data) else {
        return;
    };
    let inputs: Vec<Input> = files
        .iter()
        .map(|f| Input {
            name: f.name,
            bytes: f.bytes,
        })
        .collect();
    let whole = score(&inputs, &options).map(|r| r.to_json());
    let Ok(mut session) = Session::new(&options) else {
        return;
    };
    for f in &files {
        let mut feed = session.add(f.name, &f.bytes[..f.bytes.len().min(HEAD)], None);
        for piece in f.bytes.chunks(chunk.min(f.bytes.len()).max(1)) {
            feed.push(piece);
        }
    }
    let chunked = session.finish().map(|f| f.report.to_json());
    assert_eq!(whole, chunked, "chunked feeding changed the result");
});
