//! STEER: normalized accuracy per element, macro-averaged, with consistency pairs (SPEC §3, §7).

pub const DESCRIPTION: &str =
    "STEER: normalized accuracy per element (group), macro-averaged; consistency pairs score as items";

/// How to read a STEER report.
pub fn notes() -> Vec<String> {
    vec![
        "steer: the headline is macro_normalized, the mean over elements of normalized accuracy (chance = 0)"
            .to_string(),
    ]
}
