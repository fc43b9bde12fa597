//! gzip and zstd sources, recognised by their magic bytes whatever their name, score as the files
//! they hold: the same report (but for the file's name), through every read path (bytes, a
//! reader, the CLI on a path; canonical JSON Lines in blocks on every core, another format through
//! its reader), with concatenated gzip members and zstd frames read as one stream. A corrupt one
//! is a read error that names the file.

use flate2::write::GzEncoder;
use ruzstd::encoding::{compress_to_vec, CompressionLevel};
use scorelens::{score_sources, Error, Options, Report, Source};
use std::io::Write;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    compress_to_vec(bytes, CompressionLevel::Fastest)
}

fn report(source: Source) -> Report {
    score_sources([source], &Options::default()).unwrap().report
}

/// The report as JSON, its file names put back to the plain file's.
fn json(r: &Report, name: &str, plain: &str) -> String {
    r.to_json().replace(name, plain)
}

/// A canonical JSON Lines file of `n` items with unique ids, a duplicate and a bad line.
fn canonical(n: usize) -> Vec<u8> {
    let mut text = String::from("{\"scorelens\": 1, \"model\": \"m\"}\n");
    for i in 0..n {
        let p = (i % 9) as f64 / 10.0 + 0.05;
        text += &format!(
            "{{\"id\": \"q{i}\", \"group\": \"g{}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {{\"A\": {p}, \"B\": {}}}}}\n",
            i % 7,
            1.0 - p
        );
    }
    text += "not json\n{\"id\": \"q1\", \"options\": [\"A\", \"B\"], \"gold\": \"A\"}\n";
    text.into_bytes()
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn gzip_and_zstd_give_the_plain_files_report() {
    let plain = canonical(300);
    let want = report(Source::bytes("run.jsonl", &plain)).to_json();
    assert!(want.contains("was already seen") && want.contains("\"skipped\": 2"));
    for (name, packed) in [
        ("run.jsonl.gz", gzip(&plain)),
        ("run.jsonl.zst", zstd(&plain)),
        // The magic bytes decide, not the name.
        ("run.jsonl", gzip(&plain)),
    ] {
        let r = report(Source::bytes(name, &packed));
        assert_eq!(json(&r, name, "run.jsonl"), want, "{name} as bytes");
        let r = report(Source::reader(name, Some(packed.len() as u64), &packed[..]));
        assert_eq!(json(&r, name, "run.jsonl"), want, "{name} as a reader");
        assert_eq!(r.files[0].name, name, "the report names the file as given");
    }
}

#[test]
fn a_large_compressed_file_is_read_in_blocks_with_the_same_report() {
    // Over a block (1 MiB) once decoded: natively its blocks are parsed on every core.
    let plain = canonical(12_000);
    assert!(plain.len() > 1 << 20);
    let want = report(Source::bytes("big.jsonl", &plain)).to_json();
    for (name, packed) in [
        ("big.jsonl.gz", gzip(&plain)),
        ("big.jsonl.zst", zstd(&plain)),
    ] {
        assert!(packed.len() < plain.len() / 2, "{name} compresses");
        let r = report(Source::reader(name, None, &packed[..]));
        assert_eq!(json(&r, name, "big.jsonl"), want, "{name}");
    }
}

#[test]
fn another_format_is_decoded_for_its_reader() {
    let plain = sample("tests/fixtures/openai_evals/choice.jsonl");
    let want = report(Source::bytes("log.jsonl", &plain)).to_json();
    assert!(want.contains("openai-evals"));
    for (name, packed) in [
        ("log.jsonl.gz", gzip(&plain)),
        ("log.jsonl.zst", zstd(&plain)),
    ] {
        let r = report(Source::bytes(name, &packed));
        assert_eq!(json(&r, name, "log.jsonl"), want, "{name}");
    }
}

#[test]
fn concatenated_members_and_frames_are_one_stream() {
    let plain = canonical(200);
    let cut = plain.len() / 3;
    let want = report(Source::bytes("run.jsonl", &plain)).to_json();
    let mut members = gzip(&plain[..cut]);
    members.extend(gzip(&plain[cut..]));
    let mut frames = zstd(&plain[..cut]);
    frames.extend(zstd(&plain[cut..]));
    for (name, packed) in [("run.jsonl.gz", members), ("run.jsonl.zst", frames)] {
        let r = report(Source::bytes(name, &packed));
        assert_eq!(json(&r, name, "run.jsonl"), want, "{name}");
    }
}

#[test]
fn a_corrupt_compressed_file_is_a_read_error_that_names_it() {
    let mut packed = gzip(&canonical(500));
    let middle = packed.len() / 2;
    for b in &mut packed[middle..middle + 64] {
        *b ^= 0x5a;
    }
    match score_sources(
        [Source::bytes("bad.jsonl.gz", &packed)],
        &Options::default(),
    ) {
        Err(Error::Io { file, error }) => {
            assert_eq!(file, "bad.jsonl.gz");
            assert!(!error.to_string().is_empty());
        }
        other => panic!("expected a read error, got {other:?}"),
    }
    let truncated = &zstd(&canonical(500))[..40];
    match score_sources([Source::bytes("cut.zst", truncated)], &Options::default()) {
        Err(Error::Io { file, .. }) => assert_eq!(file, "cut.zst"),
        other => panic!("expected a read error, got {other:?}"),
    }
}

#[test]
fn the_cli_scores_a_compressed_path() {
    let dir = std::env::temp_dir().join(format!("scorelens-gz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plain = canonical(3000);
    let (a, b) = (dir.join("run.jsonl"), dir.join("run.jsonl.gz"));
    std::fs::write(&a, &plain).unwrap();
    std::fs::write(&b, gzip(&plain)).unwrap();
    let cli = |p: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_scorelens"))
            .args(["score", "--json"])
            .arg(p)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let (an, bn) = (a.display().to_string(), b.display().to_string());
    assert_eq!(cli(&b).replace(&bn, &an), cli(&a));
    std::fs::remove_dir_all(&dir).unwrap();
}
