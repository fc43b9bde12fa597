//! The one in-memory model of a scored item (SPEC §1): every reader produces these, every metric reads them.
//!
//! Readers resolve everything that SPEC §1–§3 fixes per item before an `Item` exists: labels become
//! indices, probabilities are validated and rescaled, and the model's answer is resolved (given answer,
//! else arg-max). Metrics therefore never see a label string or a malformed number.

use crate::short::{ShortStr, ShortVec};
use std::sync::Arc;

/// Difficulty tier used by the I/C tier weighting (SPEC §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    Easy,
    Standard,
    Judge,
    Hard,
}

impl Tier {
    pub fn parse(s: &str) -> Option<Tier> {
        match s {
            "easy" => Some(Tier::Easy),
            "standard" => Some(Tier::Standard),
            "judge" => Some(Tier::Judge),
            "hard" => Some(Tier::Hard),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Tier::Easy => "easy",
            Tier::Standard => "standard",
            Tier::Judge => "judge",
            Tier::Hard => "hard",
        }
    }
}

/// Open or sealed split (SPEC §5: a type's CC averages the two 50/50 when both are present).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Split {
    Open,
    Sealed,
}

impl Split {
    pub fn parse(s: &str) -> Option<Split> {
        match s {
            "open" => Some(Split::Open),
            "sealed" => Some(Split::Sealed),
            _ => None,
        }
    }
}

/// Input modality, used for the I/C scopes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Modality {
    Text,
    Image,
}

impl Modality {
    pub fn parse(s: &str) -> Option<Modality> {
        match s {
            "text" => Some(Modality::Text),
            "image" => Some(Modality::Image),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Modality::Text => "text",
            Modality::Image => "image",
        }
    }
}

/// The three item types that pick one label from `options` and may carry probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptionKind {
    Choice,
    Binary,
    Rating,
}

/// Validated probabilities over the options, in option order (SPEC §2).
///
/// `p` is already divided by the total when 1 < total <= 1.02, so `sum(p) <= 1` always holds up to
/// rounding. `outside` is the mass that fell outside the valid options, `None` when it is unknown
/// (`loglikelihoods`: softmax leaves no outside mass to measure).
#[derive(Debug, Clone, PartialEq)]
pub struct Probs {
    /// Inline for up to `short::INLINE_VEC` options: no allocation per item.
    pub p: ShortVec,
    pub sum: f64,
    pub outside: Option<f64>,
}

/// How a distribution over the options is read off the raw probabilities (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// q_i = p_i / s.
    Conditioning,
    /// q_i = p_i + m / k.
    Mixing,
}

/// Option counts up to this are read into a stack buffer by `Probs::with_distribution`.
const STACK_OPTIONS: usize = 16;

impl Probs {
    /// The distribution under `mode`, or `None` for mixing when the outside mass is unknown.
    pub fn distribution(&self, mode: Mode) -> Option<Vec<f64>> {
        self.with_distribution(mode, <[f64]>::to_vec)
    }

    /// `f` applied to the distribution under `mode` (`None` as for `distribution`), without an
    /// allocation for up to 16 options: the metrics read it once per item and mode.
    pub fn with_distribution<R>(&self, mode: Mode, f: impl FnOnce(&[f64]) -> R) -> Option<R> {
        let share = match mode {
            Mode::Conditioning => None,
            Mode::Mixing => Some(self.outside? / self.p.len() as f64),
        };
        let q = |x: f64| match share {
            None => x / self.sum,
            Some(s) => x + s,
        };
        let mut buf = [0.0; STACK_OPTIONS];
        match buf.get_mut(..self.p.len()) {
            Some(dst) => {
                for (d, &x) in dst.iter_mut().zip(&self.p) {
                    *d = q(x);
                }
                Some(f(dst))
            }
            None => Some(f(&self.p.iter().map(|&x| q(x)).collect::<Vec<f64>>())),
        }
    }

    /// Index of the largest probability, ties to the option listed first.
    pub fn argmax(&self) -> usize {
        argmax(&self.p)
    }
}

/// The credit of a best-of-n item's scores (SPEC §3, §6): with M the maximum score, 1/|{i: s_i = M}| when the first
/// (correct) candidate attains M, else 0. Only the first candidate is credited, as SPEC and the
/// official scorer do, even when a row lists several correct candidates (the Ties subset has its
/// own composite for those). Here with the item, as the arg-max is, since a reader checks the
/// `results` its tool wrote against it and the metrics score with it.
pub fn best_of_n_credit(scores: &[f64]) -> f64 {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    match scores.first() {
        Some(&first) if first == max => 1.0 / scores.iter().filter(|&&s| s == max).count() as f64,
        _ => 0.0,
    }
}

/// Index of the largest value, ties to the first (NaN is never larger); 0 for an empty slice.
/// The index and the running maximum are picked by a select, not a branch: which option is
/// largest is the item's data, so a branch was mispredicted about once an item.
pub fn argmax(values: &[f64]) -> usize {
    let Some((&first, rest)) = values.split_first() else {
        return 0;
    };
    let (mut best, mut top) = (0, first);
    for (i, &v) in rest.iter().enumerate() {
        let above = v > top;
        best = if above { i + 1 } else { best };
        top = if above { v } else { top };
    }
    best
}

/// A choice, binary or rating item: one gold label among `options`.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionItem {
    pub kind: OptionKind,
    /// Shared, so that a reader can give every item with the same option list one copy of it
    /// (a million 4-option items would otherwise allocate five million labels).
    pub options: Arc<[String]>,
    pub gold: usize,
    pub gold_probs: Option<Vec<f64>>,
    /// The resolved answer: `None` when it is invalid (absent, unknown label, or unresolvable).
    pub answer: Option<usize>,
    /// `None` when the item has no probabilities or they were invalid (an output error).
    pub probs: Option<Probs>,
}

/// A multi-select item: the gold is a set of labels.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiItem {
    pub options: Vec<String>,
    /// Gold label indices, in the order given.
    pub gold: Vec<usize>,
    /// The answered set; `None` when the answer is absent or names a label outside the options.
    pub answer: Option<Vec<usize>>,
    /// Conditional step distributions, each over `options` (missing labels are 0).
    pub steps: Option<Vec<Vec<f64>>>,
}

/// A consistency pair: two questions answered together, judged against the rational pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct ConsistencyItem {
    /// Option counts of the two questions (k1, k2).
    pub sizes: (usize, usize),
    /// Number of answer pairs a rational agent could give.
    pub consistent_pairs: usize,
    /// Whether the given answers form one of the consistent pairs; `None` when an answer is invalid.
    pub consistent: Option<bool>,
}

/// What distinguishes one item type from another.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    Option(OptionItem),
    Multi(MultiItem),
    /// A reward model's scores for the chosen and the rejected response.
    Pair {
        chosen: f64,
        rejected: f64,
    },
    /// Reward scores of all candidates; the first `num_correct` are correct.
    BestOfN {
        scores: Vec<f64>,
        num_correct: usize,
    },
    Consistency(ConsistencyItem),
    /// A free-form answer that the producing tool graded itself (lm-eval `generate_until`
    /// `exact_match`, an OpenAI evals `match` without an option menu): accuracy only. With no
    /// options there is no chance baseline (`normalized` leaves it out) and no probabilities.
    Graded {
        /// The tool's credit in [0, 1].
        credit: f64,
        /// The expected answer, for display.
        gold: String,
        /// The model's answer as the tool read it; `None` when it gave none (invalid).
        answer: Option<String>,
    },
}

/// One scored unit with its breakdown keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Inline when short (`short::INLINE_STR` bytes): no allocation per item.
    pub id: ShortStr,
    /// 1-based line (or array element) the item came from, for warnings and the explorer.
    pub line: Option<u64>,
    /// Shared: a reader gives the items of one group one copy of its name (`canonical::item::Labels`),
    /// and `Groups` knows a name it has seen by its address.
    pub group: Option<Arc<str>>,
    pub tier: Option<Tier>,
    pub split: Option<Split>,
    pub modality: Option<Modality>,
    /// The cluster the item belongs to when the file names one (a `cluster` or `passage_id`
    /// field): items of one cluster are not independent, and intervals and tests count them so.
    pub cluster: Option<Arc<str>>,
    pub body: Body,
}

impl Item {
    /// The option item inside, if this is a choice, binary or rating item.
    pub fn as_option(&self) -> Option<&OptionItem> {
        match &self.body {
            Body::Option(o) => Some(o),
            _ => None,
        }
    }

    /// The name of the item's type as the canonical format spells it.
    pub fn type_name(&self) -> &'static str {
        match &self.body {
            Body::Option(o) => match o.kind {
                OptionKind::Choice => "choice",
                OptionKind::Binary => "binary",
                OptionKind::Rating => "rating",
            },
            Body::Multi(_) => "multi",
            Body::Pair { .. } => "pair",
            Body::BestOfN { .. } => "best_of_n",
            Body::Consistency(_) => "consistency",
            Body::Graded { .. } => "graded",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_ties_go_to_the_first_option() {
        assert_eq!(argmax(&[0.3, 0.3, 0.2]), 0);
        assert_eq!(argmax(&[0.1, 0.4, 0.4]), 1);
        assert_eq!(argmax(&[0.0, 0.0]), 0);
        assert_eq!(argmax(&[]), 0);
    }

    proptest::proptest! {
        /// The first index whose value no other exceeds, as a search with a branch finds it:
        /// ties (zeros of both signs too) to the first, NaN never the largest unless first.
        #[test]
        fn argmax_is_the_first_largest(picks in proptest::collection::vec(0usize..7, 0..10)) {
            let values = [0.0, -0.0, 0.25, 0.5, 0.5f64.next_up(), 1.0, f64::NAN];
            let v: Vec<f64> = picks.iter().map(|&i| values[i]).collect();
            let mut want = 0;
            for (i, &x) in v.iter().enumerate() {
                if x > v[want] {
                    want = i;
                }
            }
            proptest::prop_assert_eq!(argmax(&v), want);
        }
    }

    #[test]
    fn conditioning_and_mixing_by_hand() {
        let p = Probs {
            p: vec![0.5, 0.3].into(),
            sum: 0.8,
            outside: Some(0.2),
        };
        let c = p.distribution(Mode::Conditioning).unwrap();
        assert!((c[0] - 0.625).abs() < 1e-15 && (c[1] - 0.375).abs() < 1e-15);
        let m = p.distribution(Mode::Mixing).unwrap();
        assert!((m[0] - 0.6).abs() < 1e-15 && (m[1] - 0.4).abs() < 1e-15);
        let unknown = Probs { outside: None, ..p };
        assert_eq!(unknown.distribution(Mode::Mixing), None);
    }
}
