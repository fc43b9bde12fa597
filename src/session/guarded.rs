//! The session's side of the line guard (`line_guard`): which files get one (the line-based
//! formats, detected on their first lines with lone carriage returns read as line ends), how
//! their bytes reach the reader through it, and what it found, written into the report when
//! the file ends: a warning for each line skipped, in line order among the file's warnings,
//! and a mapping line on the line ends.

use super::line_guard::{lone_crs_as_lf, LineGuard, MAX_LINE};
use super::whole::read_whole;
use super::{decompress, Session};
use crate::formats::{self, Format, Sink};
use crate::warning::Warning;
use std::borrow::Cow;
use std::sync::{Arc, Mutex};

/// A line-based file's guard, and who feeds it: the session as chunks are pushed, or the
/// reader the file is pulled through (`GuardedRead`).
pub(super) struct Guarded {
    pub(super) guard: Arc<Mutex<LineGuard>>,
    pub(super) in_push: bool,
}

/// The format of a source named `name` whose first bytes are `head`, and the head that was
/// read: with lone carriage returns as line feeds when that makes it a line-based format.
pub(super) fn detect<'h>(
    name: &str,
    head: &'h [u8],
) -> (Option<&'static dyn Format>, Cow<'h, [u8]>) {
    let name = decompress::inner_name(name);
    let fixed = lone_crs_as_lf(head);
    if let Cow::Owned(lines) = &fixed {
        if let Some(f) = formats::detect(name, lines).filter(|f| !read_whole(f.name(), lines)) {
            return (Some(f), fixed);
        }
    }
    (formats::detect(name, head), Cow::Borrowed(head))
}

/// Why a line was skipped, and what to do.
fn too_long(line: u64) -> String {
    format!(
        "line {line} is longer than {} MiB; skipped (scorelens reads lines of up to that \
         length, natively and in the page, and holds no more; split the record, or shorten its \
         longest field)",
        MAX_LINE >> 20
    )
}

impl Session {
    /// The guard of a file of `format` beginning with `head`, when it is line-based.
    pub(super) fn guard_for(&mut self, format: Option<&'static dyn Format>, head: &[u8]) {
        self.guard = format
            .filter(|f| !read_whole(f.name(), head))
            .map(|_| Guarded {
                guard: Arc::new(Mutex::new(LineGuard::default())),
                in_push: true,
            });
    }

    /// Feeds `chunk` to the reader, through the guard when the session feeds it.
    pub(super) fn push_guarded(&mut self, chunk: &[u8]) {
        match self.guard.as_ref().filter(|g| g.in_push) {
            Some(g) => {
                let guard = Arc::clone(&g.guard);
                let mut guard = guard.lock().unwrap_or_else(|e| e.into_inner());
                guard.feed(chunk, &mut |piece: &[u8]| self.push_reader(piece));
            }
            None => self.push_reader(chunk),
        }
    }

    /// The file's last line, held by the guard the session feeds.
    pub(super) fn finish_guard(&mut self) {
        if let Some(g) = self.guard.as_ref().filter(|g| g.in_push) {
            let guard = Arc::clone(&g.guard);
            let mut guard = guard.lock().unwrap_or_else(|e| e.into_inner());
            guard.finish(&mut |piece: &[u8]| self.push_reader(piece));
        }
    }

    /// What the guard found, once the reader is done: each skipped line a warning, placed
    /// among the file's warnings by its line, and the line ends in the file's mapping.
    pub(super) fn report_guard(&mut self) {
        let Some(g) = self.guard.take() else {
            return;
        };
        let guard = g.guard.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut self.state;
        let name = state
            .file
            .as_ref()
            .map(|f| f.name.clone())
            .unwrap_or_default();
        for &line in &guard.skipped {
            let before = state.warnings.len();
            state.skip(Warning::new(&name, Some(line), too_long(line)));
            if state.warnings.len() > before {
                let ours = state.warnings.pop();
                let later = state
                    .warnings
                    .get(self.file_warnings..)
                    .unwrap_or_default()
                    .iter()
                    .position(|w| w.line.is_some_and(|l| l > line));
                let at = later.map_or(state.warnings.len(), |i| i + self.file_warnings);
                if let Some(w) = ours {
                    state.warnings.insert(at, w);
                }
            }
        }
        if let (Some(m), Some(file)) = (guard.ends.mapping(), state.file.as_mut()) {
            file.mapping.push(m);
        }
    }
}
