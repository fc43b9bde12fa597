//! The calibration half of one I/C type (SPEC §5): each item's terms under conditioning, and the
//! sums a type keeps of them, with the benchmark scopes that narrow a type's ECE and TVD.
//!
//! Inside I/C calibration is top-label, as the benchmarks define it: a choice item's confidence is
//! max q and it is right when its first arg-max is the gold label (a rating item likewise at its
//! top level), whatever `answer` says. A binary item bins the conditioned q_yes against gold = yes.

use crate::items::{argmax, Mode, OptionItem, OptionKind};
use crate::metrics::calibration::brier;
use crate::metrics::ece::EqualWidth;
use crate::metrics::flat::{Slot, Sums};
use crate::metrics::tvd_rps::{one_hot, rps, tvd};

/// The floor under q[gold] in the typed NLL, as in SPEC §4.
const NLL_FLOOR: f64 = 1e-15;

/// Which items a type's ECE and TVD cover; Brier, NLL and RPS always cover every item of the type
/// with valid probabilities.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CalibrationScope {
    /// Every item of the type.
    #[default]
    Type,
    /// Choice ECE and TVD over the hard-tier choice items, or every choice item when the file has
    /// no hard-tier one (JevBench Public 231, whose published ECE is over the shared hard tier).
    HardChoice,
    /// One top-label ECE per scope over choice and binary items together, as the Choice ECE term;
    /// binary items add no C of their own (CMDB-1500).
    Pooled,
}

/// One item's calibration terms under conditioning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalibrationTerms {
    /// The binned value: top-label confidence (choice, rating) or q_yes (binary).
    pub ece_x: f64,
    /// Its outcome: first arg-max is gold (choice, rating) or gold = yes (binary).
    pub ece_y: f64,
    /// The item as a pooled top-label entry (choice, and binary as a two-option item).
    pub pooled: Option<(f64, f64)>,
    /// Rating only: RPS against the gold or `gold_probs`.
    pub rps: Option<f64>,
    /// TVD to `gold_probs`, or 1 - q[gold] under one-hot TVD (choice).
    pub tvd: Option<f64>,
    /// Brier averaged over the options (for binary this equals (q_yes - y)^2).
    pub brier: f64,
    /// -ln(max(q[gold], 1e-15)).
    pub nll: f64,
}

/// The index of `yes` among a binary item's options (1 in the canonical order).
pub fn yes_index(o: &OptionItem) -> usize {
    o.options.iter().position(|l| l == "yes").unwrap_or(1)
}

/// The conditioned probability of yes (p_yes / s), the value a binary item decides and bins on;
/// `None` without valid probabilities.
pub fn conditioned_yes(o: &OptionItem) -> Option<f64> {
    let yes = yes_index(o);
    o.probs
        .as_ref()?
        .with_distribution(Mode::Conditioning, |q| q.get(yes).copied())
        .flatten()
}

/// The item's terms; `None` without valid probabilities.
pub fn calibration_terms(
    kind: OptionKind,
    o: &OptionItem,
    one_hot_tvd: bool,
) -> Option<CalibrationTerms> {
    o.probs
        .as_ref()?
        .with_distribution(Mode::Conditioning, |q| terms_of(kind, o, q, one_hot_tvd))
}

/// `calibration_terms` given the conditioning distribution `q`.
fn terms_of(kind: OptionKind, o: &OptionItem, q: &[f64], one_hot_tvd: bool) -> CalibrationTerms {
    let q_gold = q.get(o.gold).copied().unwrap_or(0.0);
    let (ece_x, ece_y, pooled) = match kind {
        OptionKind::Binary => {
            let yes = yes_index(o);
            let q_yes = q.get(yes).copied().unwrap_or(0.0);
            let gold_yes = f64::from(u8::from(o.gold == yes));
            // As a two-option item: its side is yes at q_yes >= 0.5 (SPEC §5, CMDB's pooled ECE).
            let side_yes = q_yes >= 0.5;
            let conf = if side_yes { q_yes } else { 1.0 - q_yes };
            let right = f64::from(u8::from(side_yes == (o.gold == yes)));
            (q_yes, gold_yes, Some((conf, right)))
        }
        OptionKind::Choice | OptionKind::Rating => {
            let top = argmax(q);
            let conf = q.get(top).copied().unwrap_or(0.0);
            let right = f64::from(u8::from(top == o.gold));
            let pooled = (kind == OptionKind::Choice).then_some((conf, right));
            (conf, right, pooled)
        }
    };
    let rps = (kind == OptionKind::Rating).then(|| match &o.gold_probs {
        Some(g) => rps(q, g),
        None => rps(q, &one_hot(q.len(), o.gold)),
    });
    let tvd = if one_hot_tvd && kind == OptionKind::Choice {
        Some(1.0 - q_gold)
    } else {
        o.gold_probs.as_ref().map(|g| tvd(q, g))
    };
    CalibrationTerms {
        ece_x,
        ece_y,
        pooled,
        rps,
        tvd,
        brier: brier(q, o.gold),
        nll: -crate::math::ln(q_gold.max(NLL_FLOOR)),
    }
}

/// The ECE and TVD sums over one set of a type's items.
#[derive(Debug, Clone, Default, PartialEq)]
struct EceTvd {
    /// Items of the type in this set, with or without probabilities.
    items: u64,
    ece: EqualWidth,
    tvd_sum: f64,
    tvd_items: u64,
}

impl EceTvd {
    fn add(&mut self, terms: Option<&CalibrationTerms>) {
        self.items += 1;
        let Some(c) = terms else { return };
        self.ece.add(c.ece_x, c.ece_y);
        if let Some(t) = c.tvd {
            self.tvd_sum += t;
            self.tvd_items += 1;
        }
    }

    /// `add` `t` times at once (the bootstrap's resampled copies), up to the order of the sums.
    fn add_times(&mut self, terms: Option<&CalibrationTerms>, t: u32) {
        self.items += u64::from(t);
        let Some(c) = terms else { return };
        self.ece.add_times(c.ece_x, c.ece_y, t);
        if let Some(v) = c.tvd {
            self.tvd_sum += f64::from(t) * v;
            self.tvd_items += u64::from(t);
        }
    }

    fn merge(&mut self, o: &Self) {
        self.items += o.items;
        self.ece.merge(&o.ece);
        self.tvd_sum += o.tvd_sum;
        self.tvd_items += o.tvd_items;
    }
}

/// A type's calibration sums.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeCalibration {
    kind: OptionKind,
    scope: CalibrationScope,
    /// Every item of the type.
    all: EceTvd,
    /// The hard-tier items, kept only under `HardChoice` for choice.
    hard: EceTvd,
    prob_items: u64,
    brier_sum: f64,
    nll_sum: f64,
    rps_sum: f64,
}

/// What a type's calibration sums give.
#[derive(Debug, Clone, PartialEq)]
pub struct CalibrationSummary {
    pub ece: Option<f64>,
    pub ece_items: u64,
    /// Which items the ECE and TVD cover: `type`, `hard_tier`, or `type_fallback` (hard tier
    /// asked for, none in the file).
    pub ece_scope: &'static str,
    pub tvd: Option<f64>,
    pub tvd_items: u64,
    pub rps: Option<f64>,
    pub brier: Option<f64>,
    pub nll: Option<f64>,
    pub prob_items: u64,
}

impl Sums for EceTvd {
    fn visit(&mut self, f: &mut dyn FnMut(Slot<'_>)) {
        f(Slot::Count(&mut self.items));
        self.ece.visit(f);
        f(Slot::Sum(&mut self.tvd_sum));
        f(Slot::Count(&mut self.tvd_items));
    }
}

impl Sums for TypeCalibration {
    fn visit(&mut self, f: &mut dyn FnMut(Slot<'_>)) {
        self.all.visit(f);
        self.hard.visit(f);
        f(Slot::Count(&mut self.prob_items));
        f(Slot::Sum(&mut self.brier_sum));
        f(Slot::Sum(&mut self.nll_sum));
        f(Slot::Sum(&mut self.rps_sum));
    }
}

impl TypeCalibration {
    pub fn new(kind: OptionKind, scope: CalibrationScope) -> Self {
        TypeCalibration {
            kind,
            scope,
            all: EceTvd::default(),
            hard: EceTvd::default(),
            prob_items: 0,
            brier_sum: 0.0,
            nll_sum: 0.0,
            rps_sum: 0.0,
        }
    }

    fn narrows(&self) -> bool {
        self.scope == CalibrationScope::HardChoice && self.kind == OptionKind::Choice
    }

    /// Adds one item of the type; `hard` says whether it is in the hard tier.
    pub fn add(&mut self, terms: Option<&CalibrationTerms>, hard: bool) {
        self.all.add(terms);
        if hard && self.narrows() {
            self.hard.add(terms);
        }
        let Some(c) = terms else { return };
        self.prob_items += 1;
        self.brier_sum += c.brier;
        self.nll_sum += c.nll;
        if let Some(r) = c.rps {
            self.rps_sum += r;
        }
    }

    /// `add` `t` times at once (the bootstrap's resampled copies), up to the order of the sums.
    pub fn add_times(&mut self, terms: Option<&CalibrationTerms>, hard: bool, t: u32) {
        self.all.add_times(terms, t);
        if hard && self.narrows() {
            self.hard.add_times(terms, t);
        }
        let Some(c) = terms else { return };
        let w = f64::from(t);
        self.prob_items += u64::from(t);
        self.brier_sum += w * c.brier;
        self.nll_sum += w * c.nll;
        if let Some(r) = c.rps {
            self.rps_sum += w * r;
        }
    }

    pub fn merge(&mut self, o: &Self) {
        self.all.merge(&o.all);
        self.hard.merge(&o.hard);
        self.prob_items += o.prob_items;
        self.brier_sum += o.brier_sum;
        self.nll_sum += o.nll_sum;
        self.rps_sum += o.rps_sum;
    }

    pub fn finish(&self) -> CalibrationSummary {
        let (set, ece_scope) = match (self.narrows(), self.hard.items > 0) {
            (false, _) => (&self.all, "type"),
            (true, true) => (&self.hard, "hard_tier"),
            (true, false) => (&self.all, "type_fallback"),
        };
        let mean = |sum: f64, count: u64| (count > 0).then(|| sum / count as f64);
        let n = self.prob_items;
        CalibrationSummary {
            ece: set.ece.ece(),
            ece_items: set.ece.count(),
            ece_scope,
            tvd: mean(set.tvd_sum, set.tvd_items),
            tvd_items: set.tvd_items,
            rps: (self.kind == OptionKind::Rating)
                .then(|| mean(self.rps_sum, n))
                .flatten(),
            brier: mean(self.brier_sum, n),
            nll: mean(self.nll_sum, n),
            prob_items: n,
        }
    }
}
