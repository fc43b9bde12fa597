//! CMDB-1500 (SPEC §7): multi-select items stay outside I/C and get exact-set accuracy and F1;
//! every figure is given overall and per modality (text, image).

use super::frozen::CMDB_1500;
use super::ic::{IcRules, Scope};
use super::Profile;

const NOTES: &[&str] = &[
    "cmdb-1500: multi items are outside I/C; see `multi` for exact-set accuracy, mean F1 and the \
     gold set's probability from the conditional steps; scopes give text and image separately",
];

/// CMDB's I/C scope: no tiers, one pooled choice and binary ECE.
pub const SCOPE: Scope = Scope::PooledNoTiers;

pub static PROFILE: Profile = Profile {
    name: "cmdb-1500",
    describe:
        "CMDB-1500: I and C with one pooled choice+binary ECE, no tiers; multi-select exact-set accuracy and F1; scopes text / image / overall",
    rules: || IcRules::boxed_frozen("cmdb-1500", SCOPE, NOTES, &CMDB_1500),
};
