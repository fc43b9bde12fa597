//! The Leptos app (wasm32 only): one component per file, the worker protocol and its client.
//!
//! The page never scores: it hands `File` handles to the worker (src/bin/worker.rs) and shows
//! the `Report` that comes back, the same as the CLI's `--json`.

mod app;
pub mod cards;
mod client;
mod comparison;
pub mod cond_mix;
pub mod deltas;
mod drop_zone;
mod explorer;
pub mod export;
pub mod fmt;
pub mod groups;
mod header;
pub mod ic;
pub mod multi;
pub mod notes;
mod progress;
pub mod protocol;
pub mod reliability;
pub mod report_view;
pub mod rewardbench;
pub mod scope_notice;
pub mod state;
mod tables;
pub mod toggles;
pub mod warnings;

/// Mounts the app on the page's body and registers the offline cache.
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
