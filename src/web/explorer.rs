//! The item explorer: a filterable, virtualised list of the run's items. The records live in the
//! worker; the list asks for the page around what is visible, so a million items cost the page
//! only the rows on screen.

use super::client;
use super::fmt::{self, Kind};
use super::state::use_state;
use super::virtual_rows::{height, visible, window, ROW};
use crate::explore::{Filter, Order, Row, Show};
use leptos::prelude::*;

/// Rows asked for at once; several screens' worth, so that scrolling rarely waits.
const PAGE: u64 = 90;
/// Rows kept above the first visible one.
const BEFORE: u64 = 30;
/// Rows drawn beyond the visible ones on each side (of those loaded): a page is fetched several
/// screens at a time, but drawing all of it made a task of its own on a busy machine.
const MARGIN: u64 = 8;
/// Rows drawn before the box has a size (the first screen).
const FIRST: u64 = 24;
/// Group names suggested at once under the group box.
const SUGGESTED: usize = 30;

/// Up to `SUGGESTED` of `groups` (in natural order) whose names hold `typed`, ignoring ASCII case
/// (Unicode's case tables would cost the page 8 KB): a run may hold a thousand groups, and a
/// suggestion list of all of them cost the page 1,000 elements before anyone typed.
fn suggestions(groups: &[String], typed: &str) -> Vec<String> {
    let typed = typed.to_ascii_lowercase();
    groups
        .iter()
        .filter(|g| typed.is_empty() || g.to_ascii_lowercase().contains(&typed))
        .take(SUGGESTED)
        .cloned()
        .collect()
}

fn show_value(s: Show) -> &'static str {
    match s {
        Show::All => "all",
        Show::Wrong => "wrong",
        Show::Invalid => "invalid",
        Show::ConfidentWrong => "confident-wrong",
    }
}

fn parse_show(v: &str) -> Show {
    match v {
        "wrong" => Show::Wrong,
        "invalid" => Show::Invalid,
        "confident-wrong" => Show::ConfidentWrong,
        _ => Show::All,
    }
}

fn verdict(r: &Row) -> (&'static str, &'static str) {
    if r.answer.is_none() {
        ("invalid", "invalid")
    } else if r.credit >= 1.0 {
        ("right", "✓")
    } else if r.credit > 0.0 {
        ("partial", "½")
    } else {
        ("wrong", "✗")
    }
}

#[component]
pub fn Explorer(id: u32, groups: Vec<String>, kept: u64) -> impl IntoView {
    let state = use_state();
    let show = RwSignal::new(Show::All);
    let threshold = RwSignal::new(0.8);
    let text = RwSignal::new(String::new());
    let order = RwSignal::new(Order::File);
    let total = RwSignal::new(0u64);
    let loaded = RwSignal::new((0u64, Vec::<Row>::new()));
    let seq = StoredValue::new(0u32);
    let viewport = NodeRef::<leptos::html::Div>::new();
    // The rows drawn: those in view and a margin, of the page loaded.
    let shown = RwSignal::new((0u64, FIRST));

    let filter = Memo::new(move |_| Filter {
        show: show.get(),
        threshold: threshold.get(),
        text: text.get(),
        group: state.group_filter.get(),
        order: order.get(),
    });
    let request = move |offset: u64| {
        let n = seq.get_value() + 1;
        seq.set_value(n);
        client::items(id, n, filter.get_untracked(), offset, PAGE);
    };
    // A new filter starts from the top. Not on the first run: the list starts there, and setting
    // the scroll position would make the browser lay out the whole new report at once.
    Effect::new(move |first: Option<()>| {
        let _ = filter.get();
        if first.is_some() {
            if let Some(el) = viewport.get_untracked() {
                el.set_scroll_top(0);
            }
            shown.set((0, FIRST));
        }
        request(0);
    });
    Effect::new(move |_| {
        if let Some((run, n, page)) = state.items.get() {
            if run == id && n == seq.get_value() {
                total.set(page.total);
                loaded.set((page.offset, page.rows.clone()));
            }
        }
    });
    let on_scroll = move |_| {
        let Some(el) = viewport.get_untracked() else {
            return;
        };
        let all = total.get_untracked();
        let (first, end) = visible(&el, all);
        let w = window((first, end), all, MARGIN);
        if w != shown.get_untracked() {
            shown.set(w);
        }
        let (offset, len) = loaded.with_untracked(|(o, r)| (*o, r.len() as u64));
        if first < offset || end > offset + len {
            request(first.saturating_sub(BEFORE));
        }
    };
    // The group filter is a search box with the groups the page holds as suggestions (a run may
    // have hundreds of thousands); any group's name typed whole filters the worker's records.
    let list_id = format!("groups-{id}");
    let typed = RwSignal::new(String::new());
    let known = StoredValue::new(groups);
    let group_options = move || {
        let names = known.with_value(|g| suggestions(g, &typed.get()));
        names
            .into_iter()
            .map(|g| view! { <option value=g></option> })
            .collect_view()
    };
    let set_group = move |v: String, committed: bool| {
        // While typing, a name takes effect once it is a known group's (or empty); Enter or
        // leaving the box commits whatever it holds.
        typed.set(v.clone());
        if committed || v.is_empty() || known.with_value(|g| g.contains(&v)) {
            let v = (!v.is_empty()).then_some(v);
            if state.group_filter.get_untracked() != v {
                state.group_filter.set(v);
            }
        }
    };
    let rows = move || {
        let (a, b) = shown.get();
        let (offset, rows) = loaded.get();
        rows.into_iter()
            .enumerate()
            .filter(|(i, _)| (a..b).contains(&(offset + *i as u64)))
            .map(|(i, r)| {
                let top = (offset + i as u64) as f64 * ROW;
                let (class, mark) = verdict(&r);
                let place = match r.line {
                    Some(l) => format!("{}:{l}", r.file),
                    None => r.file.clone(),
                };
                view! {
                    <div class=format!("item {class}") role="row" data-id=r.id.clone() style:transform=format!("translateY({top}px)")>
                        <span role="cell" class="mark" title=class>{mark}</span>
                        <span role="cell" class="id" title=place>{r.id.clone()}</span>
                        <span role="cell" class="group">{r.group.clone()}</span>
                        <span role="cell" class="kind">{r.kind.clone()}</span>
                        <span role="cell" class="gold">{r.gold.clone()}</span>
                        <span role="cell" class="answer">{r.answer.clone().unwrap_or_else(|| "invalid".to_string())}</span>
                        <span role="cell" class="num" data-value=fmt::exact(r.confidence)>{fmt::show(r.confidence, Kind::Score)}</span>
                        <span role="cell" class="num">{fmt::show(r.confidence_mixing, Kind::Score)}</span>
                    </div>
                }
            })
            .collect_view()
    };
    view! {
        <section class="panel explorer" data-testid="explorer">
            <h3>"Items"</h3>
            <div class="filters">
                <label>"Show "
                    <select data-testid="explorer-show" on:change=move |ev| show.set(parse_show(&event_target_value(&ev)))>
                        <option value=show_value(Show::All)>"all items"</option>
                        <option value=show_value(Show::Wrong)>"wrong"</option>
                        <option value=show_value(Show::Invalid)>"invalid answers"</option>
                        <option value=show_value(Show::ConfidentWrong)>"wrong with high confidence"</option>
                    </select>
                </label>
                <Show when=move || show.get() == Show::ConfidentWrong>
                    <label>"confidence ≥ "
                        <input type="number" min="0" max="1" step="0.05" class="narrow"
                            prop:value=move || threshold.get().to_string()
                            on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f64>() { threshold.set(v); } }
                        />
                    </label>
                </Show>
                <label>"Group "
                    <input type="search" data-testid="explorer-group" placeholder="all groups" list=list_id.clone()
                        prop:value=move || state.group_filter.get().unwrap_or_default()
                        on:input=move |ev| set_group(event_target_value(&ev), false)
                        on:change=move |ev| set_group(event_target_value(&ev), true)
                    />
                    <datalist id=list_id>{group_options}</datalist>
                </label>
                <label>"Order "
                    <select on:change=move |ev| order.set(if event_target_value(&ev) == "confidence" { Order::Confidence } else { Order::File })>
                        <option value="file">"as in the file"</option>
                        <option value="confidence">"most confident first"</option>
                    </select>
                </label>
                <input type="search" placeholder="Search id, group, label" aria-label="Search items" data-testid="explorer-search"
                    on:input=move |ev| text.set(event_target_value(&ev)) />
                <span class="muted" data-testid="explorer-total" data-value=move || total.get().to_string()>
                    {move || format!("{} of {} items", fmt::count(total.get()), fmt::count(kept))}
                </span>
            </div>
            <div class="item head" role="row">
                <span></span><span>"id"</span><span>"group"</span><span>"type"</span><span>"gold"</span><span>"answer"</span>
                <span class="num" title="confidence under conditioning">"conf."</span>
                <span class="num" title="confidence under mixing">"mix."</span>
            </div>
            <div class="viewport" node_ref=viewport on:scroll=on_scroll role="table" aria-label="Items" tabindex="0">
                <div class="spacer" style:height=move || height(total.get())>
                    {rows}
                </div>
            </div>
        </section>
    }
}
