//! How I and C are made from a file's own counts, for their headline tooltips: each type's CC by
//! its formula when one tier makes it (binary: "2 × (40% decided right − 50%)", with the share that
//! abstained), else its tier weights; C from each type's ECE, TVD and RPS.

use crate::fmt::{self, Kind};
use crate::metrics::ic::figures::{ScopeFigures, TypeFigures};

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

pub fn i_how(o: &ScopeFigures) -> String {
    let parts: Vec<String> = types(o).iter().map(|(n, t)| cc_how(n, t)).collect();
    format!(
        "I = the mean of each item type's chance-corrected competence (CC), over {}: {}. I weighted 50/25/25 is {}.",
        fmt::plural(o.items, "item", "items"),
        parts.join("; "),
        fmt::show(o.i_weighted, Kind::Points)
    )
}

pub fn c_how(o: &ScopeFigures) -> String {
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
