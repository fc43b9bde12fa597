//! Reads a widget's `src`: only from the page's own origin (checked before any request, and the
//! request is made in `same-origin` mode, so a redirect elsewhere fails too).

use super::failure::{Failure, Kind};
use super::input::{Data, Source};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, RequestInit, RequestMode, Response};

/// The last path segment of a URL, decoded: the file name the report shows.
fn file_name(url: &web_sys::Url) -> String {
    let path = url.pathname();
    let last = path.rsplit('/').next().unwrap_or_default();
    js_sys::decode_uri_component(last)
        .ok()
        .and_then(|s| s.as_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "results".to_string())
}

/// Fetches `src`, which must be on the page's own origin (and stay there through redirects).
pub async fn fetch_source(src: &str) -> Result<Source, Failure> {
    let fail = |reason: String| Failure::new(Kind::Read, src, reason);
    let js_fail = |e: JsValue| {
        let why = js_sys::Error::from(e)
            .message()
            .as_string()
            .unwrap_or_default();
        fail(format!("could not be fetched: {why}"))
    };
    let window =
        web_sys::window().ok_or_else(|| fail("there is no window to fetch from".into()))?;
    let base = window
        .document()
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let url =
        web_sys::Url::new_with_base(src, &base).map_err(|_| fail("is not a URL".to_string()))?;
    let origin = window.location().origin().map_err(js_fail)?;
    if url.origin() != origin {
        return Err(fail(format!(
            "is not on this page's origin ({origin}); the widget reads only files served with the page"
        )));
    }
    let init = RequestInit::new();
    init.set_mode(RequestMode::SameOrigin);
    let resp: Response = JsFuture::from(window.fetch_with_str_and_init(&url.href(), &init))
        .await
        .map_err(js_fail)?
        .dyn_into()
        .map_err(js_fail)?;
    if !resp.ok() {
        return Err(fail(format!(
            "could not be fetched: HTTP {} {}",
            resp.status(),
            resp.status_text()
        )));
    }
    let blob: Blob = JsFuture::from(resp.blob().map_err(js_fail)?)
        .await
        .map_err(js_fail)?
        .dyn_into()
        .map_err(js_fail)?;
    Ok(Source {
        name: file_name(&url),
        data: Data::Blob(blob),
    })
}
