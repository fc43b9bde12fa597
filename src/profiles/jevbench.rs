//! JevBench v1.5 profiles (SPEC §5, §7; FORMATS §8): Public 231 with every tier, Hard 111 with the
//! hard tier only.

use super::ic_common::{IcRules, Scope};
use super::Profile;

const NOTES: &[&str] = &[
    "jevbench: the v1.5 scorer and its calibration mapping are unpublished; C follows SPEC §5's \
     reconstruction, and I averages the types equally (headline amendment A)",
];

pub static PUBLIC_231: Profile = Profile {
    name: "jevbench-public-231",
    describe:
        "JevBench Public 231: I and C over choice/noul/score items, tiers easy/standard/judge/hard",
    rules: || IcRules::boxed("jevbench-public-231", Scope::All, NOTES),
};

pub static HARD_111: Profile = Profile {
    name: "jevbench-hard-111",
    describe: "JevBench Hard 111: I and C over the hard tier only; other tiers are out of scope",
    rules: || IcRules::boxed("jevbench-hard-111", Scope::HardOnly, NOTES),
};
