//! Where the reliability diagram's parts go, in SVG user units: one geometry for the page's diagram
//! and the HTML report's, so that the two stay the same picture. Numbers only, no markup.

/// Width of the drawing.
pub const W: f64 = 560.0;
/// Room left of the plot for the accuracy ticks and label.
pub const LEFT: f64 = 52.0;
pub const RIGHT: f64 = 16.0;
pub const TOP: f64 = 14.0;
/// Height of the accuracy-against-confidence square's plot area.
pub const PLOT: f64 = 300.0;
/// Between the plot and the histogram: the confidence ticks and label.
pub const GAP: f64 = 44.0;
/// Height of the count histogram.
pub const HIST: f64 = 70.0;
/// Width of the plot area.
pub const PW: f64 = W - LEFT - RIGHT;
/// Top of the count histogram.
pub const HIST_TOP: f64 = TOP + PLOT + GAP;

/// The drawing's height with `bottom` units under the histogram (a face keeps what it needs there).
pub const fn height(bottom: f64) -> f64 {
    HIST_TOP + HIST + bottom
}

/// The horizontal position of confidence `c` (clamped to 0..1).
pub fn x(c: f64) -> f64 {
    LEFT + c.clamp(0.0, 1.0) * PW
}

/// The vertical position of accuracy `a` (clamped to 0..1); 1 is at the top.
pub fn y(a: f64) -> f64 {
    TOP + (1.0 - a.clamp(0.0, 1.0)) * PLOT
}

/// The count histogram's row for series `s` of `n` drawn one above the other: its baseline and
/// height. One series has the whole histogram.
pub fn hist_row(s: usize, n: usize) -> (f64, f64) {
    let row = HIST / n.max(1) as f64;
    (HIST_TOP + row * (s as f64 + 1.0), row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plot_spans_its_box() {
        assert_eq!((x(0.0), x(1.0)), (52.0, 544.0));
        assert_eq!(x(1.0), W - RIGHT);
        assert_eq!((y(1.0), y(0.0)), (14.0, 314.0));
        assert_eq!((x(-0.5), x(2.0)), (x(0.0), x(1.0)));
        assert_eq!(x(0.5), 298.0);
        assert_eq!(height(8.0), 436.0);
        assert_eq!(height(34.0), 462.0);
    }

    #[test]
    fn histogram_rows_tile_the_histogram() {
        assert_eq!(hist_row(0, 1), (HIST_TOP + HIST, HIST));
        assert_eq!(hist_row(0, 2), (393.0, 35.0));
        assert_eq!(hist_row(1, 2), (428.0, 35.0));
        assert_eq!(hist_row(1, 2).0, HIST_TOP + HIST);
        assert_eq!(hist_row(0, 0), hist_row(0, 1));
    }
}
