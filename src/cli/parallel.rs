//! Reads one large canonical JSON Lines file on every core (issue 9): blocks of whole lines are
//! parsed on worker threads while this thread replays the finished ones into the session in file
//! order, so items are scored, ids checked and warnings kept exactly as a one-core read does them.

use scorelens::formats::canonical_chunks::{read_block, split, Block};
use scorelens::Session;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

/// Blocks of about this many bytes (`SCORELENS_BLOCK_BYTES` overrides it, for the tests).
const BLOCK: usize = 1 << 20;

/// Blocks a worker may read ahead of the one being replayed, per worker: bounds the memory.
const AHEAD: usize = 4;

fn block_size() -> usize {
    std::env::var("SCORELENS_BLOCK_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(BLOCK)
}

/// `Session::read`, on every core when the file is canonical JSON Lines of several blocks.
pub fn read(session: &mut Session, name: &str, bytes: &[u8]) {
    let size = block_size();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    if bytes.len() <= size || workers < 2 {
        return session.read(name, bytes);
    }
    if !session.begin_blocks(name, bytes) {
        session.feed(bytes);
        return session.end_file();
    }
    let blocks = split(bytes, size);
    let next = AtomicUsize::new(0);
    // How many blocks have been replayed; workers wait on it to stay within the window.
    let replayed = (Mutex::new(0usize), Condvar::new());
    let window = AHEAD * workers;
    let (tx, rx) = mpsc::channel::<(usize, Block)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, replayed, blocks) = (&next, &replayed, &blocks);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(part) = blocks.get(i) else { break };
                let mut done = replayed.0.lock().unwrap_or_else(|e| e.into_inner());
                while i >= *done + window {
                    done = replayed.1.wait(done).unwrap_or_else(|e| e.into_inner());
                }
                drop(done);
                if tx.send((i, read_block(name, part))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let (mut want, mut before) = (0, 0);
        let mut waiting = BTreeMap::new();
        for (i, block) in rx {
            waiting.insert(i, block);
            while let Some(block) = waiting.remove(&want) {
                let lines = block.lines;
                session.replay(block, before);
                before += lines;
                want += 1;
                *replayed.0.lock().unwrap_or_else(|e| e.into_inner()) = want;
                replayed.1.notify_all();
            }
        }
    });
    session.end_file();
}
