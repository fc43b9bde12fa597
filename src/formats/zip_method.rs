//! A zip entry's compression method as its number, for both zip readers (Inspect's `.eval` logs
//! and a zip of result files read as a folder): the zip crate names only the methods whose
//! features are on, and these readers must tell DEFLATE and zstd from the rest by number.

use zip::CompressionMethod;

/// The zip method number (0 stored, 8 DEFLATE, 93 zstd); `u16::MAX` for a method the crate
/// names but gives no number.
pub(crate) fn method_code(method: CompressionMethod) -> u16 {
    #[allow(deprecated)]
    match method {
        CompressionMethod::Stored => 0,
        CompressionMethod::Unsupported(code) => code,
        _ => u16::MAX,
    }
}
