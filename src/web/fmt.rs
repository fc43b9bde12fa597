//! How figures are written on screen: fixed precision per kind, a dash for a figure that does not apply.
//!
//! Shares (accuracy, invalid share) are percentages with one decimal; scores in [0, 1] or beyond
//! (ECE, Brier, EPA, NLL, normalized, outside mass) keep three decimals. `exact` gives the full
//! value for `data-value`, so tests can compare what is shown with the CLI to the last bit.

/// What a figure measures, which fixes how it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A share in [0, 1] shown as a percentage.
    Share,
    /// A score shown with three decimals.
    Score,
    /// A 0-100 score (I and C) shown with one decimal.
    Points,
}

/// The dash shown for a figure that does not apply.
pub const NA: &str = "–";

pub fn show(v: Option<f64>, kind: Kind) -> String {
    match (v, kind) {
        (None, _) => NA.to_string(),
        (Some(x), Kind::Share) => format!("{:.1}%", x * 100.0),
        (Some(x), Kind::Score) => format!("{x:.3}"),
        (Some(x), Kind::Points) => format!("{x:.1}"),
    }
}

/// A signed difference with the kind's precision (the conditioning-versus-mixing table).
pub fn diff(a: Option<f64>, b: Option<f64>, kind: Kind) -> String {
    match (a, b) {
        (Some(a), Some(b)) => {
            let d = b - a;
            let s = show(Some(d.abs()), kind);
            if s.trim_start_matches(['0', '.', '%']).is_empty() {
                s
            } else if d < 0.0 {
                format!("−{s}")
            } else {
                format!("+{s}")
            }
        }
        _ => NA.to_string(),
    }
}

/// The value as JavaScript's `Number` would write it: the shortest text that reads back the same.
pub fn exact(v: Option<f64>) -> String {
    v.map(|x| format!("{x:?}")).unwrap_or_default()
}

/// A count with thin separators: 12 345.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

/// A size in bytes: 12.3 MB.
pub fn bytes(b: f64) -> String {
    const UNITS: [&str; 4] = ["B", "KB", "MB", "GB"];
    let mut x = b;
    let mut unit = 0;
    while x >= 1000.0 && unit + 1 < UNITS.len() {
        x /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{x:.0} B")
    } else {
        format!("{x:.1} {}", UNITS[unit])
    }
}
