//! A source's bytes read into the session: whole in memory (a large canonical file in blocks
//! on every core, from the bytes themselves) or as a stream (in blocks read on every core, or in
//! chunks), a line-based file through its guard.

#[cfg(not(target_arch = "wasm32"))]
use super::cores;
use super::guarded_read::GuardedRead;
use super::line_guard::{self, MAX_LINE};
use super::pull::{now, Blocking, Counted, Steady};
use super::whole::{read_whole, Whole};
use super::{guarded, Session};
use crate::formats::HEAD;
use crate::Error;
use std::io::{self, Read};

impl Session {
    /// A source whole in memory: a large canonical JSON Lines file in blocks on every core. A
    /// line-based file with a carriage return or a line past `MAX_LINE` is read as a stream,
    /// through its guard.
    pub(super) fn read_bytes(&mut self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        let head = &bytes[..bytes.len().min(HEAD)];
        let (format, lines) = guarded::detect(name, head);
        let line_based = format.is_some_and(|f| !read_whole(f.name(), &lines));
        if line_based && line_guard::needs_guard(bytes, MAX_LINE) {
            return self.read_stream(name, Some(bytes.len() as u64), bytes);
        }
        let whole = Whole::new(format.map(|f| f.name()), head, self.whole_cap);
        if whole.over(bytes.len() as u64) {
            return Err(whole.too_big_at(name, Some(bytes.len() as u64)));
        }
        let blocks = self.begin(name, head, Some(bytes.len() as u64), format, true);
        // These bytes need no guard.
        self.guard = None;
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(workers) = cores::workers(Some(bytes.len() as u64)).filter(|_| blocks) {
            self.lines = None;
            cores::read_bytes(self, name, workers, bytes);
            return Ok(());
        }
        let _ = blocks;
        self.push(bytes);
        self.end_file();
        Ok(())
    }

    /// A source read in pieces: a large canonical JSON Lines file in blocks read and parsed on
    /// every core, never whole in memory; any other in chunks of a block, as the browser's
    /// worker pushes its reads, so that a line-based file is never whole in memory either (a
    /// format read whole gathers its chunks itself). A line-based file is read through its
    /// guard.
    pub(super) fn read_stream(
        &mut self,
        name: &str,
        len: Option<u64>,
        mut read: impl Read + Send,
    ) -> Result<(), Error> {
        let mut head = Vec::with_capacity(HEAD);
        (&mut read)
            .take(HEAD as u64)
            .read_to_end(&mut head)
            .map_err(|e| Error::io(name, e))?;
        let (format, lines) = guarded::detect(name, &head);
        let mut held = Whole::new(format.map(|f| f.name()), &head, self.whole_cap);
        if let Some(len) = len.filter(|&len| held.over(len)) {
            return Err(held.too_big_at(name, Some(len)));
        }
        let blocks = self.begin(name, &lines, len, format, true);
        let whole = io::Cursor::new(head).chain(read);
        match self.guard.as_mut() {
            Some(g) => {
                g.in_push = false;
                let guarded = GuardedRead::new(whole, std::sync::Arc::clone(&g.guard));
                self.read_body(name, len, blocks, &mut held, guarded)
            }
            None => self.read_body(name, len, blocks, &mut held, whole),
        }
    }

    /// The file begun by `read_stream`, from its first byte.
    fn read_body(
        &mut self,
        name: &str,
        len: Option<u64>,
        blocks: bool,
        held: &mut Whole,
        mut read: impl Read + Send,
    ) -> Result<(), Error> {
        let mut head = Vec::with_capacity(HEAD);
        (&mut read)
            .take(HEAD as u64)
            .read_to_end(&mut head)
            .map_err(|e| Error::io(name, e))?;
        // Blocks are line-based (canonical JSON Lines): never held whole.
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(workers) = cores::workers(len).filter(|_| blocks) {
            self.lines = None;
            return cores::read_pieces(self, name, workers, &head, read)
                .map_err(|e| Error::io(name, e));
        }
        let _ = (blocks, len);
        let mut pull = Blocking {
            read,
            piece: chunk_size(),
        };
        now(self.pump(name, head, &mut pull, held, Counted::Pulled, &mut Steady)).map(drop)
    }
}

/// The chunks a streamed source is read in.
fn chunk_size() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    return cores::block_size();
    #[cfg(target_arch = "wasm32")]
    return super::blocks::READ_BLOCK;
}
