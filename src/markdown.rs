//! Text for a Markdown table cell, shared by the CLI's and the app's exports: a label from a
//! user's file must read as text in any Markdown renderer (issue 10 §5).

/// Escapes table syntax (`|`, `\`, line breaks) and HTML (`& < >`), since Markdown renderers pass
/// raw HTML through: `<img onerror=…>` in a group name must not become an element.
pub fn cell(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn html_and_table_syntax_read_as_text() {
        assert_eq!(
            cell("<img src=x onerror=alert(1)>|a\\b\r\nc & d"),
            "&lt;img src=x onerror=alert(1)&gt;\\|a\\\\b  c &amp; d"
        );
        assert_eq!(cell("plain text"), "plain text");
    }
}
