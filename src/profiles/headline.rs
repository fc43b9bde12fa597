//! Which figures lead a report, per profile, and how each is made from the file's own counts:
//! the one rule every face follows (the CLI's headline table, the page's first cards, the
//! widget's summary, the HTML report), so that they never disagree on what the headline is.
//!
//! steer leads with macro normalized; RewardBench with its overall and sections; the I/C
//! benchmarks (JevBench, CMDB, Decision Bench) with I and C; generic with accuracy, ECE and I/C
//! where they apply.

use super::ic::how::{c_how, i_how};
use crate::fmt::{self, Kind};
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

/// Each profile's lead, by name; a profile not listed leads as `generic` does. The names are
/// written out rather than read from `PROFILES`: reading that table would link every profile's
/// scoring code into the page, which only shows reports (a test checks the names).
pub const LEADS: &[(&str, Lead)] = &[
    ("steer", Lead::MacroNormalized),
    ("rewardbench", Lead::RewardBench),
    ("rewardbench2", Lead::RewardBench),
    ("jevbench-public-231", Lead::Ic),
    ("jevbench-hard-111", Lead::Ic),
    ("cmdb-1500", Lead::Ic),
    ("decision-bench", Lead::Ic),
];

/// What leads the report of `profile`.
pub fn lead(profile: &str) -> Lead {
    LEADS
        .iter()
        .find(|(name, _)| *name == profile)
        .map_or(Lead::Generic, |(_, lead)| *lead)
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
    let lead = lead(&r.profile);
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

/// Every figure a report's cards show: the headline first, then accuracy, normalized, the
/// calibration figures (when the items carry probabilities), invalid share and outside mass,
/// each once and each with how it is made from the file's counts.
pub fn cards(r: &Report) -> Vec<Figure> {
    let mut out = headline(r);
    let probs = r.conditioning.items > 0;
    let m = &r.metrics;
    let c = &r.conditioning;
    let with = fmt::plural(c.items, "item", "items");
    let mut rest = vec![accuracy(r), normalized(r)];
    if probs {
        rest.push(ece(r));
        rest.push(figure(
            "brier",
            "Brier",
            "conditioning.brier",
            c.brier,
            Kind::Score,
            format!(
                "Over {with} with probabilities: the mean over items of the squared error against the one-hot gold, averaged over the options = {}; 0 is perfect.",
                fmt::show(c.brier, Kind::Score)
            ),
        ));
        rest.push(figure(
            "epa",
            "EPA",
            "conditioning.epa",
            c.epa,
            Kind::Score,
            format!(
                "Over {with} with probabilities: the mean probability put on the gold option = {}.",
                fmt::show(c.epa, Kind::Score)
            ),
        ));
    }
    let (_, items) = counts(r);
    rest.push(figure(
        "invalid_share",
        "Invalid answers",
        "metrics.invalid_share",
        m.invalid_share,
        Kind::Share,
        format!(
            "{} of {} have an answer that is missing or not one of the options = {}; they count as wrong.",
            // The share is a count over `items`: rounding gives the count back.
            fmt::count((m.invalid_share.unwrap_or(0.0) * items as f64).round() as u64),
            fmt::plural(items, "item", "items"),
            fmt::show(m.invalid_share, Kind::Share)
        ),
    ));
    if probs {
        rest.push(figure(
            "outside_mass",
            "Outside mass",
            "metrics.outside_mass",
            m.outside_mass,
            Kind::Score,
            format!(
                "Over {with} with probabilities: the mean of 1 − the total on the valid options = {}. Mixing spreads it over the options; conditioning renormalises it away.",
                fmt::show(m.outside_mass, Kind::Score)
            ),
        ));
    }
    for f in rest {
        if !out.iter().any(|o| o.key == f.key) {
            out.push(f);
        }
    }
    out
}

fn normalized(r: &Report) -> Figure {
    let (_, items) = counts(r);
    figure(
        "normalized",
        "Normalized",
        "metrics.normalized",
        r.metrics.normalized,
        Kind::Score,
        format!(
            "Chance-corrected accuracy over {}: 1 when right, −c/(1−c) when wrong (c = 1/options), averaged = {}; guessing scores 0.",
            fmt::plural(items, "item", "items"),
            fmt::show(r.metrics.normalized, Kind::Score)
        ),
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::Profile;

    #[test]
    fn every_lead_names_a_profile_and_every_profile_but_generic_has_one() {
        for (name, _) in LEADS {
            assert_eq!(Profile::parse(name).map(|p| p.name), Some(*name));
        }
        for p in Profile::all() {
            let listed = LEADS.iter().any(|(n, _)| *n == p.name);
            assert_eq!(listed, p.name != "generic", "{}", p.name);
        }
        assert_eq!(lead("steer"), Lead::MacroNormalized);
        assert_eq!(lead("no-such-profile"), Lead::Generic);
    }
}
