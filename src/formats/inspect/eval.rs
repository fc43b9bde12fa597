//! Opens Inspect's `.eval` archive: a ZIP whose entries are stored, DEFLATE (method 8, before
//! inspect-ai 0.3.206) or zstd (method 93, since), decoded in pure Rust so that it builds for wasm.
//!
//! The `zip` crate only parses the directory (no compression features: its zstd needs C); each
//! entry's raw bytes are inflated here with `miniz_oxide` or `ruzstd`. Inspect's zstd frames carry
//! no checksum, so the ZIP CRC-32 is checked by hand. An archive is untrusted input: a 32 KiB zstd
//! frame can expand to 1 GiB, so every entry is capped (and must not outgrow its declared size),
//! and so is the total over the archive.

use crate::formats::zip_method::method_code;
use std::io::{Cursor, Read};
use zip::ZipArchive;

/// Caps on decompressed bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest entry, decompressed.
    pub entry: u64,
    /// Largest sum over the entries read from one archive.
    pub total: u64,
}

/// The caps the reader uses: a sample entry of 256 MiB is far beyond any real one.
pub const LIMITS: Limits = Limits {
    entry: 256 << 20,
    total: 4 << 30,
};

/// Largest zstd window accepted (real Inspect frames use at most a few MiB).
const MAX_WINDOW: u64 = 32 << 20;

/// Output is produced in steps of this many bytes, so a cap is checked before memory grows past it.
const STEP: usize = 1 << 20;

/// The ZIP magic that starts a local file header.
pub const MAGIC: &[u8] = b"PK\x03\x04";

/// An open `.eval` archive.
pub struct Archive<'b> {
    zip: ZipArchive<Cursor<&'b [u8]>>,
    /// The archive's size: no entry's compressed bytes can be more.
    len: usize,
    limits: Limits,
    total: u64,
    /// Compression methods of the entries read so far.
    methods: Vec<u16>,
}

impl<'b> Archive<'b> {
    /// Reads the archive's directory.
    pub fn open(bytes: &'b [u8], limits: Limits) -> Result<Archive<'b>, String> {
        let zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
            format!("not a readable ZIP archive ({e}); the file may be truncated or damaged")
        })?;
        Ok(Archive {
            zip,
            len: bytes.len(),
            limits,
            total: 0,
            methods: Vec::new(),
        })
    }

    /// The entry names, in directory order.
    pub fn names(&self) -> Vec<String> {
        self.zip
            .file_names()
            .filter_map(|n| n.ok().map(|n| n.into_owned()))
            .collect()
    }

    /// Whether an entry of this name exists.
    pub fn has(&self, name: &str) -> bool {
        self.zip.index_for_name(name).is_some()
    }

    /// The decompressed bytes of the named entry, or why they cannot be had.
    pub fn read(&mut self, name: &str) -> Result<Vec<u8>, String> {
        let index = self
            .zip
            .index_for_name(name)
            .ok_or_else(|| "no such entry".to_string())?;
        let mut file = self.zip.by_index_raw(index).map_err(|e| {
            format!("not found where the archive's directory points ({e}); the archive may be truncated or damaged")
        })?;
        let declared = file.size();
        let crc = file.crc32();
        let method = file.compression();
        let left = self.limits.total.saturating_sub(self.total);
        let cap = self.limits.entry.min(left);
        if declared > cap {
            return Err(too_big(declared, self.limits, cap < self.limits.entry));
        }
        // The declared compressed size may lie too: reserve no more than the archive holds (a
        // 4 GiB reservation aborts a wasm32 tab).
        let declared_raw = usize::try_from(file.compressed_size()).unwrap_or(usize::MAX);
        let mut raw = Vec::with_capacity(declared_raw.min(self.len));
        file.read_to_end(&mut raw)
            .map_err(|e| format!("cannot read its compressed bytes: {e}"))?;
        // The declared size bounds the output: an entry that outgrows it is damaged or hostile.
        let code = method_code(method);
        if !self.methods.contains(&code) {
            self.methods.push(code);
        }
        let out = match code {
            0 => raw,
            8 => inflate(&raw, declared)?,
            93 => unzstd(&raw, declared)?,
            other => return Err(format!("unsupported compression method {other}")),
        };
        if out.len() as u64 != declared {
            return Err(format!(
                "decompressed to {} bytes, but the archive declares {declared}",
                out.len()
            ));
        }
        if crc32fast::hash(&out) != crc {
            return Err("CRC-32 mismatch: the entry is damaged".to_string());
        }
        self.total += declared;
        Ok(out)
    }
}

impl Archive<'_> {
    /// The compression methods of the entries read, e.g. "zstd (method 93)".
    pub fn methods(&self) -> String {
        let names: Vec<String> = self
            .methods
            .iter()
            .map(|&m| match m {
                0 => "stored (method 0)".to_string(),
                8 => "DEFLATE (method 8)".to_string(),
                93 => "zstd (method 93)".to_string(),
                other => format!("method {other}"),
            })
            .collect();
        if names.is_empty() {
            "nothing (no entry read)".to_string()
        } else {
            names.join(" and ")
        }
    }
}

fn too_big(declared: u64, limits: Limits, total_hit: bool) -> String {
    if total_hit {
        format!(
            "skipped: the archive's entries decompress to more than {} MiB in all (this one declares {declared} bytes)",
            limits.total >> 20
        )
    } else {
        format!(
            "skipped: it declares {declared} bytes decompressed, above the {} MiB cap per entry",
            limits.entry >> 20
        )
    }
}

fn inflate(raw: &[u8], declared: u64) -> Result<Vec<u8>, String> {
    // One byte of room beyond the declared size shows an entry that outgrows it.
    let limit = usize::try_from(declared.saturating_add(1)).unwrap_or(usize::MAX);
    match miniz_oxide::inflate::decompress_to_vec_with_limit(raw, limit) {
        Ok(out) => Ok(out),
        Err(e) if e.output.len() >= limit => Err(outgrew(declared)),
        Err(e) => Err(format!("DEFLATE data is damaged ({e})")),
    }
}

fn outgrew(declared: u64) -> String {
    format!("decompresses to more than the {declared} bytes the archive declares; stopped there")
}

/// Decodes every zstd frame in `raw`, stopping as soon as the output passes `declared`.
fn unzstd(raw: &[u8], declared: u64) -> Result<Vec<u8>, String> {
    use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
    let mut source = raw;
    let mut out = Vec::new();
    let mut decoder = FrameDecoder::new();
    decoder.set_max_window_size(MAX_WINDOW);
    let damaged = |e: &dyn std::fmt::Display| format!("zstd data is damaged ({e})");
    while !source.is_empty() {
        decoder.reset(&mut source).map_err(|e| damaged(&e))?;
        loop {
            let done = decoder
                .decode_blocks(&mut source, BlockDecodingStrategy::UptoBytes(STEP))
                .map_err(|e| damaged(&e))?;
            decoder
                .collect_to_writer(&mut out)
                .map_err(|e| damaged(&e))?;
            if out.len() as u64 > declared {
                return Err(outgrew(declared));
            }
            if done {
                break;
            }
        }
    }
    Ok(out)
}
