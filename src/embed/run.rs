//! One scoring run in the page, shared by `score` and the widget: the inputs are fed to a
//! `Session` in chunks, with an await between chunks so the page stays responsive.

use super::failure::{Failure, Kind};
use super::input::{Data, Source};
use crate::formats::HEAD;
use crate::{Options, Report, Session};
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

/// Bytes read per slice of a Blob, as the app's worker reads them.
const CHUNK: f64 = 8.0 * 1024.0 * 1024.0;

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
    pub bytes: f64,
    pub millis: f64,
}

async fn slice(blob: &Blob, name: &str, start: f64, end: f64) -> Result<Vec<u8>, Failure> {
    let unread = |e: wasm_bindgen::JsValue| {
        let why = js_sys::Error::from(e)
            .message()
            .as_string()
            .unwrap_or_default();
        Failure::new(
            Kind::Read,
            name,
            format!("the browser could not read the file: {why}"),
        )
    };
    let part = blob.slice_with_f64_and_f64(start, end).map_err(unread)?;
    let buf = JsFuture::from(part.array_buffer()).await.map_err(unread)?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// Pushes the blob into the session a slice at a time; false when the session stopped it
/// (strict mode met a warning).
async fn read_blob(session: &mut Session, name: &str, blob: &Blob) -> Result<bool, Failure> {
    let size = blob.size();
    let head = slice(blob, name, 0.0, size.min(HEAD as f64)).await?;
    let mut feed = session.add(name, &head, Some(size as u64));
    let mut at = 0.0;
    while at < size {
        let end = (at + CHUNK).min(size);
        if !feed.push(&slice(blob, name, at, end).await?) {
            return Ok(false);
        }
        at = end;
    }
    Ok(true)
}

/// Scores the inputs as one run; strict mode stops at the first warning.
pub async fn run(sources: Vec<Source>, settings: &Settings) -> Result<Outcome, Failure> {
    let started = js_sys::Date::now();
    let opts = Options {
        profile: settings.profile.clone(),
        strict: settings.strict,
        // Clustered figures come from the sample: kept, up to the cap, when they are asked.
        sample: (settings.sample || settings.cluster.is_some()).then_some(super::rank::MAX_ITEMS),
        cluster: settings.cluster.clone(),
        group_by: settings.group_by.clone(),
        ..Options::default()
    };
    let mut session = Session::new(&opts).map_err(Failure::from_error)?;
    let mut bytes = 0.0;
    for source in sources {
        bytes += source.size();
        // A Parquet table is read as the JSON Lines of its rows, as the CLI reads it.
        let source = super::parquet::as_rows(source).await?;
        let go_on = match &source.data {
            Data::Bytes(b) => session
                .read(crate::Source::bytes(source.name.as_str(), b))
                .is_ok(),
            Data::Blob(blob) => read_blob(&mut session, &source.name, blob).await?,
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
        bytes,
        millis: js_sys::Date::now() - started,
    })
}
