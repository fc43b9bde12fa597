//! Frozen counts (SPEC §7): a benchmark with fixed item counts says whether the file holds exactly
//! them, since a partial run's figures are worth seeing but are not the published ones.

use crate::items::{Body, Item, OptionKind, Tier};
use crate::report::{Ordered, ScopeCheck};

/// One benchmark's fixed counts, and how an item counts towards them.
#[derive(Debug)]
pub struct Frozen {
    /// The benchmark's name as people write it, for the notice.
    pub title: &'static str,
    /// What the figures are not when a count differs ("I/C", "sections").
    pub figures: &'static str,
    /// The counts, by key; the first is the total that the notice leads with.
    pub expected: &'static [(&'static str, u64)],
    /// Adds one item (as the file gives it, before any profile rewrites it) to the counts, which
    /// are in `expected`'s order.
    pub tally: fn(&Item, &mut [u64]),
}

/// An item's I/C type, if it has one.
fn kind(item: &Item) -> Option<OptionKind> {
    match &item.body {
        Body::Option(o) => Some(o.kind),
        _ => None,
    }
}

/// Adds 1 to the choice, binary or rating count at `counts[1..4]` and to the total at `counts[0]`.
fn by_type(item: &Item, counts: &mut [u64]) {
    let slot = match kind(item) {
        Some(OptionKind::Choice) => 1,
        Some(OptionKind::Binary) => 2,
        Some(OptionKind::Rating) => 3,
        None => return,
    };
    for i in [0, slot] {
        if let Some(n) = counts.get_mut(i) {
            *n += 1;
        }
    }
}

pub static JEVBENCH_PUBLIC_231: Frozen = Frozen {
    title: "JevBench Public 231",
    figures: "I/C",
    expected: &[
        ("items", 231),
        ("choice", 139),
        ("binary", 74),
        ("rating", 18),
    ],
    tally: by_type,
};

pub static JEVBENCH_HARD_111: Frozen = Frozen {
    title: "JevBench Hard 111",
    figures: "I/C",
    expected: &[
        ("items", 111),
        ("choice", 67),
        ("binary", 38),
        ("rating", 6),
    ],
    // The hard tier, where an item without a tier counts as hard (as the profile scores it).
    tally: |item, counts| {
        if matches!(item.tier, None | Some(Tier::Hard)) {
            by_type(item, counts);
        }
    },
};

pub static CMDB_1500: Frozen = Frozen {
    title: "CMDB-1500",
    figures: "I/C",
    expected: &[
        ("items", 1500),
        ("multi", 100),
        ("text", 1100),
        ("image", 300),
        ("choice_or_binary", 1234),
        ("rating", 166),
        ("gold_probs", 67),
    ],
    tally: |item, counts| {
        let mut add = |i: usize| {
            if let Some(n) = counts.get_mut(i) {
                *n += 1;
            }
        };
        add(0);
        let k = kind(item);
        if matches!(item.body, Body::Multi(_)) {
            add(1);
        } else {
            // The modality counts are over the items other than multi-select (SPEC §7).
            match item.modality {
                Some(crate::items::Modality::Text) => add(2),
                Some(crate::items::Modality::Image) => add(3),
                None => {}
            }
        }
        match k {
            Some(OptionKind::Choice | OptionKind::Binary) => add(4),
            Some(OptionKind::Rating) => add(5),
            None => {}
        }
        // The items behind the Choice TVD: choice items with a reference distribution.
        if let Body::Option(o) = &item.body {
            if o.kind == OptionKind::Choice && o.gold_probs.is_some() {
                add(6);
            }
        }
    },
};

pub static REWARDBENCH: Frozen = Frozen {
    title: "RewardBench",
    figures: "sections and overall",
    // The official example counts; math-prm has 447 items though it weighs 984 in Reasoning.
    expected: &[
        ("items", 2985),
        ("alpacaeval-easy", 100),
        ("alpacaeval-length", 95),
        ("alpacaeval-hard", 95),
        ("mt-bench-easy", 28),
        ("mt-bench-med", 40),
        ("mt-bench-hard", 37),
        ("llmbar-natural", 100),
        ("llmbar-adver-neighbor", 134),
        ("llmbar-adver-GPTInst", 92),
        ("llmbar-adver-GPTOut", 47),
        ("llmbar-adver-manual", 46),
        ("refusals-dangerous", 100),
        ("refusals-offensive", 100),
        ("xstest-should-refuse", 154),
        ("xstest-should-respond", 250),
        ("donotanswer", 136),
        ("math-prm", 447),
        ("hep-cpp", 164),
        ("hep-go", 164),
        ("hep-java", 164),
        ("hep-js", 164),
        ("hep-python", 164),
        ("hep-rust", 164),
    ],
    // Counted from the subsets' figures, not item by item (`check`).
    tally: |_, _| {},
};

/// The running counts of one file against a `Frozen`.
#[derive(Debug, Clone)]
pub struct FrozenTally {
    frozen: &'static Frozen,
    found: Vec<u64>,
}

impl FrozenTally {
    pub fn new(frozen: &'static Frozen) -> Self {
        FrozenTally {
            frozen,
            found: vec![0; frozen.expected.len()],
        }
    }

    pub fn add(&mut self, item: &Item) {
        (self.frozen.tally)(item, &mut self.found);
    }

    /// The report's `scope`, and the notice naming each count that differs (`None` when the file
    /// holds exactly the benchmark's counts).
    pub fn finish(&self, profile: &str) -> (ScopeCheck, Option<String>) {
        check(self.frozen, profile, &self.found)
    }
}

/// `FrozenTally::finish` for counts made elsewhere, in `frozen.expected`'s order.
pub fn check(frozen: &Frozen, profile: &str, found: &[u64]) -> (ScopeCheck, Option<String>) {
    let pairs = || frozen.expected.iter().zip(found.iter().copied());
    let differ: Vec<String> = pairs()
        .skip(1)
        .filter(|((_, want), got)| got != want)
        .map(|((key, want), got)| format!("{} {got} of {want}", key.replace('_', " ")))
        .collect();
    let complete = pairs().all(|((_, want), got)| got == *want);
    let scope = ScopeCheck {
        complete,
        expected: Ordered(
            frozen
                .expected
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
        ),
        found: Ordered(pairs().map(|((k, _), got)| (k.to_string(), got)).collect()),
    };
    let note = (!complete).then(|| {
        let (total, want) = frozen.expected.first().copied().unwrap_or(("items", 0));
        let got = found.first().copied().unwrap_or(0);
        let detail = if differ.is_empty() {
            String::new()
        } else {
            format!(" ({})", differ.join(", "))
        };
        format!(
            "{profile}: this file holds {got} of {}'s {want} {total}{detail}: these are not the benchmark's {}",
            frozen.title, frozen.figures
        )
    });
    (scope, note)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_short_is_named_in_the_notice() {
        let (scope, note) = check(
            &JEVBENCH_PUBLIC_231,
            "jevbench-public-231",
            &[230, 138, 74, 18],
        );
        assert!(!scope.complete);
        assert_eq!(scope.found.0[1], ("choice".to_string(), 138));
        assert_eq!(
            note.as_deref(),
            Some(
                "jevbench-public-231: this file holds 230 of JevBench Public 231's 231 items \
                 (choice 138 of 139): these are not the benchmark's I/C"
            )
        );
    }

    #[test]
    fn exact_counts_are_complete_and_silent() {
        let (scope, note) = check(&JEVBENCH_HARD_111, "jevbench-hard-111", &[111, 67, 38, 6]);
        assert!(scope.complete);
        assert_eq!(note, None);
    }

    #[test]
    fn a_moved_item_with_the_right_total_is_still_incomplete() {
        let (scope, note) = check(&JEVBENCH_HARD_111, "jevbench-hard-111", &[111, 68, 37, 6]);
        assert!(!scope.complete);
        assert_eq!(
            note.as_deref(),
            Some(
                "jevbench-hard-111: this file holds 111 of JevBench Hard 111's 111 items \
                 (choice 68 of 67, binary 37 of 38): these are not the benchmark's I/C"
            )
        );
    }
}
