//! The report's intervals as tables: the bootstrap's (when asked for) and Wilson's.

use scorelens::table::Table;
use scorelens::Report;

fn cell(x: f64) -> String {
    format!("{x:.4}")
}

fn span(lo: f64, hi: f64) -> String {
    format!("{lo:.4} to {hi:.4}")
}

/// "Bootstrap intervals" when the report has them, then "Wilson intervals".
pub fn tables(r: &Report) -> Vec<Table> {
    let mut out = Vec::new();
    if let Some(b) = &r.intervals.bootstrap {
        out.push(Table::text(format!(
                "Bootstrap intervals ({:.0}%, {} percentile resamples, seed {}, strata: {} ({}), units: {} ({}))",
                b.level * 100.0,
                b.resamples,
                b.seed,
                b.strata,
                b.strata_count,
                b.units,
                b.unit_count
            ), ["figure", "value", "interval", "se"]
                .map(String::from)
                .to_vec(), b
                .figures
                .0
                .iter()
                .map(|(name, f)| {
                    let mut interval = span(f.lo, f.hi);
                    if f.undefined > 0 {
                        interval += &format!(" ({} resamples undefined)", f.undefined);
                    }
                    vec![name.clone(), cell(f.estimate), interval, cell(f.se)]
                })
                .collect()));
    }
    if !r.intervals.wilson.0.is_empty() {
        out.push(Table::text(
            format!(
                "Wilson intervals ({:.0}%) of the accuracies",
                r.intervals.level * 100.0
            ),
            ["accuracy", "interval"].map(String::from).to_vec(),
            r.intervals
                .wilson
                .0
                .iter()
                .map(|(name, i)| vec![name.clone(), span(i.lo, i.hi)])
                .collect(),
        ));
    }
    out
}
