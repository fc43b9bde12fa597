//! Plain CSV or TSV tables whose columns are SPEC §1's field names, with `probs` spread over
//! `p_<label>` columns (and `logprobs` over `logprob_<label>`): each row becomes the canonical
//! object it stands for and goes through the canonical item builder, so the rules are the same.
//!
//! List cells (`options`, a `multi` gold or answer, `scores`) are written `A|B|C` or as a JSON
//! list. An empty cell is an absent field. The table is read at the end (the `csv` crate reads
//! from a buffer), which is fine for files a spreadsheet can hold.

use crate::formats::canonical::item::{self as canonical_item, f, Fields, FIELDS};
use crate::formats::json::Val;
use crate::formats::lines::BOM;
use crate::formats::{Format, Meta, ReadOptions, Reader, Sink};
use crate::warning::Warning;
use std::borrow::Cow;

/// The CSV/TSV format.
pub struct CsvTable;

/// Columns whose cell is a list.
const LISTS: [&str; 2] = ["options", "scores"];
/// Columns whose cell is a number.
const NUMBERS: [&str; 4] = ["p_yes", "chosen", "rejected", "num_correct"];

fn delimiter(file: &str, header: &str) -> u8 {
    let tabs = header.matches('\t').count();
    if file.to_ascii_lowercase().ends_with(".tsv") || tabs > header.matches(',').count() {
        b'\t'
    } else {
        b','
    }
}

/// The header's column names, when the file's first line looks like one of ours.
fn header(file: &str, head: &[u8]) -> Option<(u8, Vec<String>)> {
    let body = head.strip_prefix(BOM).unwrap_or(head);
    let text = String::from_utf8_lossy(body);
    let first = text.lines().next()?;
    if first.trim_start().starts_with(['{', '[']) {
        return None;
    }
    let d = delimiter(file, first);
    let names: Vec<String> = first
        .split(char::from(d))
        .map(|c| c.trim().trim_matches('"').to_string())
        .collect();
    Some((d, names))
}

impl Format for CsvTable {
    fn name(&self) -> &'static str {
        "csv"
    }

    fn describe(&self) -> &'static str {
        "CSV or TSV with SPEC §1 column names (id, options, gold, answer, p_<label>, …)"
    }

    fn sniff(&self, file: &str, head: &[u8]) -> Option<u8> {
        let (_, names) = header(file, head)?;
        let has = |k: &str| names.iter().any(|n| n == k);
        let scorable = has("gold") || (has("chosen") && has("rejected")) || has("scores");
        (has("id") && scorable).then_some(15)
    }

    fn reader(&self, file: &str) -> Box<dyn Reader> {
        self.reader_with(file, &ReadOptions::default())
    }

    fn reads_fields(&self) -> bool {
        true
    }

    fn reader_with(&self, file: &str, options: &ReadOptions) -> Box<dyn Reader> {
        Box::new(CsvReader {
            file: file.to_string(),
            buffer: Vec::new(),
            cluster_field: options.cluster_field.clone(),
        })
    }
}

struct CsvReader {
    file: String,
    buffer: Vec<u8>,
    /// The column the user names as the items' cluster (`--cluster COLUMN`).
    cluster_field: Option<std::sync::Arc<str>>,
}

impl Reader for CsvReader {
    fn feed(&mut self, chunk: &[u8], _sink: &mut dyn Sink) {
        self.buffer.extend_from_slice(chunk);
    }

    fn finish(&mut self, sink: &mut dyn Sink) {
        let bytes = std::mem::take(&mut self.buffer);
        let body = bytes.strip_prefix(BOM).unwrap_or(&bytes);
        let Some((d, _)) = header(&self.file, body) else {
            return;
        };
        let mut rdr = csv::ReaderBuilder::new()
            .delimiter(d)
            .flexible(true)
            .from_reader(body);
        let names: Vec<String> = match rdr.headers() {
            Ok(h) => h.iter().map(|c| c.trim().to_string()).collect(),
            Err(e) => {
                let why = format!("the header row cannot be read: {e}");
                return sink.skip(Warning::new(&self.file, Some(1), why));
            }
        };
        let version = if d == b'\t' { "TSV" } else { "CSV" };
        sink.meta(Meta::FormatVersion, version);
        sink.meta(Meta::Mapping, "columns named as SPEC §1 fields; p_<label> columns are probs, logprob_<label> columns logprobs; A|B|C or a JSON list in list cells");
        let field = self.cluster_field.as_deref();
        let cluster = field.and_then(|c| names.iter().position(|n| n == c));
        if let (Some(name), Some(_)) = (field, cluster) {
            let line = format!(
                "clusters: the column `{name}` (an empty cell: the item is its own cluster)"
            );
            sink.meta(Meta::Mapping, &line);
        }
        let ignored: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|n| !(FIELDS.contains(n) || n.starts_with("p_") || n.starts_with("logprob_")))
            .filter(|n| Some(*n) != field)
            .collect();
        if !ignored.is_empty() {
            let line = format!(
                "columns that are no SPEC §1 field, ignored: {}",
                ignored.join(", ")
            );
            sink.meta(Meta::Mapping, &line);
        }
        let mut lines = LineCounter::default();
        let mut rows = 0u64;
        for record in rdr.records() {
            rows += 1;
            match record {
                Ok(r) => {
                    let line = r.position().map_or(0, |p| lines.at(body, p.byte()));
                    if r.len() != names.len() {
                        let why = format!(
                            "the row has {} fields, the header {}: {}",
                            r.len(),
                            names.len(),
                            if r.len() < names.len() {
                                "the missing ones count as empty"
                            } else {
                                "the extra ones are ignored"
                            }
                        );
                        sink.warn(Warning::new(&self.file, Some(line), why));
                    }
                    row(&self.file, line, &names, &r, cluster, sink);
                }
                Err(e) => {
                    let line = e.position().map(|p| lines.at(body, p.byte()));
                    // The crate's own message carries its lagging line count: name the field only.
                    let why = match e.kind() {
                        csv::ErrorKind::Utf8 { err, .. } => {
                            format!("not valid UTF-8 (field {})", err.field() + 1)
                        }
                        _ => format!("not a CSV row: {e}"),
                    };
                    sink.skip(Warning::new(&self.file, line, why));
                }
            }
        }
        if rows == 0 {
            let why = "the table has a header row and no rows";
            sink.warn(Warning::new(&self.file, None, why));
        }
    }
}

/// The physical line a record starts on. The csv crate's own count lags after a CRLF line end
/// (a record's position comes before the pending `\n`) and before blank lines, so lines are
/// counted here from the record's byte offset, past any line ends it starts with.
#[derive(Default)]
struct LineCounter {
    offset: usize,
    line: u64,
}

impl LineCounter {
    fn at(&mut self, body: &[u8], byte: u64) -> u64 {
        let mut at = usize::try_from(byte).unwrap_or(usize::MAX).min(body.len());
        while body.get(at).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            at += 1;
        }
        if at > self.offset {
            let newlines = body.get(self.offset..at).unwrap_or_default();
            self.line += newlines.iter().filter(|&&b| b == b'\n').count() as u64;
            self.offset = at;
        }
        self.line + 1
    }
}

/// A list cell: a JSON list, or `|`-separated values.
fn list(cell: &str) -> Val<'static> {
    if cell.starts_with('[') {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(cell) {
            if let Some(xs) = v.as_array() {
                return Val::List(xs.iter().map(json_leaf).collect());
            }
        }
    }
    Val::List(cell.split('|').map(|x| scalar(x.trim())).collect())
}

fn json_leaf(v: &serde_json::Value) -> Val<'static> {
    match v {
        serde_json::Value::String(s) => Val::Str(Cow::Owned(s.clone())),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map(Val::Int)
            .or_else(|| n.as_f64().map(Val::Float))
            .unwrap_or(Val::Null),
        serde_json::Value::Bool(b) => Val::Bool(*b),
        _ => Val::Null,
    }
}

/// A number cell as a number (integers stay integers), anything else as text.
fn scalar(cell: &str) -> Val<'static> {
    if let Ok(i) = cell.parse::<i64>() {
        return Val::Int(i);
    }
    match cell.parse::<f64>() {
        Ok(x) if !cell.is_empty() => Val::Float(x),
        _ => Val::Str(Cow::Owned(cell.to_string())),
    }
}

/// Turns a row into canonical fields and builds its item.
/// Reads one row; `cluster` is the column of the user's cluster field, when the header has it.
fn row(
    file: &str,
    line: u64,
    names: &[String],
    r: &csv::StringRecord,
    cluster: Option<usize>,
    sink: &mut dyn Sink,
) {
    let mut fields: Fields = std::array::from_fn(|_| None);
    let mut probs = Vec::new();
    let mut logprobs = Vec::new();
    let has_p_no = names.iter().any(|n| n == "p_no");
    let multi = names
        .iter()
        .position(|n| n == "type")
        .and_then(|i| r.get(i))
        .is_some_and(|t| t.trim() == "multi");
    for (name, cell) in names.iter().zip(r.iter()) {
        let cell = cell.trim();
        if cell.is_empty() {
            continue;
        }
        let label = |prefix: &str| {
            name.strip_prefix(prefix)
                .map(|l| Cow::<str>::Owned(l.to_string()))
        };
        if name == "p_yes" && !has_p_no {
            fields[f::P_YES] = Some(scalar(cell));
        } else if let Some(l) = label("p_") {
            probs.push((l, scalar(cell)));
        } else if let Some(l) = label("logprob_") {
            logprobs.push((l, scalar(cell)));
        } else if let Some(i) = FIELDS.iter().position(|k| k == name) {
            let multi_list = multi && (i == f::GOLD || i == f::ANSWER);
            fields[i] = Some(if LISTS.contains(&name.as_str()) || multi_list {
                list(cell)
            } else if NUMBERS.contains(&name.as_str()) {
                scalar(cell)
            } else {
                Val::Str(Cow::Owned(cell.to_string()))
            });
        }
    }
    if fields[f::OPTIONS].is_none() && !probs.is_empty() {
        let labels = probs.iter().map(|(l, _)| Val::Str(l.clone())).collect();
        fields[f::OPTIONS] = Some(Val::List(labels));
    }
    if !probs.is_empty() {
        fields[f::PROBS] = Some(Val::Map(probs));
    }
    if !logprobs.is_empty() {
        fields[f::LOGPROBS] = Some(Val::Map(logprobs));
    }
    for (i, key) in [(f::MODEL, Meta::Model), (f::BENCHMARK, Meta::Benchmark)] {
        if let Some(v) = canonical_item::meta(&fields, i) {
            sink.meta(key, v);
        }
    }
    let mut notes = Vec::new();
    match canonical_item::build(&fields, line, &mut notes) {
        Ok(mut item) => {
            if let Some(c) = cluster {
                let cell = r.get(c).map(str::trim).filter(|c| !c.is_empty());
                item.cluster = cell.map(Into::into);
            }
            for n in notes {
                sink.warn(Warning::new(file, Some(line), n));
            }
            sink.item(item);
        }
        Err(why) => sink.skip(Warning::new(file, Some(line), why)),
    }
}
