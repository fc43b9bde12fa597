//! The embeddable widget and its JavaScript API (wasm32, feature `embed`).
//!
//! Scripts call `score`, `leaderboard`, `formats` and `profiles`; the `<scorelens-report>` element calls
//! `mountReport`, which draws the app's own components (src/web) inside the element's shadow
//! root. scripts/dist.sh builds the lib with this feature into dist/embed/ with wasm-bindgen; the
//! entry module www/embed/scorelens.js loads that wasm once per page, wraps the exports in
//! promises and defines the element.

mod api;
mod drop;
mod failure;
mod fetch;
mod input;
mod panic;
mod parquet;
mod rank;
mod run;
mod style;
mod views;
mod widget;

pub use api::{formats, leaderboard, profiles, score, version};
/// What the panic hook does, callable without panicking: the panic test needs it, since a real
/// panic would stop its own test runner.
#[doc(hidden)]
pub use panic::report as report_panic;
pub use parquet::locate_parquet;
pub use style::style_sheet;
pub use widget::{mount_report, Widget};
