//! UTF-16 sources (what Windows PowerShell's `>` writes), transcoded to UTF-8 as they are read, so
//! that every reader sees the UTF-8 it expects. std's `char::decode_utf16` does the decoding; a
//! general encoding crate would add its tables of legacy encodings to the wasm for this one case.

use std::io::{self, Read};

/// The byte order a UTF-16 byte-order mark at the start of `start` names, if it has one.
pub(super) fn sniff(start: &[u8]) -> Option<bool> {
    match start {
        [0xff, 0xfe, ..] => Some(false),
        [0xfe, 0xff, ..] => Some(true),
        _ => None,
    }
}

/// Reads UTF-16 (byte-order mark first) and yields UTF-8 without the mark. Unpaired surrogates
/// become U+FFFD, as a lossy decoder does; an odd last byte too.
pub(super) struct Utf16<R> {
    read: R,
    big_endian: bool,
    /// Bytes read but not yet decoded: an odd byte, or a high surrogate waiting for its pair.
    pending: Vec<u8>,
    /// UTF-8 decoded but not yet handed out.
    out: Vec<u8>,
    at: usize,
    bom_seen: bool,
    ended: bool,
}

impl<R: Read> Utf16<R> {
    pub(super) fn new(read: R, big_endian: bool) -> Self {
        Utf16 {
            read,
            big_endian,
            pending: Vec::new(),
            out: Vec::new(),
            at: 0,
            bom_seen: false,
            ended: false,
        }
    }

    /// Reads more input and decodes every complete code unit (and surrogate pair) into `out`.
    fn refill(&mut self) -> io::Result<()> {
        let mut buf = [0u8; 64 * 1024];
        let n = self.read.read(&mut buf)?;
        if n == 0 {
            self.ended = true;
        }
        self.pending.extend_from_slice(&buf[..n]);
        let whole = self.pending.len() / 2 * 2;
        let mut units: Vec<u16> = self.pending[..whole]
            .chunks_exact(2)
            .map(|p| {
                let p = [p[0], p[1]];
                if self.big_endian {
                    u16::from_be_bytes(p)
                } else {
                    u16::from_le_bytes(p)
                }
            })
            .collect();
        let mut keep = self.pending[whole..].to_vec();
        // A high surrogate at the end may pair with the next read's first unit.
        if !self.ended && units.last().is_some_and(|u| (0xd800..0xdc00).contains(u)) {
            let u = units.pop().unwrap_or_default();
            let bytes = if self.big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            };
            keep.splice(0..0, bytes);
        }
        self.pending = keep;
        let mut units = &units[..];
        if !self.bom_seen && !units.is_empty() {
            self.bom_seen = true;
            if units[0] == 0xfeff {
                units = &units[1..];
            }
        }
        self.out.clear();
        self.at = 0;
        let mut utf8 = [0u8; 4];
        for c in char::decode_utf16(units.iter().copied()) {
            let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
            self.out
                .extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        }
        if self.ended && !self.pending.is_empty() {
            self.pending.clear();
            self.out.extend_from_slice(
                char::REPLACEMENT_CHARACTER
                    .encode_utf8(&mut utf8)
                    .as_bytes(),
            );
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf16<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.out.len() {
            if self.ended {
                return Ok(0);
            }
            self.refill()?;
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `r` to the end through a buffer of `size` bytes at a time.
    fn drain(mut r: impl Read, size: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut buf = vec![0u8; size];
        loop {
            let n = r.read(&mut buf).unwrap();
            if n == 0 {
                return out;
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    /// A reader that hands out one byte per call, so that pairs and surrogates split.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.is_empty()) {
                (Some((b, rest)), false) => {
                    buf[0] = *b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    fn encode(text: &str, big_endian: bool) -> Vec<u8> {
        let mut out = if big_endian {
            vec![0xfe, 0xff]
        } else {
            vec![0xff, 0xfe]
        };
        for u in text.encode_utf16() {
            out.extend(if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            });
        }
        out
    }

    #[test]
    fn both_byte_orders_give_the_same_utf8_whatever_the_reads() {
        let text = "{\"id\": \"é-1\", \"gold\": \"𝔸\"}\r\n{\"id\": \"2\"}\n";
        for big_endian in [false, true] {
            let bytes = encode(text, big_endian);
            assert_eq!(sniff(&bytes), Some(big_endian));
            let whole = drain(Utf16::new(&bytes[..], big_endian), 7);
            assert_eq!(String::from_utf8(whole).unwrap(), text);
            let trickled = drain(Utf16::new(Trickle(&bytes), big_endian), 3);
            assert_eq!(String::from_utf8(trickled).unwrap(), text);
        }
    }

    #[test]
    fn broken_units_become_replacement_characters() {
        // A lone high surrogate (D800) then "a", and an odd last byte.
        let bytes = [0xff, 0xfe, 0x00, 0xd8, b'a', 0x00, b'b'];
        let out = String::from_utf8(drain(Utf16::new(&bytes[..], false), 16)).unwrap();
        assert_eq!(out, "\u{fffd}a\u{fffd}");
    }

    #[test]
    fn no_mark_is_no_utf16() {
        assert_eq!(sniff(b"{\"id\""), None);
        assert_eq!(sniff(b"\xef\xbb\xbf{"), None);
    }
}
