//! JevBench v1.5 profiles (SPEC §5, §7; FORMATS §8): Public 231 with every tier, Hard 111 with the
//! hard tier only.

use super::frozen::{JEVBENCH_HARD_111, JEVBENCH_PUBLIC_231};
use super::ic::{IcRules, Scope};
use super::Profile;

const NOTES: &[&str] = &[
    "jevbench: the v1.5 scorer and its calibration mapping are unpublished; C follows SPEC §5's \
     reconstruction, and I averages the types equally (headline amendment A)",
];

/// Public 231's I/C scope: every item, the choice ECE and TVD over the hard tier.
pub const PUBLIC_231_SCOPE: Scope = Scope::HardChoiceCalibration;
/// Hard 111's I/C scope: the hard tier only.
pub const HARD_111_SCOPE: Scope = Scope::HardOnly;

pub static PUBLIC_231: Profile = Profile {
    name: "jevbench-public-231",
    describe:
        "JevBench Public 231: I and C over choice/noul/score items, tiers easy/standard/judge/hard; choice ECE over the hard tier",
    rules: || {
        IcRules::boxed_frozen(
            "jevbench-public-231",
            PUBLIC_231_SCOPE,
            NOTES,
            &JEVBENCH_PUBLIC_231,
        )
    },
};

pub static HARD_111: Profile = Profile {
    name: "jevbench-hard-111",
    describe:
        "JevBench Hard 111: I and C over the hard tier only; items and metrics over the whole file",
    rules: || {
        IcRules::boxed_frozen(
            "jevbench-hard-111",
            HARD_111_SCOPE,
            NOTES,
            &JEVBENCH_HARD_111,
        )
    },
};
