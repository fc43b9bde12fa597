//! Python's `json` writes non-finite floats as the bare literals `NaN`, `Infinity` and
//! `-Infinity`, which are not JSON: the two ways the readers make such bytes JSON again (lm-eval,
//! HELM, Inspect and detection read them as `null`; RewardBench keeps them as quoted strings).

use std::borrow::Cow;

/// The bytes with every bare `NaN`, `Infinity` and `-Infinity` outside strings replaced by `null`;
/// borrowed unchanged when there is none.
pub fn sanitize(bytes: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let (mut in_string, mut escaped, mut copied) = (false, false, 0);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        let literal = match b {
            b'"' => {
                in_string = true;
                None
            }
            b'N' => Some(&b"NaN"[..]),
            b'I' => Some(&b"Infinity"[..]),
            b'-' => Some(&b"-Infinity"[..]),
            _ => None,
        };
        match literal.filter(|lit| bytes[i..].starts_with(lit)) {
            Some(lit) => {
                let buf = out.get_or_insert_with(|| Vec::with_capacity(bytes.len()));
                buf.extend_from_slice(&bytes[copied..i]);
                buf.extend_from_slice(b"null");
                i += lit.len();
                copied = i;
            }
            None => i += 1,
        }
    }
    match out {
        None => Cow::Borrowed(bytes),
        Some(mut buf) => {
            buf.extend_from_slice(&bytes[copied..]);
            Cow::Owned(buf)
        }
    }
}

/// Python's `json` writes non-finite floats as bare `NaN`, `Infinity` and `-Infinity`, which are
/// not JSON. Outside strings they become the strings "NaN", "Infinity", "-Infinity", which
/// `score` reads as non-finite; the bytes are copied only when there is such a literal.
pub fn quote_non_finite(bytes: &[u8]) -> Cow<'_, [u8]> {
    const LITERALS: [&[u8]; 3] = [b"-Infinity", b"Infinity", b"NaN"];
    let mut out: Option<Vec<u8>> = None;
    let (mut i, mut copied) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(bytes, i + 1) + 1,
            b'N' | b'I' | b'-' => match LITERALS.iter().find(|l| bytes[i..].starts_with(l)) {
                Some(lit) => {
                    let o = out.get_or_insert_with(|| Vec::with_capacity(bytes.len() + 64));
                    o.extend_from_slice(&bytes[copied..i]);
                    o.push(b'"');
                    o.extend_from_slice(lit);
                    o.push(b'"');
                    i += lit.len();
                    copied = i;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    match out {
        None => Cow::Borrowed(bytes),
        Some(mut o) => {
            o.extend_from_slice(&bytes[copied.min(bytes.len())..]);
            Cow::Owned(o)
        }
    }
}

/// Index of the quote that closes the string starting at `from` (or the length when cut short).
pub fn string_end(bytes: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return j,
            _ => j += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_literals_become_null_outside_strings_only() {
        let text =
            br#"{"a": NaN, "b": [Infinity, -Infinity, -1.5], "c": "NaN and -Infinity \" NaN"}"#;
        let clean = sanitize(text);
        let v: serde_json::Value = serde_json::from_slice(&clean).unwrap();
        assert!(v["a"].is_null());
        assert_eq!(v["b"], serde_json::json!([null, null, -1.5]));
        assert_eq!(v["c"], "NaN and -Infinity \" NaN");
        assert!(matches!(sanitize(br#"{"a": 1}"#), Cow::Borrowed(_)));
    }

    #[test]
    fn non_finite_literals_become_strings_outside_strings_only() {
        let text = br#"{"x": [NaN, -Infinity, Infinity, -1.5], "t": "NaN and Infinity stay"}"#;
        let quoted = quote_non_finite(text);
        assert_eq!(
            std::str::from_utf8(&quoted).unwrap(),
            r#"{"x": ["NaN", "-Infinity", "Infinity", -1.5], "t": "NaN and Infinity stay"}"#
        );
        let clean = br#"{"x": [1, 2], "t": "NaN"}"#;
        assert!(matches!(quote_non_finite(clean), Cow::Borrowed(_)));
        let escaped = br#"{"t": "a \" NaN", "y": NaN}"#;
        let quoted = quote_non_finite(escaped);
        assert_eq!(
            std::str::from_utf8(&quoted).unwrap(),
            r#"{"t": "a \" NaN", "y": "NaN"}"#
        );
    }
}
