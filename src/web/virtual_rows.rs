//! Which rows of a long list to draw: the lists scroll in a box of fixed-height rows, and only the
//! rows around what is visible are in the page (the item explorer's pages from the worker, the
//! groups table's slice of the groups held), so that a list of any length costs only a screenful.

/// Row height in pixels, fixed, so that the scroll position says which rows are visible.
pub const ROW: f64 = 30.0;

/// The rows `[first, end)` visible in `el`, a box scrolled over `total` rows of `ROW` pixels.
pub fn visible(el: &web_sys::Element, total: u64) -> (u64, u64) {
    let first = (f64::from(el.scroll_top()) / ROW) as u64;
    let shown = (f64::from(el.client_height()) / ROW).ceil() as u64 + 1;
    (first.min(total), (first + shown).min(total))
}

/// The rows to draw for the visible `[first, end)`: `margin` more on each side, so that a short
/// scroll finds its rows already drawn.
pub fn window((first, end): (u64, u64), total: u64, margin: u64) -> (u64, u64) {
    (first.saturating_sub(margin), (end + margin).min(total))
}

/// The height of `rows` rows, for a spacer that gives the box its full scroll height.
pub fn height(rows: u64) -> String {
    format!("{}px", rows as f64 * ROW)
}
