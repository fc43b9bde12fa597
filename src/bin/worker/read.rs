//! Reading a run's dropped files in the worker: the session reads each one (`Session::read_blob`
//! chooses: streamed, or decoded when compressed, UTF-16 or a zip's entry, and held to the tab's
//! cap when read whole). What is the browser's alone stays here: the tab's limit, progress
//! messages, cancels, and turns of the event loop.

use crate::worker::{current, post};
use scorelens::session::{Ended, Pace};
use scorelens::web::blob::{Breathing, BrowserFile};
use scorelens::web::protocol::FromWorker;
use scorelens::{Error, Session};
use web_sys::File;

/// Bytes between two progress messages: few messages, yet progress moves and a cancel is
/// felt within a fraction of a second.
const CHUNK: f64 = (8 << 20) as f64;

/// Why reading stopped early.
pub enum Stop {
    Cancelled,
    /// A file could not be read, or is over what the tab can hold: the error says which.
    Failed(Error),
}

/// What the worker does between two chunks of a file: a turn of the event loop now and then,
/// a cancel heard, progress posted.
struct Watch<'a> {
    run: u32,
    generation: u32,
    name: &'a str,
    /// Bytes of the run's files before this one.
    start: f64,
    total: f64,
    posted: f64,
    progress: bool,
    breathing: &'a mut Breathing,
}

impl Pace for Watch<'_> {
    async fn between(&mut self, file_bytes: u64) -> bool {
        self.breathing.turn().await;
        if !current(self.run, self.generation) {
            return false;
        }
        let done = self.start + file_bytes as f64;
        if self.progress && done - self.posted >= CHUNK {
            self.posted = done;
            post(&FromWorker::Progress {
                run: self.run,
                file: self.name.to_string(),
                done,
                total: self.total,
            });
        }
        true
    }
}

/// Reads the run's files into `session`; returns the run's size in bytes. `progress` posts
/// progress messages (the first read, which the page waits for). A stop of the session (strict
/// mode met a warning) ends the reading: `finish` then says why.
pub async fn read_all(
    session: &mut Session,
    run: u32,
    generation: u32,
    files: &[File],
    progress: bool,
) -> Result<f64, Stop> {
    let total: f64 = files.iter().map(|f| f.size()).sum();
    let mut done = 0.0;
    let mut breathing = Breathing::new();
    for file in files {
        if !current(run, generation) {
            return Err(Stop::Cancelled);
        }
        let name = file.name();
        let mut watch = Watch {
            run,
            generation,
            name: &name,
            start: done,
            total,
            posted: done,
            progress,
            breathing: &mut breathing,
        };
        let blob = BrowserFile::file(file);
        match session.read_blob(&blob, &mut watch).await {
            Ok(Ended::Read) => {}
            Ok(Ended::Stopped) => return Ok(total),
            Ok(Ended::Halted) => return Err(Stop::Cancelled),
            Err(e) => return Err(Stop::Failed(e)),
        }
        done += file.size();
    }
    Ok(total)
}
