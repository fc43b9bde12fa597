//! A short string and a short list of numbers kept inside the value, not on the heap: an item's
//! id and its probabilities, allocated once per item otherwise (a third of the CLI's malloc and
//! free on a million items; issue 9). Longer ones go to the heap as before.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Bytes a `ShortStr` holds inline: with its length and the variant's tag, as large as a `String`.
pub const INLINE_STR: usize = 22;

/// An immutable string; up to `INLINE_STR` bytes without a heap allocation.
#[derive(Clone)]
pub struct ShortStr(StrRepr);

#[derive(Clone)]
enum StrRepr {
    /// Always the bytes of a `&str` (it is only made from one), so they are valid UTF-8.
    Inline {
        len: u8,
        bytes: [u8; INLINE_STR],
    },
    Heap(Box<str>),
}

impl ShortStr {
    pub fn new(s: &str) -> Self {
        let mut bytes = [0; INLINE_STR];
        match bytes.get_mut(..s.len()) {
            Some(dst) => {
                dst.copy_from_slice(s.as_bytes());
                ShortStr(StrRepr::Inline {
                    len: s.len() as u8,
                    bytes,
                })
            }
            None => ShortStr(StrRepr::Heap(s.into())),
        }
    }

    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            StrRepr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            StrRepr::Heap(s) => s.as_bytes(),
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Made from a `&str` (`new`): the check cannot fail; it keeps the type free of `unsafe`.
            StrRepr::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            StrRepr::Heap(s) => s,
        }
    }

    /// Whether the text is held inline (for the tests).
    pub fn is_inline(&self) -> bool {
        matches!(self.0, StrRepr::Inline { .. })
    }
}

impl Default for ShortStr {
    fn default() -> Self {
        ShortStr::new("")
    }
}

impl Deref for ShortStr {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for ShortStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for ShortStr {
    fn from(s: &str) -> Self {
        ShortStr::new(s)
    }
}

impl From<String> for ShortStr {
    fn from(s: String) -> Self {
        match s.len() <= INLINE_STR {
            true => ShortStr::new(&s),
            false => ShortStr(StrRepr::Heap(s.into_boxed_str())),
        }
    }
}

impl From<&String> for ShortStr {
    fn from(s: &String) -> Self {
        ShortStr::new(s)
    }
}

impl fmt::Display for ShortStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for ShortStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for ShortStr {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for ShortStr {}

impl PartialEq<str> for ShortStr {
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for ShortStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<String> for ShortStr {
    fn eq(&self, other: &String) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

/// Numbers a `ShortVec` holds inline: four options (most multiple-choice benchmarks) or fewer.
/// Every item carries the room, so more costs memory traffic: 8 made the items 32 bytes longer
/// (232) and the CLI's 1M-item run 1.5-4% more CPU time (issue 9); more options take a heap
/// allocation, as every list did before.
pub const INLINE_VEC: usize = 4;

/// A growable list of `f64`; up to `INLINE_VEC` of them without a heap allocation. Reads and
/// writes as a slice.
#[derive(Clone)]
pub struct ShortVec(VecRepr);

#[derive(Clone)]
enum VecRepr {
    Inline { len: u8, items: [f64; INLINE_VEC] },
    Heap(Vec<f64>),
}

impl ShortVec {
    pub fn new() -> Self {
        ShortVec(VecRepr::Inline {
            len: 0,
            items: [0.0; INLINE_VEC],
        })
    }

    /// An empty list with room for `n` numbers (on the heap only past `INLINE_VEC`).
    pub fn with_capacity(n: usize) -> Self {
        match n <= INLINE_VEC {
            true => ShortVec::new(),
            false => ShortVec(VecRepr::Heap(Vec::with_capacity(n))),
        }
    }

    pub fn push(&mut self, x: f64) {
        match &mut self.0 {
            VecRepr::Inline { len, items } => match items.get_mut(usize::from(*len)) {
                Some(slot) => {
                    *slot = x;
                    *len += 1;
                }
                None => {
                    let mut v = Vec::with_capacity(INLINE_VEC * 2);
                    v.extend_from_slice(items);
                    v.push(x);
                    self.0 = VecRepr::Heap(v);
                }
            },
            VecRepr::Heap(v) => v.push(x),
        }
    }

    pub fn as_slice(&self) -> &[f64] {
        match &self.0 {
            VecRepr::Inline { len, items } => &items[..usize::from(*len)],
            VecRepr::Heap(v) => v,
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [f64] {
        match &mut self.0 {
            VecRepr::Inline { len, items } => &mut items[..usize::from(*len)],
            VecRepr::Heap(v) => v,
        }
    }

    /// Whether the numbers are held inline (for the tests).
    pub fn is_inline(&self) -> bool {
        matches!(self.0, VecRepr::Inline { .. })
    }
}

impl Default for ShortVec {
    fn default() -> Self {
        ShortVec::new()
    }
}

impl Deref for ShortVec {
    type Target = [f64];
    fn deref(&self) -> &[f64] {
        self.as_slice()
    }
}

impl DerefMut for ShortVec {
    fn deref_mut(&mut self) -> &mut [f64] {
        self.as_mut_slice()
    }
}

impl FromIterator<f64> for ShortVec {
    fn from_iter<I: IntoIterator<Item = f64>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut v = ShortVec::with_capacity(iter.size_hint().0);
        for x in iter {
            v.push(x);
        }
        v
    }
}

impl From<Vec<f64>> for ShortVec {
    fn from(v: Vec<f64>) -> Self {
        match v.len() <= INLINE_VEC {
            true => v.into_iter().collect(),
            false => ShortVec(VecRepr::Heap(v)),
        }
    }
}

impl From<&[f64]> for ShortVec {
    fn from(v: &[f64]) -> Self {
        v.iter().copied().collect()
    }
}

impl<'a> IntoIterator for &'a ShortVec {
    type Item = &'a f64;
    type IntoIter = std::slice::Iter<'a, f64>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a mut ShortVec {
    type Item = &'a mut f64;
    type IntoIter = std::slice::IterMut<'a, f64>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl fmt::Debug for ShortVec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl PartialEq for ShortVec {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<Vec<f64>> for ShortVec {
    fn eq(&self, other: &Vec<f64>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<[f64]> for ShortVec {
    fn eq(&self, other: &[f64]) -> bool {
        self.as_slice() == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_str_is_as_large_as_a_string() {
        assert_eq!(
            std::mem::size_of::<ShortStr>(),
            std::mem::size_of::<String>()
        );
    }

    #[test]
    fn short_and_long_strings_read_back_as_made() {
        for s in [
            "",
            "q1",
            "é",
            "0123456789012345678901",
            "01234567890123456789012",
            "x".repeat(300).as_str(),
            "ééééééééééé",
            "éééééééééééé",
        ] {
            for made in [
                ShortStr::new(s),
                ShortStr::from(s.to_string()),
                ShortStr::from(&s.to_string()),
            ] {
                assert_eq!(made.as_str(), s);
                assert_eq!(made.as_bytes(), s.as_bytes());
                assert_eq!(made.is_inline(), s.len() <= INLINE_STR, "{s}");
                assert_eq!(made, s);
                assert_eq!(made, *s);
                assert_eq!(made, s.to_string());
                assert_eq!(made.to_string(), s);
                assert_eq!(format!("{made:?}"), format!("{s:?}"));
                assert_eq!(made.clone(), made);
            }
        }
        assert_ne!(ShortStr::new("a"), ShortStr::new("b"));
        assert_ne!(ShortStr::new("a"), ShortStr::new("a\0"));
    }

    #[test]
    fn short_vecs_grow_past_the_inline_room() {
        for n in [0, 1, 4, INLINE_VEC, INLINE_VEC + 1, 40] {
            let want: Vec<f64> = (0..n).map(|i| i as f64 / 7.0).collect();
            let mut pushed = ShortVec::new();
            for &x in &want {
                pushed.push(x);
            }
            let collected: ShortVec = want.iter().copied().collect();
            let sized = ShortVec::with_capacity(n);
            assert_eq!(sized.is_inline(), n <= INLINE_VEC);
            for v in [
                pushed,
                collected,
                ShortVec::from(want.clone()),
                ShortVec::from(&want[..]),
            ] {
                assert_eq!(v.as_slice(), &want[..], "n {n}");
                assert_eq!(v.is_inline(), n <= INLINE_VEC, "n {n}");
                assert_eq!(v, want);
                assert_eq!(format!("{v:?}"), format!("{want:?}"));
                let mut doubled = v.clone();
                for x in &mut doubled {
                    *x *= 2.0;
                }
                let twice: Vec<f64> = want.iter().map(|x| x * 2.0).collect();
                assert_eq!(doubled, twice);
            }
        }
    }
}
