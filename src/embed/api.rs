//! The JavaScript API: `score`, `leaderboard`, `formats`, `profiles` and `version`, typed in the `.d.ts` by
//! www/embed/types.d.ts. The report is the CLI's JSON as plain objects: maps become objects and
//! a figure that does not apply is `null`, as in the CLI's output.

use super::failure::{Failure, Kind};
use super::input::{sources, Source};
use super::panic;
use super::run::{run, Outcome, Settings};
use crate::metrics::bootstrap::ClusterBy;
use crate::web::protocol::Named;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

// The types the signatures below name, appended to the generated .d.ts.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../www/embed/types.d.ts");

/// `score`'s options, as JavaScript passes them.
#[derive(Debug, Default, Deserialize)]
struct ScoreOptions {
    profile: Option<String>,
    binning: Option<String>,
    strict: Option<bool>,
    cluster: Option<String>,
    #[serde(rename = "groupBy")]
    group_by: Option<String>,
}

const OPTION_KEYS: [&str; 5] = ["profile", "binning", "strict", "cluster", "groupBy"];

/// The options, or why they are wrong.
pub fn settings(options: &JsValue) -> Result<Settings, Failure> {
    let opts: ScoreOptions = if options.is_undefined() || options.is_null() {
        ScoreOptions::default()
    } else {
        // serde-wasm-bindgen reads a struct's own fields only; a misspelt key is caught here.
        if let Some(o) = options.dyn_ref::<js_sys::Object>() {
            for key in js_sys::Object::keys(o).iter().filter_map(|k| k.as_string()) {
                if !OPTION_KEYS.contains(&key.as_str()) {
                    return Err(Failure::new(
                        Kind::Options,
                        "",
                        format!("options: unknown key `{key}`; the keys are profile, binning, strict, cluster and groupBy"),
                    ));
                }
            }
        }
        serde_wasm_bindgen::from_value(options.clone())
            .map_err(|e| Failure::new(Kind::Options, "", format!("options: {e}")))?
    };
    let mass = match opts.binning.as_deref() {
        None | Some("width") | Some("equal-width") => false,
        Some("mass") | Some("equal-mass") => true,
        Some(other) => {
            return Err(Failure::new(
                Kind::Options,
                "",
                format!("options: binning `{other}` is neither `width` nor `mass`"),
            ))
        }
    };
    let cluster = match opts.cluster.as_deref() {
        None => None,
        Some(name) => Some(ClusterBy::parse(name).ok_or_else(|| {
            Failure::new(
                Kind::Options,
                "",
                format!("options: cluster `{name}` cannot name a field (empty, a blank at an end, or a control character); clusters come from {}", ClusterBy::NAMES),
            )
        })?),
    };
    Ok(Settings {
        profile: opts.profile.filter(|p| !p.trim().is_empty()),
        strict: opts.strict.unwrap_or(false),
        mass,
        sample: false,
        cluster,
        group_by: opts.group_by.filter(|v| !v.trim().is_empty()),
    })
}

/// Any serialisable value as plain JavaScript: objects for maps, `null` for a missing figure.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Failure> {
    let ser = serde_wasm_bindgen::Serializer::new()
        .serialize_maps_as_objects(true)
        .serialize_missing_as_null(true);
    value.serialize(&ser).map_err(|e| {
        Failure::new(
            Kind::Internal,
            "",
            format!("the report could not be converted: {e}"),
        )
    })
}

/// The report as `score` returns it; under equal-mass binning the bins are HELM's (`bins_em`).
fn report_js(outcome: Outcome, mass: bool) -> Result<JsValue, Failure> {
    let mut report = outcome.report;
    if mass {
        report.conditioning.bins = report.conditioning.bins_em.clone();
        report.mixing.bins = report.mixing.bins_em.clone();
    }
    to_js(&report)
}

/// Scores the input (one file or several read as one run) and resolves to the report, or
/// rejects with a `ScorelensError` whose `problems` say file, line and reason.
#[wasm_bindgen(unchecked_return_type = "Promise<Report>")]
pub fn score(
    #[wasm_bindgen(unchecked_param_type = "Input")] input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ScoreOptions | undefined")] options: JsValue,
) -> js_sys::Promise {
    promised(&input, &options, |inputs, settings| async move {
        report_js(run(inputs, &settings).await?, settings.mass)
    })
}

/// Scores each input of the array as one run and ranks them as `scorelens leaderboard FILES
/// --json` does (2000 paired resamples, seed 2024): resolves to that leaderboard, or rejects with
/// a `ScorelensError`. Runs are named by their files.
#[wasm_bindgen(unchecked_return_type = "Promise<Leaderboard>")]
pub fn leaderboard(
    #[wasm_bindgen(unchecked_param_type = "Input[]")] inputs: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ScoreOptions | undefined")] options: JsValue,
) -> js_sys::Promise {
    promised(&inputs, &options, |inputs, settings| async move {
        to_js(&super::rank::rank(inputs, &settings).await?.leaderboard)
    })
}

/// The promise every asynchronous API function returns: rejected at once after an earlier panic
/// or on bad input or options, otherwise settled by `work` on the sources and settings, with a
/// panic inside it turned into a rejection.
fn promised<F>(
    input: &JsValue,
    options: &JsValue,
    work: impl FnOnce(Vec<Source>, Settings) -> F + 'static,
) -> js_sys::Promise
where
    F: std::future::Future<Output = Result<JsValue, Failure>> + 'static,
{
    panic::install();
    let mut settle = None;
    let promise = js_sys::Promise::new(&mut |resolve, reject| settle = Some((resolve, reject)));
    let Some((resolve, reject)) = settle else {
        return promise;
    };
    if let Some(message) = panic::stopped() {
        let _ = reject.call1(&JsValue::NULL, &panic::internal_error(&message).to_js());
        return promise;
    }
    let parsed = settings(options).and_then(|s| Ok((sources(input)?, s)));
    let watch = panic::watch_reject(reject.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let result = match parsed {
            Ok((inputs, settings)) => work(inputs, settings).await,
            Err(f) => Err(f),
        };
        drop(watch);
        let _ = match result {
            Ok(value) => resolve.call1(&JsValue::NULL, &value),
            Err(f) => reject.call1(&JsValue::NULL, &f.to_js()),
        };
    });
    promise
}

fn named(list: Vec<Named>) -> JsValue {
    to_js(&list).unwrap_or_else(|_| js_sys::Array::new().into())
}

/// Every format the reader detects, with a line on what it reads.
#[wasm_bindgen(unchecked_return_type = "Named[]")]
pub fn formats() -> JsValue {
    named(crate::catalog::formats())
}

/// Every profile `score` accepts in `options.profile`, with a line on what it scores.
#[wasm_bindgen(unchecked_return_type = "Named[]")]
pub fn profiles() -> JsValue {
    named(crate::catalog::profiles())
}

/// The scorelens version this module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
