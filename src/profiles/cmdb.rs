//! CMDB-1500 (SPEC §7): multi-select items stay outside I/C and get exact-set accuracy and F1;
//! every figure is given overall and per modality (text, image).

use super::ic_common::{IcRules, Scope};
use super::Profile;

const NOTES: &[&str] = &[
    "cmdb-1500: multi items are outside I/C; see `multi` for exact-set accuracy, mean F1 and the \
     gold set's probability from the conditional steps; scopes give text and image separately",
];

pub static PROFILE: Profile = Profile {
    name: "cmdb-1500",
    describe:
        "CMDB-1500: I and C, multi-select exact-set accuracy and F1; scopes text / image / overall",
    rules: || IcRules::boxed("cmdb-1500", Scope::All, NOTES),
};
