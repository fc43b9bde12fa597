//! A canonical JSON Lines file cut into blocks of whole lines that can be read independently (on
//! several cores by the CLI) and replayed into a `Session` in file order with the same result.
//!
//! The canonical reader keeps no state from one line to the next that changes what it emits (its
//! option-list cache only shares memory), so a block read on its own gives the same items,
//! warnings and facts as the same lines read in sequence; only the line numbers are counted from
//! the block's start, and `Session::replay` shifts them by the lines before it.

use crate::formats::canonical::item::Labels;
use crate::formats::canonical::{read_line, starts_array};
use crate::formats::lines::BOM;
use crate::formats::{Meta, Shelf, Sink};
use crate::id_set::{IdHash, IdSet};
use crate::items::Item;
use crate::reported::Reported;
use crate::warning::Warning;

/// What a reader pushed into its sink, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Item(Item),
    Skip(Warning),
    Warn(Warning),
    Meta(Meta, String),
}

/// One block read on its own: its events with line numbers counted from 1 at the block's first
/// line, and how many lines (blank ones too) it holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Block {
    pub events: Vec<Event>,
    pub lines: u64,
    /// `IdSet::hash` of each item's id, in order, computed where the block was read so that the
    /// replay can warm the seen-id table ahead of its inserts.
    pub id_hashes: Vec<IdHash>,
}

/// Whether the file is canonical JSON Lines (not one JSON array), the layout blocks apply to.
pub fn is_lines(bytes: &[u8]) -> bool {
    starts_array(bytes) == Some(false)
}

/// Cuts a JSON Lines file into blocks of about `size` bytes, each ending just after a newline
/// (the last one where the file ends). A leading byte-order mark is left out, as the line reader
/// leaves it out.
pub fn split(bytes: &[u8], size: usize) -> Vec<&[u8]> {
    let rest = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let mut blocks = Vec::with_capacity(rest.len() / size.max(1) + 1);
    cut(rest, size, |block| blocks.push(block));
    blocks
}

/// `split` without the byte-order mark's check: for bytes that do not start the file.
fn cut<'a>(mut rest: &'a [u8], size: usize, mut each: impl FnMut(&'a [u8])) {
    while !rest.is_empty() {
        let cut = match rest.get(size.max(1)..) {
            None => rest.len(),
            Some(after) => match memchr::memchr(b'\n', after) {
                Some(nl) => size.max(1) + nl + 1,
                None => rest.len(),
            },
        };
        let (block, tail) = rest.split_at(cut);
        each(block);
        rest = tail;
    }
}

/// The blocks of a file that arrives in chunks (the browser's worker reads a `File` as a
/// stream): each chunk's whole lines are cut as `split` cuts them, a last partial line waits for
/// the next chunk, and `finish` gives what is left. Where the blocks end changes nothing: each
/// ends after a newline.
#[derive(Debug, Default)]
pub struct Stream {
    /// A line begun in an earlier chunk (or, before `started`, the file's first bytes).
    tail: Vec<u8>,
    /// Whether the file's first bytes were checked for a byte-order mark.
    started: bool,
}

impl Stream {
    /// Calls `each` with the blocks of whole lines of about `size` bytes that `chunk` completes.
    pub fn push(&mut self, chunk: &[u8], size: usize, mut each: impl FnMut(&[u8])) {
        if !self.started {
            self.tail.extend_from_slice(chunk);
            if self.tail.len() < BOM.len() {
                return;
            }
            self.started = true;
            let first = std::mem::take(&mut self.tail);
            return self.push(first.strip_prefix(BOM).unwrap_or(&first), size, each);
        }
        let Some(last) = memchr::memrchr(b'\n', chunk) else {
            self.tail.extend_from_slice(chunk);
            return;
        };
        let (mut whole, rest) = chunk.split_at(last + 1);
        if !self.tail.is_empty() {
            // The chunk holds a newline, so the waiting line ends in it.
            let nl = memchr::memchr(b'\n', whole).unwrap_or(whole.len() - 1);
            self.tail.extend_from_slice(&whole[..=nl]);
            each(&self.tail);
            self.tail.clear();
            whole = &whole[nl + 1..];
        }
        cut(whole, size, &mut each);
        self.tail.extend_from_slice(rest);
    }

    /// Calls `each` with the file's last line, when it has no newline at its end.
    pub fn finish(&mut self, mut each: impl FnMut(&[u8])) {
        let tail = std::mem::take(&mut self.tail);
        let tail = match self.started {
            true => &tail[..],
            false => tail.strip_prefix(BOM).unwrap_or(&tail),
        };
        self.started = true;
        if !tail.is_empty() {
            each(tail);
        }
    }
}

/// Reads one block of whole lines of the canonical file `file`.
pub fn read_block(file: &str, block: &[u8]) -> Block {
    let mut out = Block::default();
    read_block_into(file, block, &mut out);
    out
}

/// `read_block` into `out`, whose lists are emptied first and keep their memory: the CLI hands
/// the blocks it has replayed back to the workers, so that each block's lists are not allocated
/// (and their pages faulted in) afresh.
pub fn read_block_into(file: &str, block: &[u8], out: &mut Block) {
    read_block_with(file, block, out, &mut Labels::default());
}

/// `read_block_into` with the option lists and group names of earlier blocks, so that a group's
/// items share one name across blocks too (`Groups` then knows it by its address).
pub fn read_block_with(file: &str, block: &[u8], out: &mut Block, labels: &mut Labels) {
    // Room for the block's items at about 100 bytes a line, so that the events (some 200 bytes
    // each) are not copied as the list grows.
    let mut events = std::mem::take(&mut out.events);
    events.clear();
    events.reserve(block.len() / 100 + 1);
    let mut rec = Recorder {
        events,
        shelf: Shelf::default(),
    };
    let mut line = 0;
    let mut rest = block;
    while !rest.is_empty() {
        let (text, tail) = match memchr::memchr(b'\n', rest) {
            Some(nl) => (&rest[..nl], &rest[nl + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        line += 1;
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        read_line(file, labels, line, text, &mut rec);
        rest = tail;
    }
    out.id_hashes.clear();
    out.id_hashes.reserve(rec.events.len());
    out.id_hashes
        .extend(rec.events.iter().filter_map(|e| match e {
            Event::Item(item) => Some(IdSet::hash_bytes(item.id.as_bytes())),
            _ => None,
        }));
    out.events = rec.events;
    out.lines = line;
}

/// A sink that keeps what it is given.
struct Recorder {
    events: Vec<Event>,
    shelf: Shelf,
}

impl Sink for Recorder {
    fn item(&mut self, item: Item) {
        self.events.push(Event::Item(item));
    }
    // The canonical reader names no other file and reports no figures of its own.
    fn item_in(&mut self, _file: &str, item: Item) {
        self.events.push(Event::Item(item));
    }
    fn skip(&mut self, warning: Warning) {
        self.events.push(Event::Skip(warning));
    }
    fn warn(&mut self, warning: Warning) {
        self.events.push(Event::Warn(warning));
    }
    fn meta(&mut self, key: Meta, value: &str) {
        self.events.push(Event::Meta(key, value.to_string()));
    }
    fn reported(&mut self, _figure: Reported) {}
    fn shelf(&mut self) -> &mut Shelf {
        &mut self.shelf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_end_after_a_newline_and_cover_the_file() {
        let text = b"\xEF\xBB\xBFab\ncd\r\n\nefg\nh";
        for size in 1..text.len() + 2 {
            let blocks = split(text, size);
            assert_eq!(blocks.concat(), &text[3..], "size {size}");
            for b in &blocks[..blocks.len() - 1] {
                assert!(b.ends_with(b"\n"), "size {size}: {b:?}");
            }
        }
        assert!(split(b"", 4).is_empty());
    }

    #[test]
    fn lines_are_counted_from_the_block_start() {
        let block = read_block("f", b"\n{\"id\":1}\r\n  \nnot json");
        assert_eq!(block.lines, 4);
        match &block.events[..] {
            [Event::Skip(a), Event::Skip(b)] => {
                assert_eq!(a.line, Some(2));
                assert_eq!(b.line, Some(4));
            }
            other => panic!("{other:?}"),
        }
    }
}
