//! The canonical reader: JSON Lines (or one JSON array) of SPEC §1 items, with an optional header.
//!
//! JSON Lines stream line by line as chunks arrive. A file whose first non-blank byte is `[` is a
//! JSON array and is buffered whole, then read element by element so that one bad element does not
//! lose the rest; each element is located by the line it starts on.

pub mod chunks;
mod fast;
pub mod item;

use crate::formats::cluster_field::cluster_in_json;
use crate::formats::json::{each_element, pick_into, short_error, ArrayEnd, PickError};
use crate::formats::lines::{is_blank, Lines, BOM};
use crate::formats::{first_keys, Format, Meta, ReadOptions, Reader, Sink};
use crate::warning::Warning;
use item::{f, Fields, Labels, FIELDS};

/// Which of the two layouts the file has; decided by its first non-blank byte.
enum Layout {
    Undecided(Vec<u8>),
    Lines(Lines),
    Array(Vec<u8>),
}

/// The canonical format.
pub struct Canonical;

/// Keys that mark an object as a canonical item (beside `id`).
const ITEM_KEYS: [&str; 6] = ["gold", "chosen", "scores", "answers", "consistent", "probs"];

impl Format for Canonical {
    fn name(&self) -> &'static str {
        "scorelens"
    }

    fn describe(&self) -> &'static str {
        "scorelens canonical JSON Lines or JSON array (SPEC §1), with an optional header line"
    }

    fn sniff(&self, _file: &str, head: &[u8]) -> Option<u8> {
        let keys = first_keys(head);
        let has = |k: &str| keys.iter().any(|x| x == k);
        if has("scorelens") {
            Some(10)
        } else if has("id") && ITEM_KEYS.iter().any(|k| has(k)) {
            Some(5)
        } else {
            None
        }
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        self.reader_with(file, &ReadOptions::default())
    }

    fn reads_fields(&self) -> bool {
        true
    }

    fn reader_with(&self, file: &str, options: &ReadOptions) -> Box<dyn Reader> {
        let mut labels = Labels::default();
        labels.cluster_field = options.cluster_field.clone();
        Box::new(CanonicalReader {
            file: file.to_string(),
            layout: Layout::Undecided(Vec::new()),
            labels,
        })
    }
}

/// Reads one canonical file.
pub struct CanonicalReader {
    file: String,
    layout: Layout,
    labels: Labels,
}

/// Reads one line of JSON Lines; blank lines are ignored.
pub(crate) fn read_line(
    file: &str,
    labels: &mut Labels,
    line: u64,
    bytes: &[u8],
    sink: &mut dyn Sink,
) {
    // The fast path reads SPEC §1's fields only: a line whose cluster is another field's takes
    // the general one.
    if !is_blank(bytes)
        && (labels.cluster_field.is_some() || !fast::try_read(labels, line, bytes, sink))
    {
        read_object(file, labels, line, bytes, "", sink);
    }
}

impl Reader for CanonicalReader {
    fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        if let Layout::Undecided(head) = &mut self.layout {
            // A first chunk that decides is read in place: copying it would copy the whole
            // file when it comes in one piece.
            if head.is_empty() {
                if let Some(is_array) = starts_array(chunk) {
                    self.layout = layout(is_array);
                    return self.feed(chunk, sink);
                }
            }
            head.extend_from_slice(chunk);
            let Some(is_array) = starts_array(head) else {
                return;
            };
            let head = std::mem::take(head);
            self.layout = layout(is_array);
            return self.feed(&head, sink);
        }
        let (file, labels) = (&self.file, &mut self.labels);
        match &mut self.layout {
            Layout::Array(buffer) => buffer.extend_from_slice(chunk),
            Layout::Lines(lines) => lines.feed(chunk, |n, b| {
                if !sink.stopped() {
                    read_line(file, labels, n, b, sink)
                }
            }),
            Layout::Undecided(_) => {}
        }
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let (file, labels) = (&self.file, &mut self.labels);
        match std::mem::replace(&mut self.layout, Layout::Undecided(Vec::new())) {
            Layout::Lines(mut lines) => lines.finish(|n, b| read_line(file, labels, n, b, sink)),
            Layout::Array(buffer) => read_array(file, labels, &buffer, sink),
            Layout::Undecided(_) => {}
        }
    }
}

/// Whether the text is a JSON array, judged by its first non-blank byte after a BOM; `None`
/// while there is none yet.
pub(crate) fn starts_array(bytes: &[u8]) -> Option<bool> {
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let first = body.iter().find(|b| !b.is_ascii_whitespace())?;
    Some(*first == b'[')
}

fn layout(is_array: bool) -> Layout {
    if is_array {
        Layout::Array(Vec::new())
    } else {
        Layout::Lines(Lines::default())
    }
}

/// Reads one object (a line, or an array element) and pushes the item, header or error.
fn read_object(
    file: &str,
    labels: &mut Labels,
    line: u64,
    bytes: &[u8],
    place: &str,
    sink: &mut dyn Sink,
) {
    let mut fields: Fields = std::array::from_fn(|_| None);
    let duplicate = match pick_into(bytes, &FIELDS, &mut fields) {
        Ok(d) => d,
        Err(PickError::Syntax(msg)) => {
            let msg = if std::str::from_utf8(bytes).is_err() {
                "not valid UTF-8".to_string()
            } else {
                msg
            };
            return sink.skip(Warning::new(
                file,
                Some(line),
                format!("{place}not valid JSON: {msg}"),
            ));
        }
        Err(PickError::NotObject(kind)) => {
            let why = format!("{place}expected a JSON object, found {kind}");
            return sink.skip(Warning::new(file, Some(line), why));
        }
    };
    if let Some(key) = duplicate {
        let why = format!("{place}field `{key}` appears twice");
        return sink.skip(Warning::new(file, Some(line), why));
    }
    for (i, key) in [(f::MODEL, Meta::Model), (f::BENCHMARK, Meta::Benchmark)] {
        if let Some(v) = item::meta(&fields, i) {
            sink.meta(key, v);
        }
    }
    if fields[f::HEADER].is_some() {
        return;
    }
    let mut notes = Vec::new();
    match item::build_with(&fields, line, &mut notes, labels) {
        Ok(mut item) => {
            if let Some(name) = labels.cluster_field.clone() {
                item.cluster = cluster_in_json(bytes, &name, &mut notes).map(|c| labels.group(&c));
            }
            for n in notes {
                sink.warn(Warning::new(file, Some(line), format!("{place}{n}")));
            }
            sink.item(item);
        }
        Err(why) => sink.skip(Warning::new(file, Some(line), format!("{place}{why}"))),
    }
}

/// Reads a JSON array element by element, pushing each before the next is parsed.
fn read_array(file: &str, labels: &mut Labels, buffer: &[u8], sink: &mut dyn Sink) {
    let end = each_element(buffer, &mut |n, line, text| {
        read_object(file, labels, line, text, &format!("element {n}: "), sink);
    });
    match end {
        ArrayEnd::Complete => {}
        ArrayEnd::Broken(e) => {
            let why = format!(
                "the JSON array is malformed here, so the rest of the file is lost: {}",
                short_error(&e)
            );
            sink.skip(Warning::new(file, Some(e.line() as u64), why));
        }
        // Every element was read; what follows the closing bracket is not an item.
        ArrayEnd::Trailing(e) => {
            let why = format!("text after the JSON array is ignored: {}", short_error(&e));
            sink.warn(Warning::new(file, Some(e.line() as u64), why));
        }
    }
}
