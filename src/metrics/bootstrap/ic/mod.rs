//! The bootstrap's replay of I and C (SPEC §5): each item's `IcPart` (its competence cell and
//! calibration terms, about 80 bytes) folded into a fresh `IcAccumulator`, finished by its own code.
//!
//! A block of resamples (the leaderboard's) keeps the accumulator's sums lane-wide instead
//! (`flat_parts`): the parts, decoded once into the sums they add to and grouped by those, are
//! added to every lane at once, and each lane is then put back into an accumulator that finishes
//! as any other.

use super::Replay;
use crate::items::Item;
use crate::metrics::flat::{Slot, Sums};
use crate::metrics::ic::figures::{IcFigures, ScopeFigures, TypeFigures};
use crate::metrics::ic::packed::PackedParts;
use crate::metrics::ic::{IcAccumulator, IcOptions};
#[cfg(target_arch = "x86_64")]
use crate::metrics::lanes::Lanes;
use crate::metrics::lanes::{Made, Weights, LANES};
use flat_parts::{FlatParts, Portable};

mod flat_parts;

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
    /// Each item's part, packed (a few dozen bytes instead of about 150).
    parts: PackedParts,
    /// The parts as the flat sums they add to, made at the first block of lanes (a run that is
    /// only scored, or resampled one resample at a time, never needs them).
    flat: Made<Option<FlatParts>>,
}

impl IcReplay {
    /// A replay under the profile's I/C options.
    pub fn new(opts: IcOptions) -> Self {
        IcReplay {
            template: IcAccumulator::new(opts),
            items: 0,
            parts: PackedParts::default(),
            flat: Made::default(),
        }
    }

    /// `figures_lanes` with one accumulator per lane, each part decoded once for all of them:
    /// where the flat sums cannot be used, and what a test holds them to.
    fn accumulators_lanes(&self, weights: &[Weights], out: &mut Vec<Option<f64>>) {
        // One accumulator per lane, each part decoded once for all of them.
        let mut accs: [IcAccumulator; LANES] = std::array::from_fn(|_| self.template.clone());
        for (i, p) in self.parts.iter() {
            let Some(w) = weights.get(i as usize) else {
                continue;
            };
            for (acc, &t) in accs.iter_mut().zip(w) {
                if t > 0 {
                    acc.add_times(&p, u32::from(t));
                }
            }
        }
        for acc in &accs {
            let f = acc.finish();
            out.extend(FIGURES.iter().map(|(_, get)| f.as_ref().and_then(get)));
        }
    }

    /// The flat sums compiled for AVX-512, with the kernel in its intrinsics.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    unsafe fn lanes_avx512(f: &FlatParts, weights: &[Weights]) -> Vec<Lanes> {
        f.sums::<flat_parts::Avx512>(weights)
    }

    /// The flat sums compiled for AVX2 (four lanes to an instruction). Rust never fuses a
    /// multiply and an add on its own, so enabling a feature cannot change a rounding.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn lanes_avx2(f: &FlatParts, weights: &[Weights]) -> Vec<Lanes> {
        f.sums::<Portable>(weights)
    }
}

impl Replay for IcReplay {
    fn push(&mut self, item: &Item) {
        if let Some(p) = self.template.part(item) {
            self.parts.push(self.items, &p);
        }
        self.items += 1;
    }

    fn names(&self) -> Vec<String> {
        FIGURES.iter().map(|(n, _)| n.to_string()).collect()
    }

    fn seal(&mut self, _point: &dyn std::any::Any) {
        self.parts.shrink_to_fit();
    }

    fn prepare_lanes(&self) {
        self.flat
            .get_or_make(|| FlatParts::of(&self.template, self.parts.iter()));
    }

    fn release_lanes(&self) {
        self.flat.release();
    }

    fn figures_lanes(&self, weights: &[Weights], out: &mut Vec<Option<f64>>) {
        let flat = self
            .flat
            .get_or_make(|| FlatParts::of(&self.template, self.parts.iter()));
        if let Some(f) = flat.as_ref() {
            #[cfg(target_arch = "x86_64")]
            let sums = if crate::metrics::lanes::avx512() {
                // SAFETY: the CPU has these features, checked on the line above.
                unsafe { Self::lanes_avx512(f, weights) }
            } else if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked on the line above.
                unsafe { Self::lanes_avx2(f, weights) }
            } else {
                f.sums::<Portable>(weights)
            };
            #[cfg(not(target_arch = "x86_64"))]
            let sums = f.sums::<Portable>(weights);
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
        for (i, p) in self.parts.iter() {
            for _ in 0..weights.get(i as usize).copied().unwrap_or(0) {
                acc.add(&p);
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
    use crate::metrics::ic::calibration::CalibrationScope;

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

    /// The flat lanes give every figure of one accumulator per lane, to 1e-12, over the
    /// samples' types (choice, binary, rating), tiers, splits, modalities, gold distributions
    /// and every profile option, with weights that include zeros and large counts.
    #[test]
    fn flat_lanes_are_the_accumulators() {
        let files = [
            include_str!("../../../../www/samples/jevbench-public-231.jsonl"),
            include_str!("../../../../www/samples/cmdb-1500.jsonl"),
            include_str!("../../../../www/samples/rating.jsonl"),
            include_str!("../../../../www/samples/binary.jsonl"),
            include_str!("../../../../www/samples/decision-bench.jsonl"),
            include_str!("../../../../www/samples/choice.jsonl"),
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
                    assert!(r.flat.held().is_some_and(|f| f.is_some()));
                    // Let go, the layout is made again by the next block, the same.
                    r.release_lanes();
                    assert!(r.flat.held().is_none());
                    let mut again = Vec::new();
                    r.figures_lanes(&weights, &mut again);
                    assert_eq!(format!("{flat:?}"), format!("{again:?}"));
                    assert_eq!(flat.len(), each.len());
                    for (a, b) in flat.iter().zip(&each) {
                        // Sums that several signatures add to are rounded in another order.
                        match (a, b) {
                            (Some(x), Some(y)) => {
                                assert!((x - y).abs() <= 1e-12 * x.abs().max(1.0), "{x} {y}")
                            }
                            _ => assert_eq!(a.is_some(), b.is_some()),
                        }
                        checked += usize::from(a.is_some());
                    }
                }
            }
        }
        assert!(checked > 500, "{checked} figures compared");
    }

    /// The AVX-512 kernel gives the portable kernel's sums to the bit (the browser's worker runs
    /// the portable one, and its leaderboard must be the native one byte for byte).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_kernels_agree_bit_for_bit() {
        if !crate::metrics::lanes::avx512() {
            eprintln!("this CPU lacks AVX-512: nothing to compare");
            return;
        }
        let items = items(include_str!(
            "../../../../www/samples/jevbench-public-231.jsonl"
        ));
        let mut r = IcReplay::new(IcOptions::default());
        items.iter().for_each(|i| r.push(i));
        let f = FlatParts::of(&r.template, r.parts.iter()).unwrap();
        let weights: Vec<Weights> = (0..items.len())
            .map(|i| std::array::from_fn(|k| ((i * 7 + k * 13) % 5) as u16))
            .collect();
        let portable = f.sums::<Portable>(&weights);
        // SAFETY: the CPU has the features, checked above.
        let wide = unsafe { IcReplay::lanes_avx512(&f, &weights) };
        let bits = |v: &[Lanes]| -> Vec<u64> { v.iter().flatten().map(|x| x.to_bits()).collect() };
        assert_eq!(bits(&portable), bits(&wide));
        assert!(portable
            .iter()
            .flatten()
            .any(|&x| x != 0.0 && x.fract() != 0.0));
    }
}
