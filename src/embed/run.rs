//! One scoring run in the page, shared by `score` and the widget: the inputs are fed to a
//! `Session` in chunks, with an await between chunks so the page stays responsive.

use super::failure::{Failure, Kind};
use super::input::{Data, Source};
use crate::formats::HEAD;
use crate::items::Mode;
use crate::web::protocol::MassBins;
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
    /// Also bin every item's confidence into equal-mass bins (HELM's).
    pub mass: bool,
}

/// A finished run.
pub struct Outcome {
    pub report: Report,
    /// Equal-mass bins of both readings; empty unless `Settings::mass`.
    pub mass: MassBins,
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

async fn read_blob(session: &mut Session, name: &str, blob: &Blob) -> Result<(), Failure> {
    let size = blob.size();
    let head = slice(blob, name, 0.0, size.min(HEAD as f64)).await?;
    session.begin_file(name, &head);
    let mut at = 0.0;
    while at < size {
        let end = (at + CHUNK).min(size);
        session.feed(&slice(blob, name, at, end).await?);
        at = end;
    }
    session.end_file();
    Ok(())
}

/// Scores the inputs as one run.
pub async fn run(sources: Vec<Source>, settings: &Settings) -> Result<Outcome, Failure> {
    let started = js_sys::Date::now();
    let opts = Options {
        profile: settings.profile.clone(),
        strict: settings.strict,
    };
    let mut session = Session::new(&opts).map_err(Failure::from_error)?;
    if settings.mass {
        // No item records, only the equal-mass binning of every item.
        session.keep_items(0);
    }
    let mut bytes = 0.0;
    for source in &sources {
        bytes += source.size();
        match &source.data {
            Data::Bytes(b) => session.read(&source.name, b),
            Data::Blob(blob) => read_blob(&mut session, &source.name, blob).await?,
        }
    }
    let (report, explorer) = session.finish_explored().map_err(Failure::from_error)?;
    let mass = explorer.map_or_else(MassBins::default, |e| MassBins {
        conditioning: e.mass_bins(Mode::Conditioning),
        mixing: e.mass_bins(Mode::Mixing),
    });
    Ok(Outcome {
        report,
        mass,
        bytes,
        millis: js_sys::Date::now() - started,
    })
}
