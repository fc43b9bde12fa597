//! One scoring run in the page, shared by `score` and the widget: the session reads the inputs
//! (`Session::read_blob` for a Blob), with turns of the event loop between chunks so the page
//! stays responsive.

use super::failure::Failure;
use super::input::{Data, Source};
use crate::session::Ended;
use crate::web::blob::{Breathing, BrowserFile, WHOLE_FILE_CAP};
use crate::{Options, Report, Session};

/// How to score.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    pub profile: Option<String>,
    pub strict: bool,
    /// The report's `bins` are the equal-mass ones (HELM's, `bins_em`): the API's `binning`.
    pub mass: bool,
    /// Keep the per-item sample a leaderboard resamples (runs of at most `rank::MAX_ITEMS`).
    pub sample: bool,
    /// Which items belong together (the CLI's `--cluster`); `None` lets the file decide.
    pub cluster: Option<crate::metrics::bootstrap::ClusterBy>,
    /// The test var whose values are the groups (the CLI's `--group-by`; promptfoo's files).
    pub group_by: Option<String>,
}

/// A finished run.
pub struct Outcome {
    pub report: Report,
    /// The per-item sample, when asked for (`Settings::sample`) and the run was small enough.
    pub sample: Option<crate::metrics::bootstrap::Sample>,
    /// The run's items, when the sample was asked for but the run had too many to keep it.
    pub sample_dropped: Option<u64>,
}

/// Scores the inputs as one run; strict mode stops at the first warning.
pub async fn run(sources: Vec<Source>, settings: &Settings) -> Result<Outcome, Failure> {
    let opts = Options {
        profile: settings.profile.clone(),
        strict: settings.strict,
        // Clustered figures come from the sample: kept, up to the cap, when they are asked.
        sample: (settings.sample || settings.cluster.is_some()).then_some(super::rank::MAX_ITEMS),
        cluster: settings.cluster.clone(),
        group_by: settings.group_by.clone(),
        whole_cap: Some(WHOLE_FILE_CAP),
        ..Options::default()
    };
    let mut session = Session::new(&opts).map_err(Failure::from_error)?;
    let mut breathing = Breathing::new();
    for source in sources {
        // A Parquet table is read as the JSON Lines of its rows, as the CLI reads it.
        let source = super::parquet::as_rows(source).await?;
        let go_on = match &source.data {
            Data::Bytes(b) => match session.read(crate::Source::bytes(source.name.as_str(), b)) {
                Ok(()) => true,
                Err(crate::Error::Strict(_)) => false,
                Err(e) => return Err(Failure::from_error(e)),
            },
            Data::Blob(blob) => {
                let blob = BrowserFile::named(blob, &source.name);
                let read = session.read_blob(&blob, &mut breathing).await;
                read.map_err(Failure::from_error)? == Ended::Read
            }
        };
        // A strict stop: `finish` gives the warning that stopped the run.
        if !go_on {
            break;
        }
    }
    let finished = session.finish().map_err(Failure::from_error)?;
    Ok(Outcome {
        report: finished.report,
        sample: finished.sample,
        sample_dropped: finished.sample_dropped,
    })
}
