//! The embed API's `leaderboard` and the widget's `view="leaderboard"` in headless Chromium: four
//! runs (written with the CLI's expected output by scripts/embed_expected.mjs) ranked in the page
//! give `scorelens leaderboard FILES --json`, number for number; the widget shows one ranking row
//! and one plot row per run, best first; fewer than two runs reject. Run by scripts/wasm_test.sh.
#![cfg(all(target_arch = "wasm32", feature = "embed"))]

use scorelens::embed;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

type Files = &'static [(&'static str, &'static [u8])];
const BOARD: (Files, &str) = include!(concat!(
    env!(
        "SCORELENS_EXPECTED",
        "run scripts/wasm_test.sh: it writes the CLI's output first"
    ),
    "/leaderboard.rs"
));

fn files() -> js_sys::Array {
    BOARD
        .0
        .iter()
        .map(|(name, bytes)| {
            let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(*bytes));
            JsValue::from(web_sys::File::new_with_u8_array_sequence(&parts, name).unwrap())
        })
        .collect()
}

/// Whether two JSON values are the same, numbers bit for bit as f64 (JSON.stringify writes 0.0
/// as 0, which serde_json reads as an integer).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn json(v: &JsValue) -> Value {
    let text = js_sys::JSON::stringify(v).unwrap().as_string().unwrap();
    serde_json::from_str(&text).unwrap()
}

#[wasm_bindgen_test]
async fn the_api_ranks_as_the_cli_does() {
    let got = JsFuture::from(embed::leaderboard(files().into(), JsValue::UNDEFINED))
        .await
        .unwrap();
    let want: Value = serde_json::from_str(BOARD.1).unwrap();
    // serde_json reads both sides' numbers the same way: equal Values are equal bits.
    assert!(
        same(&json(&got), &want),
        "the API's leaderboard is not the CLI's"
    );
    assert_eq!(want["runs"].as_array().unwrap().len(), 4);
}

#[wasm_bindgen_test]
async fn one_run_is_not_a_leaderboard() {
    let one = js_sys::Array::of1(&files().get(0));
    let err = JsFuture::from(embed::leaderboard(one.into(), JsValue::UNDEFINED))
        .await
        .unwrap_err();
    let kind = js_sys::Reflect::get(&err, &"kind".into()).unwrap();
    assert_eq!(kind.as_string().as_deref(), Some("input"));
}

#[wasm_bindgen_test]
async fn the_widget_shows_the_ranking_and_the_plot() {
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().dyn_into().unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    host.set_attribute("view", "leaderboard").unwrap();
    let shadow = host
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .unwrap();
    // The first `ready` or `error` the widget tells its element, as [state, detail].
    let mut settle = None;
    let told = js_sys::Promise::new(&mut |resolve, _| settle = Some(resolve));
    let resolve = settle.unwrap();
    let notify = Closure::<dyn Fn(String, JsValue)>::new(move |state: String, detail: JsValue| {
        if state == "ready" || state == "error" {
            let _ = resolve.call1(&JsValue::NULL, &js_sys::Array::of2(&state.into(), &detail));
        }
    });
    let f: &js_sys::Function = notify.as_ref().unchecked_ref();
    let widget = embed::mount_report(shadow.clone(), host.clone(), f.clone()).unwrap();
    // No `src`: the four files picked, each one run.
    let dt = web_sys::DataTransfer::new().unwrap();
    for f in files().iter() {
        dt.items()
            .add_with_file(&f.dyn_into::<web_sys::File>().unwrap())
            .unwrap();
    }
    let input: web_sys::HtmlInputElement = shadow
        .query_selector("[data-testid=widget-file-input]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    input.set_files(dt.files().as_ref());
    input
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    let told: js_sys::Array = JsFuture::from(told).await.unwrap().dyn_into().unwrap();
    let (state, detail) = (told.get(0).as_string().unwrap(), told.get(1));
    assert_eq!(state, "ready", "the widget said {}", json(&detail));
    let want: Value = serde_json::from_str(BOARD.1).unwrap();
    assert!(
        same(&json(&detail), &want),
        "the widget's leaderboard is not the CLI's"
    );
    // Let the view draw.
    let p = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 50)
            .unwrap();
    });
    JsFuture::from(p).await.unwrap();
    let count = |selector: &str| {
        // querySelectorAll through Reflect: the web-sys NodeList binding is not enabled.
        let all: js_sys::Function = js_sys::Reflect::get(&shadow, &"querySelectorAll".into())
            .unwrap()
            .into();
        let list = all.call1(&shadow, &selector.into()).unwrap();
        js_sys::Reflect::get(&list, &"length".into())
            .unwrap()
            .as_f64()
            .unwrap()
    };
    assert_eq!(count("[data-testid=leaderboard-table] tbody tr"), 4.0);
    assert_eq!(count("#leaderboard-plot .rank-row"), 4.0);
    let first = shadow
        .query_selector("[data-testid=leaderboard-table] tbody tr")
        .unwrap()
        .unwrap();
    let best = want["figures"][0]["standings"][0]["run"].as_str().unwrap();
    assert_eq!(first.get_attribute("data-run").as_deref(), Some(best));
    drop(widget);
    drop(notify);
}
