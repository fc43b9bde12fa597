//! A zip of result files read as a folder: its entries are listed from the archive's directory,
//! and each is read as its own source, decoded as it streams (never whole in memory), so that a
//! zipped HELM suite or lm-eval output folder gives the runs the folder gives. An Inspect `.eval`
//! log is a zip too, but it is one file of one run: `list` tells the two apart.

use super::decompress::ZstdFrames;
use crate::formats::zip_method::method_code;
use std::io::{self, BufReader, Read, Seek};
use zip::ZipArchive;

/// The magic that starts a zip archive's first local file header.
pub const MAGIC: &[u8] = b"PK\x03\x04";

/// One file in a zip: where its compressed bytes lie and what they decode to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its path in the archive, folders separated by `/`.
    pub name: String,
    /// The zip compression method: 0 stored, 8 DEFLATE, 93 zstd.
    pub method: u16,
    /// Offset of its compressed bytes in the archive.
    pub start: u64,
    /// Its compressed and decoded sizes, and the CRC-32 of its decoded bytes.
    pub compressed: u64,
    pub size: u64,
    pub crc: u32,
}

impl Entry {
    /// The entry's decoding (method, decoded size, CRC-32) as one string, for a face that hands
    /// the entry's stored bytes on as a file of their own (the worker: a `File`'s type) and back
    /// to the session (`Blob::zip_entry`).
    pub fn tag(&self) -> String {
        format!(
            "method={}; size={}; crc={}",
            self.method, self.size, self.crc
        )
    }

    /// The entry named `name` whose `compressed` stored bytes are a source of their own, from
    /// its `tag`.
    pub fn from_tag(name: &str, compressed: u64, tag: &str) -> io::Result<Entry> {
        let param = |key: &str| {
            tag.split(';')
                .filter_map(|p| p.trim().split_once('='))
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.trim())
        };
        let bad = || {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a zip entry's tag that is not one: {tag}"),
            )
        };
        Ok(Entry {
            name: name.to_string(),
            method: param("method")
                .and_then(|v| v.parse().ok())
                .ok_or_else(bad)?,
            start: 0,
            compressed,
            size: param("size").and_then(|v| v.parse().ok()).ok_or_else(bad)?,
            crc: param("crc").and_then(|v| v.parse().ok()).ok_or_else(bad)?,
        })
    }
}

/// What a zip holds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// The files read as a folder's, in the order a folder is walked (name order, folders depth
    /// first); none when the zip is an Inspect log (`inspect`).
    pub entries: Vec<Entry>,
    /// Entries that cannot be read (encrypted, an unknown compression), with the reason: listed
    /// quietly, as unreadable files in a folder are.
    pub unreadable: Vec<(String, String)>,
    /// True when the zip is an Inspect log (`header.json`, `_journal/`, `samples/`): one file of
    /// one run, read by its reader, not a folder.
    pub inspect: bool,
}

/// Lists the file at `path` when it is a zip: `None` when it is not one (or is not a plain file:
/// a pipe or a device is never a zip, and reading its first bytes here would take them from the
/// session that reads it next); `Some(Err(why))` when its directory cannot be read.
pub fn list_path(path: &std::path::Path) -> io::Result<Option<Result<Listing, String>>> {
    use std::io::Seek;
    if !std::fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    let mut file = std::fs::File::open(path)?;
    let mut magic = Vec::with_capacity(4);
    (&mut file).take(4).read_to_end(&mut magic)?;
    if magic != MAGIC {
        return Ok(None);
    }
    file.rewind()?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    Ok(list(&name, file).transpose())
}

/// True when `name` (a file name or path) ends in `.eval`: Inspect's name for its zip logs.
fn eval_name(name: &str) -> bool {
    let tail = name.len().checked_sub(5).and_then(|cut| name.get(cut..));
    tail.is_some_and(|t| t.eq_ignore_ascii_case(".eval"))
}

/// The entries Inspect's logs hold at their top level; a zip with any of them is a log.
fn inspect_entry(name: &str) -> bool {
    ["header.json", "summaries.json", "reductions.json"].contains(&name)
        || name.starts_with("_journal/")
        || name.starts_with("samples/")
}

/// Entries no one's results live in: folders, hidden files (as a folder's walk skips them), and
/// the resource forks macOS adds to the zips it makes.
fn skipped(name: &str) -> bool {
    name.ends_with('/')
        || name.starts_with("__MACOSX/")
        || name.split('/').any(|part| part.starts_with('.'))
}

/// Lists the zip named `name` whose bytes `read` holds; `Ok(None)` when its first bytes are not
/// a zip's. A damaged directory is an error that says so.
pub fn list(name: &str, read: impl Read + Seek) -> Result<Option<Listing>, String> {
    let mut read = BufReader::with_capacity(64 << 10, read);
    let mut magic = [0u8; 4];
    let got = read.read(&mut magic).map_err(|e| e.to_string())?;
    if got < 4 || magic != MAGIC {
        return Ok(None);
    }
    read.rewind().map_err(|e| e.to_string())?;
    let mut zip = ZipArchive::new(read).map_err(|e| {
        format!(
            "a zip archive whose directory cannot be read ({e}): it may be cut short or damaged"
        )
    })?;
    let mut listing = Listing::default();
    let names: Vec<String> = (0..zip.len())
        .map(|i| {
            let name = zip.name_for_index(i).and_then(Result::ok);
            name.map_or_else(|| format!("entry {}", i + 1), Into::into)
        })
        .collect();
    if eval_name(name) || names.iter().any(|n| inspect_entry(n)) {
        listing.inspect = true;
        return Ok(Some(listing));
    }
    for (i, entry_name) in names.iter().enumerate() {
        let file = match zip.by_index_raw(i) {
            Ok(f) => f,
            Err(e) => {
                let why = format!("not found where the zip's directory points ({e})");
                listing.unreadable.push((entry_name.clone(), why));
                continue;
            }
        };
        let name = file.name().unwrap_or_default().to_string();
        if name.is_empty() || skipped(&name) {
            continue;
        }
        let method = method_code(file.compression());
        let why = unreadable(method, file.encrypted());
        match (why, file.data_start()) {
            (Some(why), _) => listing.unreadable.push((name, why)),
            (None, None) => {
                let why = "its bytes cannot be found in the zip: it may be damaged".to_string();
                listing.unreadable.push((name, why));
            }
            (None, Some(start)) => listing.entries.push(Entry {
                name,
                method,
                start,
                compressed: file.compressed_size(),
                size: file.size(),
                crc: file.crc32(),
            }),
        }
    }
    // A folder's walk goes in name order, folders depth first: so do a zip's entries.
    listing
        .entries
        .sort_by(|a, b| a.name.split('/').cmp(b.name.split('/')));
    Ok(Some(listing))
}

/// Why an entry of this method cannot be read (`None`: it can): scorelens decodes the methods
/// zips of results use (stored, DEFLATE; zstd, as Inspect writes), and no encryption.
pub fn unreadable(method: u16, encrypted: bool) -> Option<String> {
    if encrypted {
        Some("encrypted: scorelens does not read password-protected zips; unzip it".to_string())
    } else if ![0, 8, 93].contains(&method) {
        Some(format!(
            "compressed with zip method {method}, which scorelens does not read: zip the files \
             again with the usual compression (DEFLATE), or unzip them"
        ))
    } else {
        None
    }
}

/// The entry's decoded bytes from `raw`, the archive's bytes from the entry's `start` on: they
/// are decoded as they are read, and a size or CRC-32 unlike the directory's is an error at the
/// end (a damaged or cut-short zip). A gzip or zstd file inside is decoded by the session, as
/// any source's is.
pub fn entry<'a>(
    raw: impl Read + Send + 'a,
    entry: &Entry,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    let raw = raw.take(entry.compressed);
    let inner: Box<dyn Read + Send + 'a> = match entry.method {
        0 => Box::new(raw),
        8 => Box::new(flate2::read::DeflateDecoder::new(raw)),
        93 => Box::new(ZstdFrames::new(BufReader::new(raw))?),
        other => {
            let why = unreadable(other, false).unwrap_or_default();
            return Err(io::Error::new(io::ErrorKind::InvalidData, why));
        }
    };
    Ok(Box::new(Checked {
        inner,
        left: entry.size,
        crc: entry.crc,
        hasher: crc32fast::Hasher::new(),
    }))
}

/// Decoded bytes checked against the zip's directory as they pass: no more than the declared
/// size (a zip bomb stops there), and at the end exactly that size with the declared CRC-32.
struct Checked<'a> {
    inner: Box<dyn Read + Send + 'a>,
    left: u64,
    crc: u32,
    hasher: crc32fast::Hasher,
}

fn damaged(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why)
}

impl Read for Checked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            if self.left > 0 {
                return Err(damaged(format!(
                    "the zip entry ends {} bytes before the size its directory declares: \
                     the zip is cut short or damaged",
                    self.left
                )));
            }
            if self.hasher.clone().finalize() != self.crc {
                return Err(damaged(
                    "the zip entry's CRC-32 does not match: the zip is damaged".to_string(),
                ));
            }
            return Ok(0);
        }
        if n as u64 > self.left {
            return Err(damaged(
                "the zip entry decodes to more than the size its directory declares: \
                 the zip is damaged"
                    .to_string(),
            ));
        }
        self.left -= n as u64;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests;
