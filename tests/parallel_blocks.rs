//! Block reading: a canonical JSON Lines file cut into blocks, each read on its own and
//! replayed in order, gives the very report of a sequential read (the JSON string, to the last
//! digit), warnings and their lines, duplicate ids across blocks and groups included; the CLI,
//! which reads the blocks on several threads, prints that report too. And the canonical reader's
//! fast path gives the items its general path gives (a JSON array goes the general way).

use proptest::prelude::*;
use scorelens::formats::canonical::Canonical;
use scorelens::formats::{Format, Meta, Shelf, Sink};
use scorelens::items::Item;
use scorelens::reported::Reported;
use scorelens::{Options, Session, Source, Warning};
use std::path::{Path, PathBuf};

/// The report (or the error) of a run, as text.
fn outcome(session: Session) -> String {
    match session.finish() {
        Ok(f) => f.report.to_json(),
        Err(e) => format!("error: {e:?}"),
    }
}

/// Feeds the file in one piece to its format's own streaming reader (`Session::add_as`: no
/// block reading).
fn feed_sequentially(s: &mut Session, name: &str, bytes: &[u8]) {
    let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
    let format = scorelens::formats::detect(name, head);
    s.add_as(name, head, None, format).push(bytes);
}

/// The file read by its format's own streaming reader.
fn sequential(name: &str, bytes: &[u8]) -> String {
    sequential_with(name, bytes, &Options::default())
}

fn sequential_with(name: &str, bytes: &[u8], opts: &Options) -> String {
    let mut s = Session::new(opts).unwrap();
    feed_sequentially(&mut s, name, bytes);
    outcome(s)
}

/// The file pushed in chunks of `size` bytes, as the browser's worker pushes a file it reads as
/// a stream: canonical JSON Lines is read in blocks of the lines each chunk completes.
fn in_chunks(name: &str, bytes: &[u8], size: usize) -> String {
    let mut s = Session::new(&Options::default()).unwrap();
    let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
    let mut feed = s.add(name, head, Some(bytes.len() as u64));
    for chunk in bytes.chunks(size.max(1)) {
        feed.push(chunk);
    }
    feed.end();
    outcome(s)
}

/// Every file under the folders, recursively, in name order.
fn files(dirs: &[&str]) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(d), &mut out);
    }
    out
}

/// Lines of every shape: valid items with groups and tiers, duplicates near and far, blank and
/// CRLF lines, the malformed corpus's canonical lines and the samples' other item types.
fn generated(n: usize, seed: u64) -> Vec<u8> {
    let mut odd: Vec<Vec<u8>> = Vec::new();
    for p in files(&["tests/malformed/canonical", "www/samples"]) {
        if p.extension().is_some_and(|e| e == "jsonl") {
            let text = std::fs::read(&p).unwrap();
            odd.extend(text.split(|&b| b == b'\n').map(<[u8]>::to_vec));
        }
    }
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = b"{\"scorelens\":1,\"model\":\"m\",\"benchmark\":\"generic\"}\n".to_vec();
    for i in 0..n {
        let r = next() % 100;
        let id = if r < 5 {
            next() % (i as u64 + 1)
        } else {
            i as u64
        };
        let p = (next() % 1000) as f64 / 1000.0;
        let q = (1.0 - p) / 3.0;
        let line = match r {
            0..=5 => odd[(next() % odd.len() as u64) as usize].clone(),
            6 => Vec::new(),
            7 => b"  \r".to_vec(),
            // Ids longer than an item keeps inline, more options than it keeps inline, and
            // groups of their own (more than the readers share).
            9..=11 => format!(
                "{{\"id\":\"a-rather-long-identifier-of-item-{id}\",\"group\":\"h{}\",\"options\":[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\",\"G\",\"H\",\"I\",\"J\"],\"gold\":\"J\",\"probs\":{{\"A\":0.05,\"B\":0.1,\"C\":0.05,\"D\":0.1,\"E\":0.05,\"F\":0.1,\"G\":0.05,\"H\":0.1,\"I\":0.05,\"J\":{p}}}}}",
                i % 997,
            )
            .into_bytes(),
            _ => format!(
                "{{\"id\":\"q{id}\",\"group\":\"g{}\",\"tier\":\"easy\",\"options\":[\"A\",\"B\",\"C\",\"D\"],\"gold\":\"{}\",\"probs\":{{\"A\":{p},\"B\":{q},\"C\":{q},\"D\":{}}}}}{}",
                i % 7,
                ["A", "B", "C", "D"][i % 4],
                q / 2.0,
                if r == 8 { "\r" } else { "" },
            )
            .into_bytes(),
        };
        out.extend_from_slice(&line);
        out.push(b'\n');
    }
    out
}

#[test]
fn blocks_give_the_sequential_report_on_every_sample_and_fixture() {
    let all = files(&["www/samples", "tests/fixtures", "tests/malformed"]);
    assert!(all.len() > 50, "found {} files", all.len());
    for path in all {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let want = sequential(&name, &bytes);
        for size in [1, 7, 100, 4096] {
            assert_eq!(
                in_chunks(&name, &bytes, size),
                want,
                "{name}, fed in chunks of {size}"
            );
        }
    }
}

#[test]
fn a_large_file_read_whole_gives_the_streamed_report() {
    // Over 1 MiB: `Session::read` (and `scorelens::score`) read it in blocks, on every core.
    let bytes = generated(12_000, 3);
    assert!(bytes.len() > 1 << 20);
    let mut s = Session::new(&Options::default()).unwrap();
    s.read(Source::bytes("big.jsonl", &bytes)).unwrap();
    assert_eq!(outcome(s), sequential("big.jsonl", &bytes));
    // The same file as a reader (a path, stdin): its blocks are read by the parsing threads.
    let mut s = Session::new(&Options::default()).unwrap();
    s.read(Source::reader("big.jsonl", None, &bytes[..]))
        .unwrap();
    assert_eq!(outcome(s), sequential("big.jsonl", &bytes));
}

#[test]
fn blocks_give_the_sequential_report_on_a_generated_file() {
    let bytes = generated(5000, 42);
    let want = sequential("gen.jsonl", &bytes);
    assert!(
        want.contains("was already seen"),
        "the file has duplicate ids"
    );
    assert!(want.contains("\"groups\""));
    for size in [1, 50, 3000, 1 << 20] {
        assert_eq!(
            in_chunks("gen.jsonl", &bytes, size),
            want,
            "blocks of {size}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    #[test]
    fn any_chunk_size_gives_the_sequential_report(seed in 1u64.., n in 0usize..400, size in 1usize..5000, bom: bool, last_newline: bool) {
        let mut bytes = generated(n, seed);
        if bom {
            bytes.splice(0..0, *b"\xEF\xBB\xBF");
        }
        if !last_newline {
            bytes.pop();
        }
        prop_assert_eq!(in_chunks("p.jsonl", &bytes, size), sequential("p.jsonl", &bytes));
    }
}

/// The CLI, reading blocks of 64 bytes on its threads, prints the sequential report: with its
/// usual window of blocks ahead, and with the smallest (`SCORELENS_WINDOW=1`, two a thread), where
/// the replaying thread, which also parses, often finds the window full and waits. Files of
/// other formats are fed to the session in chunks of a block, and give the same report too.
#[test]
fn the_cli_on_several_threads_prints_the_sequential_report() {
    let dir = std::env::temp_dir().join(format!("scorelens-blocks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gen = dir.join("gen.jsonl");
    std::fs::write(&gen, generated(3000, 7)).unwrap();
    let mut paths = vec![gen];
    paths.extend(files(&["www/samples", "tests/fixtures", "tests/malformed"]));
    // The sequential reference pushes raw bytes, which are not decoded; compressed files, Parquet
    // tables and zips read as folders have their own tests (tests/compressed_sources.rs,
    // tests/formats_lighteval.rs, tests/zip_folders.rs).
    paths.retain(|p| {
        !p.extension()
            .is_some_and(|e| e == "gz" || e == "zst" || e == "zip" || e == "parquet")
    });
    for (path, window) in paths.iter().flat_map(|p| [(p, "16"), (p, "1")]) {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).unwrap();
        // A file that holds several runs (promptfoo's providers × prompts) is scored by the CLI
        // as that many runs, each read on its own (tests/formats_promptfoo.rs); a file of one
        // run of such a format is read as that run, which the reference must ask for too.
        let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
        let parts = scorelens::formats::detect(&name, head)
            .map(|f| f.parts(&name, head))
            .unwrap_or_default();
        if parts.len() > 1 {
            continue;
        }
        let opts = Options {
            part: parts.first().map(|p| p.select.clone()),
            ..Options::default()
        };
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_scorelens"))
            .args(["score", &name, "--json"])
            .env("SCORELENS_BLOCK_BYTES", "64")
            .env("SCORELENS_WINDOW", window)
            .output()
            .unwrap();
        let want = sequential_with(&name, &bytes, &opts);
        if want.starts_with("error") {
            assert!(!out.status.success(), "{name}");
        } else {
            assert_eq!(
                String::from_utf8(out.stdout).unwrap(),
                want + "\n",
                "{name}, window {window}"
            );
        }
    }
    // Two files as one run: the second repeats ids of the first, which the run skips.
    let (a, b) = (dir.join("gen.jsonl"), dir.join("more.jsonl"));
    std::fs::write(&b, generated(2000, 9)).unwrap();
    let mut s = Session::new(&Options::default()).unwrap();
    for p in [&a, &b] {
        let bytes = std::fs::read(p).unwrap();
        feed_sequentially(&mut s, &p.display().to_string(), &bytes);
    }
    let want = outcome(s);
    assert!(want.contains("more.jsonl") && want.contains("was already seen"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args([
            "score",
            &a.display().to_string(),
            &b.display().to_string(),
            "--json",
        ])
        .env("SCORELENS_BLOCK_BYTES", "100")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want + "\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Items and warnings a reader pushes.
#[derive(Default)]
struct Collect {
    items: Vec<Item>,
    warnings: Vec<Warning>,
    shelf: Shelf,
}

impl Sink for Collect {
    fn item(&mut self, item: Item) {
        self.items.push(item);
    }
    fn item_in(&mut self, _file: &str, item: Item) {
        self.items.push(item);
    }
    fn skip(&mut self, w: Warning) {
        self.warnings.push(w);
    }
    fn warn(&mut self, w: Warning) {
        self.warnings.push(w);
    }
    fn meta(&mut self, _key: Meta, _value: &str) {}
    fn reported(&mut self, _figure: Reported) {}
    fn shelf(&mut self) -> &mut Shelf {
        &mut self.shelf
    }
}

fn read(bytes: &[u8]) -> Collect {
    let mut sink = Collect::default();
    let mut reader = Canonical.reader("f");
    reader.feed(bytes, &mut sink);
    reader.finish(&mut sink);
    sink
}

/// A number as files write it: integers, short and long fractions, negatives.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..3).prop_map(|i| i.to_string()),
        (0.0f64..1.0).prop_map(|x| format!("{x}")),
        (0u32..10_000).prop_map(|x| format!("0.{x:04}")),
        (-30.0f64..0.0).prop_map(|x| format!("{x}")),
        (0.0f64..1.0).prop_map(|x| format!("{x:e}")),
    ]
}

fn line() -> impl Strategy<Value = String> {
    let label = prop_oneof![Just("A"), Just("B"), Just("C"), Just("ü")];
    (
        0u32..50,
        prop_oneof![Just(""), Just("\"type\":\"choice\","), Just("\"type\":\"rating\",")],
        prop::option::of(0u32..5),
        label.clone(),
        prop::option::of(label.clone()),
        prop_oneof![Just("probs"), Just("logprobs"), Just("loglikelihoods")],
        prop::collection::vec((label, number()), 0..5),
        prop::bool::ANY,
    )
        .prop_map(|(id, kind, group, gold, answer, field, numbers, extra)| {
            let group = group.map_or(String::new(), |g| format!("\"group\":\"g{g}\","));
            let answer = answer.map_or(String::new(), |a| format!("\"answer\":\"{a}\","));
            let nums: Vec<String> = numbers.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
            let extra = if extra { "\"note\": \"x\", \"n\": 3, " } else { "" };
            format!(
                "{{\"id\":\"i{id}\",{kind}{group}{extra}\"options\":[\"A\",\"B\",\"C\",\"ü\"],\"gold\":\"{gold}\",{answer}\"{field}\":{{{}}}}}",
                nums.join(", ")
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn the_fast_path_reads_what_the_general_path_reads(lines in prop::collection::vec(line(), 1..20)) {
        let jsonl = lines.join("\n");
        // One element per line, so that every element starts on its line's number.
        let array = format!("[{}]", lines.join(",\n"));
        let fast = read(jsonl.as_bytes());
        let general = read(array.as_bytes());
        prop_assert_eq!(&fast.items, &general.items);
        // The array's warnings name the element first ("element 3: ").
        let strip = |ws: &[Warning]| -> Vec<(Option<u64>, String)> {
            ws.iter().map(|w| {
                let reason = match w.reason.strip_prefix("element ") {
                    Some(rest) => rest.split_once(": ").map_or(w.reason.clone(), |(_, r)| r.to_string()),
                    None => w.reason.clone(),
                };
                (w.line, reason)
            }).collect()
        };
        prop_assert_eq!(strip(&fast.warnings), strip(&general.warnings));
    }
}
