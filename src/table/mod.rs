//! The one table model every face lays its tables out in: a title, column names and rows of
//! cells; the CLI prints it (aligned text, CSV, Markdown), the page exports it (CSV, Markdown).
//!
//! A cell is text or a figure, so that each writer chooses its precision. A report's cells
//! (`Entry`, laid out by `crate::layout`) carry how a reader sees each figure: four decimals, a
//! count, a bin's edges; a comparison's and a leaderboard's (`Cell`) are plain figures written with
//! four decimals. CSV writes every figure with every digit, so a spreadsheet gets the exact value.

pub mod csv;
mod entry;
mod figure;
pub mod markdown;
pub mod pieces;

pub use self::csv::{csv, csv_into};
pub use self::entry::Entry;
pub use self::figure::Figure;
pub use self::markdown::{markdown, markdown_into};
pub use self::pieces::{Piece, PieceWriter};

/// One table: a title, column names and rows of cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Table<C = Cell> {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<C>>,
}

/// A cell: text as it is shown, or a figure that may not apply.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Num(Option<f64>),
}

/// What the writers ask of a cell. A trait rather than one enum of every kind, so that the page,
/// which writes only a comparison's `Cell`s, carries none of a report's formats.
pub trait Written {
    /// As a reader reads it, in aligned text: text as it is, a figure rounded for the eye.
    fn shown(&self) -> String;
    /// As a CSV field: quoted and guarded text, a figure with every digit.
    fn csv(&self) -> String;
    /// As a Markdown cell: escaped text, a figure as `shown`.
    fn markdown(&self) -> String;
    /// Whether the cell is a figure whose column a Markdown or HTML table aligns right.
    fn right(&self) -> bool;
}

impl<C> Table<C> {
    /// A table of cells already made.
    pub fn new(title: impl Into<String>, columns: &[&str], rows: Vec<Vec<C>>) -> Table<C> {
        Table {
            title: title.into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows,
        }
    }
}

impl Table {
    /// A table whose cells are already written as text.
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
}

impl<C: Written> Table<C> {
    /// Whether every cell of column `i` is a figure aligned right (and there is a row).
    pub fn numeric(&self, i: usize) -> bool {
        !self.rows.is_empty() && self.rows.iter().all(|r| r.get(i).is_some_and(C::right))
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

impl Written for Cell {
    fn shown(&self) -> String {
        Cell::shown(self)
    }

    fn csv(&self) -> String {
        csv::cell(self)
    }

    fn markdown(&self) -> String {
        markdown::shown(self)
    }

    fn right(&self) -> bool {
        matches!(self, Cell::Num(_))
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
