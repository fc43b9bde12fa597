//! The leaderboard in the widget and the API: each input scored as one run with its per-item
//! sample kept, then ranked as `scorelens leaderboard` ranks the same files (2000 paired
//! resamples, seed 2024) on the page's own thread: a documentation page ranks a few small runs
//! (the app's worker ranks 50 large ones).

use super::failure::{Failure, Kind};
use super::input::Source;
use super::run::{run, Settings};
use crate::compare::Run;
use crate::html::leaderboard::view;
use crate::html::node::Node;
use crate::leaderboard::tables::default_figure;
use crate::leaderboard::{leaderboard, Leaderboard};
use crate::metrics::bootstrap::BootstrapOptions;
use crate::profiles::Profile;

/// A run with more items keeps no sample, and is not ranked in the page (as in the app's worker).
pub const MAX_ITEMS: usize = 200_000;

/// The leaderboard and its view on the default figure (the HTML report's ranking and plot).
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub leaderboard: Leaderboard,
    pub view: Node,
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
        // A run of aggregate files only has an empty sample, as `score_run` gives it.
        let sample = o.sample.unwrap_or_else(|| {
            let profile = Profile::parse(&o.report.profile).unwrap_or_else(Profile::generic);
            crate::profiles::resampling::sample_for(profile)
        });
        runs.push(Run {
            name,
            report: o.report,
            sample,
        });
    }
    let l = leaderboard(&runs, &BootstrapOptions::default());
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
