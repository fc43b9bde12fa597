//! Reads one large canonical JSON Lines file on every core: blocks of whole lines are
//! read from the source and parsed on worker threads, and on this thread whenever it has nothing
//! to replay, while this thread replays the finished ones into the session in file order, so
//! items are scored, ids checked and warnings kept exactly as a one-core read does them
//! (tests/parallel_blocks.rs). The bootstrap's resamples are spread over the cores too. Native
//! only: the browser's worker has one thread.

use super::Session;
use crate::formats::canonical::chunks::{read_block_with, split, Block};
use crate::formats::canonical::item::Labels;
use crate::formats::lines::BOM;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::ops::Range;
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

/// The size of a block, and of a chunk read from a source that is not read in blocks.
pub(super) fn block_size() -> usize {
    std::env::var("SCORELENS_BLOCK_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(BLOCK)
}

/// The machine's cores.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads that parse a source of `len` bytes (`None`: unknown), this one included, or `None`
/// to read it on this thread alone: a source of one block or less, one core, or already on
/// rayon's pool (`score DIR` reads its runs in parallel, one each).
pub(super) fn workers(len: Option<u64>) -> Option<usize> {
    let n = cores();
    let big = len.is_none_or(|l| l > block_size() as u64);
    (big && n >= 2 && rayon::current_thread_index().is_none()).then_some(n)
}

/// The blocks of `bytes`, a canonical JSON Lines file already in memory, parsed on `workers`
/// threads and replayed in order; the file is then ended.
pub(super) fn read_bytes(session: &mut Session, name: &str, workers: usize, bytes: &[u8]) {
    let mut blocks = split(bytes, block_size()).into_iter();
    // Reading from memory cannot fail.
    let _ = run(session, name, workers, move |_: &mut Vec<Vec<u8>>| {
        Ok(blocks.next().map(Cow::Borrowed))
    });
}

/// The rest of a canonical JSON Lines file whose first bytes, `head`, are read already, in
/// blocks read from `read` by the workers themselves, so reading overlaps parsing and the file
/// is never whole in memory; the file is then ended. The first read error stops the run.
pub(super) fn read_pieces(
    session: &mut Session,
    name: &str,
    workers: usize,
    head: &[u8],
    read: impl Read + Send,
) -> io::Result<()> {
    let mut pieces = Pieces {
        read,
        carry: head.strip_prefix(BOM).unwrap_or(head).to_vec(),
        size: block_size(),
        end: false,
    };
    run(session, name, workers, move |spare: &mut Vec<Vec<u8>>| {
        pieces.next(spare.pop()).map(|p| p.map(Cow::Owned))
    })
}

/// `draw` of the resamples `0..resamples`, in one contiguous range per core, in order: each
/// resample has its own seeded stream, so the parts equal one draw of them all.
pub(super) fn spread<T: Send>(resamples: u32, draw: impl Fn(Range<u32>) -> T + Sync) -> Vec<T> {
    let per = resamples.div_ceil(cores() as u32).max(1);
    let ranges: Vec<Range<u32>> = (0..resamples)
        .step_by(per as usize)
        .map(|start| start..(start + per).min(resamples))
        .collect();
    let draw = &draw;
    std::thread::scope(|scope| {
        let handles: Vec<_> = ranges
            .into_iter()
            .map(|r| scope.spawn(move || draw(r)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// A file read in pieces that end after a newline (the last where the file ends).
struct Pieces<R> {
    read: R,
    /// What follows the last newline read so far.
    carry: Vec<u8>,
    size: usize,
    end: bool,
}

impl<R: Read> Pieces<R> {
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
            (&mut self.read)
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
                session.replay(&mut block, before);
                before += lines;
                want += 1;
                let mut feed = lock();
                feed.replayed = want;
                feed.spare_blocks.push(block);
                // Strict mode met a warning: nothing more is read.
                feed.done |= session.state.stopped;
                drop(feed);
                shared.1.notify_all();
            }
            if session.state.stopped {
                break;
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
