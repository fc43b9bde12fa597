//! Parquet tables as JSON Lines, one object per row, so that the readers that parse JSON rows
//! read a Parquet file too (lighteval's details). A crate of its own because the page loads it
//! only when a Parquet file is dropped: the parquet decoder is larger than the rest of a reader,
//! and the first page load does not pay for it. Natively the CLI links it as a library.

use parquet::basic::Compression;
use parquet::file::reader::{FileReader, SerializedFileReader};
use std::io::Write;

/// The first four bytes of a Parquet file (and its last four).
pub const MAGIC: &[u8; 4] = b"PAR1";

/// The most JSON a table may turn into: a small file of long repeated strings (dictionary
/// encoded) can expand a thousandfold, and the rows must fit in memory beside everything else.
pub const MAX_OUTPUT: usize = 1 << 30;

/// Whether `head`, a file's first bytes, starts as a Parquet file does.
pub fn is_parquet(head: &[u8]) -> bool {
    head.starts_with(MAGIC)
}

/// The rows of the Parquet file `bytes` as JSON Lines: each row an object of its columns, nested
/// columns (structs, lists, maps) as JSON objects and arrays, a NaN or infinite float as `null`,
/// binary columns as base64 (parquet's own `to_json_value`). An error says what stopped it in a
/// user's words; no row is returned then, as a damaged table cannot say which rows are whole.
pub fn to_json_lines(bytes: Vec<u8>, max_output: usize) -> Result<Vec<u8>, String> {
    let reader = SerializedFileReader::new(bytes::Bytes::from(bytes))
        .map_err(|e| format!("not a Parquet table that can be read ({e})"))?;
    let meta = reader.metadata();
    for group in meta.row_groups() {
        for column in group.columns() {
            let codec = column.compression();
            if !decodes(codec) {
                return Err(format!(
                    "a Parquet table compressed with {}, which scorelens does not decode: \
                     write it with snappy or gzip (pandas: to_parquet(OUT, compression=\"snappy\"))",
                    name(codec)
                ));
            }
        }
    }
    let rows = reader
        .get_row_iter(None)
        .map_err(|e| format!("a Parquet table whose rows cannot be read ({e})"))?;
    let mut out = Vec::new();
    for (n, row) in rows.enumerate() {
        let row = row.map_err(|e| format!("row {}: cannot be read ({e})", n + 1))?;
        serde_json::to_writer(&mut out, &row.to_json_value())
            .map_err(|e| format!("row {}: {e}", n + 1))?;
        out.push(b'\n');
        if out.len() > max_output {
            return Err(format!(
                "a Parquet table whose rows make more than {} MiB of JSON by row {}: split it \
                 into smaller files",
                max_output >> 20,
                n + 1
            ));
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(out)
}

/// A codec as pyarrow's `compression=` spells it.
fn name(codec: Compression) -> &'static str {
    match codec {
        Compression::UNCOMPRESSED => "none",
        Compression::SNAPPY => "snappy",
        Compression::GZIP(_) => "gzip",
        Compression::LZO => "lzo",
        Compression::BROTLI(_) => "brotli",
        Compression::LZ4 | Compression::LZ4_RAW => "lz4",
        Compression::ZSTD(_) => "zstd",
    }
}

/// Whether this build decodes the codec (the ones pyarrow writes by default and on request).
fn decodes(codec: Compression) -> bool {
    matches!(
        codec,
        Compression::UNCOMPRESSED | Compression::SNAPPY | Compression::GZIP(_)
    )
}

/// The page's entry points: a plain C ABI over the module's memory, so that the worker
/// instantiates the module with `WebAssembly.instantiate` and no JS glue (glue would be a
/// script the page preloads). The worker copies a table into `rows_alloc(len)`'s bytes, calls
/// `rows_convert(ptr, len)`, reads `rows_result()` (three little-endian u32: 1 when the rows are
/// there, else 0 with the reason, then the pointer and length of the JSON Lines or the reason as
/// UTF-8), copies them out and calls `rows_free()`.
#[cfg(target_arch = "wasm32")]
mod abi {
    use std::cell::RefCell;

    thread_local! {
        static OUT: RefCell<(Vec<u8>, [u32; 3])> = const { RefCell::new((Vec::new(), [0; 3])) };
    }

    #[no_mangle]
    pub extern "C" fn rows_alloc(len: usize) -> *mut u8 {
        let mut bytes = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len));
        bytes.as_mut_ptr()
    }

    /// # Safety
    /// `ptr` and `len` are a `rows_alloc(len)` whose bytes the caller has filled; it is freed here.
    #[no_mangle]
    pub unsafe extern "C" fn rows_convert(ptr: *mut u8, len: usize) {
        let bytes = Vec::from_raw_parts(ptr, len, len);
        let (ok, out) = match super::to_json_lines(bytes, super::MAX_OUTPUT) {
            Ok(rows) => (1, rows),
            Err(why) => (0, why.into_bytes()),
        };
        OUT.with(|o| {
            let mut o = o.borrow_mut();
            o.1 = [ok, out.as_ptr() as u32, out.len() as u32];
            o.0 = out;
        });
    }

    #[no_mangle]
    pub extern "C" fn rows_result() -> *const u32 {
        OUT.with(|o| o.borrow().1.as_ptr())
    }

    #[no_mangle]
    pub extern "C" fn rows_free() {
        OUT.with(|o| *o.borrow_mut() = (Vec::new(), [0; 3]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_not_parquet_says_so() {
        assert!(!is_parquet(b"{\"a\": 1}"));
        assert!(is_parquet(b"PAR1\x15\x04"));
        let e = to_json_lines(b"PAR1 and then nothing".to_vec(), MAX_OUTPUT).unwrap_err();
        assert!(e.starts_with("not a Parquet table that can be read"), "{e}");
    }
}
