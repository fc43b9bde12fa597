//! Why `score` made no report, as the value its promise rejects with: an `Error` named
//! `ScorelensError` with a `kind` and a `problems` list of `{file, line, reason}`, the same
//! shape as the report's warnings.

use crate::{Error, Warning};
use wasm_bindgen::prelude::*;

/// What went wrong, for callers that branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `input` is not a string, Uint8Array, ArrayBuffer, Blob, File or an array of them.
    Input,
    /// `options` has an unknown key or a value of the wrong type.
    Options,
    /// The profile name matches no profile.
    Profile,
    /// The browser could not read a Blob or fetch a URL.
    Read,
    /// Strict mode met a warning.
    Strict,
    /// Not one item could be scored.
    NoItems,
    /// A bug: the code panicked. The module stops; the page has to be reloaded.
    Internal,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Input => "input",
            Kind::Options => "options",
            Kind::Profile => "profile",
            Kind::Read => "read",
            Kind::Strict => "strict",
            Kind::NoItems => "no-items",
            Kind::Internal => "internal",
        }
    }
}

/// A failed run: a message for people and the located problems behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub kind: Kind,
    pub message: String,
    pub problems: Vec<Warning>,
}

impl Failure {
    /// A failure of one kind with a single problem at `file` (empty: the run as a whole).
    pub fn new(kind: Kind, file: &str, reason: impl Into<String>) -> Self {
        let problem = Warning::new(file, None, reason);
        Failure {
            kind,
            message: problem.to_string(),
            problems: vec![problem],
        }
    }

    /// The scoring library's error, with the warnings that explain it.
    pub fn from_error(e: Error) -> Self {
        let message = e.to_string();
        let (kind, problems) = match e {
            Error::UnknownProfile(_) => (Kind::Profile, vec![Warning::new("", None, &message)]),
            Error::Strict(w) => (Kind::Strict, vec![w]),
            Error::NoItems(w) => (Kind::NoItems, w),
            Error::Io { file, error } => (
                Kind::Read,
                vec![Warning::new(&file, None, error.to_string())],
            ),
            Error::TooBig { file, why } => (Kind::Read, vec![Warning::new(&file, None, why)]),
        };
        Failure {
            kind,
            message,
            problems,
        }
    }

    /// The `Error` the promise rejects with.
    pub fn to_js(&self) -> JsValue {
        let err = js_sys::Error::new(&self.message);
        err.set_name("ScorelensError");
        let problems: js_sys::Array = self
            .problems
            .iter()
            .map(|w| {
                let o = js_sys::Object::new();
                let line = w.line.map_or(JsValue::NULL, |l| JsValue::from(l as f64));
                set(&o, "file", &JsValue::from_str(&w.file));
                set(&o, "line", &line);
                set(&o, "reason", &JsValue::from_str(&w.reason));
                JsValue::from(o)
            })
            .collect();
        set(&err, "kind", &JsValue::from_str(self.kind.name()));
        set(&err, "problems", &problems);
        err.into()
    }
}

fn set(target: &JsValue, key: &str, value: &JsValue) {
    // Setting a plain property of a fresh object cannot fail.
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}
