//! A report's figure with its display precision: rounded for a reader, every digit in CSV.

/// A figure and its display precision. A figure that does not apply is `None`: `-` for a reader,
/// an empty CSV field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Figure {
    /// Shown with this many decimals: 4 for a share, 2 for a 0-100 score or a design effect, 3
    /// for a histogram's edge.
    Decimals(Option<f64>, usize),
    /// A share shown as a percentage with this many decimals, as a leaderboard prints it; CSV
    /// writes the percentage with every digit.
    Percent(Option<f64>, usize),
    /// Shown with every digit everywhere: a value that was given, not measured (a weight).
    Exact(Option<f64>),
    /// A count: no decimals anywhere.
    Count(Option<u64>),
    /// Two ends joined by `sep`, each with `decimals` (`0.100-0.200` for a bin or a Wilson
    /// interval, `0.1234 to 0.5678` for an interval), and how many resamples left the figure
    /// undefined, said after the interval when there were some.
    Span {
        ends: Option<(f64, f64)>,
        decimals: usize,
        sep: &'static str,
        undefined: u64,
    },
    /// A margin either side of a figure: `± 0.0123`.
    Margin(f64, usize),
}

impl Figure {
    /// A share with four decimals, the report's usual precision.
    pub fn share(v: Option<f64>) -> Figure {
        Figure::Decimals(v, 4)
    }

    /// A count.
    pub fn count(n: impl Into<u64>) -> Figure {
        Figure::Count(Some(n.into()))
    }

    /// An interval written `lo to hi` with four decimals.
    pub fn interval(lo: f64, hi: f64) -> Figure {
        Figure::Span {
            ends: Some((lo, hi)),
            decimals: 4,
            sep: " to ",
            undefined: 0,
        }
    }

    /// A bin or a Wilson interval written `lo-hi` with three decimals (equal-mass edges are data,
    /// so they are not round numbers).
    pub fn edges(ends: Option<(f64, f64)>) -> Figure {
        Figure::Span {
            ends,
            decimals: 3,
            sep: "-",
            undefined: 0,
        }
    }

    /// As a reader reads it: rounded to its precision; `-` when it does not apply.
    pub fn shown(&self) -> String {
        self.write(false)
    }

    /// With every digit (Rust's shortest text that reads back the same value), for CSV; empty
    /// when it does not apply.
    pub fn exact(&self) -> String {
        self.write(true)
    }

    /// The one writer behind both, so that a reader's text and the CSV field differ only in
    /// their digits and in how they say that a figure does not apply.
    fn write(&self, exact: bool) -> String {
        let num = |v: f64, d: usize| {
            if exact {
                format!("{v}")
            } else {
                format!("{v:.d$}")
            }
        };
        let none = if exact { "" } else { "-" };
        match *self {
            Figure::Decimals(Some(v), d) => num(v, d),
            Figure::Percent(Some(v), d) => num(100.0 * v, d),
            Figure::Exact(Some(v)) => format!("{v}"),
            Figure::Count(Some(n)) => n.to_string(),
            Figure::Span {
                ends: Some((lo, hi)),
                decimals: d,
                sep,
                undefined,
            } => {
                let mut s = format!("{}{sep}{}", num(lo, d), num(hi, d));
                if undefined > 0 {
                    s += &format!(" ({undefined} resamples undefined)");
                }
                s
            }
            Figure::Margin(v, d) => format!("± {}", num(v, d)),
            Figure::Decimals(None, _)
            | Figure::Percent(None, _)
            | Figure::Exact(None)
            | Figure::Count(None)
            | Figure::Span { ends: None, .. } => none.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_is_rounded_for_the_eye_and_exact_for_csv() {
        let f = Figure::share(Some(0.123456));
        assert_eq!(f.shown(), "0.1235");
        assert_eq!(f.exact(), "0.123456");
        let f = Figure::share(Some(0.1 + 0.2));
        assert_eq!(f.shown(), "0.3000");
        assert_eq!(f.exact(), "0.30000000000000004");
        assert_eq!(Figure::share(Some(1.0)).shown(), "1.0000");
        assert_eq!(Figure::share(Some(1.0)).exact(), "1");
        assert_eq!(Figure::Decimals(Some(61.256), 2).shown(), "61.26");
        assert_eq!(Figure::Decimals(Some(61.256), 2).exact(), "61.256");
    }

    #[test]
    fn a_count_has_no_decimals_anywhere() {
        assert_eq!(Figure::count(240u64).shown(), "240");
        assert_eq!(Figure::count(240u64).exact(), "240");
        assert_eq!(Figure::count(0u32).shown(), "0");
    }

    #[test]
    fn a_missing_figure_is_a_dash_for_a_reader_and_empty_in_csv() {
        for f in [
            Figure::share(None),
            Figure::Percent(None, 1),
            Figure::Exact(None),
            Figure::Count(None),
            Figure::edges(None),
        ] {
            assert_eq!(f.shown(), "-", "{f:?}");
            assert_eq!(f.exact(), "", "{f:?}");
        }
    }

    #[test]
    fn a_percentage_bin_interval_and_margin_as_worked_by_hand() {
        let p = Figure::Percent(Some(0.8766), 1);
        assert_eq!(p.shown(), "87.7");
        assert_eq!(p.exact(), format!("{}", 100.0 * 0.8766));
        let bin = Figure::edges(Some((0.1, 0.2)));
        assert_eq!(bin.shown(), "0.100-0.200");
        assert_eq!(bin.exact(), "0.1-0.2");
        let em = Figure::edges(Some((0.123456, 0.98765)));
        assert_eq!(em.shown(), "0.123-0.988");
        assert_eq!(em.exact(), "0.123456-0.98765");
        let i = Figure::interval(-0.0123456, 0.5);
        assert_eq!(i.shown(), "-0.0123 to 0.5000");
        assert_eq!(i.exact(), "-0.0123456 to 0.5");
        let undefined = Figure::Span {
            ends: Some((0.25, 0.75)),
            decimals: 4,
            sep: " to ",
            undefined: 3,
        };
        assert_eq!(
            undefined.shown(),
            "0.2500 to 0.7500 (3 resamples undefined)"
        );
        assert_eq!(undefined.exact(), "0.25 to 0.75 (3 resamples undefined)");
        assert_eq!(Figure::Margin(0.012345, 4).shown(), "± 0.0123");
        assert_eq!(Figure::Margin(0.012345, 4).exact(), "± 0.012345");
        assert_eq!(Figure::Exact(Some(0.5)).shown(), "0.5");
        assert_eq!(Figure::Exact(Some(2.0)).shown(), "2");
    }
}
