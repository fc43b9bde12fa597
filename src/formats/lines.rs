//! Splits a byte stream that arrives in chunks into lines, whatever the chunk boundaries.
//!
//! Handles what files on disk carry: a UTF-8 byte-order mark, CRLF line ends, and a last line
//! without a newline. Line numbers are 1-based and count every physical line, blank ones too.

/// The byte-order mark some editors put at the start of UTF-8 files.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Keeps the unfinished tail of the previous chunk.
#[derive(Debug, Default)]
pub struct Lines {
    pending: Vec<u8>,
    line: u64,
    started: bool,
}

impl Lines {
    /// Calls `each(line_number, bytes)` for every complete line in `chunk`.
    pub fn feed(&mut self, mut chunk: &[u8], mut each: impl FnMut(u64, &[u8])) {
        if !self.started {
            // The BOM may be split over the first chunks; wait until three bytes are in.
            if self.pending.len() + chunk.len() < BOM.len() && !chunk.contains(&b'\n') {
                self.pending.extend_from_slice(chunk);
                return;
            }
            self.started = true;
            if !self.pending.is_empty() {
                let mut joined = std::mem::take(&mut self.pending);
                joined.extend_from_slice(chunk);
                let start = usize::from(joined.starts_with(BOM)) * BOM.len();
                return self.feed_started(&joined[start..], &mut each);
            }
            if chunk.starts_with(BOM) {
                chunk = &chunk[BOM.len()..];
            }
        }
        self.feed_started(chunk, &mut each)
    }

    fn feed_started(&mut self, chunk: &[u8], each: &mut impl FnMut(u64, &[u8])) {
        let mut rest = chunk;
        while let Some(nl) = memchr::memchr(b'\n', rest) {
            self.line += 1;
            if self.pending.is_empty() {
                each(self.line, trim_cr(&rest[..nl]));
            } else {
                self.pending.extend_from_slice(&rest[..nl]);
                let whole = std::mem::take(&mut self.pending);
                each(self.line, trim_cr(&whole));
            }
            rest = &rest[nl + 1..];
        }
        self.pending.extend_from_slice(rest);
    }

    /// Emits the last line when the file does not end with a newline.
    pub fn finish(&mut self, mut each: impl FnMut(u64, &[u8])) {
        if !self.started {
            self.started = true;
            let start = usize::from(self.pending.starts_with(BOM)) * BOM.len();
            self.pending.drain(..start);
        }
        if !self.pending.is_empty() {
            self.line += 1;
            let whole = std::mem::take(&mut self.pending);
            each(self.line, trim_cr(&whole));
        }
    }
}

fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// True when a line holds nothing but whitespace.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        let mut l = Lines::default();
        for c in chunks {
            l.feed(c, |n, b| {
                out.push((n, String::from_utf8_lossy(b).into_owned()))
            });
        }
        l.finish(|n, b| out.push((n, String::from_utf8_lossy(b).into_owned())));
        out
    }

    #[test]
    fn bom_crlf_and_last_line() {
        let want = vec![
            (1, "a".to_string()),
            (2, String::new()),
            (3, "b".to_string()),
        ];
        assert_eq!(split(&[b"\xEF\xBB\xBFa\r\n\r\nb"]), want);
        assert_eq!(split(&[b"\xEF", b"\xBB", b"\xBFa\r", b"\n\r\nb"]), want);
        assert_eq!(split(&[b"a\r\n\r\nb\n"]), want);
    }

    #[test]
    fn any_chunking_gives_the_same_lines() {
        let text = b"\xEF\xBB\xBFone\ntwo\r\n\nthree";
        let whole = split(&[text]);
        for cut in 0..text.len() {
            assert_eq!(split(&[&text[..cut], &text[cut..]]), whole, "cut at {cut}");
        }
        for size in 1..5 {
            let chunks: Vec<&[u8]> = text.chunks(size).collect();
            assert_eq!(split(&chunks), whole, "chunks of {size}");
        }
    }
}
