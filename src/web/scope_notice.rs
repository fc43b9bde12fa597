//! Near the headline, whether the file holds a benchmark's frozen counts (SPEC §7): a partial run
//! is worth seeing, but its figures are not the published ones, and a reader comparing with a
//! leaderboard must know that before reading a number.

use super::fmt;
use crate::Report;
use leptos::prelude::*;

#[component]
pub fn ScopeNotice(report: Report) -> impl IntoView {
    let Some(scope) = report.scope.clone() else {
        return ().into_any();
    };
    let counts: Vec<String> = scope
        .expected
        .0
        .iter()
        .zip(&scope.found.0)
        .map(|((key, want), (_, got))| {
            let key = key.replace('_', " ");
            if got == want {
                format!("{key} {}", fmt::count(*got))
            } else {
                format!("{key} {} of {}", fmt::count(*got), fmt::count(*want))
            }
        })
        .collect();
    if scope.complete {
        return view! {
            <p class="scope-notice complete small muted" data-testid="scope" data-complete="true">
                {format!("This file holds exactly the benchmark's counts ({}).", counts.join(", "))}
            </p>
        }
        .into_any();
    }
    // The profile's own notice, without its list of the counts that differ (a RewardBench file
    // can differ in 23 subsets): that list follows, folded.
    let prefix = format!("{}: this file holds", report.profile);
    let text = report
        .notes
        .iter()
        .find(|n| n.starts_with(&prefix))
        .map(|n| headline(&n[report.profile.len() + 2..]))
        .unwrap_or_else(|| "this file does not hold the benchmark's counts".to_string());
    view! {
        <div class="scope-notice incomplete" role="note" data-testid="scope" data-complete="false">
            <strong>{capitalised(&text)}"."</strong>
            <details class="small">
                <summary>"Counts, this file against the benchmark"</summary>
                <p class="muted">{counts.join(" · ")}</p>
            </details>
        </div>
    }
    .into_any()
}

/// "holds 9 of X's 2985 items (a 1 of 2, …): these are not …" without the parenthesis.
fn headline(note: &str) -> String {
    match (note.find(" ("), note.rfind("): ")) {
        (Some(a), Some(b)) if a < b => format!("{}:{}", &note[..a], &note[b + 2..]),
        _ => note.to_string(),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
