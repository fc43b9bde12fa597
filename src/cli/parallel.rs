//! Reads one large canonical JSON Lines file on every core: blocks of whole lines are
//! read from the file and parsed on worker threads, and on this thread whenever it has nothing
//! to replay, while this thread replays the finished ones into the session in file order, so
//! items are scored, ids checked and warnings kept exactly as a one-core read does them
//! (tests/parallel_blocks.rs).

use scorelens::formats::canonical::chunks::{read_block_with, split, Block};
use scorelens::formats::canonical::item::Labels;
use scorelens::formats::lines::BOM;
use scorelens::formats::HEAD;
use scorelens::{BootstrapOptions, Error, Options, Report, Session};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Condvar, Mutex};

/// Blocks of about this many bytes (`SCORELENS_BLOCK_BYTES` overrides it, for the tests).
const BLOCK: usize = 1 << 20;

/// Blocks the workers may hold ahead of the one being replayed, all together (`SCORELENS_WINDOW`
/// overrides it, for the benchmarks): it bounds the memory, about 1.7 MB a block with its parsed
/// items. Since this thread parses too whenever it would wait (`run`), it keeps up with the
/// workers on two cores, and 8, 16 or 32 blocks gave the same times (1M items, 0.28 s).
const WINDOW: usize = 16;

fn window(workers: usize) -> usize {
    std::env::var("SCORELENS_WINDOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(WINDOW)
        .max(2 * workers)
}

fn block_size() -> usize {
    std::env::var("SCORELENS_BLOCK_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(BLOCK)
}

/// Threads that parse, this one included, or `None` to read on this thread alone: one core, or
/// already on rayon's pool (`score DIR` reads its files in parallel, one each).
fn workers() -> Option<usize> {
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    (n >= 2 && rayon::current_thread_index().is_none()).then_some(n)
}

/// `Session::read` of a file already in memory, on every core when it is canonical JSON Lines
/// of several blocks.
pub fn read(session: &mut Session, name: &str, bytes: &[u8]) {
    let size = block_size();
    let Some(workers) = workers().filter(|_| bytes.len() > size) else {
        return session.read(name, bytes);
    };
    if !session.begin_blocks(name, bytes) {
        session.feed(bytes);
        return session.end_file();
    }
    let mut blocks = split(bytes, size).into_iter();
    // Reading from memory cannot fail.
    let _ = run(session, name, workers, move |_: &mut Vec<Vec<u8>>| {
        Ok(blocks.next().map(Cow::Borrowed))
    });
}

/// Reads the file at `path` into the session as `read` does, a large canonical JSON Lines file
/// in blocks read from disk by the workers themselves, so reading overlaps parsing and the file
/// is never whole in memory.
pub fn read_path(session: &mut Session, name: &str, path: &Path) -> io::Result<()> {
    let size = block_size();
    let mut file = File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
    let Some(workers) = workers().filter(|_| len > size) else {
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        session.read(name, &bytes);
        return Ok(());
    };
    let mut head = Vec::with_capacity(HEAD);
    (&mut file).take(HEAD as u64).read_to_end(&mut head)?;
    if !session.begin_blocks_of(name, &head, len) {
        // Another format: fed in chunks of a block, as the browser's worker feeds its reads, so
        // that a line-based file (lm-eval's samples, say) is never whole in memory; a format
        // read whole gathers its chunks itself.
        session.feed(&head);
        let mut chunk = Vec::with_capacity(size);
        loop {
            chunk.clear();
            (&mut file).take(size as u64).read_to_end(&mut chunk)?;
            if chunk.is_empty() {
                break;
            }
            session.feed(&chunk);
        }
        session.end_file();
        return Ok(());
    }
    let mut pieces = Pieces {
        file,
        carry: head.strip_prefix(BOM).unwrap_or(&head).to_vec(),
        size,
        end: false,
    };
    run(session, name, workers, move |spare: &mut Vec<Vec<u8>>| {
        pieces.next(spare.pop()).map(|p| p.map(Cow::Owned))
    })
}

/// A file read in pieces that end after a newline (the last where the file ends).
struct Pieces {
    file: File,
    /// What follows the last newline read so far.
    carry: Vec<u8>,
    size: usize,
    end: bool,
}

impl Pieces {
    /// The next piece, in `spare` (a buffer of an earlier piece, whose memory is reused) if given.
    fn next(&mut self, spare: Option<Vec<u8>>) -> io::Result<Option<Vec<u8>>> {
        if self.end {
            return Ok(None);
        }
        let mut buf = spare.unwrap_or_default();
        buf.clear();
        buf.extend_from_slice(&self.carry);
        loop {
            let before = buf.len();
            // One allocation: `read_to_end` alone would grow the buffer step by step, copying.
            buf.reserve_exact(self.size);
            (&mut self.file)
                .take(self.size as u64)
                .read_to_end(&mut buf)?;
            if buf.len() == before {
                self.end = true;
                return Ok((!buf.is_empty()).then_some(buf));
            }
            if let Some(nl) = memchr::memrchr(b'\n', &buf[before..]) {
                let cut = before + nl + 1;
                self.carry.clear();
                self.carry.extend_from_slice(&buf[cut..]);
                buf.truncate(cut);
                return Ok(Some(buf));
            }
        }
    }
}

/// What the workers share: where the blocks come from and how far the replay has come.
struct Feed<F> {
    next_block: F,
    next: usize,
    replayed: usize,
    done: bool,
    error: Option<io::Error>,
    /// Blocks replayed and pieces parsed, kept for their memory (at most the window's worth).
    spare_blocks: Vec<Block>,
    spare_pieces: Vec<Vec<u8>>,
}

/// A block claimed for parsing: its place in the file, its text and the block to parse it into.
type Claim<'a> = (usize, Cow<'a, [u8]>, Block);

impl<'a, F> Feed<F>
where
    F: FnMut(&mut Vec<Vec<u8>>) -> io::Result<Option<Cow<'a, [u8]>>>,
{
    /// Whether the blocks claimed reach `window` past the last one replayed.
    fn full(&self, window: usize) -> bool {
        self.next >= self.replayed + window
    }

    /// The next block to parse, or None once the file is read (or a read failed: then `error`).
    fn claim(&mut self) -> Option<Claim<'a>> {
        match (self.next_block)(&mut self.spare_pieces) {
            Ok(Some(part)) => {
                self.next += 1;
                let block = self.spare_blocks.pop().unwrap_or_default();
                Some((self.next - 1, part, block))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.error = Some(e);
                self.done = true;
                None
            }
        }
    }
}

/// What a thread that parses keeps from block to block.
#[derive(Default)]
struct Parser {
    /// A group's items share its name.
    labels: Labels,
    /// The text of the block parsed last, its buffer to go back to the feed for reuse.
    parsed: Option<Vec<u8>>,
}

impl Parser {
    /// Parses a claimed block; returns it with its place in the file.
    fn parse(&mut self, name: &str, (i, part, mut block): Claim<'_>) -> (usize, Block) {
        read_block_with(name, &part, &mut block, &mut self.labels);
        if let Cow::Owned(piece) = part {
            self.parsed = Some(piece);
        }
        (i, block)
    }
}

/// Parses the blocks `next_block` gives on `workers` threads, this one among them, and replays
/// them in order, then ends the file; the first read error stops the run and is returned. This
/// thread replays each block as soon as it is parsed and parses the next one itself whenever the
/// block it waits for is not ready: as many busy threads as cores, where a thread that only
/// replayed, one more than the cores, fell behind the parsers and replayed the last blocks alone.
fn run<'a, F>(session: &mut Session, name: &str, workers: usize, next_block: F) -> io::Result<()>
where
    F: FnMut(&mut Vec<Vec<u8>>) -> io::Result<Option<Cow<'a, [u8]>>> + Send,
{
    let window = window(workers);
    let shared = (
        Mutex::new(Feed {
            next_block,
            next: 0,
            replayed: 0,
            done: false,
            error: None,
            spare_blocks: Vec::new(),
            spare_pieces: Vec::new(),
        }),
        Condvar::new(),
    );
    let lock = || shared.0.lock().unwrap_or_else(|e| e.into_inner());
    let (tx, rx) = mpsc::channel::<(usize, Block)>();
    std::thread::scope(|scope| {
        for _ in 1..workers {
            let (tx, shared) = (tx.clone(), &shared);
            let mut parser = Parser::default();
            scope.spawn(move || loop {
                let claim = {
                    let mut feed = shared.0.lock().unwrap_or_else(|e| e.into_inner());
                    feed.spare_pieces.extend(parser.parsed.take());
                    while !feed.done && feed.full(window) {
                        feed = shared.1.wait(feed).unwrap_or_else(|e| e.into_inner());
                    }
                    if feed.done {
                        break;
                    }
                    match feed.claim() {
                        Some(claim) => claim,
                        None => break,
                    }
                };
                if tx.send(parser.parse(name, claim)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let (mut want, mut before) = (0, 0);
        let mut waiting = BTreeMap::<usize, Block>::new();
        let mut parser = Parser::default();
        loop {
            while let Some(mut block) = waiting.remove(&want) {
                let lines = block.lines;
                session.replay_in_place(&mut block, before);
                before += lines;
                want += 1;
                let mut feed = lock();
                feed.replayed = want;
                feed.spare_blocks.push(block);
                drop(feed);
                shared.1.notify_all();
            }
            if let Ok((i, block)) = rx.try_recv() {
                waiting.insert(i, block);
                continue;
            }
            // Nothing to replay: parse the next block here, if the window has room for it.
            let claim = {
                let mut feed = lock();
                feed.spare_pieces.extend(parser.parsed.take());
                if feed.done || feed.full(window) {
                    None
                } else {
                    feed.claim()
                }
            };
            match claim {
                Some(claim) => {
                    let (i, block) = parser.parse(name, claim);
                    waiting.insert(i, block);
                }
                // The block replayed next is a worker's: wait for it (or for the end).
                None => match rx.recv() {
                    Ok((i, block)) => {
                        waiting.insert(i, block);
                    }
                    Err(_) => break,
                },
            }
        }
        // Wake whoever still waits: nothing is left to read, or a read failed.
        shared.1.notify_all();
    });
    session.end_file();
    let feed = shared.0.into_inner().unwrap_or_else(|e| e.into_inner());
    feed.error.map_or(Ok(()), Err)
}

/// Why `score_files` made no report.
pub enum Fail {
    /// A file could not be read: its name and the error.
    Io(String, io::Error),
    Score(Error),
}

/// `compare::score` for files on disk, each read through `read_path`.
pub fn score_files(
    files: &[PathBuf],
    opts: &Options,
    boot: Option<BootstrapOptions>,
) -> Result<Report, Fail> {
    let mut session = Session::new(opts).map_err(Fail::Score)?;
    if boot.is_some() {
        session.keep_sample();
    }
    for path in files {
        let name = path.display().to_string();
        if let Err(e) = read_path(&mut session, &name, path) {
            return Err(Fail::Io(name, e));
        }
    }
    let mut finished = session.finish_sampled().map_err(Fail::Score)?;
    if let (Some(b), Some(sample)) = (boot, &finished.sample) {
        finished.report.intervals.bootstrap = Some(super::compare::parallel_bootstrap(sample, &b));
    }
    Ok(finished.report)
}
