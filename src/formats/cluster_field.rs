//! The cluster a user-named field gives an item (`--cluster FIELD`), read the same way by every
//! reader that knows its records' fields, so that a value's rules and its warning are one.

use crate::formats::json::Val;
use std::borrow::Cow;

/// The item's cluster from `record`'s field `name` (a key, or a dotted path into objects): a
/// string, or a whole number written as its decimal text. A missing or `null` field leaves the
/// item a cluster of its own; any other value does too, with a note saying why.
pub fn cluster_of<'a>(
    record: &Val<'a>,
    name: &str,
    notes: &mut Vec<String>,
) -> Option<Cow<'a, str>> {
    let value = record.field(name)?;
    if matches!(value, Val::Null) {
        return None;
    }
    match value.as_label() {
        Some(label) => Some(label),
        None => {
            notes.push(format!(
                "the cluster field `{name}` must be a string or a whole number, not {}; the item is its own cluster",
                value.kind()
            ));
            None
        }
    }
}

/// `cluster_of` on the JSON object in `bytes` (Python's bare NaN and Infinity allowed); `None`
/// when the bytes are no JSON, which the reader has already said.
pub fn cluster_in_json(bytes: &[u8], name: &str, notes: &mut Vec<String>) -> Option<String> {
    let clean = crate::formats::non_finite::sanitize(bytes);
    let record: Val = serde_json::from_slice(&clean).ok()?;
    cluster_of(&record, name, notes).map(Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(text: &str) -> Val<'_> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn reads_keys_paths_and_numbers() {
        let mut notes = Vec::new();
        let r = val(r#"{"passage":"p1","metadata":{"doc":17},"a.b":"whole"}"#);
        assert_eq!(cluster_of(&r, "passage", &mut notes).as_deref(), Some("p1"));
        assert_eq!(
            cluster_of(&r, "metadata.doc", &mut notes).as_deref(),
            Some("17")
        );
        // A key with the whole dotted name comes before the path.
        assert_eq!(cluster_of(&r, "a.b", &mut notes).as_deref(), Some("whole"));
        assert_eq!(cluster_of(&r, "metadata.missing", &mut notes), None);
        assert_eq!(cluster_of(&r, "missing", &mut notes), None);
        assert!(notes.is_empty());
    }

    #[test]
    fn other_values_are_noted() {
        let mut notes = Vec::new();
        let r = val(r#"{"passage":[1,2],"none":null,"x":1.5}"#);
        assert_eq!(cluster_of(&r, "passage", &mut notes), None);
        assert_eq!(cluster_of(&r, "none", &mut notes), None);
        assert_eq!(cluster_of(&r, "x", &mut notes), None);
        assert_eq!(
            notes,
            [
                "the cluster field `passage` must be a string or a whole number, not a list; the item is its own cluster",
                "the cluster field `x` must be a string or a whole number, not a number; the item is its own cluster",
            ]
        );
    }
}
