//! The malformed corpus, Inspect logs and archives (tests/malformed/inspect/): a missing entry, a
//! cut or damaged log, no header; and zip bombs made here rather than committed: entries that
//! decompress to 5 GiB, honestly declared (ZIP64) or declared small, must stop at the caps at
//! once, with the rest of the archive still scored.

mod malformed_util;

use malformed_util::{check_one, run_named, w};

#[test]
fn inspect_bad_samples() {
    check_one(
        "inspect/bad_samples.eval",
        1,
        &[
            (None, "entry `samples/1_epoch_1.json`: not a valid Inspect log: EOF while parsing a string at line 1 column 42"),
            (None, "entry `samples/2_epoch_1.json`: not a valid Inspect log: invalid type: integer `3`, expected a sequence at line 1 column 8"),
        ],
    );
}

#[test]
fn inspect_missing_entry() {
    check_one(
        "inspect/missing_entry.eval",
        2,
        &[
            (None, "entry `samples/3_epoch_1.json`: not found where the archive's directory points (invalid Zip archive: Invalid local file header); the archive may be truncated or damaged"),
        ],
    );
}

#[test]
fn inspect_missing_sample() {
    check_one(
        "inspect/missing_sample.eval",
        3,
        &[
            (None, "entry `samples/4_epoch_1.json`: not found where the archive's directory points (invalid Zip archive: Unexpected end of zip::format::blocks::ZipLocalEntryBlock); the archive may be truncated or damaged"),
        ],
    );
}

#[test]
fn inspect_no_header() {
    check_one(
        "inspect/no_header.eval",
        3,
        &[(
            None,
            "the archive has no header.json: model, task and Inspect's own metrics are unknown",
        )],
    );
}

#[test]
fn inspect_not_a_zip() {
    check_one(
        "inspect/not_a_zip.eval",
        0,
        &[
            (None, "not a readable ZIP archive (invalid Zip archive: Could not find EOCD); the file may be truncated or damaged"),
        ],
    );
}

#[test]
fn inspect_odd_samples() {
    check_one(
        "inspect/odd_samples.json",
        2,
        &[
            (None, "samples[0]: `id` is a list, not a string or an integer"),
            (None, "samples[1] (sample 2, epoch 1): the sample has no scores"),
            (None, "samples[2] (sample 3, epoch 1): `target` names option E but the sample has only 3 choices"),
        ],
    );
}

#[test]
fn inspect_truncated() {
    check_one(
        "inspect/truncated.json",
        0,
        &[(
            None,
            "not a valid Inspect log: EOF while parsing a string at line 135 column 11",
        )],
    );
}

#[test]
fn inspect_lying_compressed_size() {
    // The directory declares almost 4 GiB of compressed bytes: nothing that size is reserved, the
    // stored entry reads to the archive's end, and its size check rejects it.
    check_one(
        "inspect/lying_compressed_size.eval",
        1,
        &[(
            None,
            "entry `samples/2_epoch_1.json`: decompressed to 607 bytes, but the archive declares 392",
        )],
    );
}

/// Five GiB, the size of the bombs below.
const FIVE_GIB: u64 = 5 << 30;

/// A zstd frame of RLE blocks that decodes to `size` spaces (a multiple of 128 KiB), in about
/// 4 bytes per 128 KiB: 160 KiB for 5 GiB.
fn zstd_spaces(size: u64) -> Vec<u8> {
    const BLOCK: u64 = 128 << 10;
    let blocks = size / BLOCK;
    let mut out = 0xFD2F_B528u32.to_le_bytes().to_vec();
    // Frame header: no content size, no checksum; window 2^17 bytes (exponent 7).
    out.extend_from_slice(&[0x00, 7 << 3]);
    for i in 0..blocks {
        let last = u32::from(i + 1 == blocks);
        // Block header: last flag, type 1 (RLE), regenerated size; then the one repeated byte.
        let header = (BLOCK as u32) << 3 | 1 << 1 | last;
        out.extend_from_slice(&header.to_le_bytes()[..3]);
        out.push(b' ');
    }
    out
}

/// One archive entry: name, ZIP method, CRC-32, declared (uncompressed) size, raw bytes.
struct Entry {
    name: &'static str,
    method: u16,
    crc: u32,
    size: u64,
    raw: Vec<u8>,
}

impl Entry {
    /// A stored entry that is what it says.
    fn stored(name: &'static str, data: &[u8]) -> Entry {
        Entry {
            name,
            method: 0,
            crc: crc32fast::hash(data),
            size: data.len() as u64,
            raw: data.to_vec(),
        }
    }
}

/// A ZIP archive of the entries, with ZIP64 extra fields for sizes of 4 GiB and more.
fn zip(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut directory = Vec::new();
    for e in entries {
        let offset = out.len() as u32;
        let big = e.size >= u64::from(u32::MAX);
        let (size32, comp32) = if big {
            (u32::MAX, u32::MAX)
        } else {
            (e.size as u32, e.raw.len() as u32)
        };
        let mut extra = Vec::new();
        if big {
            extra.extend_from_slice(&1u16.to_le_bytes());
            extra.extend_from_slice(&16u16.to_le_bytes());
            extra.extend_from_slice(&e.size.to_le_bytes());
            extra.extend_from_slice(&(e.raw.len() as u64).to_le_bytes());
        }
        let version: u16 = if big { 45 } else { 20 };
        let mut local = 0x0403_4B50u32.to_le_bytes().to_vec();
        for v in [version, 0, e.method, 0, 0] {
            local.extend_from_slice(&v.to_le_bytes());
        }
        for v in [e.crc, comp32, size32] {
            local.extend_from_slice(&v.to_le_bytes());
        }
        local.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
        local.extend_from_slice(&(extra.len() as u16).to_le_bytes());
        local.extend_from_slice(e.name.as_bytes());
        local.extend_from_slice(&extra);
        out.extend_from_slice(&local);
        out.extend_from_slice(&e.raw);
        let mut central = 0x0201_4B50u32.to_le_bytes().to_vec();
        for v in [version, version, 0, e.method, 0, 0] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        for v in [e.crc, comp32, size32] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        for v in [e.name.len() as u16, extra.len() as u16, 0, 0, 0] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(e.name.as_bytes());
        central.extend_from_slice(&extra);
        directory.push(central);
    }
    let start = out.len() as u32;
    let size: usize = directory.iter().map(Vec::len).sum();
    for c in &directory {
        out.extend_from_slice(c);
    }
    out.extend_from_slice(&0x0605_4B50u32.to_le_bytes());
    let n = entries.len() as u16;
    for v in [0u16, 0, n, n] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(size as u32).to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

const HEADER: &str =
    r#"{"version": 2, "status": "success", "eval": {"task": "bomb", "model": "mockllm/model"}}"#;
const SAMPLE: &str = r#"{"id": 1, "epoch": 1, "choices": ["Red", "Green"], "target": "A", "scores": {"choice": {"value": "C", "answer": "A"}}}"#;

/// An archive of a header, one sound sample and the bomb entry.
fn bomb_archive(bomb: Entry) -> Vec<u8> {
    zip(&[
        Entry::stored("header.json", HEADER.as_bytes()),
        Entry::stored("samples/1_epoch_1.json", SAMPLE.as_bytes()),
        bomb,
    ])
}

#[test]
fn zstd_bomb_declared_as_five_gib_is_refused_unread() {
    let frame = zstd_spaces(FIVE_GIB);
    assert!(frame.len() < 200 << 10, "{}", frame.len());
    let bytes = bomb_archive(Entry {
        name: "samples/2_epoch_1.json",
        method: 93,
        crc: 0,
        size: FIVE_GIB,
        raw: frame,
    });
    let out = run_named(&[("bomb.eval", bytes)], None, 1 << 16);
    assert_eq!(out.items, 1, "the sound sample is scored");
    assert_eq!(
        out.warnings,
        [w(
            "bomb.eval",
            None,
            "entry `samples/2_epoch_1.json`: skipped: it declares 5368709120 bytes decompressed, above the 256 MiB cap per entry"
        )]
    );
}

#[test]
fn zstd_bomb_declared_small_stops_at_its_declared_size() {
    let bytes = bomb_archive(Entry {
        name: "samples/2_epoch_1.json",
        method: 93,
        crc: 0,
        size: 4096,
        raw: zstd_spaces(FIVE_GIB),
    });
    let started = std::time::Instant::now();
    let out = run_named(&[("bomb.eval", bytes)], None, 1 << 16);
    // Decoding stops after at most one 1 MiB step, not after 5 GiB.
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    assert_eq!(out.items, 1);
    assert_eq!(
        out.warnings,
        [w(
            "bomb.eval",
            None,
            "entry `samples/2_epoch_1.json`: decompresses to more than the 4096 bytes the archive declares; stopped there"
        )]
    );
}

#[test]
fn deflate_bomb_declared_small_stops_at_its_declared_size() {
    let zeros = vec![0u8; 8 << 20];
    let raw = miniz_oxide::deflate::compress_to_vec(&zeros, 1);
    assert!(raw.len() < 64 << 10, "{}", raw.len());
    let bytes = bomb_archive(Entry {
        name: "samples/2_epoch_1.json",
        method: 8,
        crc: crc32fast::hash(&zeros),
        size: 4096,
        raw,
    });
    let out = run_named(&[("bomb.eval", bytes)], None, 1 << 16);
    assert_eq!(out.items, 1);
    assert_eq!(
        out.warnings,
        [w(
            "bomb.eval",
            None,
            "entry `samples/2_epoch_1.json`: decompresses to more than the 4096 bytes the archive declares; stopped there"
        )]
    );
}

/// The archive writer above makes archives the reader takes: the same entries, no bomb.
#[test]
fn the_hand_made_archive_is_read_like_inspects_own() {
    let bytes = zip(&[
        Entry::stored("header.json", HEADER.as_bytes()),
        Entry::stored("samples/1_epoch_1.json", SAMPLE.as_bytes()),
    ]);
    let out = run_named(&[("small.eval", bytes)], None, 5);
    assert_eq!(out.items, 1);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let r = out.report.unwrap();
    assert_eq!(r.model.as_deref(), Some("mockllm/model"));
    assert_eq!(r.metrics.accuracy, Some(1.0));
}

/// The bomb's frame is a real zstd frame: at a small size it decodes to exactly its spaces.
#[test]
fn the_bomb_frame_decodes_to_what_it_claims() {
    use std::io::Read;
    let size = 3 * (128 << 10);
    let frame = zstd_spaces(size);
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(frame.as_slice()).unwrap();
    let mut out = Vec::new();
    decoder.read_to_end(&mut out).unwrap();
    assert_eq!(out.len() as u64, size);
    assert!(out.iter().all(|&b| b == b' '));
}
