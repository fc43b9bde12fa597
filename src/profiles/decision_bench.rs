//! Decision Bench (SPEC §7; FORMATS §9): every item is a Choice item without tiers, and the choice
//! calibration part measures TVD against the one-hot gold (1 - q[gold]).

use super::ic::{IcRules, Scope};
use super::Profile;

const NOTES: &[&str] = &[
    "decision-bench: every item is scored as Choice without tiers; C's TVD is against the one-hot \
     gold, 1 - q[gold], over the items with valid probabilities",
];

/// Decision Bench's I/C scope: every option item as Choice, no tiers, one-hot TVD.
pub const SCOPE: Scope = Scope::ChoiceNoTiers;

pub static PROFILE: Profile = Profile {
    name: "decision-bench",
    describe: "Decision Bench: every item Choice, no tiers; I and C with one-hot TVD",
    rules: || IcRules::boxed("decision-bench", SCOPE, NOTES),
};
