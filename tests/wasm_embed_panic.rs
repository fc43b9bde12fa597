//! A bug in the embed code must not leave a promise hanging (with `panic = "abort"` a panic
//! traps, and nothing after it runs). The panic hook rejects every `score` in flight and stops
//! the module, so later calls fail at once instead of running on half-updated state. Its own test
//! binary, because it stops the module for good. A real panic would stop the test runner too, so
//! this calls what the hook calls (`report_panic`).
#![cfg(all(target_arch = "wasm32", feature = "embed"))]

use scorelens::embed;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const GOOD: &str =
    r#"{"id":"a","options":["A","B"],"gold":"A","answer":"A","probs":{"A":0.9,"B":0.1}}"#;

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &key.into()).unwrap()
}

#[wasm_bindgen_test]
async fn a_panic_rejects_what_waits_and_stops_the_module() {
    // Works before.
    let ok = JsFuture::from(embed::score(GOOD.into(), JsValue::UNDEFINED)).await;
    assert!(ok.is_ok());

    // A run in flight when the code panics is rejected with the panic's message.
    let blob = web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&GOOD.into())).unwrap();
    let pending = embed::score(blob.into(), JsValue::UNDEFINED);
    embed::report_panic("index out of bounds (a test)");
    let e = JsFuture::from(pending)
        .await
        .expect_err("rejected, not hanging");
    assert_eq!(get(&e, "kind").as_string().as_deref(), Some("internal"));
    let message = get(&e, "message").as_string().unwrap();
    assert!(
        message.contains("index out of bounds (a test)"),
        "{message}"
    );
    assert!(message.contains("Reload the page"), "{message}");

    // Every later call is refused at once, with the same message.
    let e = JsFuture::from(embed::score(GOOD.into(), JsValue::UNDEFINED))
        .await
        .expect_err("stopped");
    assert_eq!(get(&e, "kind").as_string().as_deref(), Some("internal"));
    assert!(get(&e, "message")
        .as_string()
        .unwrap()
        .contains("index out of bounds (a test)"));

    // So is a new widget.
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    let shadow = host
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .unwrap();
    let notify = js_sys::Function::new_no_args("");
    assert!(embed::mount_report(shadow, host, notify).is_err());
}
