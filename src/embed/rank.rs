//! The leaderboard in the widget and the API: each input scored as one run with its per-item
//! sample kept, then ranked as `scorelens leaderboard` ranks the same files (2000 paired
//! resamples, seed 2024) on the page's own thread, in slices that leave it responsive: a
//! documentation page ranks a few small runs (the app's worker ranks 50 large ones).

use super::failure::{Failure, Kind};
use super::input::Source;
use super::run::{run, Settings};
use crate::compare::Run;
use crate::html::leaderboard::view;
use crate::html::node::Node;
use crate::leaderboard::tables::default_figure;
use crate::leaderboard::{leaderboard_of, Joined, Leaderboard};
use crate::metrics::bootstrap::BootstrapOptions;
use crate::metrics::lanes::LANES;

/// A run with more items keeps no sample, and is not ranked in the page (as in the app's worker).
pub const MAX_ITEMS: usize = 200_000;

/// The leaderboard and its view on the default figure (the HTML report's ranking and plot).
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub leaderboard: Leaderboard,
    pub view: Node,
}

/// Milliseconds of drawing between two returns to the page's event loop.
const SLICE_MS: f64 = 40.0;

/// Lets the page handle its events (a macrotask).
async fn tick() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// `leaderboard(runs)`, its paired resamples drawn in slices of about `SLICE_MS` so that the page
/// stays responsive (the same figures: `leaderboard_of` joins the slices in order).
async fn ranked(runs: &[Run]) -> Leaderboard {
    let opts = BootstrapOptions::default();
    let joined = Joined::new(runs);
    // Whole blocks of `LANES` resamples: a slice of one resample would pay for eight.
    let (mut parts, mut at, mut step) = (Vec::new(), 0u32, LANES as u32);
    while at < opts.resamples {
        let end = at.saturating_add(step).min(opts.resamples);
        let started = js_sys::Date::now();
        parts.push(joined.draws(&opts, at..end));
        at = end;
        if js_sys::Date::now() - started < SLICE_MS / 2.0 {
            step = step.saturating_mul(2);
        } else {
            step = (step / 2).max(LANES as u32) / LANES as u32 * LANES as u32;
        }
        tick().await;
    }
    let parts = std::cell::RefCell::new(Some(parts));
    // The join the draws used: joining again would hold every run's id map a second time.
    leaderboard_of(joined, &opts, |_, _| {
        parts.borrow_mut().take().unwrap_or_default()
    })
}

/// Scores each source as one run (named as the report names its file) and ranks them.
pub async fn rank(sources: Vec<Source>, settings: &Settings) -> Result<Ranked, Failure> {
    if sources.len() < 2 {
        return Err(Failure::new(
            Kind::Input,
            "",
            "a leaderboard needs two runs or more: give a list of files",
        ));
    }
    let mut runs: Vec<Run> = Vec::with_capacity(sources.len());
    let settings = Settings {
        sample: true,
        ..settings.clone()
    };
    for source in sources {
        let name = source.name.clone();
        if runs.iter().any(|r| r.name == name) {
            let why = "is given twice: two runs cannot share a name";
            return Err(Failure::new(Kind::Input, &name, why));
        }
        let o = run(vec![source], &settings).await?;
        if o.sample_dropped.is_some() {
            let why = format!(
                "has more than {MAX_ITEMS} items, too many to rank in the page; \
                 `scorelens leaderboard` ranks any size"
            );
            return Err(Failure::new(Kind::Input, &name, why));
        }
        runs.push(Run::new(name, o.report, o.sample));
    }
    let l = ranked(&runs).await;
    if l.common == 0 {
        let why = "the runs share no item id, so there is nothing to rank";
        return Err(Failure::new(Kind::Input, "", why));
    }
    let shown = default_figure(&l).and_then(|f| view(&l, f, false));
    Ok(Ranked {
        view: shown.unwrap_or_default(),
        leaderboard: l,
    })
}
