//! The one error type of the crate: why a run gave no report. Every face (the CLI, the worker,
//! the widget) receives it and says it in its own words at its edge.

use crate::profiles::Profile;
use crate::warning::Warning;
use std::io;
use std::sync::Arc;

/// Why no report could be made.
#[derive(Debug, Clone)]
pub enum Error {
    /// The profile name matches no profile.
    UnknownProfile(String),
    /// Strict mode met a warning.
    Strict(Warning),
    /// Not one item could be scored; the warnings say why.
    NoItems(Vec<Warning>),
    /// A source could not be read: its name and the I/O error (kept whole, so that a face can
    /// tell a missing file from a damaged one by its kind).
    Io { file: String, error: Arc<io::Error> },
    /// A source passes a limit the caller set (`Options::whole_cap`); `why` says which and what
    /// to do, in the user's words.
    TooBig { file: String, why: String },
}

impl Error {
    /// A source's I/O error.
    pub fn io(file: impl Into<String>, error: io::Error) -> Error {
        Error::Io {
            file: file.into(),
            error: Arc::new(error),
        }
    }

    /// The file the error is about, when it is about one.
    pub fn file(&self) -> Option<&str> {
        match self {
            Error::Io { file, .. } | Error::TooBig { file, .. } => Some(file),
            Error::Strict(w) => Some(&w.file),
            Error::UnknownProfile(_) | Error::NoItems(_) => None,
        }
    }

    /// The warnings behind the error: the one strict mode stopped at, or every one of a run that
    /// scored no item.
    pub fn warnings(&self) -> Vec<Warning> {
        match self {
            Error::Strict(w) => vec![w.clone()],
            Error::NoItems(w) => w.clone(),
            _ => Vec::new(),
        }
    }
}

/// Two errors are equal when they say the same: an I/O error by its kind and words.
impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        match (self, other) {
            (Error::UnknownProfile(a), Error::UnknownProfile(b)) => a == b,
            (Error::Strict(a), Error::Strict(b)) => a == b,
            (Error::NoItems(a), Error::NoItems(b)) => a == b,
            (Error::Io { file: f, error: e }, Error::Io { file: g, error: d }) => {
                f == g && e.kind() == d.kind() && e.to_string() == d.to_string()
            }
            (Error::TooBig { file: f, why: a }, Error::TooBig { file: g, why: b }) => {
                f == g && a == b
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::UnknownProfile(name) => {
                let names: Vec<&str> = Profile::all().iter().map(|p| p.name).collect();
                write!(
                    f,
                    "unknown profile `{name}`; the profiles are {}",
                    names.join(", ")
                )
            }
            Error::Strict(w) => write!(f, "{w} (strict mode stops at the first warning)"),
            Error::NoItems(warnings) => {
                write!(f, "no item could be scored")?;
                for w in warnings.iter().take(20) {
                    write!(f, "\n  {w}")?;
                }
                Ok(())
            }
            Error::Io { file, error } => write!(f, "{file}: {error}"),
            Error::TooBig { why, .. } => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_io_error_keeps_its_kind_and_names_its_file() {
        let e = Error::io("run.jsonl", io::Error::new(io::ErrorKind::NotFound, "gone"));
        assert_eq!(e.to_string(), "run.jsonl: gone");
        assert_eq!(e.file(), Some("run.jsonl"));
        let Error::Io { error, .. } = &e else {
            panic!("an I/O error")
        };
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        assert!(std::error::Error::source(&e).is_some());
        let other = Error::io(
            "run.jsonl",
            io::Error::new(io::ErrorKind::InvalidData, "gone"),
        );
        assert_ne!(e, other, "the kind is part of what an I/O error says");
        assert_eq!(e, e.clone());
    }

    #[test]
    fn a_limit_says_only_its_reason() {
        let e = Error::TooBig {
            file: "big.json".into(),
            why: "big.json is 0.6 GB: read it with the command line".into(),
        };
        assert_eq!(
            e.to_string(),
            "big.json is 0.6 GB: read it with the command line"
        );
        assert!(e.warnings().is_empty());
    }
}
