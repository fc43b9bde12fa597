//! Tables handed over a piece at a time, so that a writer need not hold a table of 200,000 rows
//! (the groups of a file grouped by item id): the table with its first rows, then more rows.

use super::{csv, markdown, Table, Written};
use std::fmt::{self, Write};

/// A piece of a table: the table with its first rows, or more rows of the table started last.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece<C> {
    Start(Table<C>),
    More(Vec<Vec<C>>),
}

/// Writes pieces as CSV and Markdown, byte for byte as `csv_into` and `markdown_into` write the
/// whole tables. Markdown aligns a table's columns by its first piece's rows, so a table is cut
/// into pieces only where every row has the same kinds of cells.
pub struct PieceWriter<A, B> {
    csv: A,
    md: B,
    open: bool,
}

impl<A: Write, B: Write> PieceWriter<A, B> {
    pub fn new(csv: A, md: B) -> Self {
        PieceWriter {
            csv,
            md,
            open: false,
        }
    }

    pub fn piece<C: Written>(&mut self, p: &Piece<C>) -> fmt::Result {
        match p {
            Piece::Start(t) => {
                self.close()?;
                csv::head_into(t, &mut self.csv)?;
                markdown::head_into(t, &mut self.md)?;
                self.open = true;
            }
            Piece::More(rows) => {
                csv::rows_into(rows, &mut self.csv)?;
                markdown::rows_into(rows, &mut self.md)?;
            }
        }
        Ok(())
    }

    /// The blank line after the table started last.
    fn close(&mut self) -> fmt::Result {
        if std::mem::take(&mut self.open) {
            self.csv.write_char('\n')?;
            self.md.write_char('\n')?;
        }
        Ok(())
    }

    /// The two writers, the last table closed.
    pub fn finish(mut self) -> Result<(A, B), fmt::Error> {
        self.close()?;
        Ok((self.csv, self.md))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{csv_into, markdown_into, Cell};

    fn rows(from: usize, to: usize) -> Vec<Vec<Cell>> {
        (from..to)
            .map(|i| {
                vec![
                    Cell::Text(format!("g,{i}")),
                    Cell::Num(Some(i as f64 / 3.0)),
                ]
            })
            .collect()
    }

    /// Two tables, the second in three pieces, write what the whole tables write.
    #[test]
    fn pieces_write_the_whole_tables_bytes() {
        let first = Table::new("One", &["a", "b"], rows(0, 2));
        let second = Table::new("Two | <b>", &["group", "value"], rows(0, 7));
        let (mut csv, mut md) = (String::new(), String::new());
        let whole = [first.clone(), second.clone()];
        csv_into(&whole, &mut csv).unwrap();
        markdown_into(&whole, &mut md).unwrap();
        let mut w = PieceWriter::new(String::new(), String::new());
        let head = Table::new("Two | <b>", &["group", "value"], rows(0, 3));
        for p in [
            Piece::Start(first),
            Piece::Start(head),
            Piece::More(rows(3, 5)),
            Piece::More(rows(5, 7)),
        ] {
            w.piece(&p).unwrap();
        }
        let (c, m) = w.finish().unwrap();
        assert_eq!(c, csv);
        assert_eq!(m, md);
        assert!(c.contains("\"g,6\",2\n\n") && c.ends_with("\n\n"), "{c}");
    }
}
