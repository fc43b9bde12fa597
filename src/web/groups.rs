//! The per-group table, sortable by any column; a group's name filters the item explorer. Only
//! the rows in view are drawn (`virtual_rows`, as the item list), over the groups the page holds:
//! all of them, or the largest `GROUPS_HELD` of a run with more, which the table says.

use super::fmt::{self, Kind};
use super::state::AppState;
use super::virtual_rows::{height, visible, window};
use crate::metrics::stats::{wilson, Z95};
use crate::report::groups::{by_name, look_like_ids};
use crate::report::GroupFigures;
use leptos::prelude::*;
use std::cmp::Ordering;
use std::sync::Arc;

/// Rows drawn beyond the visible ones on each side.
const MARGIN: u64 = 20;
/// Rows drawn before the box has a size (the first screen).
const FIRST: u64 = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Name,
    Items,
    Accuracy,
    Normalized,
    Invalid,
}

fn key(g: &GroupFigures, col: Col) -> Option<f64> {
    match col {
        Col::Name => None,
        Col::Items => Some(g.items as f64),
        Col::Accuracy => g.accuracy,
        Col::Normalized => g.normalized,
        Col::Invalid => g.invalid_share,
    }
}

fn compare(a: &GroupFigures, b: &GroupFigures, col: Col) -> Ordering {
    if col == Col::Name {
        return by_name(a, b);
    }
    // Figures that do not apply sort below every number.
    match (key(a, col), key(b, col)) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => Ordering::Equal,
    }
    .then_with(|| by_name(a, b))
}

/// What the table holds, when that is not simply every group of a few: groups that look like ids,
/// and how many of the run's groups the page holds.
fn notices(held: u64, total: u64, items: u64) -> impl IntoView {
    let ids = look_like_ids(total, items).then(|| {
        view! {
            <p class="small" role="note" data-testid="groups-ids">
                {format!(
                    "{} for {}: nearly one item per group, so the group field looks like an id and each group's figures rest on about one item.",
                    fmt::plural(total, "group", "groups"),
                    fmt::plural(items, "item", "items"),
                )}
            </p>
        }
    });
    let cut = (total > held).then(|| {
        view! {
            <p class="small muted" data-testid="groups-held" data-held=held.to_string() data-total=total.to_string()>
                {format!(
                    "The {} largest of {} groups are listed and sorted here; the report JSON has every group's figures.",
                    fmt::count(held),
                    fmt::count(total),
                )}
            </p>
        }
    });
    (ids, cut)
}

fn row(g: &GroupFigures, filter: RwSignal<Option<String>>) -> impl IntoView {
    let name = g.name.clone();
    let ci = wilson(g.correct, g.items, Z95).map(|(lo, hi)| fmt::interval(lo, hi, Kind::Share));
    view! {
        <tr data-group=g.name.clone()>
            <th scope="row">
                <button class="link" title="Show this group's items" on:click=move |_| filter.set(Some(name.clone()))>
                    {g.name.clone()}
                </button>
            </th>
            <td class="num" data-value=g.items.to_string()>{fmt::count(g.items)}</td>
            <td class="num" data-value=fmt::exact(g.accuracy)>{fmt::show(g.accuracy, Kind::Share)}</td>
            <td class="num muted ci">{ci.unwrap_or_default()}</td>
            <td class="num" data-value=fmt::exact(g.normalized)>{fmt::show(g.normalized, Kind::Score)}</td>
            <td class="num" data-value=fmt::exact(g.invalid_share)>{fmt::show(g.invalid_share, Kind::Share)}</td>
        </tr>
    }
}

/// The groups table: `groups` are those the page holds, of `total` in the run and its `items`.
#[component]
pub fn Groups(groups: Arc<Vec<GroupFigures>>, total: u64, items: u64) -> impl IntoView {
    // The app's explorer shows a group's items; the widget, which has none, keeps the choice.
    let filter = use_context::<AppState>().map_or_else(|| RwSignal::new(None), |s| s.group_filter);
    let held = groups.len() as u64;
    let sort = RwSignal::new((Col::Name, true));
    let shown = RwSignal::new((0, FIRST.min(held)));
    let scroller = NodeRef::<leptos::html::Div>::new();
    let list = groups.clone();
    // The rows' order, as indices: at most `GROUPS_HELD` groups, so a sort takes well under a frame.
    let order = Memo::new(move |_| {
        let (col, asc) = sort.get();
        let mut o: Vec<usize> = (0..list.len()).collect();
        o.sort_by(|&a, &b| {
            let c = compare(&list[a], &list[b], col);
            if asc {
                c
            } else {
                c.reverse()
            }
        });
        o
    });
    let on_scroll = move |_| {
        if let Some(el) = scroller.get_untracked() {
            let w = window(visible(&el, held), held, MARGIN);
            if w != shown.get_untracked() {
                shown.set(w);
            }
        }
    };
    let header = move |col: Col, label: &'static str, numeric: bool| {
        let aria = move || match sort.get() {
            (c, true) if c == col => "ascending",
            (c, false) if c == col => "descending",
            _ => "none",
        };
        view! {
            <th class:num=numeric aria-sort=aria scope="col">
                <button
                    class="sort"
                    data-sort=label
                    on:click=move |_| sort.update(|s| *s = if s.0 == col { (col, !s.1) } else { (col, col == Col::Name) })
                >
                    {label}
                    <span class="arrow" aria-hidden="true">{move || match sort.get() {
                        (c, true) if c == col => "▲",
                        (c, false) if c == col => "▼",
                        _ => "",
                    }}</span>
                </button>
            </th>
        }
    };
    let rows = move || {
        let (a, b) = shown.get();
        order.with(|o| {
            o[a as usize..b as usize]
                .iter()
                .map(|&i| row(&groups[i], filter))
                .collect_view()
        })
    };
    view! {
        <section class="panel" data-testid="groups" data-held=held.to_string() data-total=total.to_string()>
            <h3>"Groups"</h3>
            {notices(held, total, items)}
            <div class="scroll rows" node_ref=scroller on:scroll=on_scroll>
                <table class="figures sortable virtual">
                    <thead>
                        <tr>
                            {header(Col::Name, "group", false)}
                            {header(Col::Items, "items", true)}
                            {header(Col::Accuracy, "accuracy", true)}
                            <th class="num" scope="col">"95% Wilson"</th>
                            {header(Col::Normalized, "normalized", true)}
                            {header(Col::Invalid, "invalid", true)}
                        </tr>
                    </thead>
                    <tbody>
                        <tr class="pad" aria-hidden="true"><td colspan="6" style:height=move || height(shown.get().0)></td></tr>
                        {rows}
                        <tr class="pad" aria-hidden="true"><td colspan="6" style:height=move || height(held - shown.get().1)></td></tr>
                    </tbody>
                </table>
            </div>
        </section>
    }
}
