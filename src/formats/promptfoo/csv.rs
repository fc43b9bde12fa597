//! promptfoo's CSV export (`promptfoo eval -o results.csv`): one row per test, in test order, its
//! vars as columns, and for each provider × prompt a group of columns: the output under
//! `[provider] prompt`, then `Status` (PASS, FAIL or ERROR), `Score`, `Named Scores` (JSON), one
//! column per metric, `Grader Reason` and `Comment`. A row's position is its test's index, the
//! `testIdx` of the JSON output, so the CSV joins the JSON's runs item for item.

use super::read::FileState;
use super::row::Row;
use crate::formats::{Meta, Sink};
use crate::warning::Warning;
use serde_json::Value;

/// The columns of one provider × prompt.
struct PartColumns {
    name: String,
    output: usize,
    status: usize,
    score: Option<usize>,
    named: Option<usize>,
}

/// Where things are in the export's header.
struct Layout {
    description: Option<usize>,
    vars: Vec<(usize, String)>,
    parts: Vec<PartColumns>,
    width: usize,
}

/// A header cell that heads a provider × prompt's output: `[provider] prompt`.
fn heads_part(cell: &str) -> bool {
    cell.starts_with('[') && cell.contains("] ")
}

fn layout(header: &csv::StringRecord) -> Option<Layout> {
    let cells: Vec<&str> = header.iter().collect();
    let starts: Vec<usize> = (0..cells.len())
        .filter(|&i| heads_part(cells[i]) && cells.get(i + 1) == Some(&"Status"))
        .collect();
    let first = *starts.first()?;
    let mut parts = Vec::new();
    for (k, &at) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(cells.len());
        let find = |name: &str| (at + 1..end).find(|&i| cells[i] == name);
        parts.push(PartColumns {
            name: cells[at].to_string(),
            output: at,
            status: at + 1,
            score: find("Score"),
            named: find("Named Scores"),
        });
    }
    let description = (0..first).find(|&i| cells[i] == "Description");
    let vars = (0..first)
        .filter(|&i| Some(i) != description)
        .map(|i| (i, cells[i].to_string()))
        .collect();
    Some(Layout {
        description,
        vars,
        parts,
        width: cells.len(),
    })
}

fn reader(body: &[u8]) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(body)
}

/// Whether `head` (a file's first bytes) starts with the export's header.
pub fn is_export(head: &[u8]) -> bool {
    !part_names(head).is_empty()
}

/// The provider × prompt columns the export's header names, in order.
pub fn part_names(head: &[u8]) -> Vec<String> {
    let text = head
        .strip_prefix(crate::formats::lines::BOM)
        .unwrap_or(head);
    if text.trim_ascii_start().starts_with(b"{") || text.trim_ascii_start().starts_with(b"[") {
        return Vec::new();
    }
    let mut record = csv::StringRecord::new();
    match reader(text).read_record(&mut record) {
        Ok(true) => {
            layout(&record).map_or_else(Vec::new, |l| l.parts.into_iter().map(|p| p.name).collect())
        }
        _ => Vec::new(),
    }
}

/// Reads the export: each row's tests, one per provider × prompt (or the selected one's).
pub fn read(body: &[u8], file: &mut FileState, sink: &mut dyn Sink) {
    let mut rows = reader(body);
    let mut record = csv::StringRecord::new();
    let layout = match rows.read_record(&mut record) {
        Ok(true) => layout(&record),
        _ => None,
    };
    let Some(layout) = layout else {
        let why = "no header naming a provider × prompt's columns (`[provider] prompt` followed by `Status`): nothing in it is scored";
        sink.skip(Warning::new(file.file, Some(1), why));
        return;
    };
    if file
        .part
        .is_some_and(|s| layout.parts.iter().any(|p| p.name == s))
    {
        file.name_model(sink);
    }
    let mut test = 0u64;
    loop {
        if sink.stopped() {
            return;
        }
        match rows.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let n = record.position().map_or(0, |p| p.line());
                row(&layout, &record, test, n, file, sink);
            }
            Err(e) => {
                let at = e.position().map(|p| p.line());
                sink.skip(Warning::new(file.file, at, format!("not a CSV row: {e}")));
            }
        }
        test += 1;
    }
}

/// One row: a test, scored once per provider × prompt.
fn row(
    layout: &Layout,
    record: &csv::StringRecord,
    test: u64,
    n: u64,
    file: &mut FileState,
    sink: &mut dyn Sink,
) {
    if record.len() < layout.width {
        let why = format!(
            "a row of {} cells where the header has {}: its tests are not scored",
            record.len(),
            layout.width
        );
        sink.skip(Warning::new(file.file, Some(n), why));
        return;
    }
    let cell = |i: usize| record.get(i).unwrap_or("");
    let description = layout
        .description
        .map(cell)
        .filter(|d| !d.is_empty())
        .map_or_else(|| format!("test {}", test + 1), str::to_string);
    let vars: Vec<(String, String)> = layout
        .vars
        .iter()
        .map(|(i, name)| (name.clone(), cell(*i).to_string()))
        .collect();
    for p in &layout.parts {
        if file.part.is_some_and(|s| s != p.name) {
            file.other_parts += 1;
            sink.meta(Meta::NotApplicable, "a result of another provider × prompt");
            continue;
        }
        let (success, errored) = match cell(p.status) {
            "PASS" => (true, false),
            "FAIL" => (false, false),
            "ERROR" => (false, true),
            other => {
                let why = format!(
                    "{}: status `{other}` is not PASS, FAIL or ERROR: the test is not scored",
                    p.name
                );
                sink.skip(Warning::new(file.file, Some(n), why));
                continue;
            }
        };
        let score = match p.score.map(cell).filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => match s.parse::<f64>() {
                Ok(x) if x.is_finite() => Some(x),
                _ => {
                    let why = format!(
                        "{}: score `{s}` is not a number: the test is scored, and left out of the mean score",
                        p.name
                    );
                    sink.warn(Warning::new(file.file, Some(n), why));
                    None
                }
            },
        };
        let named = match p.named.map(cell).filter(|s| !s.is_empty()) {
            None => Vec::new(),
            Some(s) => match serde_json::from_str::<Value>(s) {
                Ok(Value::Object(o)) => o
                    .iter()
                    .filter_map(|(k, x)| x.as_f64().map(|x| (k.clone(), x)))
                    .collect(),
                _ => {
                    let why = format!(
                        "{}: `Named Scores` is not a JSON object: left out of the named scores",
                        p.name
                    );
                    sink.warn(Warning::new(file.file, Some(n), why));
                    Vec::new()
                }
            },
        };
        let answer = (!errored).then(|| cell(p.output).to_string());
        let row = Row {
            part: p.name.clone(),
            test,
            success,
            errored,
            score,
            named,
            answer,
            description: description.clone(),
            vars: vars.clone(),
        };
        file.take(row, n, sink);
    }
}
