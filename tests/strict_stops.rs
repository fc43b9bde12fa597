//! `--strict` stops reading at the first warning: the library reads no further than the
//! chunks in flight when it met the warning (a source that never ends still gives the error),
//! a pushed source is told to stop, and the CLI exits on a pipe its writer never closes. The
//! error names the file, the line and the reason.

use scorelens::{score_sources, Error, Options, Session, Source};
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

fn strict() -> Options {
    Options {
        strict: true,
        ..Options::default()
    }
}

/// A good canonical line with a unique id.
fn good(i: usize) -> String {
    format!(
        "{{\"id\": \"q{i}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}}\n"
    )
}

/// A canonical JSON Lines file that never ends: a good line, a line that is no JSON, then good
/// lines forever. Counts the bytes it hands out.
struct Endless {
    start: Vec<u8>,
    next: usize,
    pending: Vec<u8>,
    served: Arc<AtomicUsize>,
}

impl Endless {
    fn new(start: &str, served: Arc<AtomicUsize>) -> Self {
        Endless {
            start: start.as_bytes().to_vec(),
            next: 0,
            pending: Vec::new(),
            served,
        }
    }
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            self.pending = if self.start.is_empty() {
                self.next += 1;
                good(1000 + self.next).into_bytes()
            } else {
                std::mem::take(&mut self.start)
            };
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        self.served.fetch_add(n, Relaxed);
        Ok(n)
    }
}

fn expect_stop(result: Result<scorelens::Finished, Error>, file: &str, line: u64) {
    match result {
        Err(Error::Strict(w)) => {
            assert_eq!((w.file.as_str(), w.line), (file, Some(line)), "{w}");
            assert!(!w.reason.is_empty());
        }
        other => panic!("expected a strict stop, got {other:?}"),
    }
}

#[test]
fn a_source_that_never_ends_stops_at_its_first_bad_line() {
    // Canonical JSON Lines, of unknown length: read in blocks on every core. The blocks in
    // flight bound what is read past the bad line (the window: 16 blocks of 1 MiB, and more
    // with more cores); a read to the end would never return.
    let served = Arc::new(AtomicUsize::new(0));
    let start = good(0) + "not json\n";
    let source = Source::reader("run.jsonl", None, Endless::new(&start, served.clone()));
    expect_stop(score_sources([source], &strict()), "run.jsonl", 2);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        served.load(Relaxed) <= (16 + 2 * cores + 2) << 20,
        "read {}",
        served.load(Relaxed)
    );
}

#[test]
fn another_line_format_stops_too() {
    // An OpenAI evals log (read by its own line reader, in chunks): its spec line, then a line
    // that is no JSON, then events forever.
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/openai_evals/choice.jsonl"
    ))
    .unwrap();
    let (spec, events) = fixture.split_once('\n').unwrap();
    let start = format!("{spec}\nnot json\n{events}");
    let served = Arc::new(AtomicUsize::new(0));
    let source = Source::reader("log.jsonl", None, Endless::new(&start, served.clone()));
    expect_stop(score_sources([source], &strict()), "log.jsonl", 2);
    assert!(
        served.load(Relaxed) <= 2 << 20,
        "read {}",
        served.load(Relaxed)
    );
}

#[test]
fn a_pushed_source_is_told_to_stop() {
    let mut s = Session::new(&strict()).unwrap();
    let first = good(0) + "not json\n";
    let mut feed = s.add("run.jsonl", first.as_bytes(), None);
    assert!(!feed.push(first.as_bytes()), "the bad line stops the run");
    assert!(!feed.push(good(1).as_bytes()), "and it stays stopped");
    feed.end();
    expect_stop(s.finish(), "run.jsonl", 2);
}

#[test]
fn without_strict_the_same_lines_are_read_to_the_end() {
    let text = good(0) + "not json\n" + &good(1) + &good(2);
    let mut s = Session::new(&Options::default()).unwrap();
    let mut feed = s.add("run.jsonl", text.as_bytes(), None);
    assert!(feed.push(text.as_bytes()));
    feed.end();
    let report = s.finish().unwrap().report;
    assert_eq!((report.items, report.skipped), (3, 1));
}

#[test]
fn the_first_of_several_sources_stops_the_run() {
    let bad = good(0) + "not json\n";
    let never = b"this file must not be read";
    let sources = [
        Source::bytes("a.jsonl", bad.as_bytes()),
        Source::reader("b.jsonl", None, Panics(never)),
    ];
    expect_stop(score_sources(sources, &strict()), "a.jsonl", 2);
}

/// A source that fails the test if it is read at all.
struct Panics(&'static [u8]);

impl Read for Panics {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        panic!("{}", String::from_utf8_lossy(self.0))
    }
}

/// The CLI on a named pipe whose writer never closes it: with `--strict` it exits at the bad
/// line, code 1, naming file, line and reason; a read to the end would wait forever.
#[cfg(unix)]
#[test]
fn the_cli_stops_on_a_pipe_that_never_ends() {
    use std::io::Write;
    use std::time::{Duration, Instant};
    let dir = std::env::temp_dir().join(format!("scorelens-strict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("run.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(["score", "--strict"])
        .arg(&fifo)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let path = fifo.clone();
    // Writes the bad line early and 100 000 good lines after it, then holds the pipe open until
    // the reader leaves (a write then fails: the reader closed its end).
    let writer = std::thread::spawn(move || {
        let mut w = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        let mut text = good(0) + "not json\n";
        for i in 1..100_000 {
            text += &good(i);
        }
        if w.write_all(text.as_bytes()).is_err() {
            return;
        }
        while w.write_all(good(0).as_bytes()).is_ok() {
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("scorelens --strict did not stop at the bad line");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(1), "{stderr}");
    let name = fifo.display().to_string();
    assert!(
        stderr.starts_with(&format!("scorelens: {name}:2: ")),
        "{stderr}"
    );
    assert!(
        stderr.contains("strict mode stops at the first warning"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
