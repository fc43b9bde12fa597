//! The leaderboard in wasm32 (headless Chromium): the numpy reference's runs give, byte for byte,
//! the JSON the native build gives (pinned by tests/leaderboard_reference.rs): the same seed, the
//! same ranks, intervals and tests natively and in the page. Run by scripts/wasm_test.sh.
#![cfg(target_arch = "wasm32")]

mod leaderboard_util;

use leaderboard_util::{options, reference, runs, NATIVE_JSON};
use scorelens::leaderboard::leaderboard;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_leaderboard_equals_the_native_one_byte_for_byte() {
    let doc = reference();
    let json = leaderboard(&runs(&doc), &options(&doc)).to_json() + "\n";
    assert!(!NATIVE_JSON.is_empty());
    assert!(json == NATIVE_JSON, "wasm32 and native leaderboards differ");
}
