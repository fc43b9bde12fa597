//! Text from a user's file made inert for a terminal or a text viewer: a group named
//! `"\x1b]52;c;…\x07"` must not clear the screen, set the clipboard or reorder what follows it.
//!
//! The one rule: a control character (C0, ESC and BEL among them, DEL, C1 U+0080–U+009F) or a
//! bidirectional mark, embedding, override or isolate (U+200E, U+200F, U+061C, U+202A–U+202E,
//! U+2066–U+2069) is written as its Rust escape, `\u{1b}`, so that it is seen and never acts.

use std::borrow::Cow;

/// Whether `c` is escaped: it would act on a terminal or reorder the text shown around it.
pub fn acts(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `s` with every character that `acts` escaped, line breaks too: one cell, one line.
pub fn inert(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// `s` with every character that `acts` escaped but its line feeds, for text made of lines the
/// program wrote (a table laid out, a list of warnings) whose pieces are already `inert`.
pub fn inert_lines(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

fn escape(s: &str, keep_lf: bool) -> Cow<'_, str> {
    let hit = |c: char| acts(c) && !(keep_lf && c == '\n');
    if !s.chars().any(hit) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hit(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_shown_as_escapes() {
        assert_eq!(
            inert("\x1b[2J\x1b]52;c;aGk=\x07"),
            "\\u{1b}[2J\\u{1b}]52;c;aGk=\\u{7}"
        );
        assert_eq!(inert("a\r\nb\tc\x7f"), "a\\u{d}\\u{a}b\\u{9}c\\u{7f}");
        assert_eq!(inert("\u{85}\u{9b}31m"), "\\u{85}\\u{9b}31m");
        assert_eq!(
            inert("x\u{202E}gnp.exe\u{2066}\u{2069}\u{200E}\u{200F}\u{61C}"),
            "x\\u{202e}gnp.exe\\u{2066}\\u{2069}\\u{200e}\\u{200f}\\u{61c}"
        );
    }

    #[test]
    fn plain_text_is_borrowed_and_lines_keep_their_feeds() {
        assert!(matches!(inert("group é ü ≈ –"), Cow::Borrowed(_)));
        assert_eq!(inert_lines("a\x1b\nb\r\n"), "a\\u{1b}\nb\\u{d}\n");
    }
}
