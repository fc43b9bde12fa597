//! scorelens: scores LLM evaluation results exactly as the benchmarks' own scorers do.
//!
//! The core is pure: bytes in, `Report` out, with no I/O, clock, threads or screen, so it runs the
//! same natively, in a Web Worker and inside the embedded widget. `score` is the whole API; the
//! `Session` underneath lets a caller stream a large file in chunks.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod compare;
pub mod explore;
pub mod formats;
pub mod id_set;
pub mod item_check;
pub mod items;
pub mod leaderboard;
pub mod math;
pub mod metrics;
pub mod probs;
pub mod profiles;
pub mod report;
pub mod reported;
pub mod session;
pub mod short;
pub mod table;
pub mod warning;

// The browser app's page (feature `ui`, Leptos) and the protocol its worker speaks (feature `web`),
// for the app and worker bins and the widget (wasm32 only).
#[cfg(all(target_arch = "wasm32", feature = "web"))]
pub mod web;

// The widget and its JavaScript API (wasm32 only), drawn with the app's components.
#[cfg(all(target_arch = "wasm32", feature = "embed"))]
pub mod embed;

pub use compare::{compare, score_run, Comparison, Run};
pub use metrics::bootstrap::BootstrapOptions;
pub use report::Report;
pub use session::{Options, Session};
pub use warning::Warning;

use std::fmt;

/// One input file, whole in memory.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub name: &'a str,
    pub bytes: &'a [u8],
}

/// Why no report could be made.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The profile name matches no profile.
    UnknownProfile(String),
    /// Strict mode met a warning.
    Strict(Warning),
    /// Not one item could be scored; the warnings say why.
    NoItems(Vec<Warning>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownProfile(name) => {
                let names: Vec<&str> = profiles::Profile::all().iter().map(|p| p.name).collect();
                write!(
                    f,
                    "unknown profile `{name}`; the profiles are {}",
                    names.join(", ")
                )
            }
            Error::Strict(w) => write!(f, "{w} (strict mode stops at the first warning)"),
            Error::NoItems(warnings) => {
                write!(f, "no item could be scored")?;
                for w in warnings.iter().take(20) {
                    write!(f, "\n  {w}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Error {}

/// Scores the given files as one run and returns the report.
pub fn score(inputs: &[Input], opts: &Options) -> Result<Report, Error> {
    let mut session = Session::new(opts)?;
    for input in inputs {
        session.read(input.name, input.bytes);
    }
    session.finish()
}
