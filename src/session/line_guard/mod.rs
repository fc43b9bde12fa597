//! The bytes of a line-based file made safe for its reader, natively and in the page alike: a
//! carriage return alone (classic Mac and some old exporters) ends a line as a line feed does,
//! and a line longer than `MAX_LINE` is skipped as it streams, never held whole, its number kept
//! for a warning, so that one runaway line neither exhausts memory nor hides the lines after it.

use memchr::{memchr, memchr_iter, memrchr};

/// The longest line read from a line-based file, counted in decoded bytes (inside gzip, zstd, a
/// zip entry or UTF-16). A line is held until its end, and one of about a gigabyte ran the
/// page's worker out of memory; no evaluation log has lines of this size.
pub const MAX_LINE: usize = 64 << 20;

/// The open line's buffer is freed after a line longer than this.
const SMALL: usize = 1 << 20;

/// `head` with each carriage return that no line feed follows made one: what detection reads,
/// so that a file of CR-ended lines is known by its first line as any other.
pub fn lone_crs_as_lf(head: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let lone = |i: usize| head.get(i + 1) != Some(&b'\n');
    if !memchr_iter(b'\r', head).any(lone) {
        return std::borrow::Cow::Borrowed(head);
    }
    let mut fixed = head.to_vec();
    for i in memchr_iter(b'\r', head).filter(|&i| lone(i)) {
        if let Some(b) = fixed.get_mut(i) {
            *b = b'\n';
        }
    }
    std::borrow::Cow::Owned(fixed)
}

/// Whether bytes whole in memory need the guard: a carriage return anywhere (its ends are
/// counted and said), or a line longer than `cap`.
pub fn needs_guard(bytes: &[u8], cap: usize) -> bool {
    if memchr(b'\r', bytes).is_some() {
        return true;
    }
    if bytes.len() <= cap {
        return false;
    }
    let mut start = 0;
    for nl in memchr_iter(b'\n', bytes) {
        if nl - start > cap {
            return true;
        }
        start = nl + 1;
    }
    bytes.len() - start > cap
}

/// How the lines of a file ended.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Ends {
    pub lf: u64,
    pub crlf: u64,
    /// Carriage returns alone.
    pub cr: u64,
}

impl Ends {
    /// The report's mapping line on them, when there is something to say: lines ended by a
    /// carriage return alone, or by more than one kind of end. LF alone or CRLF alone says
    /// nothing.
    pub fn mapping(&self) -> Option<String> {
        let kinds = [self.lf, self.crlf, self.cr]
            .iter()
            .filter(|&&n| n > 0)
            .count();
        if kinds > 1 {
            Some(format!(
                "line endings: mixed ({} LF, {} CRLF, {} CR alone), each read as a line end",
                self.lf, self.crlf, self.cr
            ))
        } else if self.cr > 0 {
            Some("line endings: CR (classic Mac), read as line ends".to_string())
        } else {
            None
        }
    }
}

/// A line-based file's bytes on their way to its reader, in chunks cut anywhere: only whole
/// lines are passed on (and the last line at `finish`), each ended by a line feed or CRLF.
#[derive(Debug)]
pub struct LineGuard {
    cap: usize,
    /// The last chunk ended with a carriage return: CRLF or a CR alone, as the next byte says.
    cr_pending: bool,
    /// The open line's bytes, held until its end, so that a line past the cap never reaches
    /// the reader (which would hold it whole).
    held: Vec<u8>,
    /// The open line passed the cap: its bytes are dropped until its end.
    skipping: bool,
    /// Line ends passed on so far.
    line: u64,
    /// The numbers of the lines skipped, in order.
    pub skipped: Vec<u64>,
    pub ends: Ends,
    /// A chunk with its lone carriage returns made line feeds (its memory kept).
    fixed: Vec<u8>,
}

impl Default for LineGuard {
    fn default() -> Self {
        LineGuard::with_cap(MAX_LINE)
    }
}

impl LineGuard {
    /// A guard that skips lines longer than `cap` bytes (`MAX_LINE`, or less in tests).
    pub fn with_cap(cap: usize) -> Self {
        LineGuard {
            cap,
            cr_pending: false,
            held: Vec::new(),
            skipping: false,
            line: 0,
            skipped: Vec::new(),
            ends: Ends::default(),
            fixed: Vec::new(),
        }
    }

    /// Takes in the file's next bytes and calls `emit` with the whole lines they complete (a
    /// skipped line as an empty one, so that the reader's line numbers stay the file's).
    pub fn feed(&mut self, chunk: &[u8], emit: &mut impl FnMut(&[u8])) {
        let Some((&first, _)) = chunk.split_first() else {
            return;
        };
        let mut chunk = chunk;
        if std::mem::take(&mut self.cr_pending) {
            if first == b'\n' {
                self.ends.crlf += 1;
                self.lines(b"\r\n", 1, emit);
                chunk = chunk.get(1..).unwrap_or_default();
            } else {
                self.ends.cr += 1;
                self.lines(b"\n", 1, emit);
            }
        }
        // A carriage return at the end waits for the next byte.
        let body = match chunk.strip_suffix(b"\r") {
            Some(body) => {
                self.cr_pending = true;
                body
            }
            None => chunk,
        };
        let (mut crlf, mut lone) = (0, 0);
        for i in memchr_iter(b'\r', body) {
            if body.get(i + 1) == Some(&b'\n') {
                crlf += 1;
            } else {
                lone += 1;
            }
        }
        let lf = memchr_iter(b'\n', body).count() as u64;
        self.ends.lf += lf - crlf;
        self.ends.crlf += crlf;
        self.ends.cr += lone;
        if lone == 0 {
            return self.lines(body, lf, emit);
        }
        let mut fixed = std::mem::take(&mut self.fixed);
        fixed.clear();
        fixed.extend_from_slice(body);
        for i in memchr_iter(b'\r', body) {
            if body.get(i + 1) != Some(&b'\n') {
                if let Some(b) = fixed.get_mut(i) {
                    *b = b'\n';
                }
            }
        }
        self.lines(&fixed, lf + lone, emit);
        self.fixed = fixed;
    }

    /// Ends the file: a carriage return left at its end ends a line, and the last line, when
    /// no line end follows it, is passed on.
    pub fn finish(&mut self, emit: &mut impl FnMut(&[u8])) {
        if std::mem::take(&mut self.cr_pending) {
            self.ends.cr += 1;
            self.lines(b"\n", 1, emit);
        }
        if !std::mem::take(&mut self.skipping) && !self.held.is_empty() {
            emit(&self.held);
        }
        self.held = Vec::new();
    }

    /// Passes on the lines of `part`, whose line ends are all line feeds (`lfs` of them), in as
    /// few pieces as it can: the open line joined to its end, then every whole line at once.
    fn lines(&mut self, part: &[u8], lfs: u64, emit: &mut impl FnMut(&[u8])) {
        let mut at = 0;
        while let Some(rest) = part.get(at..).filter(|r| !r.is_empty()) {
            let Some(nl) = memchr(b'\n', rest) else {
                // The open line goes on past this part.
                if !self.skipping {
                    if self.held.len() + rest.len() > self.cap {
                        self.skip_open(part, at);
                    } else {
                        self.held.extend_from_slice(rest);
                    }
                }
                break;
            };
            let end = at + nl + 1;
            if std::mem::take(&mut self.skipping) {
                emit(b"\n");
            } else if self.held.len() + nl > self.cap {
                self.skip_open(part, at);
                self.skipping = false;
                emit(b"\n");
            } else if !self.held.is_empty() {
                self.held
                    .extend_from_slice(rest.get(..=nl).unwrap_or_default());
                emit(&self.held);
                self.held.clear();
                // A long line's memory is not kept for the short ones after it.
                if self.held.capacity() > SMALL {
                    self.held = Vec::new();
                }
            } else {
                // Whole lines from `at` on, up to the last line end, unless one is too long.
                let last = at + memrchr(b'\n', rest).unwrap_or(nl) + 1;
                let span = part.get(at..last).unwrap_or_default();
                let upto = if span.len() > self.cap {
                    first_long(span, self.cap).map_or(last, |s| at + s)
                } else {
                    last
                };
                emit(part.get(at..upto).unwrap_or_default());
                at = upto;
                continue;
            }
            at = end;
        }
        self.line += lfs;
    }

    /// The open line, whose bytes in `part` start at `at`, is past the cap: its number is kept
    /// and its bytes held so far dropped.
    fn skip_open(&mut self, part: &[u8], at: usize) {
        let before = memchr_iter(b'\n', part.get(..at).unwrap_or_default()).count() as u64;
        self.skipped.push(self.line + before + 1);
        self.held = Vec::new();
        self.skipping = true;
    }
}

/// Where the first line of `span` (whole lines) longer than `cap` starts, if one is.
fn first_long(span: &[u8], cap: usize) -> Option<usize> {
    let mut start = 0;
    for nl in memchr_iter(b'\n', span) {
        if nl - start > cap {
            return Some(start);
        }
        start = nl + 1;
    }
    None
}

#[cfg(test)]
mod tests;
