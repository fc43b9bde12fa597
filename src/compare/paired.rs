//! One pair of runs joined on item id, resampled together: every resample draws the shared items
//! once and weighs both runs with that draw, so the interval is of the difference itself.

use super::{listed, Clusters, Delta, Pair, Run};
use crate::metrics::bootstrap::{interval, BootstrapOptions, Resampler};
use crate::metrics::mcnemar::McNemar;
use crate::metrics::paired_z::{se, Design, Influence, Scratch};
use crate::metrics::power::{items_needed, mde};
use std::collections::HashMap;
use std::ops::Range;

/// A pair of runs, joined.
#[derive(Debug)]
pub struct Paired<'r> {
    a: &'r Run,
    b: &'r Run,
    /// For each item of A, its index in B.
    a_to_b: Vec<Option<usize>>,
    /// For each item of B, whether A has it.
    in_a: Vec<bool>,
    common: u64,
    /// Figures both runs name: (name, index in A's list, index in B's list).
    both: Vec<(String, usize, usize)>,
}

/// The differences of a range of paired resamples (see `Paired::draws`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairDraws {
    deltas: Vec<Vec<f64>>,
    undefined: Vec<u32>,
}

impl<'r> Paired<'r> {
    pub fn new(a: &'r Run, b: &'r Run) -> Self {
        let (sa, sb) = (&a.sample, &b.sample);
        let b_index: HashMap<&str, usize> =
            sb.ids().iter().enumerate().map(|(j, id)| (id, j)).collect();
        let a_to_b: Vec<Option<usize>> =
            sa.ids().iter().map(|id| b_index.get(id).copied()).collect();
        let mut in_a = vec![false; sb.len()];
        for j in a_to_b.iter().flatten() {
            if let Some(x) = in_a.get_mut(*j) {
                *x = true;
            }
        }
        let common = a_to_b.iter().filter(|j| j.is_some()).count() as u64;
        let (names_a, names_b) = (sa.names(), sb.names());
        let both = names_a
            .iter()
            .enumerate()
            .filter_map(|(ka, n)| Some((n.clone(), ka, names_b.iter().position(|m| m == n)?)))
            .collect();
        Paired {
            a,
            b,
            a_to_b,
            in_a,
            common,
            both,
        }
    }

    fn shared(&self, i: usize) -> bool {
        self.a_to_b.get(i).is_some_and(Option::is_some)
    }

    /// Both runs' figures when A's shared items weigh what `counts` (per A's unit) says and B's
    /// items weigh what their twins in A weigh.
    fn figures(&self, counts: &[u32], buf: &mut Buffers) {
        let (sa, sb) = (&self.a.sample, &self.b.sample);
        sa.weights(counts, |i| self.shared(i), &mut buf.wa);
        buf.wb.clear();
        buf.wb.resize(sb.len(), 0);
        for (j, &w) in self.a_to_b.iter().zip(&buf.wa) {
            if let Some(slot) = j.and_then(|j| buf.wb.get_mut(j)) {
                *slot = w;
            }
        }
        sa.figures(&buf.wa, &mut buf.fa);
        sb.figures(&buf.wb, &mut buf.fb);
    }

    /// The (A, B) values of figure k in the last `figures`.
    fn values(&self, k: usize, buf: &Buffers) -> Option<(f64, f64)> {
        let (_, ka, kb) = self.both.get(k)?;
        Some((buf.fa.get(*ka).copied()??, buf.fb.get(*kb).copied()??))
    }

    /// The differences A − B of paired resamples `range` (of `opts.resamples`).
    pub fn draws(&self, opts: &BootstrapOptions, range: Range<u32>) -> PairDraws {
        let sa = &self.a.sample;
        let mut out = PairDraws {
            deltas: vec![Vec::new(); self.both.len()],
            undefined: vec![0; self.both.len()],
        };
        if self.common == 0 {
            return out;
        }
        let strata = sa.design().strata_units(|i| self.shared(i));
        let mut draws = Resampler::new(strata, sa.design().units(), opts.seed);
        let mut buf = Buffers::default();
        for r in range {
            self.figures(draws.draw(r), &mut buf);
            for k in 0..self.both.len() {
                match self.values(k, &buf) {
                    Some((x, y)) => out
                        .deltas
                        .get_mut(k)
                        .into_iter()
                        .for_each(|d| d.push(x - y)),
                    None => out.undefined.get_mut(k).into_iter().for_each(|u| *u += 1),
                }
            }
        }
        out
    }

    /// The pair's figures on the shared items, their intervals from `parts` (every resample, in
    /// order), the items each run lacks, and McNemar's table.
    pub fn finish(&self, parts: Vec<PairDraws>) -> Pair {
        let (sa, sb) = (&self.a.sample, &self.b.sample);
        let mut buf = Buffers::default();
        self.figures(&vec![1; sa.design().units()], &mut buf);
        let mut deltas: Vec<Vec<f64>> = vec![Vec::new(); self.both.len()];
        let mut undefined = vec![0u32; self.both.len()];
        for part in parts {
            for (all, list) in deltas.iter_mut().zip(part.deltas) {
                all.extend(list);
            }
            for (all, u) in undefined.iter_mut().zip(part.undefined) {
                *all += u;
            }
        }
        let strata = sa.design().strata_units(|i| self.shared(i));
        let design = Design::new(sa.design().units_of_items(), &strata);
        let mut figures = Vec::new();
        for (k, (name, _, _)) in self.both.iter().enumerate() {
            let Some((x, y)) = self.values(k, &buf) else {
                continue;
            };
            let list = deltas.get_mut(k).map(std::mem::take).unwrap_or_default();
            let u = undefined.get(k).copied().unwrap_or(0);
            let Some(f) = interval(x - y, list, u) else {
                continue;
            };
            let se_paired = self.se_paired(k, &design);
            let se = se_paired.unwrap_or(f.se);
            figures.push(Delta {
                figure: name.clone(),
                a: x,
                b: y,
                delta: x - y,
                lo: f.lo,
                hi: f.hi,
                se: f.se,
                undefined: u,
                distinguishable: f.lo > 0.0 || f.hi < 0.0,
                se_paired,
                mde: se.is_finite().then(|| mde(se)),
                items_needed: items_needed(self.common, se, x - y),
            });
        }
        let mut mcnemar = McNemar::default();
        for (i, j) in self.a_to_b.iter().enumerate() {
            let pair = j.and_then(|j| Some((*sa.credits().get(i)?, *sb.credits().get(j)?)));
            if let Some((x, y)) = pair {
                mcnemar.add(x, y);
            }
        }
        let only_a = sa
            .ids()
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.shared(*i));
        let only_b = sb
            .ids()
            .iter()
            .enumerate()
            .filter(|(j, _)| !self.in_a.get(*j).copied().unwrap_or(false));
        Pair {
            a: self.a.name.clone(),
            b: self.b.name.clone(),
            common: self.common,
            only_a: listed(&self.a.name, only_a.map(|(_, id)| id)),
            only_b: listed(&self.b.name, only_b.map(|(_, id)| id)),
            strata: sa.strata().describe().to_string(),
            strata_count: sa.design().strata_units(|i| self.shared(i)).len() as u64,
            figures,
            mcnemar: mcnemar.finish(),
            clusters: clusters(
                sa.clustering(),
                strata.iter().map(Vec::len).sum(),
                self.common,
            ),
        }
    }

    /// The CLT standard error of the paired differences of figure k over the shared items, when
    /// the figure is a mean of item values in both runs (`paired_z`).
    fn se_paired(&self, k: usize, design: &Design) -> Option<f64> {
        let (_, ka, kb) = self.both.get(k)?;
        let (sa, sb) = (&self.a.sample, &self.b.sample);
        let (mut va, mut vb) = (Vec::new(), Vec::new());
        if !sa.item_values(*ka, &mut va) || !sb.item_values(*kb, &mut vb) {
            return None;
        }
        // Both values on A's items, NaN where B lacks the item or either run leaves it out.
        let mut xa = vec![f64::NAN; sa.len()];
        let mut xb = vec![f64::NAN; sa.len()];
        for (i, j) in self.a_to_b.iter().enumerate() {
            let (Some(&x), Some(&y)) = (va.get(i), j.and_then(|j| vb.get(j))) else {
                continue;
            };
            if !x.is_nan() && !y.is_nan() {
                xa[i] = x;
                xb[i] = y;
            }
        }
        let (ia, ib) = (Influence::of(&xa)?, Influence::of(&xb)?);
        Some(se(&ia, &ib, None, design, &mut Scratch::default()))
    }
}

/// The clusters among `items` shared items drawn as `units` units, when the user's rule put
/// some item in a named cluster and some unit holds more than one item.
pub(crate) fn clusters(
    (by, named): (&crate::metrics::bootstrap::ClusterBy, u64),
    units: usize,
    items: u64,
) -> Option<Clusters> {
    (named > 0 && (units as u64) < items).then(|| Clusters {
        field: by.describe().to_string(),
        units: units as u64,
    })
}

/// Weights and figures of both runs, reused across resamples.
#[derive(Debug, Default)]
struct Buffers {
    wa: Vec<u32>,
    wb: Vec<u32>,
    fa: Vec<Option<f64>>,
    fb: Vec<Option<f64>>,
}
