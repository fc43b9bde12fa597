//! Text for a CSV cell, shared by the CLI's and the app's exports: a label from a user's file that
//! a spreadsheet would run as a formula (CSV injection) must open as text.

use std::borrow::Cow;

/// `s` with a leading `'` when it starts as a formula would (`=`, `+`, `-`, `@`, a tab or a
/// carriage return) and is not a number: spreadsheets show the `'` as "this is text" and run
/// nothing. Numbers such as `-0.25`, and a lone sign (the CLI's `-` for "no value"), are left as
/// they are. Quoting is the writer's business.
pub fn guard(s: &str) -> Cow<'_, str> {
    let risky = s.len() > 1 && s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && s.parse::<f64>().is_err() {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

#[cfg(test)]
mod tests {
    use super::guard;

    #[test]
    fn formulas_open_as_text_and_numbers_stay_numbers() {
        for (given, want) in [
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("+1+2", "'+1+2"),
            ("-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "'\r=1"),
            ("-0.25", "-0.25"),
            ("+3", "+3"),
            ("-1e-9", "-1e-9"),
            ("group a", "group a"),
            ("a=b", "a=b"),
            ("-", "-"),
            ("=", "="),
            ("", ""),
        ] {
            assert_eq!(guard(given), want, "{given:?}");
        }
    }
}
