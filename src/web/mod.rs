//! The browser app (wasm32): the Leptos page, one component per file (feature `ui`), and the
//! protocol it speaks with the worker bin (feature `web`, which carries no Leptos).
//!
//! The page never scores: it hands `File` handles to the worker (src/bin/worker/) and shows
//! the `Report` that comes back, the same as the CLI's `--json`.

#[cfg(feature = "ui")]
mod app;
// A browser's files as sources the session reads: used by the worker and the widget.
pub mod blob;
#[cfg(feature = "ui")]
pub mod cards;
#[cfg(feature = "ui")]
mod client;
#[cfg(feature = "ui")]
mod comparison;
#[cfg(feature = "ui")]
pub mod cond_mix;
#[cfg(feature = "ui")]
pub mod deltas;
#[cfg(feature = "ui")]
mod drop_zone;
#[cfg(feature = "ui")]
mod explorer;
#[cfg(feature = "ui")]
pub mod export;
#[cfg(feature = "ui")]
pub mod fmt;
#[cfg(feature = "ui")]
mod folders;
#[cfg(feature = "ui")]
mod grouping;
#[cfg(feature = "ui")]
pub mod groups;
#[cfg(feature = "ui")]
mod header;
#[cfg(feature = "ui")]
pub mod ic;
#[cfg(feature = "ui")]
pub mod leaderboard;
#[cfg(feature = "ui")]
pub mod multi;
#[cfg(feature = "ui")]
pub mod notes;
// The Parquet decoder module's loader: used by the worker (feature `web`) and the widget.
pub mod parquet;
#[cfg(feature = "ui")]
mod planning;
#[cfg(feature = "ui")]
mod progress;
pub mod protocol;
#[cfg(feature = "ui")]
pub mod reliability;
#[cfg(feature = "ui")]
pub mod report_view;
#[cfg(feature = "ui")]
pub mod rewardbench;
#[cfg(feature = "ui")]
mod run_summary;
#[cfg(feature = "ui")]
pub mod scope_notice;
#[cfg(feature = "ui")]
pub mod state;
#[cfg(feature = "ui")]
pub mod toggles;
#[cfg(feature = "ui")]
mod virtual_rows;
#[cfg(feature = "ui")]
pub mod warnings;

/// Mounts the app on the page's body and registers the offline cache.
#[cfg(feature = "ui")]
pub fn mount() {
    // A panic shows in the console (and fails the browser tests) instead of a bare trap.
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("scorelens: {info}").into());
    }));
    leptos::mount::mount_to_body(app::App);
    offline();
}

/// Registers sw.js, which keeps the site's own files for offline use. Browsers offer service
/// workers only in secure contexts (https, localhost); elsewhere the page works online only.
#[cfg(feature = "ui")]
fn offline() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let navigator = window.navigator();
    let has = js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false);
    if has && window.is_secure_context() {
        let _ = navigator.service_worker().register("./sw.js");
    }
}
