//! Line ends of old exporters (a carriage return alone, or mixed with LF and CRLF) read as line
//! ends, said in the report's mapping; and the line cap: a line past `MAX_LINE` decoded bytes
//! is one warning with its number, skipped as it streams, and the next line is scored. The
//! same through every way bytes reach the session: whole in memory, pushed in chunks (the
//! page's worker), and read by the CLI from a plain or gzip file.

use scorelens::session::{Session, MAX_LINE};
use scorelens::{score, Input, Options, Report};
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

const HEADER: &str = r#"{"scorelens": 1, "model": "m", "benchmark": "generic"}"#;

fn item(id: &str, answer: &str) -> String {
    format!(r#"{{"id": "{id}", "options": ["A", "B"], "gold": "A", "answer": "{answer}"}}"#)
}

/// The header and three items, each line ended by the next of `ends`.
fn file(ends: [&str; 4]) -> String {
    let lines = [
        HEADER.to_string(),
        item("q1", "A"),
        item("q2", "B"),
        item("q3", "A"),
    ];
    lines
        .iter()
        .zip(ends)
        .map(|(l, e)| format!("{l}{e}"))
        .collect()
}

/// The report of `text` pushed into a session in the chunks cut at `cuts`, as the worker pushes.
fn pushed(text: &[u8], cuts: &[usize]) -> Report {
    let mut session = Session::new(&Options::default()).unwrap();
    {
        let head = &text[..text.len().min(scorelens::formats::HEAD)];
        let mut feed = session.add("f.jsonl", head, Some(text.len() as u64));
        let mut at = 0;
        for &cut in cuts.iter().chain([&text.len()]) {
            feed.push(&text[at..cut]);
            at = cut;
        }
    }
    session.finish().unwrap().report
}

fn whole(text: &[u8]) -> Report {
    score(
        &[Input {
            name: "f.jsonl",
            bytes: text,
        }],
        &Options::default(),
    )
    .unwrap()
}

/// Items, warnings and the file's mapping lines.
fn seen(r: &Report) -> (u64, usize, Vec<String>) {
    (r.items, r.warnings.len(), r.files[0].mapping.clone())
}

#[test]
fn carriage_returns_alone_end_lines() {
    let text = file(["\r", "\r", "\r", "\r"]);
    let want = (
        3,
        0,
        vec!["line endings: CR (classic Mac), read as line ends".to_string()],
    );
    assert_eq!(seen(&whole(text.as_bytes())), want);
    for cut in 1..text.len() {
        assert_eq!(seen(&pushed(text.as_bytes(), &[cut])), want, "cut at {cut}");
    }
    // Without the last line end too.
    let text = file(["\r", "\r", "\r", ""]);
    assert_eq!(seen(&whole(text.as_bytes())), want);
}

#[test]
fn mixed_line_ends_are_each_a_line_end() {
    let text = file(["\n", "\r\n", "\r", "\r\n"]);
    let want = (
        3,
        0,
        vec!["line endings: mixed (1 LF, 2 CRLF, 1 CR alone), each read as a line end".to_string()],
    );
    assert_eq!(seen(&whole(text.as_bytes())), want);
    for cut in 1..text.len() {
        assert_eq!(seen(&pushed(text.as_bytes(), &[cut])), want, "cut at {cut}");
    }
}

#[test]
fn crlf_across_a_chunk_boundary_is_one_line_end() {
    let text = file(["\r\n", "\r\n", "\r\n", "\r\n"]);
    let crs: Vec<usize> = text.match_indices('\r').map(|(i, _)| i).collect();
    // Each chunk ends with the CR, the next begins with its LF; and CR LF as chunks of their own.
    let after_cr: Vec<usize> = crs.iter().map(|i| i + 1).collect();
    let alone: Vec<usize> = crs.iter().flat_map(|&i| [i, i + 1, i + 2]).collect();
    for cuts in [after_cr, alone] {
        let r = pushed(text.as_bytes(), &cuts);
        assert_eq!(seen(&r), (3, 0, vec![]), "cuts at {cuts:?}");
    }
}

fn scorelens(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scorelens-line-ends-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn the_cli_reads_a_cr_only_file_as_lines() {
    let path = temp("mac.jsonl");
    std::fs::write(&path, file(["\r", "\r", "\r", "\r"])).unwrap();
    let out = scorelens(&["score", path.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{out:?}");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["items"], 3);
    assert_eq!(
        r["files"][0]["mapping"],
        serde_json::json!(["line endings: CR (classic Mac), read as line ends"])
    );
}

/// `A` bytes of a line past the cap, written in pieces.
fn long_line(out: &mut impl Write) {
    let piece = vec![b'A'; 1 << 20];
    for _ in 0..(MAX_LINE >> 20) + 6 {
        out.write_all(&piece).unwrap();
    }
}

#[test]
fn a_line_past_the_cap_is_skipped_in_a_gzip_of_two_members() {
    // The header, a line of 70 MiB of `A` (split over the two members), then one item: decoded
    // bytes count, whatever the members.
    let path = temp("long.jsonl.gz");
    let file = std::fs::File::create(&path).unwrap();
    let level = flate2::Compression::fast();
    let mut first = flate2::write::GzEncoder::new(file, level);
    first.write_all(format!("{HEADER}\n").as_bytes()).unwrap();
    long_line(&mut first);
    let mut second = flate2::write::GzEncoder::new(first.finish().unwrap(), level);
    long_line(&mut second);
    second
        .write_all(format!("\n{}\n", item("q1", "A")).as_bytes())
        .unwrap();
    second.finish().unwrap();
    let out = scorelens(&["score", path.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{out:?}");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let name = path.display().to_string();
    assert_eq!(r["items"], 1);
    assert_eq!(r["skipped"], 1);
    assert_eq!(
        r["warnings"],
        serde_json::json!([{
            "file": name,
            "line": 2,
            "reason": "line 2 is longer than 64 MiB; skipped (scorelens reads lines of up to that \
                       length, natively and in the page, and holds no more; split the record, or \
                       shorten its longest field)"
        }])
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "warning: {name}:2: line 2 is longer than 64 MiB; skipped (scorelens reads lines of \
             up to that length, natively and in the page, and holds no more; split the record, \
             or shorten its longest field)\n"
        )
    );
}

#[test]
fn a_line_past_the_cap_is_skipped_when_pushed_as_the_page_pushes() {
    let mut text = format!("{HEADER}\n{}\n", item("q1", "A")).into_bytes();
    long_line(&mut text);
    text.extend_from_slice(format!("\r\n{}\r\n", item("q2", "B")).as_bytes());
    // Chunks of 8 MiB, as the worker reads a file.
    let cuts: Vec<usize> = (1..)
        .map(|i| i * (8 << 20))
        .take_while(|&c| c < text.len())
        .collect();
    for r in [pushed(&text, &cuts), whole(&text)] {
        assert_eq!(r.items, 2);
        let warnings: Vec<String> = r.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(
            warnings,
            [
                "f.jsonl:3: line 3 is longer than 64 MiB; skipped (scorelens reads lines of up to \
              that length, natively and in the page, and holds no more; split the record, or \
              shorten its longest field)"
            ]
        );
        assert_eq!(
            r.files[0].mapping,
            ["line endings: mixed (2 LF, 2 CRLF, 0 CR alone), each read as a line end"]
        );
    }
}
