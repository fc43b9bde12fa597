//! What scorelens reads and how it can score, as one list that every face shows the same:
//! `scorelens formats` and `scorelens profiles`, the page's menus (from the worker), the widget's
//! `formats()` and `profiles()`.

use crate::formats::FORMATS;
use crate::profiles::Profile;
use serde::{Deserialize, Serialize};

/// A format or a profile: its name and a line on what it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Named {
    pub name: String,
    pub describe: String,
}

/// The formats scorelens reads, in the order detection tries them.
pub fn formats() -> Vec<Named> {
    FORMATS
        .iter()
        .map(|f| Named {
            name: f.name().to_string(),
            describe: f.describe().to_string(),
        })
        .collect()
}

/// The profiles a run can be scored with.
pub fn profiles() -> Vec<Named> {
    Profile::all()
        .iter()
        .map(|p| Named {
            name: p.name.to_string(),
            describe: p.describe.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_and_profile_is_listed_once_with_a_description() {
        for list in [formats(), profiles()] {
            assert!(list.len() > 3);
            let mut names: Vec<&str> = list.iter().map(|n| n.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), list.len(), "a name listed twice");
            assert!(list.iter().all(|n| !n.describe.is_empty()));
        }
        assert!(formats().iter().any(|f| f.name == "scorelens"));
        assert!(profiles().iter().any(|p| p.name == "generic"));
    }
}
