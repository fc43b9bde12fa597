//! The notes an I/C report carries on how its calibration figures are made: which confidence each
//! ECE bins and which items it covers, so that a reader comparing with a published table knows
//! what they are looking at.

use super::Scope;
use crate::metrics::ic::figures::IcFigures;

/// The calibration notes for a run scored under `scope`.
pub fn calibration_notes(name: &str, scope: Scope, f: &IcFigures) -> Vec<String> {
    let mut notes = vec![
        "ic: C uses conditioning probabilities and 10-bin equal-width ECE mapped to \
         max(0, 100(1 - 2 ECE)); choice averages it with 100(1 - TVD), rating with 100(1 - RPS), \
         binary bins q_yes against gold = yes"
            .to_string(),
        "ic: the choice and rating ECE are top-label (confidence max q, right when the first \
         arg-max is gold, whatever `answer` says); the binary decision and ECE use the conditioned \
         q_yes; the `conditioning` and `mixing` blocks keep q[answer] as their confidence"
            .to_string(),
    ];
    let choice = f.overall.types.choice.as_ref();
    match (scope, choice.map(|c| c.ece_scope.as_str())) {
        (Scope::HardChoiceCalibration, Some("hard_tier")) => notes.push(format!(
            "{name}: the choice ECE and TVD use the hard-tier choice items only ({} with \
             probabilities), as the benchmark's calibration does; binary and rating use every item",
            choice.map_or(0, |c| c.ece_items)
        )),
        (Scope::HardChoiceCalibration, Some(_)) => notes.push(format!(
            "{name}: no choice item is in the hard tier, so the choice ECE and TVD fall back to \
             every choice item; the benchmark's own use the hard tier only"
        )),
        (Scope::PooledNoTiers, _) => notes.push(format!(
            "{name}: one top-label ECE pooled over the choice and binary items (a binary item as a \
             two-option item: confidence max(q_yes, 1 - q_yes)) is the choice ECE term of C \
             (`pooled_ece`, {} items); binary adds no C of its own; types.choice.ece is choice alone",
            f.overall.pooled_items
        )),
        _ => {}
    }
    if let Some(c) = choice {
        if c.ece_items > 0 && c.tvd_items == 0 && scope != Scope::ChoiceNoTiers {
            notes.push(
                "ic: no choice item in the ECE's scope has gold_probs, so the choice C is its ECE \
                 term alone"
                    .to_string(),
            );
        }
    }
    notes
}
