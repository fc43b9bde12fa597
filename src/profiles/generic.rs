//! The default profile: SPEC §2–§4 figures over whatever items the file holds, plus I and C when it
//! has choice, binary or rating items and multi-select figures when it has `multi` items.

use super::ic::{IcRules, Scope};
use super::Profile;

pub static PROFILE: Profile = Profile {
    name: "generic",
    describe: "accuracy, normalized accuracy, calibration under conditioning and mixing, I and C, per-group breakdown",
    rules: || IcRules::boxed("generic", Scope::All, &[]),
};
