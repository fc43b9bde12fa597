//! The bootstrap's replay of I and C (SPEC §5): each item's `IcPart` (its competence cell and
//! calibration terms, about 80 bytes) folded into a fresh `IcAccumulator`, finished by its own code.
//!
//! A block of resamples (the leaderboard's) keeps the accumulator's sums lane-wide instead
//! (`flat`): each part, decoded once into the sums it adds to, is added to every lane with the
//! same loads, and each lane is then put back into an accumulator that finishes as any other.

use super::bootstrap::Replay;
use super::flat::{Slot, Sums};
use super::ic::{IcAccumulator, IcOptions, IcPart};
use super::ic_figures::{IcFigures, ScopeFigures, TypeFigures};
use super::lanes::{add, add_scaled, lanes, Lanes, Weights, LANES};
use crate::items::Item;
use std::sync::OnceLock;

type Get = fn(&IcFigures) -> Option<f64>;

fn scope_i(s: &Option<ScopeFigures>) -> Option<f64> {
    s.as_ref().and_then(|s| s.i)
}

fn scope_c(s: &Option<ScopeFigures>) -> Option<f64> {
    s.as_ref().and_then(|s| s.c)
}

fn cc(t: &Option<TypeFigures>) -> Option<f64> {
    t.as_ref().and_then(|t| t.cc)
}

fn c(t: &Option<TypeFigures>) -> Option<f64> {
    t.as_ref().and_then(|t| t.c)
}

/// The I/C figures the bootstrap gives intervals for, by report path.
const FIGURES: [(&str, Get); 13] = [
    ("ic.i", |f| f.overall.i),
    ("ic.i_weighted", |f| f.overall.i_weighted),
    ("ic.c", |f| f.overall.c),
    ("ic.types.choice.cc", |f| cc(&f.overall.types.choice)),
    ("ic.types.choice.c", |f| c(&f.overall.types.choice)),
    ("ic.types.binary.cc", |f| cc(&f.overall.types.binary)),
    ("ic.types.binary.c", |f| c(&f.overall.types.binary)),
    ("ic.types.rating.cc", |f| cc(&f.overall.types.rating)),
    ("ic.types.rating.c", |f| c(&f.overall.types.rating)),
    ("ic.scopes.text.i", |f| scope_i(&f.scopes.text)),
    ("ic.scopes.text.c", |f| scope_c(&f.scopes.text)),
    ("ic.scopes.image.i", |f| scope_i(&f.scopes.image)),
    ("ic.scopes.image.c", |f| scope_c(&f.scopes.image)),
];

/// Compact I/C records.
#[derive(Debug, Clone)]
pub struct IcReplay {
    template: IcAccumulator,
    items: u32,
    parts: Vec<(u32, IcPart)>,
    /// The parts as the flat sums they add to, made at the first block of lanes (a run that is
    /// only scored, or resampled one resample at a time, never needs them).
    flat: OnceLock<Option<FlatParts>>,
}

impl IcReplay {
    /// A replay under the profile's I/C options.
    pub fn new(opts: IcOptions) -> Self {
        IcReplay {
            template: IcAccumulator::new(opts),
            items: 0,
            parts: Vec::new(),
            flat: OnceLock::new(),
        }
    }

    /// `figures_lanes` with one accumulator per lane, each part decoded once for all of them:
    /// where the flat sums cannot be used, and what a test holds them to.
    fn accumulators_lanes(&self, weights: &[Weights], out: &mut Vec<Option<f64>>) {
        // One accumulator per lane, each part decoded once for all of them.
        let mut accs: [IcAccumulator; LANES] = std::array::from_fn(|_| self.template.clone());
        for (i, p) in &self.parts {
            let Some(w) = weights.get(*i as usize) else {
                continue;
            };
            for (acc, &t) in accs.iter_mut().zip(w) {
                if t > 0 {
                    acc.add_times(p, u32::from(t));
                }
            }
        }
        for acc in &accs {
            let f = acc.finish();
            out.extend(FIGURES.iter().map(|(_, get)| f.as_ref().and_then(get)));
        }
    }

    /// The lanes' kernel: every part's sums added, lane by lane, `weight × value` in part order,
    /// as `IcAccumulator::add_times` adds them (so the same bits as one accumulator per lane).
    #[inline(always)]
    fn lanes(&self, f: &FlatParts, weights: &[Weights]) -> Vec<Lanes> {
        let mut sums = vec![[0.0; LANES]; f.width];
        let mut v = 0usize;
        for &(i, start, counts, valued) in &f.parts {
            let w = weights.get(i as usize).map_or([0.0; LANES], lanes);
            let start = start as usize;
            let (counts, valued) = (usize::from(counts), usize::from(valued));
            let slots = f
                .slots
                .get(start..start + counts + valued)
                .unwrap_or_default();
            let (ones, rest) = slots.split_at(counts.min(slots.len()));
            for &k in ones {
                if let Some(s) = sums.get_mut(usize::from(k)) {
                    add(s, &w);
                }
            }
            let values = f.values.get(v..v + valued).unwrap_or_default();
            for (&k, &x) in rest.iter().zip(values) {
                if let Some(s) = sums.get_mut(usize::from(k)) {
                    add_scaled(s, &w, x);
                }
            }
            v += valued;
        }
        sums
    }

    /// `lanes` compiled for AVX2 (four lanes to an instruction); the same operations in the same
    /// order, so the same bits: Rust never fuses a multiply and an add on its own.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn lanes_avx2(&self, f: &FlatParts, weights: &[Weights]) -> Vec<Lanes> {
        self.lanes(f, weights)
    }
}

/// Every part as the flat sums it adds to (`flat::Sums`' order of the accumulator's sums): per
/// part its item, where its slots start, how many add the weight alone (a count, or a value of
/// 1) and how many add `weight × value`, the values in `values` in the same order.
#[derive(Debug, Clone)]
struct FlatParts {
    width: usize,
    parts: Vec<(u32, u32, u8, u8)>,
    slots: Vec<u16>,
    values: Vec<f64>,
}

impl FlatParts {
    /// `None` when the lanes cannot give the accumulator's own sums: more sums than a slot
    /// number holds, a part adding more than a byte counts, or a value that is not finite
    /// (where a lane that drew the item 0 times would add 0 × ∞ and the accumulator adds nothing).
    fn of(template: &IcAccumulator, parts: &[(u32, IcPart)]) -> Option<Self> {
        let mut scratch = template.clone();
        let mut width = 0usize;
        scratch.visit(&mut |_| width += 1);
        let widths = template.widths();
        if width > usize::from(u16::MAX) {
            return None;
        }
        let mut f = FlatParts {
            width,
            parts: Vec::with_capacity(parts.len()),
            slots: Vec::new(),
            values: Vec::new(),
        };
        let (mut ones, mut valued) = (Vec::new(), Vec::new());
        let mut finite = true;
        for (i, p) in parts {
            scratch.add_times(p, 1);
            ones.clear();
            valued.clear();
            scratch.visit_part(p, widths, &mut |at, mut s: Slot<'_>| {
                let x = s.get();
                if x != 0.0 {
                    let at = at as u16;
                    if x == 1.0 {
                        ones.push(at);
                    } else {
                        finite &= x.is_finite();
                        valued.push((at, x));
                    }
                    s.set(0.0);
                }
            });
            let (Ok(n1), Ok(n2), Ok(start)) = (
                u8::try_from(ones.len()),
                u8::try_from(valued.len()),
                u32::try_from(f.slots.len()),
            ) else {
                return None;
            };
            f.parts.push((*i, start, n1, n2));
            f.slots.extend(&ones);
            f.slots.extend(valued.iter().map(|&(k, _)| k));
            f.values.extend(valued.iter().map(|&(_, x)| x));
        }
        finite.then_some(f)
    }
}

impl Replay for IcReplay {
    fn push(&mut self, item: &Item) {
        if let Some(p) = self.template.part(item) {
            self.parts.push((self.items, p));
        }
        self.items += 1;
    }

    fn names(&self) -> Vec<String> {
        FIGURES.iter().map(|(n, _)| n.to_string()).collect()
    }

    fn figures_lanes(&self, weights: &[Weights], out: &mut Vec<Option<f64>>) {
        let flat = self
            .flat
            .get_or_init(|| FlatParts::of(&self.template, &self.parts));
        if let Some(f) = flat {
            #[cfg(target_arch = "x86_64")]
            let sums = if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked on the line above.
                unsafe { self.lanes_avx2(f, weights) }
            } else {
                self.lanes(f, weights)
            };
            #[cfg(not(target_arch = "x86_64"))]
            let sums = self.lanes(f, weights);
            for k in 0..LANES {
                let mut acc = self.template.clone();
                let mut at = 0usize;
                acc.visit(&mut |mut s: Slot<'_>| {
                    s.set(sums.get(at).map_or(0.0, |l| l[k]));
                    at += 1;
                });
                let f = acc.finish();
                out.extend(FIGURES.iter().map(|(_, get)| f.as_ref().and_then(get)));
            }
            return;
        }
        self.accumulators_lanes(weights, out);
    }

    fn figures(&self, weights: &[u32], out: &mut Vec<Option<f64>>) {
        let mut acc = self.template.clone();
        for (i, p) in &self.parts {
            for _ in 0..weights.get(*i as usize).copied().unwrap_or(0) {
                acc.add(p);
            }
        }
        let f = acc.finish();
        out.extend(FIGURES.iter().map(|(_, get)| f.as_ref().and_then(get)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::canonical::chunks::{read_block, Event};
    use crate::metrics::ic_calibration::CalibrationScope;

    fn items(text: &str) -> Vec<Item> {
        read_block("t.jsonl", text.as_bytes())
            .events
            .into_iter()
            .filter_map(|e| match e {
                Event::Item(i) => Some(i),
                _ => None,
            })
            .collect()
    }

    /// The flat lanes give every figure of one accumulator per lane, to the bit, over the
    /// samples' types (choice, binary, rating), tiers, splits, modalities, gold distributions
    /// and every profile option, with weights that include zeros and large counts.
    #[test]
    fn flat_lanes_are_the_accumulators_bit_for_bit() {
        let files = [
            include_str!("../../www/samples/jevbench-public-231.jsonl"),
            include_str!("../../www/samples/cmdb-1500.jsonl"),
            include_str!("../../www/samples/rating.jsonl"),
            include_str!("../../www/samples/binary.jsonl"),
            include_str!("../../www/samples/decision-bench.jsonl"),
            include_str!("../../www/samples/choice.jsonl"),
        ];
        let scopes = [
            CalibrationScope::Type,
            CalibrationScope::HardChoice,
            CalibrationScope::Pooled,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) as u16
        };
        let mut checked = 0;
        for text in files {
            let items = items(text);
            assert!(!items.is_empty());
            for &calibration in &scopes {
                for (one_hot_tvd, hard_only) in [(false, false), (true, false), (false, true)] {
                    let mut r = IcReplay::new(IcOptions {
                        one_hot_tvd,
                        hard_only,
                        calibration,
                    });
                    items.iter().for_each(|i| r.push(i));
                    let weights: Vec<Weights> = (0..items.len())
                        .map(|_| {
                            std::array::from_fn(|_| [0, 1, 2, 3, 700][usize::from(next() % 5)])
                        })
                        .collect();
                    let (mut flat, mut each) = (Vec::new(), Vec::new());
                    r.figures_lanes(&weights, &mut flat);
                    r.accumulators_lanes(&weights, &mut each);
                    assert!(matches!(r.flat.get(), Some(Some(_))));
                    assert_eq!(flat.len(), each.len());
                    for (a, b) in flat.iter().zip(&each) {
                        assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits));
                        checked += usize::from(a.is_some());
                    }
                }
            }
        }
        assert!(checked > 500, "{checked} figures compared");
    }
}
