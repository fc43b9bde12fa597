//! Formats read whole (a JSON document, an archive, a table) hold their file in memory, which a
//! browser tab cannot do past a size, while line-based ones stream. A caller that sets a cap
//! (`Options::whole_cap`: the page) has a source held to it: a plain file by its size before it
//! is read, and a compressed one by its decoded bytes as they arrive (`Whole`), since its size
//! says nothing of what it holds.

use crate::Error;

/// True when `format` reads a source whose first bytes are `head` whole: all but the line-based
/// readers (JSON Lines), and the canonical and lm-eval readers too when the file is one JSON
/// array, which they hold whole.
pub(crate) fn read_whole(format: &str, head: &[u8]) -> bool {
    let array = head
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(head)
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        == Some(&b'[');
    match format {
        "scorelens" | "lm-eval" => array,
        "openai-evals" | "jevbench" | "decision-bench" | "rewardbench-outputs" => false,
        _ => true,
    }
}

/// Decoded bytes of one source counted against a cap, when its format reads it whole.
#[derive(Debug, Clone)]
pub(crate) struct Whole {
    /// `None`: no cap.
    cap: Option<u64>,
    seen: u64,
    /// The format, when it reads the source whole.
    whole: Option<&'static str>,
}

impl Whole {
    /// A count for a source read by `format` (none: no reader, nothing held) from `head` on.
    pub(crate) fn new(format: Option<&'static str>, head: &[u8], cap: Option<u64>) -> Whole {
        Whole {
            cap,
            seen: 0,
            whole: format.filter(|f| read_whole(f, head)),
        }
    }

    /// Counts `n` more bytes; false once they pass the cap (the source must stop there).
    pub(crate) fn add(&mut self, n: usize) -> bool {
        self.seen = self.seen.saturating_add(n as u64);
        match (self.whole, self.cap) {
            (Some(_), Some(cap)) => self.seen <= cap,
            _ => true,
        }
    }

    /// True when a plain file of `size` bytes passes the cap before a byte is read.
    pub(crate) fn over(&self, size: u64) -> bool {
        matches!((self.whole, self.cap), (Some(_), Some(cap)) if size > cap)
    }

    /// The error of a source named `name` that passed the cap: `size` is the plain file's, or
    /// `None` for a compressed file whose decoded bytes passed it.
    pub(crate) fn too_big_at(&self, name: &str, size: Option<u64>) -> Error {
        let cap = self.cap.unwrap_or(u64::MAX);
        Error::TooBig {
            file: name.to_string(),
            why: too_big(name, size, self.whole.unwrap_or_default(), cap),
        }
    }

    /// `too_big_at` for decoded bytes.
    pub(crate) fn too_big(&self, name: &str) -> Error {
        self.too_big_at(name, None)
    }
}

/// Why the page stops at a file read whole past `cap` bytes: `size` is the plain file's, or
/// `None` for a compressed file whose decoded bytes passed the cap.
fn too_big(name: &str, size: Option<u64>, format: &str, cap: u64) -> String {
    let what = match size {
        Some(size) => format!("{name} is {:.1} GB", size as f64 / 1e9),
        None => format!("{name} holds more than {} MB once decompressed", cap >> 20),
    };
    format!(
        "{what}: a {format} file is read whole, and the page reads at most {} MB of such a file \
         (a browser tab cannot hold more). JSON Lines files have no limit. The command line \
         reads any size: scorelens score {name}",
        cap >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAP: Option<u64> = Some(10);

    #[test]
    fn documents_are_held_to_the_cap_and_lines_are_not() {
        // A JSON document (HELM's stats) of 3 bytes over a 10-byte cap, in pieces of 4.
        let mut doc = Whole::new(Some("helm-stats"), b"[{\"name\"", CAP);
        assert!(doc.add(4) && doc.add(4));
        assert!(!doc.add(4), "12 bytes pass a cap of 10");
        let mut exact = Whole::new(Some("inspect"), b"PK\x03\x04", Some(8));
        assert!(
            exact.add(4) && exact.add(4),
            "8 bytes are within a cap of 8"
        );
        // JSON Lines stream, however long; a file no reader claims holds nothing.
        let mut lines = Whole::new(Some("scorelens"), b"{\"id\": 1}\n", CAP);
        assert!(lines.add(1 << 30));
        assert!(Whole::new(None, b"", CAP).add(1 << 30));
        // The canonical reader holds one JSON array whole, a BOM and spaces before it or not.
        assert!(!Whole::new(Some("scorelens"), b"\xEF\xBB\xBF \n[{", CAP).add(11));
        assert!(!Whole::new(Some("lm-eval"), b"[", CAP).add(11));
        assert!(Whole::new(Some("lm-eval"), b"{\"doc_id\"", CAP).add(11));
        // No cap (the command line): any size.
        assert!(Whole::new(Some("helm-stats"), b"[", None).add(usize::MAX));
        assert!(!Whole::new(Some("helm-stats"), b"[", None).over(u64::MAX));
        assert!(Whole::new(Some("helm-stats"), b"[", CAP).over(11));
        assert!(!Whole::new(Some("helm-stats"), b"[", CAP).over(10));
    }

    #[test]
    fn the_message_says_what_passed_the_cap() {
        let cap = Some(512 << 20);
        assert_eq!(
            Whole::new(Some("helm-stats"), b"[", cap)
                .too_big("run.json.gz")
                .to_string(),
            "run.json.gz holds more than 512 MB once decompressed: a helm-stats file is read \
             whole, and the page reads at most 512 MB of such a file (a browser tab cannot hold \
             more). JSON Lines files have no limit. The command line reads any size: scorelens \
             score run.json.gz"
        );
        assert_eq!(
            Whole::new(Some("inspect"), b"{", cap)
                .too_big_at("big.json", Some(610_000_000))
                .to_string(),
            "big.json is 0.6 GB: a inspect file is read whole, and the page reads at most 512 MB \
             of such a file (a browser tab cannot hold more). JSON Lines files have no limit. The \
             command line reads any size: scorelens score big.json"
        );
    }
}
