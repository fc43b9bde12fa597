//! The default profile: SPEC §2–§4 figures over whatever items the file holds.

pub const DESCRIPTION: &str =
    "accuracy, normalized accuracy, calibration under conditioning and mixing, per-group breakdown";
