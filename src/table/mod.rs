//! The one table model both faces lay the report out in: a title, column names and rows of
//! cells; the CLI prints it (aligned text, CSV, Markdown), the page exports it (CSV, Markdown).
//!
//! A cell is text, or a figure kept as a number, so that each writer chooses its precision:
//! CSV keeps every digit, Markdown four decimals.

pub mod csv;
pub mod markdown;

pub use self::csv::{csv, csv_into};
pub use self::markdown::{markdown, markdown_into};

/// One table: a title, column names and rows of cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// A cell: text as it is shown, or a figure that may not apply.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Num(Option<f64>),
}

impl Table {
    /// A table whose cells are already written as text (the CLI formats its own figures).
    pub fn text(title: impl Into<String>, columns: Vec<String>, rows: Vec<Vec<String>>) -> Table {
        Table {
            title: title.into(),
            columns,
            rows: rows
                .into_iter()
                .map(|r| r.into_iter().map(Cell::Text).collect())
                .collect(),
        }
    }

    /// Whether every cell of column `i` is a number (and there is a row): such a column is
    /// aligned right.
    pub fn numeric(&self, i: usize) -> bool {
        !self.rows.is_empty()
            && self
                .rows
                .iter()
                .all(|r| matches!(r.get(i), Some(Cell::Num(_))))
    }
}

impl Cell {
    /// The cell as plain text: a figure with four decimals (a count without), `-` when it does
    /// not apply.
    pub fn shown(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Num(None) => "-".to_string(),
            Cell::Num(Some(v)) if whole(*v) => format!("{v:.0}"),
            Cell::Num(Some(v)) => format!("{v:.4}"),
        }
    }
}

/// A whole number small enough to write without a decimal point (a count).
fn whole(v: f64) -> bool {
    v.fract() == 0.0 && v.abs() < 1e15
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

impl From<Option<f64>> for Cell {
    fn from(v: Option<f64>) -> Self {
        Cell::Num(v)
    }
}

impl From<u64> for Cell {
    fn from(v: u64) -> Self {
        Cell::Num(Some(v as f64))
    }
}
