//! A line-based source read through its `LineGuard`, for the readers that pull their bytes
//! (a stream read on this thread, or in blocks on every core): what they read has its lone
//! carriage returns made line ends and its over-long lines skipped.

use super::line_guard::LineGuard;
use std::io::{self, Read};
use std::sync::{Arc, Mutex};

/// Bytes taken from the source at a time.
const PIECE: usize = 1 << 20;

/// `inner` as its guard passes it on. The guard is shared with the session, which reads its
/// counts and skipped lines when the file ends.
pub(super) struct GuardedRead<R> {
    inner: R,
    guard: Arc<Mutex<LineGuard>>,
    raw: Vec<u8>,
    out: Vec<u8>,
    at: usize,
    done: bool,
}

impl<R: Read> GuardedRead<R> {
    pub(super) fn new(inner: R, guard: Arc<Mutex<LineGuard>>) -> Self {
        GuardedRead {
            inner,
            guard,
            raw: Vec::new(),
            out: Vec::new(),
            at: 0,
            done: false,
        }
    }

    /// Refills `out` from the source until it has bytes or the source ends.
    fn fill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.at = 0;
        while self.out.is_empty() && !self.done {
            self.raw.clear();
            (&mut self.inner)
                .take(PIECE as u64)
                .read_to_end(&mut self.raw)?;
            let mut guard = self.guard.lock().unwrap_or_else(|e| e.into_inner());
            let out = &mut self.out;
            let mut emit = |b: &[u8]| out.extend_from_slice(b);
            if self.raw.is_empty() {
                self.done = true;
                guard.finish(&mut emit);
            } else {
                guard.feed(&self.raw, &mut emit);
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for GuardedRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at >= self.out.len() {
            self.fill()?;
        }
        let rest = self.out.get(self.at..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        if let (Some(to), Some(from)) = (buf.get_mut(..n), rest.get(..n)) {
            to.copy_from_slice(from);
        }
        self.at += n;
        Ok(n)
    }
}
