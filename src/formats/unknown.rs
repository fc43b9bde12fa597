//! What to tell a user whose file no reader claims: what the file looks like, what to do about it,
//! and the formats scorelens reads, named as the tools' users know them.
//!
//! The message is all a user gets when a drop fails, so it names the thing they have (a gzip file,
//! a PowerShell UTF-16 file, a Parquet table, a web page) rather than what it is not.

use super::{first_keys, lines, HEAD};

/// The formats scorelens reads, in the words of the tools' own documentation.
pub const READS: &str = "scorelens reads lm-eval samples files (--log_samples) and results files, \
Inspect logs (.eval or .json), HELM run folders, RewardBench results, JevBench and Decision Bench \
files, OpenAI evals logs, promptfoo results (eval -o results.json or .jsonl), OpenAI Evals API output \
items (pages, arrays or JSON Lines) and run objects, CSV or TSV tables, and scorelens JSON Lines \
(docs/formats.md)";

/// What the first bytes of an unclaimed file look like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Looks {
    Empty,
    BlankLines {
        whole_head: bool,
    },
    Gzip,
    Zstd,
    Zip,
    Parquet,
    Pdf,
    Utf16 {
        big_endian: bool,
    },
    Html,
    NotUtf8,
    Binary,
    /// A first line that is a table but lacks the columns a table needs.
    Table,
    /// JSON whose first object has these keys.
    Json(Vec<String>),
    /// Text that is neither JSON nor a table.
    Text,
}

/// Classifies the first bytes (up to `HEAD`) of a file no reader claims.
pub fn looks(head: &[u8]) -> Looks {
    if head.starts_with(b"\x1f\x8b") {
        return Looks::Gzip;
    }
    if head.starts_with(b"\x28\xb5\x2f\xfd") {
        return Looks::Zstd;
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Looks::Zip;
    }
    if head.starts_with(b"PAR1") {
        return Looks::Parquet;
    }
    if head.starts_with(b"%PDF-") {
        return Looks::Pdf;
    }
    if let Some(big_endian) = utf16(head) {
        return Looks::Utf16 { big_endian };
    }
    let body = head.strip_prefix(lines::BOM).unwrap_or(head);
    if body.is_empty() {
        return Looks::Empty;
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Looks::BlankLines {
            whole_head: head.len() >= HEAD,
        };
    }
    // Text in any 8-bit encoding has no control bytes besides tab, line ends, form feed and ESC.
    let control = |c: &u8| matches!(c, 0..=8 | 0x0e..=0x1a | 0x1c..=0x1f);
    if body.iter().take(4096).any(control) {
        return Looks::Binary;
    }
    let start = trim_ascii_start(body);
    if starts_with_ignore_case(start, b"<!doctype html") || starts_with_ignore_case(start, b"<html")
    {
        return Looks::Html;
    }
    if std::str::from_utf8(valid_prefix(body)).is_err() {
        return Looks::NotUtf8;
    }
    let keys = first_keys(head);
    if !keys.is_empty() || serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok() {
        return Looks::Json(keys);
    }
    let first_line = body.split(|&b| b == b'\n').next().unwrap_or_default();
    let printable = std::str::from_utf8(valid_prefix(first_line))
        .is_ok_and(|t| !t.chars().any(|c| c.is_control() && c != '\t' && c != '\r'));
    if !printable {
        return Looks::Binary;
    }
    let json_like = start.starts_with(b"{") || start.starts_with(b"[");
    if !json_like && (first_line.contains(&b',') || first_line.contains(&b'\t')) {
        return Looks::Table;
    }
    Looks::Text
}

/// The message for a file no reader claims: what it is; what to do. What scorelens reads.
pub fn unknown_format(head: &[u8]) -> String {
    let what = match looks(head) {
        // Nothing to convert: the file holds no data at all.
        Looks::Empty => return "the file is empty; nothing to score".to_string(),
        Looks::BlankLines { whole_head } => {
            let much = if whole_head {
                " in its first 64 KiB"
            } else {
                ""
            };
            return format!("the file holds only blank lines{much}; nothing to score");
        }
        // Sources are decoded before detection, so what is left is gzip inside gzip.
        Looks::Gzip => "a gzip-compressed file inside another compressed file: decompress it \
            (gunzip FILE.gz) and drop the result"
            .to_string(),
        Looks::Zstd => "a zstd-compressed file inside another compressed file: decompress it \
            (zstd -d FILE.zst) and drop the result"
            .to_string(),
        Looks::Zip => "a zip archive that is not an Inspect log: unzip it and drop its files \
            or its folder"
            .to_string(),
        // A Parquet file of its own is decoded before detection by the CLI and the page; one
        // reaches here from inside a zip or a compressed file, or in the embedded widget.
        Looks::Parquet => "a Parquet table where it is not read (inside a zip or a compressed \
            file, or given to the embedded widget): drop the .parquet file itself on the page or \
            give it to the command-line tool, or write it as JSON Lines (pandas: \
            read_parquet(FILE).to_json(OUT, orient=\"records\", lines=True))"
            .to_string(),
        Looks::Pdf => {
            "a PDF document, not a results file: drop the file the evaluation wrote".to_string()
        }
        Looks::Utf16 { big_endian } => format!(
            "text in UTF-16 ({}), which scorelens does not read: save it as UTF-8 (in \
             PowerShell, write it with Out-File -Encoding utf8 instead of >) and drop it again",
            if big_endian {
                "big-endian"
            } else {
                "little-endian, as Windows PowerShell's > writes"
            }
        ),
        Looks::Html => "an HTML page, not a results file (a viewer's page saved from the \
            browser, or an error page downloaded in the file's place): drop the results file \
            itself"
            .to_string(),
        Looks::NotUtf8 => "text that is not UTF-8 (perhaps Latin-1 or Windows-1252): save it \
            as UTF-8 and drop it again"
            .to_string(),
        Looks::Binary => {
            "a binary file, not text: drop the results file the evaluation wrote".to_string()
        }
        Looks::Table => "a table whose first line is no header scorelens reads: a CSV or TSV \
            table needs an `id` column and `gold`, `chosen` and `rejected`, or `scores`"
            .to_string(),
        Looks::Json(keys) if keys.is_empty() => {
            "JSON with no object of named fields at its start (an empty object, a list of \
            numbers or strings): drop the results file the evaluation wrote"
                .to_string()
        }
        Looks::Json(keys) => format!(
            "JSON whose first keys are {}, a layout no reader knows: if a tool wrote it, name \
             the tool in an issue, or convert it to scorelens JSON Lines",
            keys.join(", ")
        ),
        Looks::Text => "text that is neither JSON nor a table: drop the results file the \
            evaluation wrote"
            .to_string(),
    };
    format!("not a file scorelens reads: {what}. {READS}")
}

/// `Some(big_endian)` when the bytes start with a UTF-16 byte-order mark, or look like UTF-16
/// text without one (ASCII with every other byte zero).
fn utf16(head: &[u8]) -> Option<bool> {
    if head.starts_with(b"\xff\xfe") {
        return Some(false);
    }
    if head.starts_with(b"\xfe\xff") {
        return Some(true);
    }
    let pairs = head.chunks_exact(2).take(64);
    let n = pairs.len();
    if n < 2 {
        return None;
    }
    let (mut low_zero, mut high_zero) = (0, 0);
    for p in head.chunks_exact(2).take(64) {
        if p[1] == 0 && p[0] != 0 {
            low_zero += 1;
        }
        if p[0] == 0 && p[1] != 0 {
            high_zero += 1;
        }
    }
    if low_zero == n {
        Some(false)
    } else if high_zero == n {
        Some(true)
    } else {
        None
    }
}

/// The bytes up to the last complete UTF-8 character: a 64 KiB head may cut one in two.
fn valid_prefix(b: &[u8]) -> &[u8] {
    match std::str::from_utf8(b) {
        Ok(_) => b,
        Err(e) if e.error_len().is_none() => &b[..e.valid_up_to()],
        Err(_) => b,
    }
}

fn trim_ascii_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

fn starts_with_ignore_case(b: &[u8], prefix: &[u8]) -> bool {
    b.len() >= prefix.len() && b[..prefix.len()].eq_ignore_ascii_case(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn what(head: &[u8]) -> String {
        let m = unknown_format(head);
        let tail = format!(". {READS}");
        m.strip_prefix("not a file scorelens reads: ")
            .and_then(|m| m.strip_suffix(&tail))
            .unwrap_or(&m)
            .to_string()
    }

    #[test]
    fn each_kind_is_named() {
        assert_eq!(looks(b""), Looks::Empty);
        assert_eq!(looks(b"\xEF\xBB\xBF"), Looks::Empty);
        assert_eq!(looks(b"\n \n"), Looks::BlankLines { whole_head: false });
        assert_eq!(looks(b"\x1f\x8b\x08\x00"), Looks::Gzip);
        assert_eq!(looks(b"\x28\xb5\x2f\xfd\x00"), Looks::Zstd);
        assert_eq!(looks(b"PK\x03\x04rest"), Looks::Zip);
        assert_eq!(looks(b"PAR1\x15\x04"), Looks::Parquet);
        assert_eq!(looks(b"%PDF-1.7\n"), Looks::Pdf);
        assert_eq!(
            looks(b"\xff\xfe{\0\"\0"),
            Looks::Utf16 { big_endian: false }
        );
        assert_eq!(looks(b"\xfe\xff\0{\0\""), Looks::Utf16 { big_endian: true });
        // No BOM, but every other byte zero: PowerShell 7 with -Encoding unicode and no BOM.
        assert_eq!(
            looks(b"{\0\"\0i\0d\0\"\0"),
            Looks::Utf16 { big_endian: false }
        );
        assert_eq!(looks(b"  <!DOCTYPE html><p>{\"id\":1}"), Looks::Html);
        assert_eq!(looks(b"<html lang=en>"), Looks::Html);
        assert_eq!(looks(b"{\"id\": \"caf\xe9\"}"), Looks::NotUtf8);
        assert_eq!(looks(b"\x01\x02\x00\x03"), Looks::Binary);
        assert_eq!(looks(b"name,score\na,1\n"), Looks::Table);
        assert_eq!(
            looks(b"{\"prompt\": \"p\", \"completion\": \"c\"}\n"),
            Looks::Json(vec!["prompt".into(), "completion".into()])
        );
        assert_eq!(looks(b"hello\nworld\n"), Looks::Text);
        assert_eq!(looks(b"{}"), Looks::Json(vec![]));
        assert_eq!(looks(b"[1, 2]"), Looks::Json(vec![]));
    }

    #[test]
    fn a_utf8_character_cut_by_the_head_is_still_utf8() {
        // "é" is C3 A9; a head that ends after C3 is valid text cut short, not Latin-1.
        assert_eq!(looks(b"hello \xc3"), Looks::Text);
    }

    #[test]
    fn the_messages_say_what_to_do() {
        assert_eq!(unknown_format(b""), "the file is empty; nothing to score");
        assert_eq!(
            what(b"\x1f\x8b\x08\x00"),
            "a gzip-compressed file inside another compressed file: decompress it (gunzip \
             FILE.gz) and drop the result"
        );
        assert_eq!(
            what(b"\xff\xfe{\0"),
            "text in UTF-16 (little-endian, as Windows PowerShell's > writes), which scorelens \
             does not read: save it as UTF-8 (in PowerShell, write it with Out-File -Encoding \
             utf8 instead of >) and drop it again"
        );
        assert_eq!(
            what(b"{\"prompt\": 1, \"score\": 2}"),
            "JSON whose first keys are prompt, score, a layout no reader knows: if a tool wrote \
             it, name the tool in an issue, or convert it to scorelens JSON Lines"
        );
        let m = unknown_format(b"PAR1");
        assert!(
            m.starts_with("not a file scorelens reads: a Parquet table"),
            "{m}"
        );
        assert!(m.ends_with("CSV or TSV tables, and scorelens JSON Lines (docs/formats.md)"));
        // No internal reader names such as `helm-per-instance-stats` reach the user.
        assert!(
            !m.contains("helm-") && !m.contains("lm-eval-results"),
            "{m}"
        );
    }
}
