//! Canonical JSON Lines read in blocks of whole lines and replayed into the run in file order:
//! the replay warms the seen-id table ahead of its inserts, which the line reader cannot (in the
//! browser's worker that was a cache miss an item), and natively the blocks are parsed on every
//! core (`cores`). The report is the same as the line reader's.

use super::Session;
use crate::formats::canonical::chunks::{self, Block, Event};
use crate::formats::canonical::item::Labels;
use crate::formats::Sink;

/// Blocks of about this many bytes when the blocks are cut on one thread.
pub(super) const READ_BLOCK: usize = 1 << 20;

/// Items whose seen-id slots the replay loads at once.
const TOUCH: usize = 256;

/// A canonical JSON Lines file pushed in chunks, cut into blocks as they complete.
#[derive(Debug, Default)]
pub(super) struct LineFeed {
    name: String,
    stream: chunks::Stream,
    /// The block being replayed; its lists keep their memory from block to block.
    block: Block,
    /// The option lists and group names of the blocks read so far.
    labels: Labels,
    /// Lines of the file before the next block.
    before: u64,
}

impl LineFeed {
    pub(super) fn new(name: &str) -> Self {
        LineFeed {
            name: name.to_string(),
            ..LineFeed::default()
        }
    }
}

impl Session {
    /// The blocks of whole lines that `chunk` completes, read and replayed in order; with no
    /// chunk, the file's last line when it has no newline.
    pub(super) fn feed_lines(&mut self, lines: &mut LineFeed, chunk: Option<&[u8]>) {
        let LineFeed {
            name,
            stream,
            block,
            labels,
            before,
        } = lines;
        let mut each = |part: &[u8]| {
            if self.state.stopped {
                return;
            }
            chunks::read_block_with(name, part, block, labels);
            self.replay(block, *before);
            *before += block.lines;
        };
        match chunk {
            Some(chunk) => stream.push(chunk, READ_BLOCK, &mut each),
            None => stream.finish(&mut each),
        }
    }

    /// Takes in one block of the current file as if its lines had been fed; `lines_before` is the
    /// number of lines of the file before the block. Blocks must come in file order. The events
    /// stay in `block`, whose lists the next parse fills again (`chunks::read_block_with`).
    pub(super) fn replay(&mut self, block: &mut Block, lines_before: u64) {
        let shift = |line: Option<u64>| line.map(|l| l + lines_before);
        let mut items = 0;
        // In place: an item is not moved out of the list to be scored.
        for event in block.events.iter_mut() {
            if self.state.stopped {
                return;
            }
            match event {
                Event::Item(item) => {
                    // The seen-id table's slots for the next items, loaded together.
                    if items % TOUCH == 0 {
                        let next = block.id_hashes.get(items..).unwrap_or_default();
                        self.state.seen.touch(&next[..next.len().min(TOUCH)]);
                    }
                    let hash = block.id_hashes.get(items).copied();
                    items += 1;
                    item.line = shift(item.line);
                    self.state.add(None, item, hash);
                }
                // Rare (a line skipped or noted): a copy is kept.
                Event::Skip(w) => {
                    w.line = shift(w.line);
                    self.state.skip(w.clone());
                }
                Event::Warn(w) => {
                    w.line = shift(w.line);
                    self.state.warn(w.clone());
                }
                Event::Meta(key, value) => self.state.meta(*key, value),
            }
        }
    }
}
