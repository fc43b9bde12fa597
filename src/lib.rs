//! scorelens: scores LLM evaluation results exactly as the benchmarks' own scorers do.
//!
//! The core is pure: bytes in, `Report` out, with no I/O, clock, threads or screen, so it runs the
//! same natively, in a Web Worker and inside the embedded widget (natively, a large file is parsed
//! on every core). `score` is the whole API; `score_sources` takes any `Source` (a path, bytes, a
//! reader), and the `Session` underneath lets a caller push a file's bytes as they arrive.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod catalog;
pub mod compare;
mod error;
pub mod explore;
pub mod fmt;
pub mod formats;
pub mod html;
pub mod id_set;
pub mod inert;
pub(crate) mod item_check;
pub mod items;
pub mod layout;
pub mod leaderboard;
pub mod math;
pub mod metrics;
pub(crate) mod natural;
pub mod probs;
pub mod profiles;
pub mod reliability_plot;
pub mod report;
pub mod reported;
pub mod runs;
pub mod session;
pub(crate) mod short;
pub mod table;
pub(crate) mod warning;

// The browser app's page (feature `ui`, Leptos) and the protocol its worker speaks (feature `web`),
// for the app and worker bins and the widget (wasm32 only).
#[cfg(all(target_arch = "wasm32", feature = "web"))]
pub mod web;

// The widget and its JavaScript API (wasm32 only), drawn with the app's components.
#[cfg(all(target_arch = "wasm32", feature = "embed"))]
pub mod embed;

pub use compare::{compare, score_run, Comparison, Run};
pub use error::Error;
pub use metrics::bootstrap::BootstrapOptions;
pub use report::Report;
pub use session::{score_sources, Finished, Input, Options, Session, Source};
pub use warning::Warning;

/// Scores the given files as one run and returns the report.
pub fn score(inputs: &[Input], opts: &Options) -> Result<Report, Error> {
    score_sources(inputs, opts).map(|f| f.report)
}
