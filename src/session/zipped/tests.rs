use super::*;
use std::io::Cursor;

const MIXED: &[u8] = include_bytes!("../../../tests/fixtures/zip/mixed.zip");
const HELM: &[u8] = include_bytes!("../../../tests/fixtures/zip/helm_suite.zip");
const MODEL_B: &[u8] = include_bytes!("../../../www/samples/compare/model-b.jsonl");
const MODEL_B_ZST: &[u8] = include_bytes!("../../../tests/fixtures/zip/mixed/model-b.jsonl.zst");
const EVAL: &[u8] = include_bytes!("../../../tests/fixtures/inspect/colour_mc.eval");

fn read_all(raw: &[u8], e: &Entry) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    entry(raw, e)?.read_to_end(&mut out)?;
    Ok(out)
}

fn names(l: &Listing) -> Vec<&str> {
    l.entries.iter().map(|e| e.name.as_str()).collect()
}

#[test]
fn a_zip_of_files_lists_them_in_a_folders_walk_order() {
    let l = list("mixed.zip", Cursor::new(MIXED)).unwrap().unwrap();
    assert!(!l.inspect);
    // Name order, folders depth first ("more" before "notes.txt"); folders, the hidden file and
    // __MACOSX left out; the bzip2 entry listed as unreadable, with its method.
    assert_eq!(
        names(&l),
        [
            "mixed/model-a.jsonl",
            "mixed/model-b.jsonl.zst",
            "mixed/more/model-a-rest.jsonl.gz",
            "mixed/notes.txt"
        ]
    );
    assert_eq!(l.unreadable.len(), 1);
    assert_eq!(l.unreadable[0].0, "mixed/bzip2.jsonl");
    assert!(l.unreadable[0]
        .1
        .starts_with("compressed with zip method 12,"));
    // Every entry decodes to the file that was zipped, DEFLATE and stored alike.
    for e in &l.entries {
        let want = std::fs::read(format!("tests/fixtures/zip/{}", e.name)).unwrap();
        let raw = &MIXED[e.start as usize..];
        assert_eq!(read_all(raw, e).unwrap(), want, "{}", e.name);
    }
    assert_eq!(l.entries[0].method, 8);
    assert_eq!(l.entries[1].method, 0);
}

#[test]
fn an_inspect_log_is_not_a_folder() {
    let l = list("colour_mc.eval", Cursor::new(EVAL)).unwrap().unwrap();
    assert!(l.inspect);
    assert!(l.entries.is_empty());
    // Its entries say so whatever its name.
    let l = list("renamed.zip", Cursor::new(EVAL)).unwrap().unwrap();
    assert!(l.inspect);
    // A `.eval` name is a log even when its entries are a folder's.
    let l = list("odd.EVAL", Cursor::new(HELM)).unwrap().unwrap();
    assert!(l.inspect);
}

#[test]
fn what_is_not_a_zip_is_none_and_a_damaged_one_says_so() {
    assert_eq!(
        list("a.jsonl", Cursor::new(b"{\"id\": 1}\n")).unwrap(),
        None
    );
    assert_eq!(list("a", Cursor::new(b"PK")).unwrap(), None);
    let cut = &HELM[..HELM.len() / 2];
    let why = list("cut.zip", Cursor::new(cut)).unwrap_err();
    assert!(
        why.starts_with("a zip archive whose directory cannot be read ("),
        "{why}"
    );
    assert!(why.ends_with("): it may be cut short or damaged"), "{why}");
}

fn zst_entry() -> Entry {
    Entry {
        name: "model-b.jsonl".into(),
        method: 93,
        start: 0,
        compressed: MODEL_B_ZST.len() as u64,
        size: MODEL_B.len() as u64,
        crc: crc32fast::hash(MODEL_B),
    }
}

#[test]
fn zstd_entries_decode_and_are_checked_against_the_directory() {
    let e = zst_entry();
    assert_eq!(read_all(MODEL_B_ZST, &e).unwrap(), MODEL_B);
    // Bytes after the entry (the next local header) are never read into it.
    let mut followed = MODEL_B_ZST.to_vec();
    followed.extend_from_slice(b"PK\x03\x04 the next entry");
    assert_eq!(read_all(&followed, &e).unwrap(), MODEL_B);
    let wrong_crc = Entry {
        crc: e.crc ^ 1,
        ..e.clone()
    };
    let why = read_all(MODEL_B_ZST, &wrong_crc).unwrap_err().to_string();
    assert_eq!(
        why,
        "the zip entry's CRC-32 does not match: the zip is damaged"
    );
    let longer = Entry {
        size: e.size + 10,
        ..e.clone()
    };
    let why = read_all(MODEL_B_ZST, &longer).unwrap_err().to_string();
    assert_eq!(
        why,
        "the zip entry ends 10 bytes before the size its directory declares: the zip is cut \
         short or damaged"
    );
    // An entry that decodes to more than it declares (a zip bomb) stops there.
    let shorter = Entry { size: 100, ..e };
    let why = read_all(MODEL_B_ZST, &shorter).unwrap_err().to_string();
    assert_eq!(
        why,
        "the zip entry decodes to more than the size its directory declares: the zip is damaged"
    );
}

#[test]
fn deflate_entries_decode_to_what_was_compressed() {
    let raw = miniz_oxide::deflate::compress_to_vec(MODEL_B, 6);
    let e = Entry {
        method: 8,
        compressed: raw.len() as u64,
        ..zst_entry()
    };
    assert_eq!(read_all(&raw, &e).unwrap(), MODEL_B);
    let cut = &raw[..raw.len() / 2];
    assert!(read_all(cut, &e).is_err());
}

#[test]
fn an_entry_goes_through_its_tag_and_back() {
    let l = list("mixed.zip", Cursor::new(MIXED)).unwrap().unwrap();
    for e in &l.entries {
        let back = Entry::from_tag(&e.name, e.compressed, &e.tag()).unwrap();
        assert_eq!(
            back,
            Entry {
                start: 0,
                ..e.clone()
            }
        );
        // The entry's own bytes, as a source of their own, decode as in the zip.
        let stored = &MIXED[e.start as usize..(e.start + e.compressed) as usize];
        assert_eq!(
            read_all(stored, &back).unwrap(),
            read_all(&MIXED[e.start as usize..], e).unwrap()
        );
    }
    for bad in ["", "method=8; size=3", "method=x; size=3; crc=1"] {
        let err = Entry::from_tag("a", 3, bad).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{bad}");
    }
}
