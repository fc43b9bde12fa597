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

/// Separates the runs of one input (`runs_of`), for the targets that take several runs.
pub const RUN_SEP: &[u8] = b"\n==8<==\n";

/// Folders a file of a dropped folder may sit in: none, a model's, a HELM run's, nested, hidden,
/// macOS's resource forks, names with spaces and markup (grouping names runs after folders).
pub const FOLDERS: &[&str] = &[
    "",
    "model-a/",
    "model-b/",
    "benchmark_output/runs/v1/mmlu:subject=anatomy,model=org_m/",
    "benchmark_output/runs/v1/mmlu:subject=anatomy,model=org_n/",
    "org__model/",
    "eval-set/",
    "eval-set-scores/",
    "a/b/c/",
    ".hidden/",
    "__MACOSX/",
    "<x-fuzz> run/",
    "model-a/model-a (2)/",
];

/// `data` cut at every `sep`.
pub fn parts<'a>(data: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(at) = find(rest, sep) {
        out.push(&rest[..at]);
        rest = &rest[at + sep.len()..];
    }
    out.push(rest);
    out
}

/// A folder's files from `data`: parts separated by `SEP`, each opening with one byte that picks
/// its folder and one that picks its name (a name may carry `.gz`, picked by the top bit).
pub fn paths(data: &[u8]) -> Vec<(String, &[u8])> {
    parts(data, SEP)
        .into_iter()
        .filter(|p| p.len() >= 2)
        .map(|p| {
            let folder = FOLDERS[usize::from(p[0]) % FOLDERS.len()];
            let name = NAMES[usize::from(p[1] & 0x7f) % NAMES.len()];
            let gz = if p[1] & 0x80 != 0 { ".gz" } else { "" };
            (format!("{folder}{name}{gz}"), &p[2..])
        })
        .collect()
}

/// Up to four runs from `data` (parts separated by `RUN_SEP`, each a run of files in `paths`'
/// layout), each scored as `scorelens::score_run` scores it, the sample kept, and named as the
/// CLI names a run its files make (`runs::find`: the model in a header, a folder, a file name),
/// so that names from the files reach the tables and exports; a name already taken gets its
/// number. Runs that cannot be scored are left out, as the CLI leaves them out of a leaderboard.
pub fn runs_of(data: &[u8], opts: &Options) -> Vec<scorelens::Run> {
    let mut taken = std::collections::HashSet::new();
    parts(data, RUN_SEP)
        .into_iter()
        .take(4)
        .enumerate()
        .filter_map(|(k, run)| {
            let files = paths(run);
            let offered: Vec<scorelens::runs::Offered> = files
                .iter()
                .map(|(path, bytes)| scorelens::runs::Offered {
                    path,
                    head: &bytes[..bytes.len().min(HEAD)],
                })
                .collect();
            let found = scorelens::runs::find(&offered, scorelens::runs::Grouping::Found);
            let mut name = found
                .runs
                .first()
                .map_or_else(|| format!("run-{}", k + 1), |r| r.name.clone());
            if !taken.insert(name.clone()) {
                name = format!("{name} ({})", k + 1);
                taken.insert(name.clone());
            }
            let sources = files
                .iter()
                .map(|(path, bytes)| scorelens::Source::bytes(path.as_str(), bytes));
            scorelens::score_run(&name, sources, opts).ok()
        })
        .collect()
}

/// The leaderboard of `runs` as `scorelens leaderboard` makes it: resamples drawn on every core
/// in ranges, handed back in resample order.
pub fn leaderboard(
    joined: scorelens::leaderboard::Joined,
    boot: &scorelens::BootstrapOptions,
) -> scorelens::leaderboard::Leaderboard {
    scorelens::leaderboard::leaderboard_of(joined, boot, |j, b| {
        let parts = scorelens::session::spread(b.resamples, |r| {
            let mut parts = Vec::new();
            for start in r.clone().step_by(8) {
                parts.push(j.draws(b, start..(start + 8).min(r.end)));
            }
            parts
        });
        parts.into_iter().flatten().collect()
    })
}
