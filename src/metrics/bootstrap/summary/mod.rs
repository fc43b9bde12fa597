//! The bootstrap's replay of the SPEC §2–§4 figures every profile reports: accuracy, normalized,
//! invalid share, the macro means over groups, outside mass, and the calibration figures under
//! conditioning and mixing.
//!
//! Per item it keeps the `Outcome`, the group index, the outside mass and the two
//! `CalibrationPart`s, and folds them into the accumulators the scorer uses (`Accuracy`,
//! `OutsideMass`, `EqualWidth`) with the means `Calibration::finish` takes. Once sealed, the
//! calibration parts are kept only as columns in ascending confidence (`ModeColumns`, 37 bytes a
//! part, read by the single resamples and the leaderboard's lanes alike), so the equal-mass ECE
//! is one weighted walk (`ece_weighted`, HELM's binning over the resampled multiset) instead of a
//! sort per resample.

use super::Replay;
use crate::items::{Item, Mode};
use crate::metrics::accuracy::Accuracy;
use crate::metrics::calibration::{Calibration, CalibrationPart, OutsideMass};
use crate::metrics::ece::equal_mass::ece_weighted_columns;
use crate::metrics::ece::{bin_of, EqualWidth, BINS as WIDTH_BINS};
use crate::metrics::groups::NO_GROUP;
use crate::metrics::lanes::{Made, Weights};
use crate::metrics::names::Names;
use crate::metrics::outcome::{outcome, Outcome};
use crate::metrics::ranks::order_key;
use std::sync::Arc;

/// The figures, by report path, with how to read each off the finished accumulators.
const NAMES: [&str; 16] = [
    "metrics.accuracy",
    "metrics.normalized",
    "metrics.invalid_share",
    "metrics.macro_accuracy",
    "metrics.macro_normalized",
    "metrics.outside_mass",
    "conditioning.ece",
    "conditioning.ece_em",
    "conditioning.brier",
    "conditioning.epa",
    "conditioning.nll",
    "mixing.ece",
    "mixing.ece_em",
    "mixing.brier",
    "mixing.epa",
    "mixing.nll",
];

/// One mode's calibration parts: tagged with their item while the run is read, then (sealed)
/// as columns in ascending confidence, ties in item order.
#[derive(Debug, Clone)]
struct Track {
    template: Calibration,
    /// The parts as they arrive; emptied by `seal`, which lays them out in `sorted`.
    parts: Vec<(u32, CalibrationPart)>,
    /// Each part's item, confidence, correctness and scores, in ascending confidence.
    sorted: ModeColumns,
    /// Where each equal-width bin starts among them (the bins are runs of the sorted order).
    width_at: [usize; WIDTH_BINS + 1],
    /// Every confidence and score is finite (what the lanes need: see `Columns`).
    finite: bool,
}

/// One item's accuracy record: its outcome, group and outside mass (NaN when unknown). The
/// outcome is kept field by field, its optional chance as a number and a flag, so that a record
/// is 32 bytes instead of 48; `outcome` gives it back as it was.
#[derive(Debug, Clone, Copy)]
struct Record {
    credit: f64,
    chance: f64,
    outside: f64,
    group: u32,
    valid: bool,
    has_chance: bool,
}

impl Record {
    fn new(o: Outcome, group: u32, outside: f64) -> Self {
        Record {
            credit: o.credit,
            chance: o.chance.unwrap_or(0.0),
            outside,
            group,
            valid: o.valid,
            has_chance: o.chance.is_some(),
        }
    }

    fn outcome(&self) -> Outcome {
        Outcome {
            credit: self.credit,
            chance: self.has_chance.then_some(self.chance),
            valid: self.valid,
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512;
mod columns;
use columns::ModeColumns;
mod lanes;
mod running;

/// Compact records for the general figures.
#[derive(Debug, Clone)]
pub struct SummaryReplay {
    records: Vec<Record>,
    /// The groups' names where items are pushed one by one; empty under a sample, which numbers
    /// them once for every replay (`push_in`, `group_names`).
    groups: Names,
    /// Group indices in name order (the order `Groups` averages them in).
    group_order: Vec<u32>,
    /// The records' places grouped by group, groups in name order (each group's in item order),
    /// and where each group's end: `figures_lanes` walks the groups one at a time, so that a
    /// file whose groups are ids needs no sums for every group at once.
    by_group: Vec<u32>,
    group_ends: Vec<u32>,
    tracks: [Track; 2],
    /// The records laid out for the blocks of lanes, made at the first block.
    columns: Made<Option<columns::Columns>>,
}

impl Default for SummaryReplay {
    fn default() -> Self {
        let track = |mode| Track {
            template: Calibration::new(mode),
            parts: Vec::new(),
            sorted: ModeColumns::default(),
            width_at: [0; WIDTH_BINS + 1],
            finite: true,
        };
        SummaryReplay {
            records: Vec::new(),
            groups: Names::default(),
            group_order: Vec::new(),
            by_group: Vec::new(),
            group_ends: Vec::new(),
            tracks: [track(Mode::Conditioning), track(Mode::Mixing)],
            columns: Made::default(),
        }
    }
}

impl Replay for SummaryReplay {
    fn push(&mut self, item: &Item) {
        let group = self.groups.number_of(item.group.as_ref(), NO_GROUP);
        self.push_in(item, group);
    }

    fn push_in(&mut self, item: &Item, group: u32) {
        let i = self.records.len() as u32;
        let outside = item
            .as_option()
            .and_then(|o| o.probs.as_ref())
            .and_then(|p| p.outside)
            .unwrap_or(f64::NAN);
        self.records
            .push(Record::new(outcome(item), group, outside));
        for t in &mut self.tracks {
            if let Some(p) = t.template.part(item) {
                t.parts.push((i, p));
            }
        }
    }

    fn group_names(&mut self, names: &[Arc<str>]) {
        self.group_order = name_order(names);
    }

    fn seal(&mut self, _point: &dyn std::any::Any) {
        self.records.shrink_to_fit();
        // Pushed one by one (`push`), the replay numbered the groups itself.
        if !self.groups.names().is_empty() {
            self.group_order = name_order(self.groups.names());
        }
        let mut place = vec![0u32; self.group_order.len()];
        for (k, &g) in self.group_order.iter().enumerate() {
            if let Some(p) = place.get_mut(g as usize) {
                *p = k as u32;
            }
        }
        let mut keys: Vec<(u32, u32)> = (self.records.iter().enumerate())
            .map(|(i, r)| (place.get(r.group as usize).copied().unwrap_or(0), i as u32))
            .collect();
        radsort::sort_by_key(&mut keys, |&(g, _)| g);
        self.by_group = keys.iter().map(|&(_, i)| i).collect();
        self.group_ends = vec![0; self.group_order.len()];
        for (end, &(g, _)) in keys.iter().enumerate() {
            if let Some(e) = self.group_ends.get_mut(g as usize) {
                *e = end as u32 + 1;
            }
        }
        for t in &mut self.tracks {
            // In ascending confidence (`f64::total_cmp`), ties in item order. The parts were
            // pushed in item order, so a stable radix sort of (confidence's order key, place)
            // gives that order without moving the 48-byte parts at every step of a comparison
            // sort (that was most of the sample's cost in the browser's worker).
            let mut keys: Vec<(u64, u32)> = t
                .parts
                .iter()
                .enumerate()
                .map(|(k, (_, p))| (order_key(p.confidence), k as u32))
                .collect();
            radsort::sort_by_key(&mut keys, |&(key, _)| key);
            let parts = std::mem::take(&mut t.parts);
            let in_order = keys.iter().filter_map(|&(_, k)| parts.get(k as usize));
            t.sorted = ModeColumns::of(parts.len(), in_order);
            t.finite = t.sorted.finite();
            for (b, at) in t.width_at.iter_mut().enumerate() {
                *at = t.sorted.confidence.partition_point(|&v| bin_of(v) < b);
            }
        }
    }

    fn names(&self) -> Vec<String> {
        NAMES.iter().map(|n| n.to_string()).collect()
    }

    fn item_values(&self, figure: usize, out: &mut Vec<f64>) -> bool {
        let of_records = |get: fn(&Record) -> f64, out: &mut Vec<f64>| {
            out.extend(self.records.iter().map(get));
            true
        };
        match figure {
            0 => of_records(|r| r.credit, out),
            1 => of_records(|r| r.outcome().normalized().unwrap_or(f64::NAN), out),
            2 => of_records(|r| f64::from(u8::from(!r.valid)), out),
            5 => of_records(|r| r.outside, out),
            // Each mode's Brier, EPA and NLL: the means of its calibration parts.
            6..=15 => {
                let (t, k) = ((figure - 6) / 5, (figure - 6) % 5);
                // Brier, EPA and NLL are the columns' scores 0, 1 and 2.
                if !(2..=4).contains(&k) {
                    return false;
                }
                let Some(track) = self.tracks.get(t) else {
                    return false;
                };
                out.resize(self.records.len(), f64::NAN);
                for (i, s) in track.sorted.at.iter().zip(&track.sorted.scores) {
                    if let (Some(slot), Some(&v)) = (out.get_mut(*i as usize), s.get(k - 2)) {
                        *slot = v;
                    }
                }
                true
            }
            _ => false,
        }
    }

    fn figures_lanes(&self, weights: &[Weights], out: &mut Vec<Option<f64>>) {
        self.figures_lanes_of(weights, None, out);
    }

    fn prepare_lanes(&self) {
        self.columns.get_or_make(|| columns::Columns::of(self));
    }

    fn release_lanes(&self) {
        self.columns.release();
        lanes::release_scratch();
    }

    fn figures_lanes_of(
        &self,
        weights: &[Weights],
        wanted: Option<&[bool]>,
        out: &mut Vec<Option<f64>>,
    ) {
        // A mode's pass is taken only when one of its five figures is wanted.
        let modes =
            [6, 11].map(|from| wanted.is_none_or(|w| w.iter().skip(from).take(5).any(|&x| x)));
        let made = self.columns.get_or_make(|| columns::Columns::of(self));
        let Some(c) = made.as_ref() else {
            // A value that is not finite: lane by lane, as one resample would be drawn.
            return crate::metrics::lanes::each_lane(weights, out, |w, out| self.figures(w, out));
        };
        #[cfg(target_arch = "x86_64")]
        if crate::metrics::lanes::avx512() {
            // SAFETY: the CPU has these features, checked on the line above.
            return unsafe { lanes::lanes_avx512(self, c, weights, modes, out) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked on the line above.
            return unsafe { lanes::lanes_avx2(self, c, weights, modes, out) };
        }
        lanes::lanes_of::<lanes::Portable>(self, c, weights, modes, out);
    }

    fn figures(&self, weights: &[u32], out: &mut Vec<Option<f64>>) {
        let mut overall = Accuracy::default();
        let mut outside = OutsideMass::default();
        let groups = self.group_order.len();
        for (r, &times) in self.records.iter().zip(weights) {
            if r.group as usize >= groups {
                continue;
            }
            overall.add_times(&r.outcome(), times);
            if !r.outside.is_nan() {
                outside.add_times(r.outside, times);
            }
        }
        let f = overall.finish();
        // The macro means one group at a time, in name order, each group's records in item
        // order (`by_group`): the sums one accumulator per group would make, without holding
        // one for each of 200,000 groups.
        let (mut accuracy, mut normalized) = (Mean::default(), Mean::default());
        let mut from = 0usize;
        for &end in &self.group_ends {
            let end = (end as usize).max(from);
            let mut group = Accuracy::default();
            for &i in self.by_group.get(from..end).unwrap_or_default() {
                if let (Some(r), Some(&times)) =
                    (self.records.get(i as usize), weights.get(i as usize))
                {
                    group.add_times(&r.outcome(), times);
                }
            }
            from = end;
            let g = group.finish();
            accuracy.add(g.accuracy);
            normalized.add(g.normalized);
        }
        out.extend([
            f.accuracy,
            f.normalized,
            f.invalid_share,
            accuracy.finish(),
            normalized.finish(),
            outside.finish(),
        ]);
        let mut gathered = Vec::new();
        for t in &self.tracks {
            // The weights in confidence order first: a tight gather loop keeps many loads in
            // flight, where reading them inside the sums would stall on each.
            gathered.clear();
            let c = &t.sorted;
            gathered.extend(
                c.at.iter()
                    .map(|&i| weights.get(i as usize).copied().unwrap_or(0)),
            );
            let mut width = EqualWidth::default();
            let (mut items, mut brier, mut epa, mut nll) = (0u64, 0.0, 0.0, 0.0);
            let parts = c.confidence.iter().zip(&c.correct).zip(&c.scores);
            for (((&confidence, &correct), s), &times) in parts.zip(&gathered) {
                let w = f64::from(times);
                items += u64::from(times);
                width.add_times(confidence, f64::from(u8::from(correct)), times);
                brier += w * s[0];
                epa += w * s[1];
                nll += w * s[2];
            }
            // The same means as `Calibration::finish`, and HELM's binning over the multiset.
            let mean = |x: f64| (items > 0).then(|| x / items as f64);
            out.extend([
                width.ece(),
                ece_weighted_columns(&c.confidence, &c.correct, &gathered),
                mean(brier),
                mean(epa),
                mean(nll),
            ]);
        }
    }
}

/// The group numbers in the order of their names.
fn name_order(names: &[Arc<str>]) -> Vec<u32> {
    let mut by_name: Vec<(&str, u32)> = names.iter().zip(0u32..).map(|(n, g)| (&**n, g)).collect();
    by_name.sort_unstable();
    by_name.into_iter().map(|(_, g)| g).collect()
}

/// The mean of the values that are present, summed left to right, as `Groups::macro_figures`
/// takes it.
#[derive(Default)]
struct Mean {
    sum: f64,
    n: u64,
}

impl Mean {
    fn add(&mut self, v: Option<f64>) {
        if let Some(v) = v {
            self.sum += v;
            self.n += 1;
        }
    }

    fn finish(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }
}

#[cfg(test)]
mod tests {
    use crate::metrics::ranks::order_key;
    use proptest::prelude::*;

    fn special() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<f64>(),
            Just(0.0),
            Just(-0.0),
            Just(f64::NAN),
            Just(-f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(f64::MIN_POSITIVE / 2.0),
            (0u32..8).prop_map(|k| f64::from(k) / 8.0),
        ]
    }

    proptest! {
        /// The keys' order is `total_cmp`'s, and the radix sort of (key, place) in `seal` is the
        /// stable sort by `total_cmp` it replaced, ties (repeated eighths) in place order.
        #[test]
        fn order_keys_sort_as_total_cmp(values in proptest::collection::vec(special(), 0..300)) {
            for w in values.windows(2) {
                prop_assert_eq!(order_key(w[0]).cmp(&order_key(w[1])), w[0].total_cmp(&w[1]));
            }
            let mut by_cmp: Vec<(f64, u32)> =
                values.iter().enumerate().map(|(k, &v)| (v, k as u32)).collect();
            by_cmp.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut keys: Vec<(u64, u32)> =
                values.iter().enumerate().map(|(k, &v)| (order_key(v), k as u32)).collect();
            radsort::sort_by_key(&mut keys, |&(key, _)| key);
            let places = |v: &[(u64, u32)]| v.iter().map(|p| p.1).collect::<Vec<_>>();
            prop_assert_eq!(places(&keys), by_cmp.iter().map(|p| p.1).collect::<Vec<_>>());
        }
    }

    /// The AVX-512 kernels give the portable kernels' figures to the bit (the browser's worker
    /// runs the portable ones, and its leaderboard must be the native one byte for byte).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_kernels_agree_bit_for_bit() {
        use super::columns::Columns;
        use super::lanes::{lanes_avx512, lanes_of, Portable};
        use super::SummaryReplay;
        use crate::formats::canonical::chunks::{read_block, Event};
        use crate::metrics::bootstrap::Replay;
        use crate::metrics::lanes::Weights;
        if !crate::metrics::lanes::avx512() {
            eprintln!("this CPU lacks AVX-512: nothing to compare");
            return;
        }
        let text = include_str!("../../../../www/samples/jevbench-public-231.jsonl");
        let mut r = SummaryReplay::default();
        for e in read_block("t.jsonl", text.as_bytes()).events {
            if let Event::Item(i) = e {
                r.push(&i);
            }
        }
        r.seal(&());
        let c = Columns::of(&r).unwrap();
        let weights: Vec<Weights> = (0..r.records.len())
            .map(|i| std::array::from_fn(|k| ((i * 5 + k * 11) % 4) as u16))
            .collect();
        let (mut portable, mut wide) = (Vec::new(), Vec::new());
        lanes_of::<Portable>(&r, &c, &weights, [true; 2], &mut portable);
        // SAFETY: the CPU has the features, checked above.
        unsafe { lanes_avx512(&r, &c, &weights, [true; 2], &mut wide) };
        let bits = |v: &[Option<f64>]| -> Vec<Option<u64>> {
            v.iter().map(|x| x.map(f64::to_bits)).collect()
        };
        assert_eq!(bits(&portable), bits(&wide));
        assert!(portable.iter().flatten().count() > 100);
    }
}
