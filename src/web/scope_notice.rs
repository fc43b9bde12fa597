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
    // The profile's own notice names each count that differs; it is the one to show.
    let prefix = format!("{}: this file holds", report.profile);
    let text = report
        .notes
        .iter()
        .find(|n| n.starts_with(&prefix))
        .map(|n| n[report.profile.len() + 2..].to_string())
        .unwrap_or_else(|| "this file does not hold the benchmark's counts".to_string());
    view! {
        <p class="scope-notice incomplete" role="note" data-testid="scope" data-complete="false">
            <strong>{capitalised(&text)}"."</strong>
            <span class="muted small">{format!(" Counts: {}.", counts.join(", "))}</span>
        </p>
    }
    .into_any()
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
