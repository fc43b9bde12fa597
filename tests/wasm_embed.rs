//! The embed API (src/embed.rs) in headless Chromium: `score` on every sample gives the native
//! CLI's report, whatever the input's kind; bad input rejects with file, line and reason;
//! `profiles()` and `formats()` list what the CLI lists. Run by scripts/wasm_test.sh, which
//! writes the CLI's reports first (they are never committed, so they cannot go stale).
#![cfg(all(target_arch = "wasm32", feature = "embed"))]

use scorelens::embed;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// One run of the CLI: its options as JSON, the files, and its report (or its error's first line).
struct Case {
    name: &'static str,
    options: &'static str,
    files: &'static [(&'static str, &'static [u8])],
    ok: bool,
    expected: &'static str,
}

const CASES: &[Case] = include!(concat!(
    env!(
        "SCORELENS_EXPECTED",
        "run scripts/wasm_test.sh: it writes the CLI's reports first"
    ),
    "/cases.rs"
));
const PROFILES: &[&str] = include!(concat!(env!("SCORELENS_EXPECTED"), "/profiles.rs"));
const FORMATS: &[&str] = include!(concat!(env!("SCORELENS_EXPECTED"), "/formats.rs"));

fn file(name: &str, bytes: &[u8]) -> JsValue {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    web_sys::File::new_with_u8_array_sequence(&parts, name)
        .unwrap()
        .into()
}

fn options(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

async fn score(input: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(embed::score(input, options)).await
}

fn json(v: &JsValue) -> Value {
    let text = js_sys::JSON::stringify(v).unwrap().as_string().unwrap();
    serde_json::from_str(&text).unwrap()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &key.into()).unwrap()
}

/// The first difference between two reports. Numbers must agree bit for bit, as in the e2e
/// tests: the core takes every transcendental function from `scorelens::math` (libm's, the same
/// on every target) and sums in a fixed order, so no figure may differ between wasm32 and native.
fn diff(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x.to_bits() != y.to_bits()).then(|| format!("{path}: wasm {x:?} vs native {y:?}"))
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path}: {} vs {} elements", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (x, y))| diff(x, y, &format!("{path}[{i}]")))
        }
        (Value::Object(x), Value::Object(y)) => {
            let (kx, ky): (Vec<_>, Vec<_>) = (x.keys().collect(), y.keys().collect());
            if kx != ky {
                return Some(format!("{path}: keys {kx:?} vs {ky:?}"));
            }
            x.iter()
                .find_map(|(k, v)| diff(v, &y[k], &format!("{path}.{k}")))
        }
        _ => (a != b).then(|| format!("{path}: {a} vs {b}")),
    }
}

fn inputs(case: &Case) -> JsValue {
    let files: Vec<JsValue> = case.files.iter().map(|(n, b)| file(n, b)).collect();
    match files.as_slice() {
        [one] => one.clone(),
        _ => files.into_iter().collect::<js_sys::Array>().into(),
    }
}

#[wasm_bindgen_test]
async fn every_sample_scores_as_the_cli() {
    assert!(CASES.len() >= 18, "the samples are listed");
    for case in CASES {
        let got = score(inputs(case), options(case.options)).await;
        match (got, case.ok) {
            (Ok(report), true) => {
                let want: Value = serde_json::from_str(case.expected).unwrap();
                if let Some(d) = diff(&json(&report), &want, "$") {
                    panic!(
                        "{}: the wasm report differs from the CLI's at {d}",
                        case.name
                    );
                }
            }
            (Err(e), false) => {
                let message = get(&e, "message").as_string().unwrap();
                assert!(
                    message.contains(case.expected.trim()),
                    "{}: `{message}` does not say what the CLI says: `{}`",
                    case.name,
                    case.expected.trim()
                );
            }
            (Ok(_), false) => panic!("{}: the CLI made no report, the wasm did", case.name),
            (Err(e), true) => panic!("{}: rejected: {:?}", case.name, get(&e, "message")),
        }
    }
}

/// The same bytes as a string, a Uint8Array, an ArrayBuffer, a Blob and a one-file array give
/// the File's report, up to the name an unnamed input gets.
#[wasm_bindgen_test]
async fn every_input_kind_gives_the_same_report() {
    let case = CASES.iter().find(|c| c.name == "choice.jsonl").unwrap();
    let (name, bytes) = case.files[0];
    let want = json(&score(file(name, bytes), JsValue::UNDEFINED).await.unwrap());
    let text = std::str::from_utf8(bytes).unwrap();
    let array = js_sys::Uint8Array::from(bytes);
    let blob = web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&array)).unwrap();
    let kinds: [(&str, JsValue, &str); 5] = [
        ("string", text.into(), "input"),
        ("Uint8Array", array.clone().into(), "input"),
        ("ArrayBuffer", array.buffer().into(), "input"),
        ("Blob", blob.clone().into(), "input"),
        ("[Blob]", js_sys::Array::of1(&blob).into(), "input"),
    ];
    for (kind, input, given) in kinds {
        let got = score(input, JsValue::UNDEFINED).await.unwrap();
        let got = json(&got)
            .to_string()
            .replace(&format!("\"{given}\""), &format!("\"{name}\""));
        let got: Value = serde_json::from_str(&got).unwrap();
        assert_eq!(diff(&got, &want, "$"), None, "{kind}");
    }
    // Several unnamed inputs are numbered.
    let two: js_sys::Array = [JsValue::from(text), array.into()].into_iter().collect();
    let report = json(&score(two.into(), JsValue::UNDEFINED).await.unwrap());
    let names: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["input-1", "input-2"]);
}

/// The rejection's `kind` and its problems as (file, line, reason).
async fn rejected(input: JsValue, opts: &str) -> (String, Vec<(String, Option<u64>, String)>) {
    let e = match score(input, options(opts)).await {
        Ok(_) => return ("resolved".to_string(), Vec::new()),
        Err(e) => e,
    };
    assert!(e.is_instance_of::<js_sys::Error>(), "an Error");
    assert_eq!(
        get(&e, "name").as_string().as_deref(),
        Some("ScorelensError")
    );
    let kind = get(&e, "kind").as_string().unwrap();
    let problems = get(&e, "problems")
        .unchecked_into::<js_sys::Array>()
        .iter()
        .map(|p| {
            let line = get(&p, "line");
            (
                get(&p, "file").as_string().unwrap(),
                (!line.is_null()).then(|| line.as_f64().unwrap() as u64),
                get(&p, "reason").as_string().unwrap(),
            )
        })
        .collect();
    (kind, problems)
}

const GOOD: &str =
    r#"{"id":"a","options":["A","B"],"gold":"A","answer":"A","probs":{"A":0.9,"B":0.1}}"#;

#[wasm_bindgen_test]
async fn bad_input_rejects_with_file_line_and_reason() {
    // No line can be scored: every problem, located.
    let bad = "{\"id\":\"a\",\"options\":[\"A\",\"B\"],\"gold\":\"Z\"}\n{\"id\":\"b\",\"options\":[\"A\",\"B\"]}\n";
    let (kind, problems) = rejected(file("bad.jsonl", bad.as_bytes()), "{}").await;
    assert_eq!(kind, "no-items");
    let at: Vec<(&str, Option<u64>)> = problems.iter().map(|(f, l, _)| (f.as_str(), *l)).collect();
    assert_eq!(at, [("bad.jsonl", Some(1)), ("bad.jsonl", Some(2))]);
    assert!(problems[0].2.contains("gold `Z`"), "{}", problems[0].2);
    assert!(problems[1].2.contains("gold"), "{}", problems[1].2);

    // Strict mode stops at the first bad line, and names it.
    let mixed = format!("{GOOD}\nnot json at all\n{GOOD}\n");
    let (kind, problems) =
        rejected(file("mixed.jsonl", mixed.as_bytes()), r#"{"strict": true}"#).await;
    assert_eq!(kind, "strict");
    assert_eq!(
        (problems[0].0.as_str(), problems[0].1),
        ("mixed.jsonl", Some(2))
    );
    assert!(
        problems[0].2.contains("not valid JSON"),
        "{}",
        problems[0].2
    );

    // Without strict the same file is scored, and the report carries the warning.
    let report = score(file("mixed.jsonl", mixed.as_bytes()), JsValue::UNDEFINED)
        .await
        .unwrap();
    let report = json(&report);
    assert_eq!(report["items"], 1);
    assert_eq!(report["warnings"][0]["line"], 2);
    assert_eq!(report["warnings"][1]["line"], 3);

    // Text nothing reads.
    let (kind, problems) = rejected("hello\nworld\n".into(), "{}").await;
    assert_eq!(kind, "no-items");
    assert_eq!((problems[0].0.as_str(), problems[0].1), ("input", None));
    assert!(problems[0]
        .2
        .starts_with("not a file scorelens reads: text that is neither JSON nor a table"));
}

#[wasm_bindgen_test]
async fn wrong_arguments_reject_without_scoring() {
    let cases: [(JsValue, &str, &str, &str); 7] = [
        (42.into(), "{}", "input", "is number"),
        (JsValue::NULL, "{}", "input", "is null"),
        (js_sys::Array::new().into(), "{}", "input", "empty array"),
        (
            GOOD.into(),
            r#"{"binning": "log"}"#,
            "options",
            "binning `log`",
        ),
        (GOOD.into(), r#"{"profil": "generic"}"#, "options", "profil"),
        (GOOD.into(), r#"{"strict": "yes"}"#, "options", "options:"),
        (
            GOOD.into(),
            r#"{"profile": "nope"}"#,
            "profile",
            "unknown profile `nope`",
        ),
    ];
    for (input, opts, want_kind, says) in cases {
        let (kind, problems) = rejected(input, opts).await;
        assert_eq!(kind, want_kind, "{opts}");
        assert!(
            problems.iter().any(|p| p.2.contains(says)),
            "{opts}: {problems:?} should say {says}"
        );
    }
    // The message of an unknown profile lists the profiles.
    let (_, problems) = rejected(GOOD.into(), r#"{"profile": "nope"}"#).await;
    assert!(PROFILES.iter().all(|p| problems[0].2.contains(p)));
}

/// A figure that does not apply is `null` in the object, as in the CLI's JSON, not `undefined`.
#[wasm_bindgen_test]
async fn missing_figures_are_null() {
    let case = CASES.iter().find(|c| c.name == "pair.jsonl").unwrap();
    let report = score(inputs(case), JsValue::UNDEFINED).await.unwrap();
    let conditioning = get(&report, "conditioning");
    for key in ["ece", "ece_em", "brier", "epa", "nll"] {
        assert!(get(&conditioning, key).is_null(), "conditioning.{key}");
    }
    assert!(get(&report, "ic").is_null(), "ic");
    // Maps are plain objects, not Map.
    let wilson = get(&get(&report, "intervals"), "wilson");
    assert!(!wilson.is_instance_of::<js_sys::Map>());
    assert_eq!(
        js_sys::Object::get_prototype_of(&wilson),
        js_sys::Object::get_prototype_of(&js_sys::Object::new().into())
    );
}

/// Equal-mass bins: every item once, and HELM's ECE from them is the report's `ece_em`.
#[wasm_bindgen_test]
async fn mass_binning_gives_helms_bins() {
    let case = CASES.iter().find(|c| c.name == "choice.jsonl").unwrap();
    let width = json(&score(inputs(case), JsValue::UNDEFINED).await.unwrap());
    let mass = json(
        &score(inputs(case), options(r#"{"binning": "mass"}"#))
            .await
            .unwrap(),
    );
    for mode in ["conditioning", "mixing"] {
        let c = &mass[mode];
        let n = c["items"].as_u64().unwrap();
        let bins = c["bins"].as_array().unwrap();
        assert_ne!(
            bins,
            width[mode]["bins"].as_array().unwrap(),
            "{mode}: other bins"
        );
        let counts: u64 = bins.iter().map(|b| b["count"].as_u64().unwrap()).sum();
        assert_eq!(counts, n, "{mode}: every item in one bin");
        let ece: f64 = bins
            .iter()
            .filter(|b| b["count"].as_u64().unwrap() > 0)
            .map(|b| {
                let k = b["count"].as_f64().unwrap();
                k / n as f64
                    * (b["accuracy"].as_f64().unwrap() - b["confidence"].as_f64().unwrap()).abs()
            })
            .sum();
        let want = c["ece_em"].as_f64().unwrap();
        assert!(
            (ece - want).abs() < 1e-12,
            "{mode}: ECE from the bins {ece} vs ece_em {want}"
        );
        // Only the bins change.
        let mut a = mass.clone();
        let mut b = width.clone();
        a[mode]["bins"] = Value::Null;
        b[mode]["bins"] = Value::Null;
        a[if mode == "mixing" {
            "conditioning"
        } else {
            "mixing"
        }]["bins"] = Value::Null;
        b[if mode == "mixing" {
            "conditioning"
        } else {
            "mixing"
        }]["bins"] = Value::Null;
        assert_eq!(diff(&a, &b, "$"), None);
    }
}

#[wasm_bindgen_test]
fn profiles_and_formats_list_what_the_cli_lists() {
    let names = |v: JsValue| -> Vec<String> {
        v.unchecked_into::<js_sys::Array>()
            .iter()
            .map(|p| {
                assert!(!get(&p, "describe").as_string().unwrap().is_empty());
                get(&p, "name").as_string().unwrap()
            })
            .collect()
    };
    assert_eq!(names(embed::profiles()), PROFILES);
    assert_eq!(names(embed::formats()), FORMATS);
    assert!(PROFILES.contains(&"generic") && PROFILES.contains(&"rewardbench2"));
    assert_eq!(embed::version(), env!("CARGO_PKG_VERSION"));
}

/// The widget's sheet is the app's www/style.css made fit for a shadow root: no `:root` (it would
/// match nothing), no `rem` (it would follow the host's font size), both palettes on demand.
#[wasm_bindgen_test]
fn the_style_sheet_is_the_apps_scoped_to_the_widget() {
    let sheet = embed::style_sheet();
    let app = include_str!("../www/style.css");
    assert!(
        app.contains(":root") && app.contains("rem"),
        "the app's sheet has what is rewritten"
    );
    assert!(!sheet.contains(":root"));
    let rem_units = sheet
        .match_indices("rem")
        .filter(|(i, _)| sheet[..*i].ends_with(|c: char| c.is_ascii_digit() || c == '.'))
        .count();
    assert_eq!(rem_units, 0, "rem lengths become pixels");
    // 1.25rem (the app's h2) at the browser's 16 px.
    assert!(app.contains("font-size: 1.25rem") && sheet.contains("font-size: 20px"));
    for theme in ["light", "dark"] {
        let at = sheet
            .find(&format!(".sl-root[data-theme=\"{theme}\"]"))
            .unwrap_or_else(|| panic!("the {theme} palette"));
        let block = &sheet[at..at + sheet[at..].find('}').unwrap()];
        assert!(
            block.contains("--bg:") && block.contains("--ink:"),
            "{block}"
        );
        assert!(block.contains(&format!("color-scheme: {theme}")));
    }
    // The widget's own rules (widget.css) come after the app's.
    assert!(sheet.contains(":host { display: block; }"));
    assert!(sheet.rfind(".sl-root {").unwrap() > sheet.find(".sl-root[data-theme").unwrap());
}
