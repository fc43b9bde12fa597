//! What readers hand on besides items: the figures a tool wrote in its own files (shown beside
//! ours) and the lengths of the texts it wrote (for a profile's length baseline). Here, below
//! formats, profiles and the report, so that none imports another for them.

/// A figure a tool computed itself and wrote in its files, shown beside ours ("the harness reported").
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reported {
    /// The tool, e.g. `lm-eval` or `HELM`.
    pub source: String,
    /// The figure's name in that tool, e.g. `acc_norm` or `ece_10_bin`.
    pub name: String,
    /// The scope it covers, e.g. a task or subset name; empty for the whole run.
    pub scope: String,
    pub value: f64,
    /// How the tool's definition relates to ours (SPEC §4's last point).
    pub note: String,
}

/// The lengths of one row's response texts, in characters (Unicode scalar values, as Python's
/// `len`), as a reader measured them; what they mean for a figure is the profile's business.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextLengths {
    /// The row's group (a RewardBench subset).
    pub group: String,
    /// The chosen response first, then the rejected one; or every candidate, correct first.
    pub lengths: Vec<usize>,
    /// Whether the row ranks n candidates (best-of-n) rather than a chosen and a rejected one.
    pub best_of_n: bool,
}
