//! The I/C part of the report (SPEC §5, §8): `ic: {i, i_weighted, c, types, scopes}`.
//!
//! Every figure is on a 0–100 scale except the raw calibration inputs (`ece`, `tvd`, `rps`,
//! `brier`), which are on 0–1. A figure that does not apply is `None` and serialises as `null`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// I and C over every in-scope item, repeated per modality in `scopes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IcFigures {
    #[serde(flatten)]
    pub overall: ScopeFigures,
    pub scopes: Scopes,
    /// Items a profile kept out of scope, by tier name (e.g. `easy` under `jevbench-hard-111`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub out_of_scope: BTreeMap<String, u64>,
}

/// The per-modality scopes; `None` when no item has that modality.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Scopes {
    pub text: Option<ScopeFigures>,
    pub image: Option<ScopeFigures>,
}

/// I and C over one set of items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScopeFigures {
    /// Intelligence: the mean of the available type CCs (equal type weights).
    pub i: Option<f64>,
    /// The 50/25/25 (choice/binary/rating) weighting, renormalised over the available types.
    pub i_weighted: Option<f64>,
    /// Calibration: the mean of the available type calibration parts.
    pub c: Option<f64>,
    /// Choice, binary and rating items in scope.
    pub items: u64,
    pub types: Types,
    /// One top-label ECE over the choice and binary items together, where the profile pools them
    /// (CMDB-1500); it is then the Choice ECE term of C.
    pub pooled_ece: Option<f64>,
    /// Items with valid probabilities in `pooled_ece`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pooled_items: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The three item types that enter I and C.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Types {
    pub choice: Option<TypeFigures>,
    pub binary: Option<TypeFigures>,
    pub rating: Option<TypeFigures>,
}

/// One type's competence (CC) and calibration (C) with their parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TypeFigures {
    /// Chance-corrected competence: tier-weighted, then 0.5 open + 0.5 sealed when both exist.
    pub cc: Option<f64>,
    /// The type's calibration part, 0–100.
    pub c: Option<f64>,
    pub items: u64,
    /// Items whose answer is invalid (counted wrong, or with the largest error for ratings).
    pub invalid: u64,
    /// Per tier, over both splits together; with one split these compose `cc`.
    pub tiers: Tiers,
    /// Each split's own tiers and CC, present only when the type has open and sealed items.
    pub splits: Option<Splits>,
    /// Equal-width 10-bin ECE under conditioning: top-label for choice and rating, on q_yes for binary.
    pub ece: Option<f64>,
    /// Items with valid probabilities in `ece` (and in `tvd`'s scope).
    pub ece_items: u64,
    /// The confidence the ECE bins: `top_label` (max q, right when the first arg-max is gold) or
    /// `q_yes` (the conditioned probability of yes, against gold = yes).
    pub ece_confidence: String,
    /// The items `ece` and `tvd` cover: `type` (every item of the type), `hard_tier`, or
    /// `type_fallback` (the hard tier was asked for and the file has none).
    pub ece_scope: String,
    /// Mean total variation distance to `gold_probs` (one-hot gold where the profile says so).
    pub tvd: Option<f64>,
    pub tvd_items: u64,
    /// Rating only: mean ranked probability score against the gold (or `gold_probs`).
    pub rps: Option<f64>,
    /// Mean Brier under conditioning, averaged over the options (binary: (q_yes - [gold = yes])^2).
    pub brier: Option<f64>,
    /// Mean -ln(max(q[gold], 1e-15)) under conditioning.
    pub nll: Option<f64>,
    /// Items of the type with valid probabilities: those in `brier`, `nll` and `rps`.
    pub prob_items: u64,
    /// Binary only: share of items whose p_yes lies strictly between 0.2 and 0.8.
    pub abstention_rate: Option<f64>,
}

/// The tiers present; absent tiers are left out of the JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tiers {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub easy: Option<TierFigures>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<TierFigures>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<TierFigures>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard: Option<TierFigures>,
    /// Items without a tier, weighted like `standard`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub none: Option<TierFigures>,
}

impl Tiers {
    /// The tiers present, in weight order (easy, standard, judge, hard, none), with their names.
    pub fn present(&self) -> Vec<(&'static str, &TierFigures)> {
        [
            ("easy", &self.easy),
            ("standard", &self.standard),
            ("judge", &self.judge),
            ("hard", &self.hard),
            ("none", &self.none),
        ]
        .into_iter()
        .filter_map(|(n, t)| t.as_ref().map(|t| (n, t)))
        .collect()
    }
}

/// One tier of one type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TierFigures {
    pub cc: Option<f64>,
    pub items: u64,
    /// The tier's weight after renormalisation over the tiers present.
    pub weight: f64,
    /// Choice and binary: share right (abstentions and invalid answers are wrong).
    pub accuracy: Option<f64>,
    /// Choice: mean 1/k (cbar); binary: 0.5.
    pub chance: Option<f64>,
    /// Rating: mean nMAE.
    pub nmae: Option<f64>,
    /// Rating: mean nMAE of a uniform guess.
    pub nmae_chance: Option<f64>,
}

/// Open and sealed halves of a type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Splits {
    pub open: SplitFigures,
    pub sealed: SplitFigures,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SplitFigures {
    pub cc: Option<f64>,
    pub items: u64,
    pub tiers: Tiers,
}
