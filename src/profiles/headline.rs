//! Which figures lead a report, per profile, and how each is made from the file's own counts:
//! the one rule every face follows (the CLI's headline table, the page's first cards, the
//! widget's summary, the HTML report), so that they never disagree on what the headline is.
//!
//! steer leads with macro normalized; RewardBench with its overall and sections; the I/C
//! benchmarks (JevBench, CMDB, Decision Bench) with I and C; generic with accuracy, ECE and I/C
//! where they apply.

use super::Profile;
use crate::fmt::{self, Kind};
use crate::metrics::ic_figures::{ScopeFigures, TypeFigures};
use crate::report::Report;

/// What leads a profile's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lead {
    /// Accuracy, then ECE when the items carry probabilities, then I and C when they apply.
    Generic,
    /// Macro normalized accuracy: the mean over groups (STEER's elements).
    MacroNormalized,
    /// The benchmark's overall score, then its sections.
    RewardBench,
    /// I and C.
    Ic,
}

/// One headline figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// A stable name for tests and styles, e.g. `macro_normalized`, `i`, `rb-section-0`.
    pub key: String,
    pub label: String,
    /// The figure's report path, e.g. `metrics.accuracy`, `conditioning.ece`, `ic.i`.
    pub path: String,
    pub value: Option<f64>,
    pub kind: Kind,
    /// How the figure is made, with this file's counts.
    pub how: String,
}

fn figure(
    key: &str,
    label: &str,
    path: &str,
    value: Option<f64>,
    kind: Kind,
    how: String,
) -> Figure {
    Figure {
        key: key.to_string(),
        label: label.to_string(),
        path: path.to_string(),
        value,
        kind,
        how,
    }
}

/// The report's headline figures, leading figure first.
pub fn headline(r: &Report) -> Vec<Figure> {
    let lead = Profile::parse(&r.profile).map_or(Lead::Generic, |p| p.lead);
    let mut out = Vec::new();
    match lead {
        Lead::MacroNormalized => {
            out.push(macro_normalized(r));
            out.push(accuracy(r));
        }
        Lead::RewardBench => out.extend(rewardbench(r)),
        Lead::Ic => out.extend(ic(r)),
        Lead::Generic => {
            out.push(accuracy(r));
            if r.conditioning.items > 0 {
                out.push(ece(r));
            }
            out.extend(ic(r));
        }
    }
    // A profile whose own figures are missing from this file (no I/C item, no RewardBench
    // subset) still leads with what the file has.
    if out.iter().all(|f| f.value.is_none()) && lead != Lead::Generic {
        out.push(accuracy(r));
    }
    out
}

/// Correct items and items over every group (credit may be fractional).
fn counts(r: &Report) -> (f64, u64) {
    let correct = r.groups.iter().map(|g| g.correct).sum();
    (correct, r.groups.iter().map(|g| g.items).sum())
}

fn credit(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        fmt::count(x as u64)
    } else {
        fmt::number(x, 2)
    }
}

fn accuracy(r: &Report) -> Figure {
    let (correct, items) = counts(r);
    let mut how = format!(
        "Exact match: {} right of {} = {}.",
        credit(correct),
        fmt::plural(items, "item", "items"),
        fmt::show(r.metrics.accuracy, Kind::Share)
    );
    if let Some(inv) = r.metrics.invalid_share.filter(|v| *v > 0.0) {
        how += &format!(
            " An invalid answer counts as wrong ({} of the items).",
            fmt::show(Some(inv), Kind::Share)
        );
    }
    figure(
        "accuracy",
        "Accuracy",
        "metrics.accuracy",
        r.metrics.accuracy,
        Kind::Share,
        how,
    )
}

fn macro_normalized(r: &Report) -> Figure {
    let shown: Vec<String> = r
        .groups
        .iter()
        .filter(|g| g.normalized.is_some())
        .take(4)
        .map(|g| format!("{} {}", g.name, fmt::show(g.normalized, Kind::Score)))
        .collect();
    let n = r.groups.iter().filter(|g| g.normalized.is_some()).count() as u64;
    let more = if n > shown.len() as u64 { ", …" } else { "" };
    let how = format!(
        "The mean over {} of normalized accuracy (1 if right, −c/(1−c) if wrong; guessing scores 0): {}{more} → {}. The item-weighted normalized is {}.",
        fmt::plural(n, "group", "groups"),
        shown.join(", "),
        fmt::show(r.metrics.macro_normalized, Kind::Score),
        fmt::show(r.metrics.normalized, Kind::Score)
    );
    figure(
        "macro_normalized",
        "Macro normalized",
        "metrics.macro_normalized",
        r.metrics.macro_normalized,
        Kind::Score,
        how,
    )
}

fn ece(r: &Report) -> Figure {
    let c = &r.conditioning;
    let worst = c
        .bins
        .iter()
        .filter_map(|b| Some((b, (b.accuracy? - b.confidence?).abs())))
        .max_by(|x, y| x.1.total_cmp(&y.1));
    let mut how = format!(
        "Over {} with probabilities, in 10 equal-width confidence bins: the item-weighted mean of |accuracy − mean confidence| per bin = {}.",
        fmt::plural(c.items, "item", "items"),
        fmt::show(c.ece, Kind::Score)
    );
    if let Some((b, gap)) = worst {
        how += &format!(
            " The largest gap is {} in the bin {}–{} ({}).",
            fmt::show(Some(gap), Kind::Score),
            fmt::number(b.lo, 1),
            fmt::number(b.hi, 1),
            fmt::plural(b.count, "item", "items")
        );
    }
    figure("ece", "ECE", "conditioning.ece", c.ece, Kind::Score, how)
}

fn ic(r: &Report) -> Vec<Figure> {
    let Some(ic) = &r.ic else {
        return Vec::new();
    };
    let o = &ic.overall;
    if o.items == 0 {
        return Vec::new();
    }
    vec![
        figure("i", "I", "ic.i", o.i, Kind::Points, i_how(o)),
        figure("c", "C", "ic.c", o.c, Kind::Points, c_how(o)),
    ]
}

fn types(o: &ScopeFigures) -> Vec<(&'static str, &TypeFigures)> {
    let t = &o.types;
    [
        ("choice", &t.choice),
        ("binary", &t.binary),
        ("rating", &t.rating),
    ]
    .into_iter()
    .filter_map(|(n, t)| t.as_ref().map(|t| (n, t)))
    .collect()
}

/// One type's CC from its counts: the formula when one tier makes it, else its tier weights.
fn cc_how(name: &str, t: &TypeFigures) -> String {
    let cc = fmt::show(t.cc, Kind::Points);
    if let Some(s) = &t.splits {
        return format!(
            "{name} {cc} = 0.5 × open {} + 0.5 × sealed {}",
            fmt::show(s.open.cc, Kind::Points),
            fmt::show(s.sealed.cc, Kind::Points)
        );
    }
    let tiers = t.tiers.present();
    if let [(_, tier)] = tiers.as_slice() {
        let acc = fmt::show(tier.accuracy, Kind::Share);
        return match (name, tier.chance, tier.nmae, tier.nmae_chance) {
            ("binary", _, _, _) => {
                let mut s = format!("{name} {cc} = 2 × ({acc} decided right − 50%)");
                if let Some(a) = t.abstention_rate.filter(|a| *a > 0.0) {
                    s += &format!(
                        "; {} abstained (q_yes between 0.2 and 0.8), which counts as wrong",
                        fmt::show(Some(a), Kind::Share)
                    );
                }
                s
            }
            (_, Some(c), _, _) => format!(
                "{name} {cc} = 100 × ({acc} right − {} chance) / (1 − {})",
                fmt::show(Some(c), Kind::Share),
                fmt::show(Some(c), Kind::Share)
            ),
            (_, None, Some(n), Some(nc)) => format!(
                "{name} {cc} = 100 × (1 − nMAE {} / chance nMAE {})",
                fmt::show(Some(n), Kind::Score),
                fmt::show(Some(nc), Kind::Score)
            ),
            _ => format!("{name} {cc}"),
        };
    }
    let parts: Vec<String> = tiers
        .iter()
        .map(|(n, tier)| {
            format!(
                "{:.2} × {n} {}",
                tier.weight,
                fmt::show(tier.cc, Kind::Points)
            )
        })
        .collect();
    format!("{name} {cc} = {}", parts.join(" + "))
}

fn i_how(o: &ScopeFigures) -> String {
    let parts: Vec<String> = types(o).iter().map(|(n, t)| cc_how(n, t)).collect();
    format!(
        "I = the mean of each item type's chance-corrected competence (CC), over {}: {}. I weighted 50/25/25 is {}.",
        fmt::plural(o.items, "item", "items"),
        parts.join("; "),
        fmt::show(o.i_weighted, Kind::Points)
    )
}

fn c_how(o: &ScopeFigures) -> String {
    let parts: Vec<String> = types(o)
        .iter()
        .filter(|(_, t)| t.c.is_some())
        .map(|(n, t)| {
            let mut inputs = Vec::new();
            if let Some(e) = t.ece {
                inputs.push(format!("ECE {}", fmt::show(Some(e), Kind::Score)));
            }
            if let Some(v) = t.tvd {
                inputs.push(format!("TVD {}", fmt::show(Some(v), Kind::Score)));
            }
            if let Some(v) = t.rps {
                inputs.push(format!("RPS {}", fmt::show(Some(v), Kind::Score)));
            }
            format!(
                "{n} {} ({})",
                fmt::show(t.c, Kind::Points),
                inputs.join(", ")
            )
        })
        .collect();
    let mut s = format!(
        "C = the mean of each type's calibration part, an ECE E scoring max(0, 100 × (1 − 2E)) and a distance D scoring 100 × (1 − D): {}.",
        parts.join("; ")
    );
    if let Some(e) = o.pooled_ece {
        s += &format!(
            " The choice ECE term is the pooled choice+binary ECE {} over {}.",
            fmt::show(Some(e), Kind::Score),
            fmt::plural(o.pooled_items, "item", "items")
        );
    }
    s
}

fn rewardbench(r: &Report) -> Vec<Figure> {
    let Some(rb) = &r.rewardbench else {
        return Vec::new();
    };
    let sections: Vec<String> = rb
        .section_details
        .iter()
        .filter(|s| s.name != "Prior Sets")
        .map(|s| format!("{} {}", s.name, fmt::show(s.score, Kind::Share)))
        .collect();
    let how = format!(
        "The mean of the {}: ({}) / {} = {}.",
        if rb.version == "rewardbench2" {
            "six subsets"
        } else {
            "four sections"
        },
        sections.join(" + "),
        sections.len(),
        fmt::show(rb.overall, Kind::Share)
    );
    let mut out = vec![figure(
        "rb-overall",
        "Overall",
        "rewardbench.overall",
        rb.overall,
        Kind::Share,
        how,
    )];
    if rb.overall_with_prior_sets.is_some() {
        out.push(figure(
            "rb-overall-prior",
            "With prior sets",
            "rewardbench.overall_with_prior_sets",
            rb.overall_with_prior_sets,
            Kind::Share,
            "The first leaderboard's weighting: (2 Chat + 2 Chat Hard + 2 Safety + 2 Reasoning + Prior Sets) / 9.".to_string(),
        ));
    }
    for (i, s) in rb.section_details.iter().enumerate() {
        let subsets: Vec<String> = rb
            .subset_details
            .iter()
            .filter(|d| d.section.as_deref() == Some(s.name.as_str()))
            .map(|d| match (d.credit, d.weight) {
                (Some(c), Some(w)) if rb.version != "rewardbench2" => format!(
                    "{} {} of {} right (weight {})",
                    d.name,
                    credit(c),
                    fmt::count(d.items),
                    credit(w)
                ),
                (Some(c), _) => format!(
                    "{} {} of {}",
                    d.name,
                    credit(c),
                    fmt::plural(d.items, "item", "items")
                ),
                _ => format!("{} {}", d.name, fmt::show(d.score, Kind::Share)),
            })
            .collect();
        let rule = if rb.version == "rewardbench2" {
            "its subset's score"
        } else {
            "its subsets' accuracies weighted by the official example counts"
        };
        out.push(figure(
            &format!("rb-section-{i}"),
            &s.name,
            &format!("rewardbench.sections.{}", s.name),
            s.score,
            Kind::Share,
            format!("{}: {rule}: {}.", s.name, subsets.join("; ")),
        ));
    }
    out
}
