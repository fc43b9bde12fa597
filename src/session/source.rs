//! A `Source`: one input's name and bytes, from memory or from anything `Read` (a file, stdin, a
//! decompressing reader), so that every face hands the session inputs the same way.

use std::io::{self, Read};
use std::path::Path;

/// One input file, whole in memory.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub name: &'a str,
    pub bytes: &'a [u8],
}

/// One input of a run: its name (as reports and warnings name it) and its bytes.
pub struct Source<'a> {
    pub(super) name: String,
    pub(super) body: Body<'a>,
}

/// Where a source's bytes come from.
pub(super) enum Body<'a> {
    /// Whole in memory: blocks are cut from it with no copy.
    Bytes(&'a [u8]),
    /// Read in pieces; `len` is its size when known (a file's), which sizes the seen-id set.
    Read {
        len: Option<u64>,
        read: Box<dyn Read + Send + 'a>,
    },
}

impl<'a> Source<'a> {
    /// Bytes already in memory.
    pub fn bytes(name: impl Into<String>, bytes: &'a [u8]) -> Self {
        Source {
            name: name.into(),
            body: Body::Bytes(bytes),
        }
    }

    /// Bytes read from `read` as the session asks for them; `len` is their count if known.
    pub fn reader(name: impl Into<String>, len: Option<u64>, read: impl Read + Send + 'a) -> Self {
        Source {
            name: name.into(),
            body: Body::Read {
                len,
                read: Box::new(read),
            },
        }
    }

    /// The file at `path`, opened now (so that a wrong path fails before any file is read) and
    /// read when the session reads it; named as the path is written.
    pub fn path(path: &Path) -> io::Result<Source<'static>> {
        let file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        Ok(Source::reader(path.display().to_string(), Some(len), file))
    }

    /// The entry `entry` of the zip at `zip` (a listing's, `list_zip`), decoded as the session
    /// reads it; named `name`. The zip is opened now.
    pub fn zip_entry(
        name: impl Into<String>,
        zip: &Path,
        entry: &super::ZipEntry,
    ) -> io::Result<Source<'static>> {
        use std::io::{Seek, SeekFrom};
        let mut file = std::fs::File::open(zip)?;
        file.seek(SeekFrom::Start(entry.start))?;
        Source::zip_entry_read(name, file, entry)
    }

    /// The entry `entry` of a zip whose bytes from the entry's start on `raw` reads, decoded as
    /// the session reads it; named `name`.
    pub fn zip_entry_read(
        name: impl Into<String>,
        raw: impl Read + Send + 'a,
        entry: &super::ZipEntry,
    ) -> io::Result<Source<'a>> {
        let read = super::zipped::entry(raw, entry)?;
        Ok(Source::reader(name, Some(entry.size), read))
    }

    /// The source's content's first bytes, decoded as the session would decode them, and the
    /// name its content goes by when named `shown` (`peek`): for grouping files into runs.
    pub fn peek_as(self, shown: &str) -> io::Result<(String, Vec<u8>)> {
        match self.body {
            Body::Bytes(bytes) => super::peek(shown, bytes),
            Body::Read { read, .. } => super::peek(shown, read),
        }
    }

    /// The name reports give the source.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl<'a> From<Input<'a>> for Source<'a> {
    fn from(input: Input<'a>) -> Self {
        Source::bytes(input.name, input.bytes)
    }
}

impl<'a> From<&Input<'a>> for Source<'a> {
    fn from(input: &Input<'a>) -> Self {
        Source::bytes(input.name, input.bytes)
    }
}
