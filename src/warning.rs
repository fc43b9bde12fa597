//! A problem found in the input, located as `file:line: reason` (ripgrep-style context).

use serde::{Deserialize, Serialize};
use std::fmt;

/// One warning; `line` is null when the problem belongs to no single line, and `file` is empty
/// when it belongs to the run rather than to one file (a profile's check, say).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    pub file: String,
    pub line: Option<u64>,
    pub reason: String,
}

impl Warning {
    pub fn new(file: &str, line: Option<u64>, reason: impl Into<String>) -> Self {
        Warning {
            file: file.to_string(),
            line,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file.as_str(), self.line) {
            ("", _) => write!(f, "{}", self.reason),
            (file, Some(line)) => write!(f, "{file}:{line}: {}", self.reason),
            (file, None) => write!(f, "{file}: {}", self.reason),
        }
    }
}
