//! STEER: normalized accuracy per element, macro-averaged, with consistency pairs (SPEC §3, §7).

use super::{Context, Profile, Rules};
use crate::report::Report;

pub static PROFILE: Profile = Profile {
    name: "steer",
    describe: "STEER: normalized accuracy per element (group), macro-averaged; consistency pairs score as items",
    rules: || Box::new(Steer),
};

#[derive(Debug)]
struct Steer;

impl Rules for Steer {
    fn finish(&self, _ctx: &Context, report: &mut Report) {
        report.notes.push(
            "steer: the headline is macro_normalized, the mean over elements of normalized accuracy (chance = 0)"
                .to_string(),
        );
    }
}
