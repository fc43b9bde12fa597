//! Tables as GitHub-flavoured Markdown, for the CLI's `--format markdown` and the page's export:
//! a label from a user's file must read as text in any Markdown renderer, and in a terminal that
//! shows the Markdown as it is.

use super::{Cell, Table, Written};
use std::fmt::{self, Write};

/// Markdown: each table under a `###` heading, figures as a reader reads them (four decimals
/// unless the cell says otherwise), columns of plain figures aligned right.
pub fn markdown<C: Written>(tables: &[Table<C>]) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = markdown_into(tables, &mut out);
    out
}

/// `markdown` written to `out` a row at a time, for text too large to hold whole.
pub fn markdown_into<C: Written>(tables: &[Table<C>], out: &mut impl Write) -> fmt::Result {
    for t in tables {
        head_into(t, out)?;
        out.write_char('\n')?;
    }
    Ok(())
}

/// A table's heading, header and rows; the blank line after it is the caller's. Columns are
/// aligned by the rows given here.
pub(super) fn head_into<C: Written>(t: &Table<C>, out: &mut impl Write) -> fmt::Result {
    write!(out, "### {}\n\n", cell(&t.title))?;
    let head: Vec<String> = t.columns.iter().map(|c| cell(c)).collect();
    let align: String = (0..t.columns.len())
        .map(|i| if t.numeric(i) { "---:|" } else { "---|" })
        .collect();
    write!(out, "| {} |\n|{align}\n", head.join(" | "))?;
    rows_into(&t.rows, out)
}

/// Rows of a table, a line each.
pub(super) fn rows_into<C: Written>(rows: &[Vec<C>], out: &mut impl Write) -> fmt::Result {
    for r in rows {
        let cells: Vec<String> = r.iter().map(C::markdown).collect();
        writeln!(out, "| {} |", cells.join(" | "))?;
    }
    Ok(())
}

/// A cell as Markdown: text escaped, a figure with four decimals (a count without), `–` when it
/// does not apply.
pub(super) fn shown(c: &Cell) -> String {
    match c {
        Cell::Text(s) => cell(s),
        Cell::Num(None) => "–".to_string(),
        Cell::Num(_) => c.shown(),
    }
}

/// Escapes table syntax (`|`, `\`, line breaks) and HTML (`& < >`), since Markdown renderers pass
/// raw HTML through: `<img onerror=…>` in a group name must not become an element. Control and
/// bidirectional characters are then shown as escapes (`inert`), since Markdown is often read
/// raw in a terminal.
pub fn cell(s: &str) -> String {
    let escaped = s
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ");
    crate::inert::inert(&escaped).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_of_figures_align_right_and_text_is_escaped() {
        let table = Table {
            title: "A | B".into(),
            columns: vec!["group".into(), "accuracy".into()],
            rows: vec![
                vec!["<b>".into(), Cell::Num(Some(0.123456))],
                vec!["c".into(), Cell::Num(None)],
            ],
        };
        assert_eq!(
            markdown(&[table]),
            "### A \\| B\n\n| group | accuracy |\n|---|---:|\n| &lt;b&gt; | 0.1235 |\n| c | – |\n\n"
        );
    }

    #[test]
    fn html_and_table_syntax_read_as_text() {
        assert_eq!(
            cell("<img src=x onerror=alert(1)>|a\\b\r\nc & d"),
            "&lt;img src=x onerror=alert(1)&gt;\\|a\\\\b  c &amp; d"
        );
        assert_eq!(cell("plain text"), "plain text");
        assert_eq!(
            cell("\x1b[2J\u{202E}a\x07\u{9b}"),
            "\\u{1b}[2J\\u{202e}a\\u{7}\\u{9b}"
        );
    }
}
