//! Formats read whole (a JSON document, an archive, a table) hold their file in memory, which a
//! browser tab cannot do past a size, while line-based ones stream. The worker holds a source to
//! a cap: a plain file by its size before it is read, and a compressed one by its decoded bytes
//! as they arrive (`Whole`), since its size says nothing of what it holds.

/// True when `format` reads a source whose first bytes are `head` whole: all but the line-based
/// readers (JSON Lines), and the canonical and lm-eval readers too when the file is one JSON
/// array, which they hold whole.
pub fn read_whole(format: &str, head: &[u8]) -> bool {
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
pub struct Whole {
    cap: u64,
    seen: u64,
    whole: bool,
}

impl Whole {
    /// A count for a source read by `format` (none: no reader, nothing held) from `head` on.
    pub fn new(format: Option<&str>, head: &[u8], cap: u64) -> Whole {
        Whole {
            cap,
            seen: 0,
            whole: format.is_some_and(|f| read_whole(f, head)),
        }
    }

    /// Counts `n` more bytes; false once they pass the cap (the source must stop there).
    pub fn add(&mut self, n: usize) -> bool {
        self.seen = self.seen.saturating_add(n as u64);
        !self.whole || self.seen <= self.cap
    }
}

/// Why the page stops at a file read whole past `cap` bytes: `size` is the plain file's, or
/// `None` for a compressed file whose decoded bytes passed the cap.
pub fn too_big(name: &str, size: Option<f64>, format: &str, cap: u64) -> String {
    let what = match size {
        Some(size) => format!("{name} is {:.1} GB", size / 1e9),
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

    #[test]
    fn documents_are_held_to_the_cap_and_lines_are_not() {
        // A JSON document (HELM's stats) of 3 bytes over a 10-byte cap, in pieces of 4.
        let mut doc = Whole::new(Some("helm-stats"), b"[{\"name\"", 10);
        assert!(doc.add(4) && doc.add(4));
        assert!(!doc.add(4), "12 bytes pass a cap of 10");
        let mut exact = Whole::new(Some("inspect"), b"PK\x03\x04", 8);
        assert!(
            exact.add(4) && exact.add(4),
            "8 bytes are within a cap of 8"
        );
        // JSON Lines stream, however long; a file no reader claims holds nothing.
        let mut lines = Whole::new(Some("scorelens"), b"{\"id\": 1}\n", 10);
        assert!(lines.add(1 << 30));
        assert!(Whole::new(None, b"", 10).add(1 << 30));
        // The canonical reader holds one JSON array whole, a BOM and spaces before it or not.
        assert!(!Whole::new(Some("scorelens"), b"\xEF\xBB\xBF \n[{", 10).add(11));
        assert!(!Whole::new(Some("lm-eval"), b"[", 10).add(11));
        assert!(Whole::new(Some("lm-eval"), b"{\"doc_id\"", 10).add(11));
    }

    #[test]
    fn the_message_says_what_passed_the_cap() {
        assert_eq!(
            too_big("run.json.gz", None, "helm-stats", 512 << 20),
            "run.json.gz holds more than 512 MB once decompressed: a helm-stats file is read \
             whole, and the page reads at most 512 MB of such a file (a browser tab cannot hold \
             more). JSON Lines files have no limit. The command line reads any size: scorelens \
             score run.json.gz"
        );
        assert_eq!(
            too_big("big.json", Some(6.1e8), "inspect", 512 << 20),
            "big.json is 0.6 GB: a inspect file is read whole, and the page reads at most 512 MB \
             of such a file (a browser tab cannot hold more). JSON Lines files have no limit. The \
             command line reads any size: scorelens score big.json"
        );
    }
}
