//! The default profile: SPEC §2–§4 figures over whatever items the file holds.

use super::{Profile, Rules};
use std::any::Any;

pub static PROFILE: Profile = Profile {
    name: "generic",
    describe: "accuracy, normalized accuracy, calibration under conditioning and mixing, per-group breakdown",
    rules: || Box::new(Generic),
};

#[derive(Debug)]
struct Generic;

impl Rules for Generic {
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}
