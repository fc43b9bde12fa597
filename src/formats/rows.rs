//! Result rows that come as JSON Lines, a JSON array, or an array inside one JSON object
//! (promptfoo's `results.results`, an Evals API page's `data`), each handed on with the line it
//! starts on, so that a bad row is named and skipped while the rest are read.

use crate::formats::json::{each_element, ArrayEnd};
use crate::formats::lines::{is_blank, Lines};
use serde_json::value::RawValue;

/// Every non-blank line of `buffer`, with its 1-based number.
pub fn each_line(buffer: &[u8], each: &mut dyn FnMut(u64, &[u8])) {
    let mut lines = Lines::default();
    let mut call = |n: u64, b: &[u8]| {
        if !is_blank(b) {
            each(n, b)
        }
    };
    lines.feed(buffer, &mut call);
    lines.finish(&mut call);
}

/// The elements of `inner`, an array that borrows from `buffer`, with the lines of `buffer`
/// they start on.
pub fn each_in(buffer: &[u8], inner: &RawValue, each: &mut dyn FnMut(u64, &[u8])) -> ArrayEnd {
    let start = (inner.get().as_ptr() as usize).saturating_sub(buffer.as_ptr() as usize);
    let before = buffer.get(..start).unwrap_or_default();
    let base = before.iter().filter(|&&b| b == b'\n').count() as u64;
    each_element(inner.get().as_bytes(), &mut |_, line, text| {
        each(base + line, text)
    })
}

/// The line a serde_json error points at, for a document that could not be read.
pub fn error_line(e: &serde_json::Error) -> Option<u64> {
    (e.line() > 0).then_some(e.line() as u64)
}
