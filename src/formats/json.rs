//! A borrowed JSON value for the flexible fields of the canonical format.
//!
//! Field values such as `gold` or `probs` take several shapes (a label may be a string or an
//! integer, a score a number or a one-element list). Reading them into this small borrowed tree
//! lets the reader name the exact problem, while strings without escapes are never copied.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// A JSON value whose strings borrow from the input where they can.
#[derive(Debug, Clone, PartialEq)]
pub enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Cow<'a, str>),
    List(Vec<Val<'a>>),
    Map(Vec<(Cow<'a, str>, Val<'a>)>),
}

impl<'a> Val<'a> {
    /// The JSON kind, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Val::Null => "null",
            Val::Bool(_) => "a boolean",
            Val::Int(_) | Val::Float(_) => "a number",
            Val::Str(_) => "a string",
            Val::List(_) => "a list",
            Val::Map(_) => "an object",
        }
    }

    /// The value as a number, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Val::Int(i) => Some(i as f64),
            Val::Float(f) => Some(f),
            _ => None,
        }
    }

    /// A label: a string, or an integer written as its decimal text.
    pub fn as_label(&self) -> Option<Cow<'a, str>> {
        match self {
            Val::Str(s) => Some(s.clone()),
            Val::Int(i) => Some(Cow::Owned(i.to_string())),
            _ => None,
        }
    }

    /// The value of a field named by the user: the key of that whole name, else a dotted path
    /// into objects (`metadata.passage`), each step the first occurrence of its key.
    pub fn field(&self, name: &str) -> Option<&Val<'a>> {
        if let Some(v) = self.get(name) {
            return Some(v);
        }
        let mut at = self;
        for step in name.split('.') {
            at = at.get(step)?;
        }
        (name.contains('.')).then_some(at)
    }

    /// Looks up a key of an object (first occurrence).
    pub fn get(&self, key: &str) -> Option<&Val<'a>> {
        match self {
            Val::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Val<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValVisitor)
    }
}

struct ValVisitor;

impl<'de> Visitor<'de> for ValVisitor {
    type Value = Val<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Val<'de>, E> {
        Ok(Val::Null)
    }
    fn visit_none<E>(self) -> Result<Val<'de>, E> {
        Ok(Val::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Val<'de>, E> {
        Ok(Val::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Val<'de>, E> {
        Ok(Val::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Val<'de>, E> {
        Ok(i64::try_from(v).map_or(Val::Float(v as f64), Val::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Val<'de>, E> {
        Ok(Val::Float(v))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Val<'de>, E> {
        Ok(Val::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Val<'de>, E> {
        Ok(Val::Str(Cow::Owned(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<Val<'de>, E> {
        Ok(Val::Str(Cow::Owned(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val<'de>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(4).min(64));
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Val::List(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val<'de>, A::Error> {
        let mut out = Vec::with_capacity(map.size_hint().unwrap_or(4).min(64));
        while let Some(k) = map.next_key::<Key<'de>>()? {
            out.push((k.0, map.next_value()?));
        }
        Ok(Val::Map(out))
    }
}

/// An object key, borrowed when it has no escapes.
pub struct Key<'a>(pub Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// A JSON object whose keys in `wanted` are read and all others skipped unparsed.
///
/// `N` is the number of wanted keys; `values[i]` holds the value of `wanted[i]`.
pub struct Picked<'a, const N: usize> {
    pub values: [Option<Val<'a>>; N],
    /// A wanted key that occurred twice; the item is then malformed.
    pub duplicate: Option<&'static str>,
}

/// Parses one JSON object, keeping only the wanted keys.
pub fn pick<'a, const N: usize>(
    bytes: &'a [u8],
    wanted: &'static [&'static str; N],
) -> Result<Picked<'a, N>, PickError> {
    let mut values = std::array::from_fn(|_| None);
    let duplicate = pick_into(bytes, wanted, &mut values)?;
    Ok(Picked { values, duplicate })
}

/// `pick` into the caller's array (reset first); returns the key that occurred twice, if any.
///
/// For the per-line hot path: the array is large (27 values for the canonical format), and
/// returning it by value copies it several times per line.
pub fn pick_into<'a, const N: usize>(
    bytes: &'a [u8],
    wanted: &'static [&'static str; N],
    values: &mut [Option<Val<'a>>; N],
) -> Result<Option<&'static str>, PickError> {
    values.iter_mut().for_each(|v| *v = None);
    let seed = PickSeed { wanted, values };
    // A line that is valid UTF-8 (nearly every one) is checked once, here, rather than string by
    // string inside serde_json; any other line takes the byte path, with its old messages.
    let result = match std::str::from_utf8(bytes) {
        Ok(text) => pick_with(serde_json::Deserializer::from_str(text), seed),
        Err(_) => pick_with(serde_json::Deserializer::from_slice(bytes), seed),
    };
    result.map_err(|e| PickError::from_json(e, bytes))
}

fn pick_with<'de, R: serde_json::de::Read<'de>, const N: usize>(
    mut de: serde_json::Deserializer<R>,
    seed: PickSeed<'_, 'de, N>,
) -> Result<Option<&'static str>, serde_json::Error> {
    let duplicate = de::DeserializeSeed::deserialize(seed, &mut de)?;
    de.end()?;
    Ok(duplicate)
}

/// Where `key` is in `wanted`; the first byte is compared before the rest.
fn position(wanted: &[&str], key: &str) -> Option<usize> {
    let first = key.as_bytes().first();
    wanted
        .iter()
        .position(|w| w.len() == key.len() && w.as_bytes().first() == first && *w == key)
}

/// Why a line could not be read as an object.
#[derive(Debug, Clone, PartialEq)]
pub enum PickError {
    /// Valid JSON, but not an object: names what it is.
    NotObject(&'static str),
    /// Not valid JSON.
    Syntax(String),
}

impl PickError {
    fn from_json(e: serde_json::Error, bytes: &[u8]) -> Self {
        if let Some(literal) = non_finite_at(bytes, e.line(), e.column()) {
            return PickError::Syntax(format!(
                "bare `{literal}` at column {} (NaN and Infinity are not JSON numbers)",
                e.column()
            ));
        }
        let msg = e.to_string();
        match msg.strip_prefix(NOT_OBJECT) {
            Some(rest) => PickError::NotObject(
                ["a list", "a string", "a number", "a boolean"]
                    .into_iter()
                    .find(|kind| rest.starts_with(kind))
                    .unwrap_or("null"),
            ),
            // serde_json counts lines within the text it was given; drop that, keep the column.
            None => PickError::Syntax(msg.replace(" at line 1 column", " at column")),
        }
    }
}

const NOT_OBJECT: &str = "not an object: ";

/// The bare non-finite literal (as Python's `json` writes it) where a parse error was met, if any:
/// serde_json stops on its first or second byte.
fn non_finite_at(bytes: &[u8], line: usize, column: usize) -> Option<&'static str> {
    let line_start = match line {
        0 | 1 => 0,
        n => bytes
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .nth(n - 2)
            .map(|(i, _)| i + 1)?,
    };
    let at = line_start + column.checked_sub(1)?;
    let from = at.saturating_sub(1);
    ["-Infinity", "Infinity", "NaN"].into_iter().find(|lit| {
        (from..=at).any(|i| {
            bytes
                .get(i..)
                .is_some_and(|b| b.starts_with(lit.as_bytes()))
        })
    })
}

struct PickSeed<'v, 'de, const N: usize> {
    wanted: &'static [&'static str; N],
    values: &'v mut [Option<Val<'de>>; N],
}

impl<'de, const N: usize> de::DeserializeSeed<'de> for PickSeed<'_, 'de, N> {
    type Value = Option<&'static str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for PickSeed<'_, 'de, N> {
    type Value = Option<&'static str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut duplicate = None;
        while let Some(k) = map.next_key::<Key<'de>>()? {
            match position(self.wanted, &k.0).and_then(|i| Some((i, self.values.get_mut(i)?))) {
                Some((i, slot)) => {
                    let v: Val<'de> = map.next_value()?;
                    if slot.is_some() {
                        duplicate = duplicate.or(self.wanted.get(i).copied());
                    } else {
                        *slot = Some(v);
                    }
                }
                None => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(duplicate)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Err(de::Error::custom(format!("{NOT_OBJECT}a list")))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(E::custom(format!("{NOT_OBJECT}a string")))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(E::custom(format!("{NOT_OBJECT}a number")))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(E::custom(format!("{NOT_OBJECT}a number")))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(E::custom(format!("{NOT_OBJECT}a number")))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(E::custom(format!("{NOT_OBJECT}a boolean")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(E::custom(format!("{NOT_OBJECT}null")))
    }
}

/// How reading a JSON array with `each_element` ended.
#[derive(Debug)]
pub enum ArrayEnd {
    /// Every element was read and nothing follows the closing bracket.
    Complete,
    /// The array is malformed at this point; the elements before it were read.
    Broken(serde_json::Error),
    /// The array was read whole, but text follows it.
    Trailing(serde_json::Error),
}

/// Reads a JSON array element by element, calling `each(n, line, element)` before the next element
/// is parsed, so that the elements before a syntax error are kept. `n` counts from 1 and `line` is
/// the 1-based line the element starts on. A leading byte-order mark is skipped.
pub fn each_element(buffer: &[u8], each: &mut dyn FnMut(u64, u64, &[u8])) -> ArrayEnd {
    let body = buffer
        .strip_prefix(crate::formats::lines::BOM)
        .unwrap_or(buffer);
    let mut de = serde_json::Deserializer::from_slice(body);
    match de.deserialize_seq(ElementVisitor { base: body, each }) {
        Err(e) => ArrayEnd::Broken(e),
        Ok(()) => match de.end() {
            Ok(()) => ArrayEnd::Complete,
            Err(e) => ArrayEnd::Trailing(e),
        },
    }
}

/// serde_json's message without its " at line L column C" tail (the warning carries the line).
pub fn short_error(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    msg.split(" at line ").next().unwrap_or(&msg).to_string()
}

struct ElementVisitor<'b, 'f> {
    base: &'b [u8],
    each: &'f mut dyn FnMut(u64, u64, &[u8]),
}

impl<'de, 'f> Visitor<'de> for ElementVisitor<'de, 'f> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let (mut n, mut line, mut counted) = (0u64, 1u64, 0usize);
        while let Some(raw) = seq.next_element::<&'de serde_json::value::RawValue>()? {
            n += 1;
            let text = raw.get().as_bytes();
            // The element borrows from `base`, so its offset gives the line it starts on.
            let start = (text.as_ptr() as usize).saturating_sub(self.base.as_ptr() as usize);
            let newlines = self.base.get(counted..start).unwrap_or_default();
            line += newlines.iter().filter(|&&b| b == b'\n').count() as u64;
            counted = start.max(counted);
            (self.each)(n, line, text);
        }
        Ok(())
    }
}
