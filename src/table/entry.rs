//! A cell of a report's table: text from the report, or a figure that knows its precision.

use super::csv::field;
use super::markdown::cell;
use super::{Figure, Written};

/// Text as it is shown (a name, a description), or a figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Text(String),
    Figure(Figure),
}

impl Written for Entry {
    fn shown(&self) -> String {
        match self {
            Entry::Text(s) => s.clone(),
            Entry::Figure(f) => f.shown(),
        }
    }

    /// Text guarded and quoted; a figure with every digit, guarded too, since an interval with
    /// a negative end (`-0.01 to 0.2`) would start as a formula does.
    fn csv(&self) -> String {
        match self {
            Entry::Text(s) => field(s),
            Entry::Figure(f) => field(&f.exact()),
        }
    }

    fn markdown(&self) -> String {
        cell(&self.shown())
    }

    /// Never: a report's Markdown has always aligned every column left, and its figures keep
    /// that, so that the Markdown of a run reads the same from one version to the next.
    fn right(&self) -> bool {
        false
    }
}

impl From<&str> for Entry {
    fn from(s: &str) -> Self {
        Entry::Text(s.to_string())
    }
}

impl From<String> for Entry {
    fn from(s: String) -> Self {
        Entry::Text(s)
    }
}

impl From<Figure> for Entry {
    fn from(f: Figure) -> Self {
        Entry::Figure(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{csv, markdown, Table};

    fn table() -> Table<Entry> {
        Table::new(
            "Figures",
            &["figure", "value", "items"],
            vec![
                vec![
                    "accuracy".into(),
                    Figure::share(Some(0.123456)).into(),
                    Figure::count(240u64).into(),
                ],
                vec![
                    "=cmd".into(),
                    Figure::share(None).into(),
                    Figure::Count(None).into(),
                ],
            ],
        )
    }

    #[test]
    fn csv_keeps_every_digit_and_markdown_four_decimals() {
        assert_eq!(
            csv(&[table()]),
            "# Figures\nfigure,value,items\naccuracy,0.123456,240\n'=cmd,,\n\n"
        );
        assert_eq!(
            markdown(&[table()]),
            "### Figures\n\n| figure | value | items |\n|---|---|---|\n\
             | accuracy | 0.1235 | 240 |\n| =cmd | - | - |\n\n"
        );
    }

    #[test]
    fn a_negative_interval_is_not_read_as_a_formula() {
        let e = Entry::Figure(Figure::interval(-0.25, 0.5));
        assert_eq!(e.csv(), "'-0.25 to 0.5");
        assert_eq!(e.shown(), "-0.2500 to 0.5000");
    }
}
