//! scorelens: scores LLM evaluation results exactly as the benchmarks' own scorers do.
//!
//! The core is pure: bytes in, `Report` out, with no I/O, clock, threads or screen, so it runs the
//! same natively, in a Web Worker and inside the embedded widget (natively, a large file is parsed
//! on every core). `score` is the whole API; `score_sources` takes any `Source` (a path, bytes, a
//! reader), and the `Session` underneath lets a caller push a file's bytes as they arrive.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod compare;
pub mod explore;
pub mod fmt;
pub mod formats;
pub mod html;
pub mod id_set;
pub mod inert;
pub mod item_check;
pub mod items;
pub mod leaderboard;
pub mod math;
pub mod metrics;
pub mod natural;
pub mod probs;
pub mod profiles;
pub mod reliability_plot;
pub mod report;
pub mod reported;
pub mod runs;
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
pub use session::{score_sources, Finished, Options, Session, Source};
pub use warning::Warning;

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
    /// A source could not be read: its name and why.
    Io { file: String, reason: String },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
            Error::Io { file, reason } => write!(f, "{file}: {reason}"),
        }
    }
}

impl std::error::Error for Error {}

/// Scores the given files as one run and returns the report.
pub fn score(inputs: &[Input], opts: &Options) -> Result<Report, Error> {
    score_sources(inputs, opts).map(|f| f.report)
}
