//! The harness every fuzz target shares: one fuzz input becomes a run of one or more files, each
//! read by a format of the target's family, fed in chunks of a size the input picks, under a
//! profile the input picks; then the report is finished, serialised and explored.
//!
//! Input layout: byte 0 picks the chunk size, byte 1 the profile and strict mode; the rest is one
//! or more files separated by `SEP`, each opening with one byte that picks its format (within the
//! family) and one that picks its name. `fuzz/make_seeds.py` writes seeds in this layout.

#![allow(dead_code)]

use scorelens::explore::{Filter, Order, Show};
use scorelens::formats::{Format, HEAD};
use scorelens::profiles::Profile;
use scorelens::{Finished, Options, Session};

/// Separates the files of one input.
pub const SEP: &[u8] = b"\n--8<--\n";

/// File names the readers may look at (tasks from names, joins by name, tie-breaks in detection).
pub const NAMES: &[&str] = &[
    "predictions.jsonl",
    "predictions.json",
    "samples_sci_mc_2026-11-29T20-46-19.400381.jsonl",
    "results_2026-11-29T20-46-19.400381.json",
    "_sci_mc.jsonl",
    "results.json",
    "scenario_state.json",
    "per_instance_stats.json",
    "stats.json",
    "run_spec.json",
    "scenario.json",
    "log.jsonl",
    "table.csv",
    "table.tsv",
    "easy.jsonl",
    "hard.jsonl",
    "original.jsonl",
    "results.jsonl",
    "cases.jsonl",
    "log.eval",
    "log.json",
    "eval-set-scores.json",
    "pref-sets-scores.json",
    "outputs.jsonl",
    "judge.json",
];

/// One file of the input.
pub struct File<'a> {
    pub pick: u8,
    pub name: &'static str,
    pub bytes: &'a [u8],
}

/// Splits the input into (chunk size, options, files).
pub fn split(data: &[u8]) -> Option<(usize, Options, Vec<File<'_>>)> {
    let (&chunk, rest) = data.split_first()?;
    let (&opts, mut rest) = rest.split_first()?;
    // 0 feeds whole; otherwise 1..=255 bytes, or multiples of 4 KiB for the larger byte values.
    let chunk = match chunk {
        0 => usize::MAX,
        c @ 1..=200 => usize::from(c),
        c => usize::from(c - 200) << 12,
    };
    let profiles = Profile::all();
    let profile = match usize::from(opts & 0x7f) {
        i if i < profiles.len() => Some(profiles[i].name.to_string()),
        _ => None,
    };
    let options = Options {
        profile,
        strict: opts & 0x80 != 0,
        ..Options::default()
    };
    let mut files = Vec::new();
    loop {
        let (body, next) = match find(rest, SEP) {
            Some(at) => (&rest[..at], Some(&rest[at + SEP.len()..])),
            None => (rest, None),
        };
        if body.len() >= 2 {
            files.push(File {
                pick: body[0],
                name: NAMES[usize::from(body[1]) % NAMES.len()],
                bytes: &body[2..],
            });
        }
        match next {
            Some(n) => rest = n,
            None => break,
        }
    }
    Some((chunk, options, files))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Runs the files through a session, each read by `formats[pick % len]` (or detected when
/// `formats` is empty), then finishes, serialises and explores the report.
pub fn run(data: &[u8], formats: &[&'static dyn Format]) {
    let Some((chunk, options, files)) = split(data) else {
        return;
    };
    let options = Options {
        items: Some(1000),
        ..options
    };
    let Ok(mut session) = Session::new(&options) else {
        return;
    };
    for f in &files {
        let head = &f.bytes[..f.bytes.len().min(HEAD)];
        // Every format's sniff sees every file: detection is part of the attack surface.
        for format in scorelens::formats::FORMATS {
            let _ = format.sniff(f.name, head);
        }
        let mut feed = if formats.is_empty() {
            session.add(f.name, head, None)
        } else {
            let format = formats[usize::from(f.pick) % formats.len()];
            session.add_as(f.name, head, None, Some(format))
        };
        for piece in f.bytes.chunks(chunk.min(f.bytes.len()).max(1)) {
            feed.push(piece);
        }
    }
    if let Ok(Finished {
        report, explorer, ..
    }) = session.finish()
    {
        let _ = report.to_json();
        if let Some(mut e) = explorer {
            let filter = Filter {
                show: Show::ConfidentWrong,
                threshold: 0.5,
                text: "a".to_string(),
                group: Some("(none)".to_string()),
                order: Order::Confidence,
            };
            let _ = e.query(&filter, 0, 50);
            let _ = e.query(&Filter::default(), 3, 10);
        }
    }
}
