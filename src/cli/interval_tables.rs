//! The report's intervals as tables: the bootstrap's (when asked for) and Wilson's.

use scorelens::table::Table;
use scorelens::Report;

fn cell(x: f64) -> String {
    format!("{x:.4}")
}

fn span(lo: f64, hi: f64) -> String {
    format!("{lo:.4} to {hi:.4}")
}

/// With `--cluster`: each mean figure's clustered standard error and planning figures, and
/// Wilson's intervals on the effective number of items.
fn clustered(c: &scorelens::report::clustered::Clustered) -> Vec<Table> {
    let deff = c.design_effect.map_or(String::new(), |d| {
        format!(", accuracy's design effect {d:.2}")
    });
    let figures = Table::text(
        format!(
            "Clustered standard errors (by {}: {} items in {} independent units, {:.1} per unit{deff}). {}",
            c.field,
            c.items,
            c.clusters,
            c.mean_size,
            scorelens::report::planning::of(c).sentence
        ),
        [
            "figure",
            "value",
            "se",
            "se if independent",
            "design effect",
            "95% interval",
            "detectable (80% power)",
            "items to halve",
        ]
        .map(String::from)
        .to_vec(),
        c.figures
            .0
            .iter()
            .map(|(name, f)| {
                vec![
                    name.clone(),
                    cell(f.value),
                    cell(f.se),
                    cell(f.se_iid),
                    format!("{:.2}", f.design_effect),
                    span(f.lo, f.hi),
                    format!("± {}", cell(f.mde)),
                    f.items_to_halve.to_string(),
                ]
            })
            .collect(),
    );
    let wilson = Table::text(
        "Wilson intervals (95%) on the effective number of items (n / design effect)".to_string(),
        ["accuracy", "interval"].map(String::from).to_vec(),
        c.wilson
            .0
            .iter()
            .map(|(name, i)| vec![name.clone(), span(i.lo, i.hi)])
            .collect(),
    );
    vec![figures, wilson]
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
    if let Some(c) = &r.intervals.clustered {
        out.extend(clustered(c));
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
