//! The widget's style sheet: the app's own www/style.css, scoped to the widget's root element,
//! then www/embed/widget.css. It lives in the element's shadow root, so the host page's rules do
//! not reach in and these do not reach out; three rewrites close the gaps a shadow root leaves:
//! `:root` becomes the widget's root (custom properties stay inside), `rem` becomes pixels (rem
//! follows the host's `html` font size), and the light and dark palettes also apply on demand
//! (the `theme` attribute).

use wasm_bindgen::prelude::*;

const APP: &str = include_str!("../../www/style.css");
const WIDGET: &str = include_str!("../../www/embed/widget.css");

/// The class of the widget's root element, where the app's `:root` variables go.
pub const ROOT: &str = "sl-root";

/// The root font size the app's `rem` lengths assume (the browser default).
const REM_PX: f64 = 16.0;

/// The whole sheet, for the element's shadow root.
#[wasm_bindgen(js_name = styleSheet)]
pub fn style_sheet() -> String {
    let app = rem_to_px(&APP.replace(":root", &format!(".{ROOT}")));
    format!("{app}\n{}\n{WIDGET}", themes(APP))
}

/// The body of the first `:root { … }` block at or after `from`.
fn root_block(css: &str, from: usize) -> Option<&str> {
    let rest = css.get(from..)?;
    let start = rest.find(":root")?;
    let open = start + rest.get(start..)?.find('{')? + 1;
    let close = open + rest.get(open..)?.find('}')?;
    rest.get(open..close)
}

/// The app's light and dark palettes under `data-theme`, so that a page can force either.
fn themes(css: &str) -> String {
    let light = root_block(css, 0);
    let dark = css
        .find("prefers-color-scheme: dark")
        .and_then(|at| root_block(css, at));
    let mut out = String::new();
    if let Some(body) = light {
        out.push_str(&format!(
            ".{ROOT}[data-theme=\"light\"] {{{body} color-scheme: light; }}\n"
        ));
    }
    if let Some(body) = dark {
        out.push_str(&format!(
            ".{ROOT}[data-theme=\"dark\"] {{{body} color-scheme: dark; }}\n"
        ));
    }
    out
}

/// `1.25rem` → `20px`: the widget must not grow with the host page's root font size.
fn rem_to_px(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(at) = rest.find("rem") {
        let (before, after) = rest.split_at(at);
        let digits = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_digit() || *c == '.')
            .last()
            .map_or(before.len(), |(i, _)| i);
        let number = &before[digits..];
        let word_before = before[..digits]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
        let word_after = after[3..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
        match number.parse::<f64>() {
            Ok(n) if !word_before && !word_after => {
                out.push_str(&before[..digits]);
                out.push_str(&format!("{}px", n * REM_PX));
            }
            _ => {
                out.push_str(before);
                out.push_str("rem");
            }
        }
        rest = &after[3..];
    }
    out.push_str(rest);
    out
}
