//! A report's group rows packed for keeping. The browser's worker keeps each scored run's report
//! for its later exports, and on a file whose groups are item ids a row is a `String` of its own
//! and three 16-byte options: some 90 bytes a group, 18 MB for 200,000 groups. Packed, the names
//! share one buffer (as a sample's item ids do, `bootstrap::Ids`) and the figures are bare numbers
//! with a byte saying which are present, about half of that, given back bit for bit.

use super::GroupFigures;
use crate::metrics::bootstrap::Ids;

const ACCURACY: u8 = 1;
const NORMALIZED: u8 = 2;
const INVALID_SHARE: u8 = 4;

/// Group rows, in their order, packed (`pack`) and given back whole (`unpack`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PackedGroups {
    /// Every name, in one buffer.
    names: Ids,
    items: Vec<u64>,
    /// Each row's correct count, accuracy, normalized accuracy and invalid share (0 where absent).
    figures: Vec<[f64; 4]>,
    /// Which of the three options each row has.
    present: Vec<u8>,
}

impl PackedGroups {
    /// The rows packed.
    pub fn pack(groups: &[GroupFigures]) -> Self {
        let n = groups.len();
        let mut p = PackedGroups {
            names: Ids::default(),
            items: Vec::with_capacity(n),
            figures: Vec::with_capacity(n),
            present: Vec::with_capacity(n),
        };
        for g in groups {
            p.names.push(&g.name);
            p.items.push(g.items);
            let has = |o: Option<f64>, flag: u8| if o.is_some() { flag } else { 0 };
            p.present.push(
                has(g.accuracy, ACCURACY)
                    | has(g.normalized, NORMALIZED)
                    | has(g.invalid_share, INVALID_SHARE),
            );
            p.figures.push([
                g.correct,
                g.accuracy.unwrap_or(0.0),
                g.normalized.unwrap_or(0.0),
                g.invalid_share.unwrap_or(0.0),
            ]);
        }
        p.names.shrink_to_fit();
        p
    }

    /// The rows as they were packed.
    pub fn unpack(&self) -> Vec<GroupFigures> {
        self.names
            .iter()
            .zip(&self.items)
            .zip(&self.figures)
            .zip(&self.present)
            .map(|(((name, &items), f), &present)| {
                let on = |flag: u8, v: f64| (present & flag != 0).then_some(v);
                GroupFigures {
                    name: name.to_string(),
                    items,
                    correct: f[0],
                    accuracy: on(ACCURACY, f[1]),
                    normalized: on(NORMALIZED, f[2]),
                    invalid_share: on(INVALID_SHARE, f[3]),
                }
            })
            .collect()
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn figure() -> impl Strategy<Value = Option<f64>> {
        prop_oneof![
            Just(None),
            any::<f64>().prop_map(Some),
            Just(Some(0.0)),
            Just(Some(-0.0)),
            Just(Some(f64::NAN)),
        ]
    }

    fn row() -> impl Strategy<Value = GroupFigures> {
        (
            ".{0,12}",
            any::<u64>(),
            any::<f64>(),
            figure(),
            figure(),
            figure(),
        )
            .prop_map(
                |(name, items, correct, accuracy, normalized, invalid_share)| GroupFigures {
                    name,
                    items,
                    correct,
                    accuracy,
                    normalized,
                    invalid_share,
                },
            )
    }

    /// Bits of every figure, so that NaN and -0.0 count.
    fn bits(g: &GroupFigures) -> (String, u64, u64, [Option<u64>; 3]) {
        let b = |o: Option<f64>| o.map(f64::to_bits);
        (
            g.name.clone(),
            g.items,
            g.correct.to_bits(),
            [b(g.accuracy), b(g.normalized), b(g.invalid_share)],
        )
    }

    proptest! {
        #[test]
        fn rows_come_back_bit_for_bit(rows in proptest::collection::vec(row(), 0..40)) {
            let p = PackedGroups::pack(&rows);
            prop_assert_eq!(p.len(), rows.len());
            let back = p.unpack();
            prop_assert_eq!(back.iter().map(bits).collect::<Vec<_>>(), rows.iter().map(bits).collect::<Vec<_>>());
        }
    }

    #[test]
    fn names_with_any_text_and_empty_ones_keep_their_places() {
        let row = |name: &str, acc: Option<f64>| GroupFigures {
            name: name.to_string(),
            items: 2,
            correct: 1.0,
            accuracy: acc,
            normalized: None,
            invalid_share: Some(0.0),
        };
        let rows = vec![row("", Some(0.5)), row("é|<b>\n", None), row("", None)];
        let p = PackedGroups::pack(&rows);
        assert_eq!(p.unpack(), rows);
        assert!(PackedGroups::pack(&[]).is_empty());
    }
}
