//! Metric families as accumulators: `update(&Item)`, `merge(Self)`, `finish()` (torchmetrics' shape).
//!
//! Each family keeps only the state its figures need, so a file streams through once, chunks scored
//! in separate workers merge, and a bootstrap can resample states instead of re-reading items.
//! Nothing here knows a file format or a benchmark's name.

pub mod accuracy;
pub mod bootstrap;
pub mod calibration;
pub mod clustered;
pub mod ece;
pub mod exact_sum;
pub mod flat;
pub mod groups;
pub mod ic;
pub mod intervals;
pub mod lanes;
pub mod mcnemar;
pub mod multi;
pub(crate) mod names;
pub mod ordered;
pub mod outcome;
pub mod paired_z;
pub mod pairwise;
pub mod power;
pub mod ranks;
pub mod rating;
pub mod stats;
pub mod summary;
pub mod ties;
pub mod tvd_rps;

pub use accuracy::Accuracy;
pub use calibration::{Calibration, OutsideMass};
pub use groups::Groups;
pub use outcome::{outcome, Outcome};
pub use summary::{Summary, SummaryFigures};
