//! The guard on line ends and lengths, cut at every byte and fed in small chunks.

use super::*;

/// The lines the reader gets from `chunks`, with the guard's counts.
fn run(cap: usize, chunks: &[&[u8]]) -> (Vec<u8>, Vec<u64>, Ends) {
    let mut g = LineGuard::with_cap(cap);
    let mut out = Vec::new();
    for c in chunks {
        g.feed(c, &mut |b: &[u8]| out.extend_from_slice(b));
    }
    g.finish(&mut |b: &[u8]| out.extend_from_slice(b));
    (out, g.skipped.clone(), g.ends)
}

#[test]
fn a_carriage_return_alone_ends_a_line_and_crlf_stays_one_end() {
    let ends = |lf, crlf, cr| Ends { lf, crlf, cr };
    assert_eq!(
        run(100, &[b"a\rb\rc"]),
        (b"a\nb\nc".to_vec(), vec![], ends(0, 0, 2))
    );
    assert_eq!(
        run(100, &[b"a\r\nb\r\n"]),
        (b"a\r\nb\r\n".to_vec(), vec![], ends(0, 2, 0))
    );
    assert_eq!(
        run(100, &[b"a\r\rb\n"]),
        (b"a\n\nb\n".to_vec(), vec![], ends(1, 0, 2))
    );
    // A CR at the very end of the file is a line end too.
    assert_eq!(
        run(100, &[b"a\r"]),
        (b"a\n".to_vec(), vec![], ends(0, 0, 1))
    );
}

#[test]
fn any_chunking_gives_the_same_lines() {
    let text: &[u8] = b"one\r\ntwo\rthree\n\r\nfour\r\rfive\r";
    let whole = run(100, &[text]);
    assert_eq!(
        whole,
        (
            b"one\r\ntwo\nthree\n\r\nfour\n\nfive\n".to_vec(),
            vec![],
            Ends {
                lf: 1,
                crlf: 2,
                cr: 4
            }
        )
    );
    for cut in 0..=text.len() {
        let (a, b) = text.split_at(cut);
        assert_eq!(run(100, &[a, b]), whole, "cut at {cut}");
    }
    for size in 1..6 {
        let chunks: Vec<&[u8]> = text.chunks(size).collect();
        assert_eq!(run(100, &chunks), whole, "chunks of {size}");
    }
}

#[test]
fn crlf_split_at_a_chunk_boundary_is_one_end() {
    // The CR ends one chunk, the LF starts the next.
    assert_eq!(
        run(100, &[b"a\r", b"\nb\r", b"\n"]),
        (
            b"a\r\nb\r\n".to_vec(),
            vec![],
            Ends {
                lf: 0,
                crlf: 2,
                cr: 0
            }
        )
    );
    // A CR ending a chunk, and then another CR: the first was alone.
    assert_eq!(
        run(100, &[b"a\r", b"\rb"]),
        (
            b"a\n\nb".to_vec(),
            vec![],
            Ends {
                lf: 0,
                crlf: 0,
                cr: 2
            }
        )
    );
}

#[test]
fn a_line_past_the_cap_is_skipped_and_the_next_is_read() {
    let text: &[u8] = b"ok\n0123456789ab\nnext\n";
    let want = (
        b"ok\n\nnext\n".to_vec(),
        vec![2],
        Ends {
            lf: 3,
            crlf: 0,
            cr: 0,
        },
    );
    assert_eq!(run(10, &[text]), want);
    for cut in 0..=text.len() {
        let (a, b) = text.split_at(cut);
        assert_eq!(run(10, &[a, b]), want, "cut at {cut}");
    }
    for size in 1..6 {
        let chunks: Vec<&[u8]> = text.chunks(size).collect();
        assert_eq!(run(10, &chunks), want, "chunks of {size}");
    }
    // A line of exactly the cap is read; the last line may be the long one.
    assert_eq!(
        run(4, &[b"abcd\nabcde"]),
        (
            b"abcd\n".to_vec(),
            vec![2],
            Ends {
                lf: 1,
                crlf: 0,
                cr: 0
            }
        )
    );
    // CR-only lines are counted as lines for the skipped line's number.
    assert_eq!(
        run(4, &[b"a\rb\rabcdefgh\rc"]),
        (
            b"a\nb\n\nc".to_vec(),
            vec![3],
            Ends {
                lf: 0,
                crlf: 0,
                cr: 3
            }
        )
    );
}

#[test]
fn a_skipped_line_is_never_held() {
    let mut g = LineGuard::with_cap(8);
    let mut out = Vec::new();
    g.feed(b"ok\n", &mut |b: &[u8]| out.extend_from_slice(b));
    for _ in 0..1000 {
        g.feed(&[b'A'; 64], &mut |b: &[u8]| out.extend_from_slice(b));
        assert!(g.held.capacity() <= 64, "{}", g.held.capacity());
    }
    g.feed(b"\nlast\n", &mut |b: &[u8]| out.extend_from_slice(b));
    g.finish(&mut |b: &[u8]| out.extend_from_slice(b));
    assert_eq!(
        (out.as_slice(), g.skipped.as_slice()),
        (&b"ok\n\nlast\n"[..], &[2][..])
    );
}

#[test]
fn mapping_lines() {
    let e = |lf, crlf, cr| Ends { lf, crlf, cr }.mapping();
    assert_eq!(e(5, 0, 0), None);
    assert_eq!(e(0, 5, 0), None);
    assert_eq!(
        e(0, 0, 3).as_deref(),
        Some("line endings: CR (classic Mac), read as line ends")
    );
    assert_eq!(
        e(2, 1, 1).as_deref(),
        Some("line endings: mixed (2 LF, 1 CRLF, 1 CR alone), each read as a line end")
    );
}
