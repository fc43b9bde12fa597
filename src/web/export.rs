//! Export: the report as the CLI's JSON and as one HTML file (the core's `html` renderer, run in
//! the worker: the CLI's `--format html`), the tables as CSV and Markdown (to a file or the clipboard), and the
//! reliability diagram as SVG and PNG. Everything is made in the page and handed to the browser as
//! a download; nothing is sent anywhere.

use super::protocol::Text;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement, Url};

/// The diagram's look, written into the exported SVG (the page's CSS does not travel with it).
const SVG_STYLE: &str = "text{font:11px system-ui,sans-serif;fill:#333}.grid{stroke:#e4e4e4}\
.frame{fill:none;stroke:#999}.diagonal{stroke:#888;stroke-dasharray:4 3}.baseline{stroke:#999}\
.bar{fill:#4c78a8}.gap.over{fill:#e45756;opacity:.35}.gap.under{fill:#54a24b;opacity:.35}\
.mean-conf{stroke:#222;stroke-width:1.5}.ci line{stroke:#222}.hist{fill:#9ecae9}\
.curve{fill:none;stroke-width:2}.s0 .curve,.s0.ci line{stroke:#4c78a8}.s1 .curve,.s1.ci line{stroke:#f58518}\
.s2 .curve,.s2.ci line{stroke:#54a24b}.s3 .curve,.s3.ci line{stroke:#b279a2}.s0 .point,.hist.s0,.legend.s0 rect{fill:#4c78a8}\
.s1 .point,.hist.s1,.legend.s1 rect{fill:#f58518}.s2 .point,.hist.s2,.legend.s2 rect{fill:#54a24b}\
.s3 .point,.hist.s3,.legend.s3 rect{fill:#b279a2}";

fn log(what: &str, e: &JsValue) {
    web_sys::console::error_2(&format!("scorelens: {what}").into(), e);
}

fn blob(content: &JsValue, mime: &str) -> Result<Blob, JsValue> {
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    Blob::new_with_str_sequence_and_options(&js_sys::Array::of1(content), &opts)
}

fn save_blob(name: &str, blob: &Blob) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let url = Url::create_object_url_with_blob(blob)?;
    let a: HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // The download has its own reference; the URL can go once the click is handled.
    let revoke = Closure::once_into_js(move || {
        let _ = Url::revoke_object_url(&url);
    });
    web_sys::window()
        .ok_or("no window")?
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 1000)?;
    Ok(())
}

pub fn save(name: &str, mime: &str, content: &str) {
    if let Err(e) = blob(&content.into(), mime).and_then(|b| save_blob(name, &b)) {
        log("export failed", &e);
    }
}

/// Saves text the worker wrote (a Blob: the report's JSON, HTML and tables), without a copy
/// through the page's memory.
pub fn save_text(name: &str, text: &Text) {
    let saved = match text.blob() {
        Some(b) => save_blob(name, b),
        None => Err("no text to save".into()),
    };
    if let Err(e) = saved {
        log("export failed", &e);
    }
}

/// Copies a Blob's text: read as a JS string and handed to the clipboard as it is, never through
/// the page's memory.
async fn copy(text: Text) -> Result<(), JsValue> {
    let clipboard = web_sys::window()
        .ok_or("no window")?
        .navigator()
        .clipboard();
    let s = JsFuture::from(text.blob().ok_or("no text")?.text()).await?;
    let write: js_sys::Function =
        js_sys::Reflect::get(&clipboard, &"writeText".into())?.dyn_into()?;
    JsFuture::from(js_sys::Promise::from(write.call1(&clipboard, &s)?)).await?;
    Ok(())
}

/// The diagram as a standalone SVG document, as wide and high as its viewBox (on the page it
/// scales with its box, which gives a picture no size of its own).
pub fn svg_text(id: &str) -> Option<String> {
    let el = web_sys::window()?.document()?.get_element_by_id(id)?;
    let view_box = el.get_attribute("viewBox")?;
    let mut dims = view_box.split_whitespace().skip(2);
    let (w, h) = (dims.next()?, dims.next()?);
    let html = el.outer_html();
    let at = html.find('>')? + 1;
    let open = html.get(..at - 1)?;
    Some(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{open} width=\"{w}\" height=\"{h}\"><style>{SVG_STYLE}</style><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>{}",
        &html[at..]
    ))
}

async fn png(id: String, name: String) -> Result<(), JsValue> {
    let svg = svg_text(&id).ok_or("no diagram")?;
    let url = Url::create_object_url_with_blob(&blob(&svg.into(), "image/svg+xml")?)?;
    let img = HtmlImageElement::new()?;
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        img.set_onload(Some(&resolve));
        img.set_onerror(Some(&reject));
    });
    img.set_src(&url);
    JsFuture::from(loaded).await?;
    Url::revoke_object_url(&url)?;
    let scale = 2.0;
    let (w, h) = (
        f64::from(img.natural_width()),
        f64::from(img.natural_height()),
    );
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let canvas: HtmlCanvasElement = document.create_element("canvas")?.dyn_into()?;
    canvas.set_width((w * scale) as u32);
    canvas.set_height((h * scale) as u32);
    let ctx: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d")?.ok_or("no canvas")?.dyn_into()?;
    ctx.scale(scale, scale)?;
    ctx.draw_image_with_html_image_element_and_dw_and_dh(&img, 0.0, 0.0, w, h)?;
    let made = js_sys::Promise::new(&mut |resolve, _| {
        let cb = Closure::once_into_js(move |b: JsValue| {
            let _ = resolve.call1(&JsValue::NULL, &b);
        });
        let _ = canvas.to_blob(cb.unchecked_ref());
    });
    let png: Blob = JsFuture::from(made).await?.dyn_into()?;
    save_blob(&name, &png)
}

/// A file-name stem from a run's title: letters, digits, dots and dashes.
pub fn stem(title: &str) -> String {
    let s: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() {
        "scorelens".to_string()
    } else {
        s
    }
}

#[component]
pub fn Export(
    #[prop(into)] stem: String,
    /// The report JSON, when this is one run (it gains the bootstrap's intervals when they come).
    json: Option<Signal<Text>>,
    /// The report as one HTML file, when this is one run.
    #[prop(optional)]
    html: Option<Signal<Text>>,
    /// The tables as CSV (every digit) and Markdown (four decimals).
    csv: Text,
    md: Text,
    /// The id of the diagram's SVG element.
    #[prop(into)]
    svg: String,
    /// Whether there is a diagram: without one, no diagram buttons.
    #[prop(default = true)]
    diagram: bool,
) -> impl IntoView {
    let note = RwSignal::new(String::new());
    // A status says what the last export did, for a few seconds.
    let say = move |text: String| {
        note.set(text.clone());
        set_timeout(
            move || {
                if note.get_untracked() == text {
                    note.set(String::new());
                }
            },
            std::time::Duration::from_secs(6),
        );
    };
    let s = StoredValue::new((stem, csv, md, svg));
    let copy_text = move |text: Text, what: &'static str| {
        spawn_local(async move {
            match copy(text).await {
                Ok(()) => say(format!("{what} copied to the clipboard")),
                Err(e) => {
                    log("copy failed", &e);
                    say("The browser refused the clipboard; use the download instead".into())
                }
            }
        })
    };
    let json_button = json.map(|j| {
        view! {
            <button data-export="json" on:click=move |_| s.with_value(|(stem, ..)| j.with_untracked(|t| save_text(&format!("{stem}.report.json"), t)))>
                "Report JSON"
            </button>
        }
    });
    let html_button = html.map(|make| {
        view! {
            <button data-export="html" title="One file with the report's figures, tables and diagrams: no script, readable offline, printable" on:click=move |_| s.with_value(|(stem, ..)| make.with_untracked(|t| save_text(&format!("{stem}.report.html"), t)))>
                "Report HTML"
            </button>
        }
    });
    view! {
        // A new export clears the last one's status.
        <div class="export" role="group" aria-label="Export" data-testid="export" on:click=move |_| note.set(String::new())>
            {json_button}
            {html_button}
            <button data-export="csv" on:click=move |_| s.with_value(|(stem, csv, ..)| save_text(&format!("{stem}.csv"), csv))>"Tables CSV"</button>
            <button data-export="copy-csv" on:click=move |_| copy_text(s.with_value(|v| v.1.clone()), "CSV")>"Copy CSV"</button>
            <button data-export="md" on:click=move |_| s.with_value(|(stem, _, md, _)| save_text(&format!("{stem}.md"), md))>"Tables Markdown"</button>
            <button data-export="copy-md" on:click=move |_| copy_text(s.with_value(|v| v.2.clone()), "Markdown")>"Copy Markdown"</button>
            {diagram.then(|| view! {
                <button data-export="svg" on:click=move |_| s.with_value(|(stem, _, _, svg)| {
                    match svg_text(svg) {
                        Some(text) => save(&format!("{stem}.reliability.svg"), "image/svg+xml", &text),
                        None => say("No diagram to export".into()),
                    }
                })>"Diagram SVG"</button>
                <button data-export="png" on:click=move |_| {
                    let (stem, svg) = s.with_value(|(stem, _, _, svg)| (stem.clone(), svg.clone()));
                    spawn_local(async move {
                        if let Err(e) = png(svg, format!("{stem}.reliability.png")).await {
                            log("PNG export failed", &e);
                            say("PNG export failed".into());
                        }
                    })
                }>"Diagram PNG"</button>
            })}
            <span class="muted small" role="status">{move || note.get()}</span>
        </div>
    }
}
