//! The canonical reader's fast path for the common line: a choice or rating item with plain
//! strings, a flat list of options and a flat object of numbers, read straight from the bytes.
//!
//! Nearly every line of a large file has this shape, and building the general path's `Val` tree
//! for it was most of the parse time. The fast path accepts a line only when it can
//! give exactly the item the general path gives with no warning at all; on anything else (an
//! escape, a nested value, a null, an integer label, a duplicate key, any problem to report) it
//! declines before touching the sink, and the line is read again by the general path.

use crate::formats::canonical::item::Labels;
use crate::formats::{Meta, Sink};
use crate::items::{Body, Item, Modality, OptionItem, OptionKind, Split, Tier};
use crate::probs::{self, Source};

/// Most options and object entries the fast path takes; more go to the general path.
const MAX: usize = 16;

/// What the line names, each at most once. Lists and objects are ranges of the two pools, so
/// that the whole stays small: it is made afresh for every line.
struct Line<'a> {
    id: Option<&'a str>,
    kind: Option<&'a str>,
    model: Option<&'a str>,
    benchmark: Option<&'a str>,
    /// group, element, category, subset: the first present (in this order) is the item's group.
    groups: [Option<&'a str>; 4],
    tier: Option<&'a str>,
    split: Option<&'a str>,
    modality: Option<&'a str>,
    options: Option<Span>,
    gold: Option<&'a str>,
    answer: Option<&'a str>,
    probs: Option<Span>,
    logprobs: Option<Span>,
    loglikelihoods: Option<Span>,
    /// The labels of `options`.
    labels: [&'a str; MAX],
    /// The entries of the objects of numbers, (key, value) in order.
    numbers: [(&'a str, f64); MAX],
    used: usize,
}

/// The bytes that end a plain string's scan: the quote, a backslash, a control character.
static STOPS: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// 10^0 ..= 10^22, every one exact in an f64.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A range of a pool.
type Span = (usize, usize);

impl Line<'_> {
    fn new() -> Self {
        Line {
            id: None,
            kind: None,
            model: None,
            benchmark: None,
            groups: [None; 4],
            tier: None,
            split: None,
            modality: None,
            options: None,
            gold: None,
            answer: None,
            probs: None,
            logprobs: None,
            loglikelihoods: None,
            labels: [""; MAX],
            numbers: [("", 0.0); MAX],
            used: 0,
        }
    }
}

/// Reads the line into `sink` and returns true, or returns false having done nothing.
pub fn try_read(labels: &mut Labels, line: u64, bytes: &[u8], sink: &mut dyn Sink) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut parsed = Line::new();
    if parse(text, &mut parsed).is_none() {
        return false;
    }
    let Some(item) = build(&parsed, labels, line) else {
        return false;
    };
    if let Some(m) = parsed.model {
        sink.meta(Meta::Model, m);
    }
    if let Some(b) = parsed.benchmark {
        sink.meta(Meta::Benchmark, b);
    }
    sink.item(item);
    true
}

/// The item the general path would build, when it would build it without a note.
fn build(l: &Line, labels: &mut Labels, line: u64) -> Option<Item> {
    let kind = match l.kind {
        None | Some("choice") => OptionKind::Choice,
        Some("rating" | "score") => OptionKind::Rating,
        _ => return None,
    };
    let id = l.id?;
    let (from, to) = l.options?;
    let listed = l.labels.get(from..to)?;
    let options = match labels.reuse_strs(listed) {
        Some(shared) => shared,
        None => {
            if listed.len() < 2 || (1..listed.len()).any(|i| listed[..i].contains(&listed[i])) {
                return None;
            }
            labels.remember(listed)
        }
    };
    let gold_label = l.gold?;
    let gold = position(&options, gold_label)?;
    let (source, numbers) = match (l.probs, l.logprobs, l.loglikelihoods) {
        (Some(p), _, _) => (Source::Probs, Some(p)),
        (None, Some(p), _) => (Source::Logprobs, Some(p)),
        (None, None, Some(p)) => (Source::Loglikelihoods, Some(p)),
        (None, None, None) => (Source::Probs, None),
    };
    let probs = match numbers {
        None => None,
        Some(nums) => {
            let mut values = [None; MAX];
            let values = &mut values[..options.len()];
            for (j, &(k, x)) in l.numbers.get(nums.0..nums.1)?.iter().enumerate() {
                // Most files list the numbers in the options' order: try that place first.
                let here = options.get(j).filter(|o| same(o, k)).map(|_| j);
                if let Some(i) = here.or_else(|| position(&options, k)) {
                    if values[i].replace(x).is_some() {
                        return None;
                    }
                }
            }
            Some(probs::build(values, source).ok()?)
        }
    };
    let answer = match l.answer {
        None => probs.as_ref().map(|p| p.argmax()),
        Some(a) => position(&options, a),
    };
    let group = l.groups.iter().find_map(|g| *g).map(|g| labels.group(g));
    Some(Item {
        id: id.into(),
        line: Some(line),
        group,
        tier: keyword(l.tier, Tier::parse)?,
        split: keyword(l.split, Split::parse)?,
        modality: keyword(l.modality, Modality::parse)?,
        cluster: None,
        body: Body::Option(OptionItem {
            kind,
            options,
            gold,
            gold_probs: None,
            answer,
            probs,
        }),
    })
}

/// Whether two strings are equal; a short one compared in registers, not by a call to `bcmp`
/// (labels are mostly a letter or two, compared several times a line).
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 8 {
        return a == b;
    }
    let word = |s: &[u8]| {
        s.iter()
            .enumerate()
            .fold(0u64, |w, (i, &c)| w | u64::from(c) << (8 * i))
    };
    word(a) == word(b)
}

/// Where `label` is first among `options`. Up to 64 options every one is compared and the first
/// match taken from a mask: where the gold label is, is the item's data, so a search's exit was
/// mispredicted about once an item.
fn position(options: &[String], label: &str) -> Option<usize> {
    if options.len() > 64 {
        return options.iter().position(|o| same(o, label));
    }
    let mut hits = 0u64;
    for (i, o) in options.iter().enumerate() {
        hits |= u64::from(same(o, label)) << i;
    }
    (hits != 0).then(|| hits.trailing_zeros() as usize)
}

/// An optional keyword: `None` (decline) when it is present but unknown, which the general
/// path notes.
fn keyword<T>(v: Option<&str>, parse: fn(&str) -> Option<T>) -> Option<Option<T>> {
    match v {
        None => Some(None),
        Some(s) => parse(s).map(Some),
    }
}

/// A key of the line's object: one the fast path reads, or another.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Key<'a> {
    Id,
    Type,
    Model,
    Benchmark,
    /// group, element, category, subset: its place in `Line::groups`.
    Group(usize),
    Tier,
    Split,
    Modality,
    Options,
    Gold,
    Answer,
    Probs,
    Logprobs,
    Loglikelihoods,
    Other(&'a str),
}

/// A key and its closing quote as little-endian words of its bytes, with the masks of the
/// bytes it has: compared with the line's bytes in one or two steps.
struct Lit {
    words: [u64; 2],
    masks: [u64; 2],
    len: usize,
}

impl Lit {
    const fn new(key: &[u8]) -> Lit {
        let mut lit = Lit {
            words: [0; 2],
            masks: [0; 2],
            len: key.len(),
        };
        let mut i = 0;
        while i < key.len() {
            lit.words[i / 8] |= (key[i] as u64) << (8 * (i % 8));
            lit.masks[i / 8] |= 0xff << (8 * (i % 8));
            i += 1;
        }
        lit
    }

    /// Whether the bytes from `at` start with this key and its quote.
    #[inline(always)]
    fn at(&self, bytes: &[u8], at: usize) -> bool {
        let word = |from: usize| match bytes.get(from..from + 8) {
            Some(&[a, b, c, d, e, f, g, h]) => Some(u64::from_le_bytes([a, b, c, d, e, f, g, h])),
            _ => None,
        };
        let first = word(at).is_some_and(|w| w & self.masks[0] == self.words[0]);
        first && (self.len <= 8 || word(at + 8).is_some_and(|w| w & self.masks[1] == self.words[1]))
    }
}

impl<'a> Key<'a> {
    /// The key named `k`.
    fn named(k: &'a str) -> Self {
        match k {
            "id" => Key::Id,
            "type" => Key::Type,
            "model" => Key::Model,
            "benchmark" => Key::Benchmark,
            "group" => Key::Group(0),
            "element" => Key::Group(1),
            "category" => Key::Group(2),
            "subset" => Key::Group(3),
            "tier" => Key::Tier,
            "split" => Key::Split,
            "modality" => Key::Modality,
            "options" => Key::Options,
            "gold" => Key::Gold,
            "answer" => Key::Answer,
            "probs" => Key::Probs,
            "logprobs" => Key::Logprobs,
            "loglikelihoods" => Key::Loglikelihoods,
            other => Key::Other(other),
        }
    }

    /// The key whose text starts at `at` (just after its opening quote) when it is one the fast
    /// path reads, and the bytes it takes with its closing quote. Its bytes are compared with
    /// each candidate's whole, so that the position after it is known without scanning for the
    /// quote (the keys were a fifth of the parse). `None` for any other key, and near
    /// the line's end where no whole word is left; `Cur::key` then reads it as a string.
    #[inline(always)]
    fn at(bytes: &[u8], at: usize) -> Option<(Self, usize)> {
        const ID: Lit = Lit::new(b"id\"");
        const TYPE: Lit = Lit::new(b"type\"");
        const MODEL: Lit = Lit::new(b"model\"");
        const BENCHMARK: Lit = Lit::new(b"benchmark\"");
        const GROUP: Lit = Lit::new(b"group\"");
        const ELEMENT: Lit = Lit::new(b"element\"");
        const CATEGORY: Lit = Lit::new(b"category\"");
        const SUBSET: Lit = Lit::new(b"subset\"");
        const TIER: Lit = Lit::new(b"tier\"");
        const SPLIT: Lit = Lit::new(b"split\"");
        const MODALITY: Lit = Lit::new(b"modality\"");
        const OPTIONS: Lit = Lit::new(b"options\"");
        const GOLD: Lit = Lit::new(b"gold\"");
        const ANSWER: Lit = Lit::new(b"answer\"");
        const PROBS: Lit = Lit::new(b"probs\"");
        const LOGPROBS: Lit = Lit::new(b"logprobs\"");
        const LOGLIKELIHOODS: Lit = Lit::new(b"loglikelihoods\"");
        let candidates: &[(&Lit, Key)] = match bytes.get(at)? {
            b'i' => &[(&ID, Key::Id)],
            b't' => &[(&TYPE, Key::Type), (&TIER, Key::Tier)],
            b'm' => &[(&MODEL, Key::Model), (&MODALITY, Key::Modality)],
            b'b' => &[(&BENCHMARK, Key::Benchmark)],
            b'g' => &[(&GROUP, Key::Group(0)), (&GOLD, Key::Gold)],
            b'e' => &[(&ELEMENT, Key::Group(1))],
            b'c' => &[(&CATEGORY, Key::Group(2))],
            b's' => &[(&SUBSET, Key::Group(3)), (&SPLIT, Key::Split)],
            b'o' => &[(&OPTIONS, Key::Options)],
            b'a' => &[(&ANSWER, Key::Answer)],
            b'p' => &[(&PROBS, Key::Probs)],
            b'l' => &[
                (&LOGPROBS, Key::Logprobs),
                (&LOGLIKELIHOODS, Key::Loglikelihoods),
            ],
            _ => return None,
        };
        candidates
            .iter()
            .find(|(lit, _)| lit.at(bytes, at))
            .map(|(lit, key)| (*key, lit.len))
    }
}

/// A cursor over the line's text.
struct Cur<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cur<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Skips whitespace, then takes `byte`.
    fn eat(&mut self, byte: u8) -> Option<()> {
        self.ws();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// A string with no escape and no control character, without its quotes.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.at;
        let len = bytes[start..].iter().position(|&b| STOPS[usize::from(b)])?;
        if bytes[start + len] != b'"' {
            return None;
        }
        self.at = start + len + 1;
        self.text.get(start..start + len)
    }

    /// An object's key: one the fast path reads recognized by its bytes (`Key::at`), any other
    /// read as a plain string.
    fn key(&mut self) -> Option<Key<'a>> {
        self.eat(b'"')?;
        if let Some((key, len)) = Key::at(self.text.as_bytes(), self.at) {
            self.at += len;
            return Some(key);
        }
        self.at -= 1;
        self.string().map(Key::named)
    }

    /// A JSON number: a plain decimal with at most 18 digits before any fraction, no exponent.
    /// Read as the general path reads it: an integer exactly, a fraction correctly rounded.
    fn number(&mut self) -> Option<f64> {
        self.ws();
        let bytes = self.text.as_bytes();
        let start = self.at;
        let negative = bytes.get(start) == Some(&b'-');
        let mut i = start + usize::from(negative);
        let int_start = i;
        // The digits read as one integer, while it stays exact (at most 19 digits in a u64).
        let mut mantissa = 0u64;
        while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            i += 1;
        }
        let int_digits = i - int_start;
        // JSON allows no leading zero and needs a digit; long integers go the general way.
        if int_digits == 0 || int_digits > 18 || (int_digits > 1 && bytes[int_start] == b'0') {
            return None;
        }
        let fraction = bytes.get(i) == Some(&b'.');
        let mut frac_digits = 0;
        if fraction {
            i += 1;
            let frac_start = i;
            while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
                i += 1;
            }
            frac_digits = i - frac_start;
            if frac_digits == 0 {
                return None;
            }
        }
        if let Some(b'e' | b'E') = bytes.get(i) {
            return None;
        }
        self.at = i;
        if !fraction {
            // serde_json reads `-0` as the float -0.0, other integers as i64 (18 digits fit).
            if negative && mantissa == 0 {
                return None;
            }
            let n = mantissa as i64;
            return Some(if negative { -n } else { n } as f64);
        }
        if int_digits + frac_digits <= 15 && frac_digits < POW10.len() {
            // Both operands exact (the mantissa < 10^15 < 2^53, 10^k for k <= 22), so the one
            // division is the correctly rounded value, as serde_json's float_roundtrip gives it.
            // Converted as a signed integer (one instruction; the value is the same below 2^63).
            let x = mantissa as i64 as f64 / POW10[frac_digits];
            return Some(if negative { -x } else { x });
        }
        self.text.get(start..i)?.parse::<f64>().ok()
    }

    /// A list of plain strings, into `pool`: its span.
    fn strings(&mut self, pool: &mut [&'a str; MAX]) -> Option<Span> {
        self.eat(b'[')?;
        let mut n = 0;
        self.ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Some((0, 0));
        }
        loop {
            *pool.get_mut(n)? = self.string()?;
            n += 1;
            self.ws();
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some((0, n));
                }
                _ => return None,
            }
        }
    }

    /// An object of plain keys and numbers, appended to `pool` after its first `used` entries.
    fn numbers(&mut self, pool: &mut [(&'a str, f64); MAX], used: &mut usize) -> Option<Span> {
        self.eat(b'{')?;
        let start = *used;
        self.ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Some((start, start));
        }
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            let x = self.number()?;
            *pool.get_mut(*used)? = (key, x);
            *used += 1;
            self.ws();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some((start, *used));
                }
                _ => return None,
            }
        }
    }

    /// A scalar of a key the reader does not look at: a plain string, a number or a literal.
    fn skip_scalar(&mut self) -> Option<()> {
        self.ws();
        match self.peek()? {
            b'"' => self.string().map(drop),
            b't' | b'f' | b'n' => {
                let rest = self.text.get(self.at..)?;
                let word = ["true", "false", "null"]
                    .into_iter()
                    .find(|w| rest.starts_with(w))?;
                self.at += word.len();
                Some(())
            }
            _ => self.number().map(drop),
        }
    }
}

/// Fills `slot` once; a second value for the key sends the line to the general path.
fn once<T>(slot: &mut Option<T>, value: Option<T>) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(value?);
    Some(())
}

/// The line's fields, when it is one flat object of the shapes above and nothing else.
fn parse<'a>(text: &'a str, l: &mut Line<'a>) -> Option<()> {
    let mut c = Cur { text, at: 0 };
    c.eat(b'{')?;
    loop {
        let key = c.key()?;
        c.eat(b':')?;
        c.ws();
        match key {
            Key::Id => once(&mut l.id, c.string())?,
            Key::Type => once(&mut l.kind, c.string())?,
            Key::Model => once(&mut l.model, c.string())?,
            Key::Benchmark => once(&mut l.benchmark, c.string())?,
            Key::Group(i) => once(l.groups.get_mut(i)?, c.string())?,
            Key::Tier => once(&mut l.tier, c.string())?,
            Key::Split => once(&mut l.split, c.string())?,
            Key::Modality => once(&mut l.modality, c.string())?,
            Key::Options => once(&mut l.options, c.strings(&mut l.labels))?,
            Key::Gold => once(&mut l.gold, c.string())?,
            Key::Answer => once(&mut l.answer, c.string())?,
            Key::Probs => once(&mut l.probs, c.numbers(&mut l.numbers, &mut l.used))?,
            Key::Logprobs => once(&mut l.logprobs, c.numbers(&mut l.numbers, &mut l.used))?,
            Key::Loglikelihoods => once(
                &mut l.loglikelihoods,
                c.numbers(&mut l.numbers, &mut l.used),
            )?,
            // The other keys the general path reads change what it does with the line.
            Key::Other(k) if crate::formats::canonical::item::FIELDS.contains(&k) => return None,
            Key::Other(_) => c.skip_scalar()?,
        }
        c.ws();
        match c.peek()? {
            b',' => c.at += 1,
            b'}' => {
                c.at += 1;
                break;
            }
            _ => return None,
        }
    }
    c.ws();
    (c.at == text.len()).then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        for s in [
            "0",
            "1",
            "-1",
            "0.1",
            "-0.25",
            "0.30000000000000004",
            "123456789012345678",
            "1.7976931348623157",
            "0.000001",
            "2.2250738585072014",
            "-0.0",
            "0.0338",
            "999999999999999.9",
            "0.1234567890123456789012345",
            "9007199254740993.5",
        ] {
            let mut c = Cur { text: s, at: 0 };
            let ours = c.number().expect(s);
            let theirs: f64 = serde_json::from_str(s).expect(s);
            assert_eq!(ours.to_bits(), theirs.to_bits(), "{s}");
        }
        for s in ["01", "-", "1.", ".5", "1e5", "1234567890123456789", "-0"] {
            let mut c = Cur { text: s, at: 0 };
            assert!(c.number().is_none() || c.at != s.len(), "{s}");
        }
    }

    /// Every key the fast path reads, recognized by its bytes wherever the line goes on after
    /// it (and read as a string where fewer than a word's bytes are left), as `Key::named`
    /// names it; a longer or shorter name, or one with an escape, is another key.
    #[test]
    fn keys_are_recognized_as_named() {
        let keys = [
            "id",
            "type",
            "model",
            "benchmark",
            "group",
            "element",
            "category",
            "subset",
            "tier",
            "split",
            "modality",
            "options",
            "gold",
            "answer",
            "probs",
            "logprobs",
            "loglikelihoods",
        ];
        for k in keys {
            assert_ne!(Key::named(k), Key::Other(k));
            for tail in ["", ":", ":1}", ": \"a much longer value\"}"] {
                let text = format!("\"{k}\"{tail}");
                let mut c = Cur { text: &text, at: 0 };
                assert_eq!(c.key(), Some(Key::named(k)), "{text}");
                assert_eq!(c.at, k.len() + 2, "{text}");
                let by_bytes = Key::at(text.as_bytes(), 1);
                assert!(by_bytes.is_none() || by_bytes == Some((Key::named(k), k.len() + 1)));
                if tail.len() >= 8 {
                    assert!(by_bytes.is_some(), "{text}");
                }
            }
            for other in [
                format!("{k}s"),
                k[..k.len() - 1].to_string(),
                format!("{k}\\n"),
            ] {
                let text = format!("\"{other}\": 1, \"next\": 2}}");
                let mut c = Cur { text: &text, at: 0 };
                assert_eq!(Key::at(text.as_bytes(), 1), None, "{text}");
                let read = c.key();
                if other.contains('\\') {
                    assert_eq!(read, None);
                } else {
                    assert_eq!(read, Some(Key::named(&other)), "{text}");
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// `Cur::key` reads what `Cur::string` reads and names it as `Key::named` does, for
        /// names made of the keys' letters, quotes and backslashes, with any text after them.
        #[test]
        fn a_key_is_the_string_named(
            name in "(id|type|tier|group|gold|probs|logprobs|loglikelihoods|[a-z]{0,3}|\"|\\\\){0,3}",
            tail in "[\":, 0-9a-z}]{0,12}",
        ) {
            let text = format!("\"{name}{tail}");
            let mut by_key = Cur { text: &text, at: 0 };
            let mut by_string = Cur { text: &text, at: 0 };
            let key = by_key.key();
            proptest::prop_assert_eq!(key, by_string.string().map(Key::named));
            if key.is_some() {
                proptest::prop_assert_eq!(by_key.at, by_string.at);
            }
        }

        /// Short decimals (the division path) and long ones (the general parse) give the bits
        /// serde_json gives (float_roundtrip: correctly rounded).
        #[test]
        fn decimals_read_as_serde_json_reads_them(
            negative: bool,
            int in proptest::prop_oneof![0u64..10, 0u64..1_000_000, 0u64..1_000_000_000_000_000_000],
            frac in "[0-9]{1,24}",
        ) {
            let s = format!("{}{int}.{frac}", if negative { "-" } else { "" });
            let mut c = Cur { text: &s, at: 0 };
            let ours = c.number();
            let theirs: f64 = serde_json::from_str(&s).unwrap();
            proptest::prop_assert_eq!(c.at, s.len());
            proptest::prop_assert_eq!(ours.map(f64::to_bits), Some(theirs.to_bits()), "{}", s);
        }

        /// `position` is the first place of the label, among few options or many.
        #[test]
        fn position_is_the_first_place(
            options in proptest::collection::vec("[ab]{0,2}", 0..70),
            label in "[ab]{0,2}",
        ) {
            let options: Vec<String> = options;
            proptest::prop_assert_eq!(
                position(&options, &label),
                options.iter().position(|o| *o == label)
            );
        }

        /// `same` is string equality, for short strings (compared as words) and long ones.
        #[test]
        fn same_is_equality(a in "[ab\\x00é]{0,10}", b in "[ab\\x00é]{0,10}") {
            proptest::prop_assert_eq!(same(&a, &b), a == b);
            proptest::prop_assert!(same(&a, &a.clone()));
        }

        /// Integers: as i64, then as f64.
        #[test]
        fn integers_read_as_serde_json_reads_them(n in -999_999_999_999_999_999i64..=999_999_999_999_999_999) {
            let s = n.to_string();
            let mut c = Cur { text: &s, at: 0 };
            let theirs: f64 = serde_json::from_str(&s).unwrap();
            proptest::prop_assert_eq!(c.number().map(f64::to_bits), Some(theirs.to_bits()));
        }
    }
}
