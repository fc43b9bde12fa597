//! How a figure is written for a reader, in one place, so that the page, the widget, the CLI's
//! headline and the HTML report write every number alike.
//!
//! Shares (accuracy, invalid share) are percentages with one decimal; scores (ECE, Brier, EPA,
//! NLL, normalized, outside mass) keep three decimals; I and C (0–100 points) one. A minus is
//! U+2212, and a figure that rounds to zero has no sign ("0.0", never "-0.0"). An interval is
//! written "a to b", so that a negative bound never meets a dash. `exact` gives the full value
//! for `data-value` attributes, so that tests compare what is shown to the last bit.

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

/// The minus sign (U+2212), wider than a hyphen and never split from its number.
pub const MINUS: char = '\u{2212}';

/// `x` with `decimals` decimals, a U+2212 minus, and no sign when it rounds to zero.
pub fn number(x: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, x.abs());
    if x < 0.0 && s.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        format!("{MINUS}{s}")
    } else {
        s
    }
}

/// The value in the kind's unit (a share times 100) and its decimals.
fn scaled(x: f64, kind: Kind) -> (f64, usize) {
    match kind {
        Kind::Share => (x * 100.0, 1),
        Kind::Score => (x, 3),
        Kind::Points => (x, 1),
    }
}

/// A figure, or the dash when it does not apply.
pub fn show(v: Option<f64>, kind: Kind) -> String {
    match v {
        None => NA.to_string(),
        Some(x) => {
            let (v, decimals) = scaled(x, kind);
            let s = number(v, decimals);
            if kind == Kind::Share {
                s + "%"
            } else {
                s
            }
        }
    }
}

/// A signed figure at the kind's precision, without unit (a share in percentage points): "+1.5",
/// "−0.250", and no sign when it rounds to zero.
pub fn signed(x: f64, kind: Kind) -> String {
    let (v, decimals) = scaled(x, kind);
    let s = number(v, decimals);
    if s.starts_with(MINUS) || !s.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        s
    } else {
        format!("+{s}")
    }
}

/// The signed difference `b − a` with the kind's precision and unit (the conditioning-versus-mixing
/// table).
pub fn diff(a: Option<f64>, b: Option<f64>, kind: Kind) -> String {
    match (a, b) {
        (Some(a), Some(b)) => {
            let s = signed(b - a, kind);
            if kind == Kind::Share {
                s + "%"
            } else {
                s
            }
        }
        _ => NA.to_string(),
    }
}

/// An interval as "lo to hi", each bound as `show` writes it.
pub fn interval(lo: f64, hi: f64, kind: Kind) -> String {
    format!("{} to {}", show(Some(lo), kind), show(Some(hi), kind))
}

/// The value as JavaScript's `Number` would read it back: the shortest text that reads back the
/// same; empty when it does not apply.
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

/// A count and its noun, singular for one: "1 pair", "2 pairs", "1 tied prompt".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
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

/// How a figure path of the comparison is written: its label and precision.
pub fn figure(path: &str) -> (String, Kind) {
    let calibration = |f: &str| {
        match f {
            "ece" => "ECE",
            "ece_em" => "ECE equal-mass",
            "brier" => "Brier",
            "epa" => "EPA",
            "nll" => "NLL",
            other => other,
        }
        .to_string()
    };
    match path.split_once('.') {
        Some(("metrics", f)) => {
            let kind = if matches!(f, "accuracy" | "macro_accuracy" | "invalid_share") {
                Kind::Share
            } else {
                Kind::Score
            };
            (f.replace('_', " "), kind)
        }
        Some((mode @ ("conditioning" | "mixing"), f)) => {
            (format!("{} {mode}", calibration(f)), Kind::Score)
        }
        Some(("ic", f)) => {
            // ic.i, ic.i_weighted, ic.types.choice.cc: "I", "I weighted", "choice CC".
            let (ty, m) = match f.strip_prefix("types.").and_then(|t| t.rsplit_once('.')) {
                Some((ty, m)) => (format!("{ty} "), m),
                None => (String::new(), f),
            };
            let (head, rest) = m.split_once('_').unwrap_or((m, ""));
            let rest = if rest.is_empty() {
                String::new()
            } else {
                format!(" {rest}")
            };
            (format!("{ty}{}{rest}", head.to_uppercase()), Kind::Points)
        }
        Some(("rewardbench", f)) => (
            f.strip_prefix("sections.").unwrap_or(f).to_string(),
            Kind::Share,
        ),
        _ => (path.to_string(), Kind::Score),
    }
}

/// The unit after a difference: percentage points for shares.
pub fn unit(kind: Kind) -> &'static str {
    match kind {
        Kind::Share => " pp",
        _ => "",
    }
}

/// McNemar's p as written: four decimals, or "< 0.0001".
pub fn p_value(p: Option<f64>) -> String {
    match p {
        None => NA.to_string(),
        Some(p) if p < 0.0001 => "< 0.0001".to_string(),
        Some(p) => format!("{p:.4}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minus_is_u2212_and_zero_has_no_sign() {
        assert_eq!(show(Some(-0.2), Kind::Points), "−0.2");
        assert_eq!(show(Some(-20.0), Kind::Points), "−20.0");
        assert_eq!(show(Some(-0.0), Kind::Points), "0.0");
        assert_eq!(show(Some(-0.04), Kind::Points), "0.0");
        assert_eq!(show(Some(-0.00049), Kind::Score), "0.000");
        assert_eq!(show(Some(-0.0005001), Kind::Score), "−0.001");
        assert_eq!(show(Some(-0.25), Kind::Share), "−25.0%");
        assert_eq!(show(Some(0.9), Kind::Share), "90.0%");
        assert_eq!(show(None, Kind::Share), NA);
        for x in [-1e-9, -0.0, -0.049] {
            assert!(!show(Some(x), Kind::Points).contains(['-', MINUS]), "{x}");
        }
    }

    #[test]
    fn signed_and_diff() {
        assert_eq!(signed(0.015, Kind::Share), "+1.5");
        assert_eq!(signed(-0.25, Kind::Score), "−0.250");
        assert_eq!(signed(-0.0001, Kind::Score), "0.000");
        assert_eq!(signed(0.0, Kind::Points), "0.0");
        assert_eq!(diff(Some(0.5), Some(0.25), Kind::Score), "−0.250");
        assert_eq!(diff(Some(0.5), Some(0.6), Kind::Share), "+10.0%");
        assert_eq!(diff(Some(0.5), None, Kind::Share), NA);
    }

    #[test]
    fn intervals_read_a_to_b() {
        assert_eq!(interval(-1.0, -1.0, Kind::Share), "−100.0% to −100.0%");
        assert_eq!(interval(-0.0001, 0.5, Kind::Score), "0.000 to 0.500");
    }

    #[test]
    fn counts_and_plurals() {
        assert_eq!(count(12345), "12\u{202f}345");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_000_000), "1\u{202f}000\u{202f}000");
        assert_eq!(plural(1, "pair", "pairs"), "1 pair");
        assert_eq!(plural(0, "pair", "pairs"), "0 pairs");
        assert_eq!(plural(2, "tied prompt", "tied prompts"), "2 tied prompts");
        assert_eq!(bytes(999.0), "999 B");
        assert_eq!(bytes(12_345_678.0), "12.3 MB");
    }

    #[test]
    fn exact_reads_back() {
        for x in [0.1, 1.0 / 3.0, -2.5e-9, 123456.0] {
            assert_eq!(exact(Some(x)).parse::<f64>().ok(), Some(x));
        }
        assert_eq!(exact(None), "");
    }
}
