//! The view switches: which reading of the probabilities (conditioning, mixing, both) and which
//! binning the diagram uses. Plain radio groups, so the keyboard works without extra code.

use super::state::{use_toggles, Binning, Reading};
use leptos::prelude::*;

#[component]
pub fn ReadingToggle() -> impl IntoView {
    let state = use_toggles();
    let option = move |value: Reading, label: &'static str, key: &'static str| {
        view! {
            <label>
                <input
                    type="radio"
                    name="reading"
                    value=key
                    data-testid=format!("reading-{key}")
                    prop:checked=move || state.reading.get() == value
                    on:change=move |_| state.reading.set(value)
                />
                {label}
            </label>
        }
    };
    view! {
        <fieldset class="seg">
            <legend>"Probabilities"</legend>
            {option(Reading::Conditioning, "conditioning", "conditioning")}
            {option(Reading::Mixing, "mixing", "mixing")}
            {option(Reading::Both, "both", "both")}
        </fieldset>
    }
}

#[component]
pub fn BinningToggle() -> impl IntoView {
    let state = use_toggles();
    let option = move |value: Binning, label: &'static str, key: &'static str| {
        view! {
            <label>
                <input
                    type="radio"
                    name="binning"
                    value=key
                    data-testid=format!("binning-{key}")
                    prop:checked=move || state.binning.get() == value
                    on:change=move |_| state.binning.set(value)
                />
                {label}
            </label>
        }
    };
    view! {
        <fieldset class="seg">
            <legend>"Bins"</legend>
            {option(Binning::EqualWidth, "equal width", "width")}
            {option(Binning::EqualMass, "equal mass", "mass")}
        </fieldset>
    }
}
