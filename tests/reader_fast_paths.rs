//! The canonical reader's fast paths change no result: option lists shared between
//! items, UTF-8 checked once per line, a first chunk read in place, ids kept in one table.

use scorelens::formats::canonical::Canonical;
use scorelens::formats::{Format, Meta, Shelf, Sink};
use scorelens::items::{Body, Item};
use scorelens::reported::Reported;
use scorelens::{score, Input, Options, Warning};
use std::sync::Arc;

#[derive(Default)]
struct Collect {
    items: Vec<Item>,
    skipped: Vec<Warning>,
    shelf: Shelf,
}

impl Sink for Collect {
    fn item(&mut self, item: Item) {
        self.items.push(item);
    }
    fn item_in(&mut self, _file: &str, item: Item) {
        self.items.push(item);
    }
    fn skip(&mut self, w: Warning) {
        self.skipped.push(w);
    }
    fn warn(&mut self, _w: Warning) {}
    fn meta(&mut self, _key: Meta, _value: &str) {}
    fn reported(&mut self, _figure: Reported) {}
    fn shelf(&mut self) -> &mut Shelf {
        &mut self.shelf
    }
}

fn read(chunks: &[&[u8]]) -> Collect {
    let mut sink = Collect::default();
    let mut reader = Canonical.reader("t.jsonl");
    for c in chunks {
        reader.feed(c, &mut sink);
    }
    reader.finish(&mut sink);
    sink
}

fn options(item: &Item) -> Arc<[String]> {
    match &item.body {
        Body::Option(o) => o.options.clone(),
        _ => panic!("not an option item"),
    }
}

#[test]
fn items_with_the_same_labels_share_one_list() {
    let text = br#"{"id": 1, "options": ["A", "B", "C"], "gold": "A"}
{"id": 2, "options": ["A", "B", "C"], "gold": "C"}
{"id": 3, "options": ["A", "B", "D"], "gold": "D"}
{"id": 4, "options": ["A", "B"], "gold": "B"}
{"id": 5, "options": [1, 2], "gold": 2}
{"id": 6, "options": [1, 2], "gold": 1}
"#;
    let got = read(&[text]);
    assert_eq!(got.items.len(), 6);
    let lists: Vec<Arc<[String]>> = got.items.iter().map(options).collect();
    assert!(Arc::ptr_eq(&lists[0], &lists[1]));
    assert!(!Arc::ptr_eq(&lists[1], &lists[2]));
    assert_eq!(*lists[2], ["A", "B", "D"]);
    assert_eq!(*lists[3], ["A", "B"]);
    // Integer labels are read anew each time, with the same result.
    assert_eq!(*lists[4], ["1", "2"]);
    assert_eq!(lists[4], lists[5]);
    let golds: Vec<usize> = got
        .items
        .iter()
        .map(|i| i.as_option().unwrap().gold)
        .collect();
    assert_eq!(golds, [0, 2, 2, 1, 1, 0]);
}

#[test]
fn a_shared_list_is_still_checked_against_the_item_type() {
    let text = br#"{"id": 1, "options": ["A", "B"], "gold": "A"}
{"id": 2, "type": "binary", "options": ["A", "B"], "gold": "A"}
{"id": 3, "options": ["no", "yes"], "gold": "yes"}
{"id": 4, "type": "binary", "options": ["no", "yes"], "gold": true}
{"id": 5, "options": ["A", "A"], "gold": "A"}
{"id": 6, "options": ["A", "A"], "gold": "A"}
"#;
    let got = read(&[text]);
    let ids: Vec<&str> = got.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["1", "3", "4"]);
    let why: Vec<(Option<u64>, &str)> = got
        .skipped
        .iter()
        .map(|w| (w.line, w.reason.as_str()))
        .collect();
    assert_eq!(
        why,
        [
            (Some(2), "a binary item's options must be [\"no\", \"yes\"]"),
            (Some(5), "option `A` is listed twice"),
            (Some(6), "option `A` is listed twice"),
        ]
    );
}

#[test]
fn invalid_utf8_takes_the_byte_path() {
    // Invalid UTF-8 in a key the reader skips is no error (as before); in the id it is.
    let mut text =
        b"{\"id\": 1, \"note\": \"\xff\", \"options\": [\"A\", \"B\"], \"gold\": \"A\"}\n".to_vec();
    text.extend_from_slice(b"{\"id\": \"\xff\", \"options\": [\"A\", \"B\"], \"gold\": \"A\"}\n");
    let got = read(&[&text]);
    assert_eq!(got.items.len(), 1);
    assert_eq!(got.skipped.len(), 1);
    assert_eq!(got.skipped[0].line, Some(2));
    assert!(
        got.skipped[0].reason.contains("not valid UTF-8"),
        "{}",
        got.skipped[0].reason
    );
}

#[test]
fn a_first_chunk_of_blanks_waits_for_the_layout() {
    let text = b"  \n{\"id\": 1, \"options\": [\"A\", \"B\"], \"gold\": \"A\"}\n\n[1]\n";
    let whole = read(&[text]);
    for cut in 0..text.len() {
        let parts = read(&[&text[..cut], &text[cut..]]);
        assert_eq!(parts.items, whole.items, "cut at {cut}");
        let lines = |c: &Collect| c.skipped.iter().map(|w| w.line).collect::<Vec<_>>();
        assert_eq!(lines(&parts), lines(&whole), "cut at {cut}");
    }
    assert_eq!(whole.items.len(), 1);
    assert_eq!(whole.items[0].line, Some(2));
    assert_eq!(whole.skipped.len(), 1, "line 4 is a list, not an object");
}

#[test]
fn repeated_ids_are_skipped_across_files_and_kept_apart_by_length() {
    // "1" + "2" written back to back spell "12": the id table must keep them apart.
    let a = b"{\"id\": 1, \"options\": [\"A\", \"B\"], \"gold\": \"A\"}\n{\"id\": 2, \"options\": [\"A\", \"B\"], \"gold\": \"A\"}\n";
    let b = b"{\"id\": 12, \"options\": [\"A\", \"B\"], \"gold\": \"B\"}\n{\"id\": \"2\", \"options\": [\"A\", \"B\"], \"gold\": \"B\"}\n";
    let inputs = [
        Input {
            name: "a.jsonl",
            bytes: a,
        },
        Input {
            name: "b.jsonl",
            bytes: b,
        },
    ];
    let r = score(&inputs, &Options::default()).unwrap();
    assert_eq!((r.items, r.skipped), (3, 1));
    let w = &r.warnings[0];
    assert_eq!((w.file.as_str(), w.line), ("b.jsonl", Some(2)));
    assert!(w.reason.contains("id `2` was already seen"), "{}", w.reason);
}
