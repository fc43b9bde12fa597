//! I/C parts packed for keeping. The bootstrap holds one part per item for the whole run, and a
//! part as the accumulator takes it (`IcPart`) is about 150 bytes, most of it room for figures
//! an item may not have and numbers that fit in a byte. Packed, a part is its item and four
//! bytes of small fields, then only the figures it has, bit for bit: about 90 bytes for a
//! choice item with probabilities. Parts are only ever replayed in order, so no offsets are kept.

use super::calibration::CalibrationTerms;
use super::cells::Cell;
use super::types::TypePart;
use super::IcPart;
use crate::items::Modality;

const INVALID: u8 = 1;
const ABSTAINED: u8 = 2;
const CALIBRATION: u8 = 4;
const POOLED: u8 = 8;
const RPS: u8 = 16;
const TVD: u8 = 32;

/// Parts in the order they were pushed, each with its item.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PackedParts {
    /// Per part: its item, and its slot, split, tier, then its modality (two low bits) and
    /// flags (which figures follow in `values`).
    heads: Vec<(u32, [u8; 4])>,
    /// Each part's cell, then its calibration terms where it has them, as bits.
    values: Vec<u64>,
}

/// A slot, split or tier as a byte: the accumulator numbers them below 5 (`slot`,
/// `tier_index`), so none is ever cut; one that were would be skipped by the replay, as a
/// slot the accumulator does not have.
fn byte(x: usize) -> u8 {
    debug_assert!(x < usize::from(u8::MAX), "{x}");
    u8::try_from(x).unwrap_or(u8::MAX)
}

fn take(v: &mut impl Iterator<Item = u64>) -> u64 {
    v.next().unwrap_or(0)
}

fn float(v: &mut impl Iterator<Item = u64>) -> f64 {
    f64::from_bits(take(v))
}

impl PackedParts {
    /// Adds item `item`'s part.
    pub fn push(&mut self, item: u32, p: &IcPart) {
        let t = &p.part;
        let modality = match p.modality {
            None => 0,
            Some(Modality::Text) => 1,
            Some(Modality::Image) => 2,
        };
        let c = t.calibration.as_ref();
        let flags = (u8::from(t.invalid) * INVALID)
            | (u8::from(t.abstained) * ABSTAINED)
            | (u8::from(c.is_some()) * CALIBRATION)
            | (u8::from(c.is_some_and(|c| c.pooled.is_some())) * POOLED)
            | (u8::from(c.is_some_and(|c| c.rps.is_some())) * RPS)
            | (u8::from(c.is_some_and(|c| c.tvd.is_some())) * TVD);
        let small = [
            byte(p.slot),
            byte(t.split),
            byte(t.tier),
            modality | (flags << 2),
        ];
        self.heads.push((item, small));
        self.values
            .extend([t.cell.items, t.cell.hits.to_bits(), t.cell.chance.to_bits()]);
        if let Some(c) = c {
            self.values.extend([c.ece_x.to_bits(), c.ece_y.to_bits()]);
            if let Some((x, y)) = c.pooled {
                self.values.extend([x.to_bits(), y.to_bits()]);
            }
            self.values.extend(c.rps.map(f64::to_bits));
            self.values.extend(c.tvd.map(f64::to_bits));
            self.values.extend([c.brier.to_bits(), c.nll.to_bits()]);
        }
    }

    /// Lets go of the room grown beyond the parts.
    pub fn shrink_to_fit(&mut self) {
        self.heads.shrink_to_fit();
        self.values.shrink_to_fit();
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    /// Every part with its item, in the order pushed, as it was given.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (u32, IcPart)> + Clone + '_ {
        let mut v = self.values.iter().copied();
        self.heads
            .iter()
            .map(move |&(item, [slot, split, tier, last])| {
                let flags = last >> 2;
                let on = |f: u8| flags & f != 0;
                let cell = Cell {
                    items: take(&mut v),
                    hits: float(&mut v),
                    chance: float(&mut v),
                };
                let calibration = on(CALIBRATION).then(|| {
                    let (ece_x, ece_y) = (float(&mut v), float(&mut v));
                    let pooled = on(POOLED).then(|| (float(&mut v), float(&mut v)));
                    let rps = on(RPS).then(|| float(&mut v));
                    let tvd = on(TVD).then(|| float(&mut v));
                    CalibrationTerms {
                        ece_x,
                        ece_y,
                        pooled,
                        rps,
                        tvd,
                        brier: float(&mut v),
                        nll: float(&mut v),
                    }
                });
                let part = IcPart {
                    slot: usize::from(slot),
                    modality: match last & 3 {
                        1 => Some(Modality::Text),
                        2 => Some(Modality::Image),
                        _ => None,
                    },
                    part: TypePart {
                        split: usize::from(split),
                        tier: usize::from(tier),
                        cell,
                        invalid: on(INVALID),
                        abstained: on(ABSTAINED),
                        calibration,
                    },
                };
                (item, part)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::canonical::chunks::{read_block, Event};
    use crate::metrics::ic::calibration::CalibrationScope;
    use crate::metrics::ic::{IcAccumulator, IcOptions};

    /// Every part the accumulator makes from the samples (every type, tier, split, modality,
    /// gold distribution and profile option) reads back as it was pushed, bit for bit.
    #[test]
    fn parts_read_back_as_pushed() {
        let files = [
            include_str!("../../../www/samples/jevbench-public-231.jsonl"),
            include_str!("../../../www/samples/cmdb-1500.jsonl"),
            include_str!("../../../www/samples/rating.jsonl"),
            include_str!("../../../www/samples/binary.jsonl"),
            include_str!("../../../www/samples/decision-bench.jsonl"),
            include_str!("../../../www/samples/choice.jsonl"),
        ];
        // What each part had: slot, modality, tier, calibration, pooled, RPS, TVD.
        type Kind = (usize, bool, usize, bool, bool, bool, bool);
        let mut kinds: std::collections::BTreeSet<Kind> = Default::default();
        for text in files {
            let items: Vec<_> = read_block("t.jsonl", text.as_bytes())
                .events
                .into_iter()
                .filter_map(|e| match e {
                    Event::Item(i) => Some(i),
                    _ => None,
                })
                .collect();
            for calibration in [CalibrationScope::Type, CalibrationScope::Pooled] {
                for one_hot_tvd in [false, true] {
                    let acc = IcAccumulator::new(IcOptions {
                        one_hot_tvd,
                        hard_only: false,
                        calibration,
                    });
                    let parts: Vec<(u32, IcPart)> = (0u32..)
                        .zip(&items)
                        .filter_map(|(i, item)| Some((i, acc.part(item)?)))
                        .collect();
                    let mut packed = PackedParts::default();
                    for (i, p) in &parts {
                        packed.push(*i, p);
                    }
                    assert_eq!(packed.len(), parts.len());
                    let back: Vec<(u32, IcPart)> = packed.iter().collect();
                    // Debug text compares NaN and the sign of zero as bits would.
                    assert_eq!(format!("{back:?}"), format!("{parts:?}"));
                    for (_, p) in &parts {
                        let c = p.part.calibration;
                        kinds.insert((
                            p.slot,
                            p.modality.is_some(),
                            p.part.tier,
                            c.is_some(),
                            c.is_some_and(|c| c.pooled.is_some()),
                            c.is_some_and(|c| c.rps.is_some()),
                            c.is_some_and(|c| c.tvd.is_some()),
                        ));
                    }
                }
            }
        }
        // The samples cover the three types, with and without each optional figure.
        let seen = |f: fn(&Kind) -> bool| kinds.iter().any(f);
        assert!(seen(|k| k.0 == 0) && seen(|k| k.0 == 1) && seen(|k| k.0 == 2));
        assert!(seen(|k| k.1) && seen(|k| !k.3) && seen(|k| k.4) && seen(|k| k.5) && seen(|k| k.6));
        assert!(seen(|k| k.2 != 4));
    }
}
