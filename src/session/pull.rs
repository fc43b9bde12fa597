//! The one loop that carries a source's bytes into the session a chunk at a time, whichever way
//! a face reads them: natively with blocking reads (its awaits never wait), in a browser with
//! awaits between which the page's messages are heard (progress, a cancel, a turn of its event
//! loop). Limits (a format read whole held to a cap) are applied here, not by the face.

use super::whole::Whole;
use super::Session;
use crate::Error;
use std::future::Future;
use std::io::{self, Read};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// A source's next bytes, as the face reads them.
pub trait Pull {
    /// Appends the source's next bytes to `into` (a read's worth); appends nothing once the
    /// source has ended.
    fn pull(&mut self, into: &mut Vec<u8>) -> impl Future<Output = io::Result<()>>;
}

/// What a face does between two chunks of a source.
pub trait Pace {
    /// Called after each chunk with the bytes of the stored file read so far (a compressed
    /// file's, not its content's); false stops the reading (a cancel).
    fn between(&mut self, file_bytes: u64) -> impl Future<Output = bool>;
}

/// A face with nothing to do between chunks (the command line).
pub struct Steady;

impl Pace for Steady {
    async fn between(&mut self, _: u64) -> bool {
        true
    }
}

/// How the reading of a source ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Read to its end.
    Read,
    /// The session wants no more: strict mode met a warning, which `finish` returns.
    Stopped,
    /// The face's `Pace` stopped it.
    Halted,
}

/// Blocking reads as a `Pull`, `piece` bytes at a time.
pub(super) struct Blocking<R> {
    pub(super) read: R,
    pub(super) piece: usize,
}

impl<R: Read> Pull for Blocking<R> {
    async fn pull(&mut self, into: &mut Vec<u8>) -> io::Result<()> {
        (&mut self.read)
            .take(self.piece as u64)
            .read_to_end(into)
            .map(drop)
    }
}

/// Runs a future whose awaits never wait (blocking pulls, `Steady`) to its end, on this thread.
pub(super) fn now<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = f.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// Where the file bytes a `Pace` is told of come from.
pub(super) enum Counted<'a> {
    /// The chunks pulled are the file's own bytes.
    Pulled,
    /// A decoder's chunks: the file's bytes are counted under it.
    Under(&'a dyn Fn() -> u64),
}

impl Session {
    /// The current file's bytes from `first` on: `first` pushed, then every chunk `pull` gives,
    /// each counted against `whole`, with the face's `pace` between chunks. The file is ended
    /// unless an error or the face stops it (the caller then ends it, or drops the session).
    pub(super) async fn pump(
        &mut self,
        name: &str,
        first: Vec<u8>,
        pull: &mut impl Pull,
        whole: &mut Whole,
        counted: Counted<'_>,
        pace: &mut impl Pace,
    ) -> Result<Ended, Error> {
        let mut chunk = first;
        let mut file_bytes = 0u64;
        loop {
            if !chunk.is_empty() {
                if !whole.add(chunk.len()) {
                    return Err(whole.too_big(name));
                }
                if !self.push(&chunk) {
                    self.end_file();
                    return Ok(Ended::Stopped);
                }
                file_bytes += chunk.len() as u64;
                let at = match &counted {
                    Counted::Pulled => file_bytes,
                    Counted::Under(bytes) => bytes(),
                };
                if !pace.between(at).await {
                    return Ok(Ended::Halted);
                }
            }
            chunk.clear();
            pull.pull(&mut chunk)
                .await
                .map_err(|e| Error::io(name, e))?;
            if chunk.is_empty() {
                break;
            }
        }
        self.end_file();
        Ok(Ended::Read)
    }
}
