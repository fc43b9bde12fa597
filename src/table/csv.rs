//! Tables as CSV, for the CLI's `--format csv` and the page's export: each table under a
//! `# title` line, figures with every digit, and a label from a user's file that a spreadsheet
//! would run as a formula (CSV injection) opened as text, in a cell or in a title.

use super::{Cell, Table, Written};
use std::borrow::Cow;
use std::fmt::{self, Write};

/// CSV: each table as a `# title` line (`title_line`), its header and rows, then a blank line.
/// Fields are quoted when they hold a comma, a quote or a line break, as the `csv` crate quotes
/// them.
pub fn csv<C: Written>(tables: &[Table<C>]) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = csv_into(tables, &mut out);
    out
}

/// `csv` written to `out` a record at a time, for text too large to hold whole (the browser's
/// worker writes a report of 200,000 groups straight into a Blob).
pub fn csv_into<C: Written>(tables: &[Table<C>], out: &mut impl Write) -> fmt::Result {
    for t in tables {
        head_into(t, out)?;
        out.write_char('\n')?;
    }
    Ok(())
}

/// A table's title line, header and rows; the blank line after it is the caller's.
pub(super) fn head_into<C: Written>(t: &Table<C>, out: &mut impl Write) -> fmt::Result {
    out.write_str(&title_line(&t.title))?;
    record(out, t.columns.iter().map(|c| field(c)).collect())?;
    rows_into(&t.rows, out)
}

/// Rows of a table, a record each.
pub(super) fn rows_into<C: Written>(rows: &[Vec<C>], out: &mut impl Write) -> fmt::Result {
    for r in rows {
        record(out, r.iter().map(C::csv).collect())?;
    }
    Ok(())
}

/// The line above a table: `# title`, one field, so that a spreadsheet reads it as one cell
/// that starts with `#`. Titles carry run and group names, and a title such as
/// `a,=HYPERLINK(…) (A) vs b (B)` written bare would put a formula in the line's second cell, and
/// a line break in a name would start a record: such a title line is quoted whole.
pub fn title_line(title: &str) -> String {
    field(&format!("# {title}")) + "\n"
}

/// One record; a lone empty field is written `""`, or the line would read as no record.
fn record(out: &mut impl Write, fields: Vec<String>) -> fmt::Result {
    if let [only] = fields.as_slice() {
        if only.is_empty() {
            return out.write_str("\"\"\n");
        }
    }
    out.write_str(&fields.join(","))?;
    out.write_char('\n')
}

/// A text field: guarded, then quoted when it must be.
pub(super) fn field(s: &str) -> String {
    let s = guard(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.into_owned()
    }
}

/// A cell: text as a field; a figure with every digit (the shortest text that reads back the
/// same, as JavaScript writes it), a whole number (a count) without `.0`, nothing when it does
/// not apply.
pub(super) fn cell(c: &Cell) -> String {
    match c {
        Cell::Text(s) => field(s),
        Cell::Num(Some(v)) if v.fract() == 0.0 && v.abs() < 9e15 => format!("{v:.0}"),
        Cell::Num(Some(v)) => format!("{v:?}"),
        Cell::Num(None) => String::new(),
    }
}

/// `s` with a leading `'` when it starts as a formula would (`=`, `+`, `-`, `@`, a tab or a
/// carriage return) and is not a number: spreadsheets show the `'` as "this is text" and run
/// nothing. Numbers such as `-0.25`, and a lone sign (the CLI's `-` for "no value"), are left as
/// they are. Quoting is the writer's business.
pub fn guard(s: &str) -> Cow<'_, str> {
    let risky = s.len() > 1 && s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && s.parse::<f64>().is_err() {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_tables_are_quoted_as_the_csv_crate_quotes() {
        let rows = vec![
            vec![
                "a,b".to_string(),
                "say \"hi\"".to_string(),
                "two\nlines".to_string(),
            ],
            vec!["cr\r".to_string(), "=1+1".to_string(), String::new()],
            vec!["plain".to_string(), "-0.5".to_string(), "é ü".to_string()],
        ];
        let table = Table::text(
            "T",
            vec!["x".into(), "y, z".into(), "w".into()],
            rows.clone(),
        );
        let mut w = ::csv::Writer::from_writer(Vec::new());
        w.write_record(["x", "y, z", "w"]).unwrap();
        for r in &rows {
            w.write_record(r.iter().map(|c| guard(c).into_owned()))
                .unwrap();
        }
        let want = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(csv(&[table]), format!("# T\n{want}\n"));
    }

    #[test]
    fn figures_keep_every_digit_and_counts_no_point() {
        let table = Table {
            title: "T".into(),
            columns: vec!["f".into(), "v".into()],
            rows: vec![
                vec!["a".into(), Cell::Num(Some(0.1 + 0.2))],
                vec!["n".into(), 240u64.into()],
                vec!["none".into(), Cell::Num(None)],
            ],
        };
        assert_eq!(
            csv(&[table]),
            "# T\nf,v\na,0.30000000000000004\nn,240\nnone,\n\n"
        );
    }

    #[test]
    fn a_title_is_one_cell_that_starts_with_a_hash() {
        assert_eq!(title_line("Figures"), "# Figures\n");
        assert_eq!(
            title_line("a,=HYPERLINK(\"x\") (A) vs @b (B): 3 common items"),
            "\"# a,=HYPERLINK(\"\"x\"\") (A) vs @b (B): 3 common items\"\n"
        );
        assert_eq!(title_line("x\n=1+1"), "\"# x\n=1+1\"\n");
        let table = Table::text("-a, +b", vec!["=c".into()], vec![vec!["@d".into()]]);
        let text = csv(&[table]);
        assert_eq!(text, "\"# -a, +b\"\n'=c\n'@d\n\n");
        let mut r = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let cells: Vec<String> = r
            .records()
            .flat_map(|rec| rec.unwrap().iter().map(String::from).collect::<Vec<_>>())
            .collect();
        assert_eq!(cells, ["# -a, +b", "'=c", "'@d"]);
    }

    #[test]
    fn formulas_open_as_text_and_numbers_stay_numbers() {
        for (given, want) in [
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("+1+2", "'+1+2"),
            ("-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "'\r=1"),
            ("-0.25", "-0.25"),
            ("+3", "+3"),
            ("-1e-9", "-1e-9"),
            ("group a", "group a"),
            ("a=b", "a=b"),
            ("-", "-"),
            ("=", "="),
            ("", ""),
        ] {
            assert_eq!(guard(given), want, "{given:?}");
        }
    }
}
