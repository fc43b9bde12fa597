//! I/C's parts as the flat sums they add to, and the lanes' kernel over them.
//!
//! A part adds its weight to some of the accumulator's sums (counts, and values of 1) and
//! `weight × value` to others. Parts that add to the same sums share a signature, and a run has
//! few (sixteen on a four-option benchmark: a competence cell and a calibration bin each), so the
//! parts are kept grouped by signature, in item order within each: the kernel sums a signature's
//! weights and `weight × value`s in registers and adds each total to its sums once, instead of
//! loading and storing about ten of the accumulator's 900-odd sums per part.
//!
//! Sums of weights alone are whole numbers, the same in any order; a sum that parts of several
//! signatures add to is rounded in another order than one accumulator per lane would add it, so
//! the figures agree with those to about 1e-15 (a test holds them to 1e-12).

use crate::metrics::flat::{Slot, Sums};
use crate::metrics::ic::{IcAccumulator, IcPart};
use crate::metrics::lanes::{add, add_scaled, lanes, Lanes, Weights, LANES};
use std::collections::HashMap;

/// Valued sums a signature may have for its totals to be kept in registers; a signature with
/// more adds part by part.
const IN_REGISTERS: usize = 4;

/// Every part as the flat sums it adds to (`flat::Sums`' order of the accumulator's sums).
#[derive(Debug, Clone)]
pub(super) struct FlatParts {
    pub width: usize,
    /// Per signature, the sums it adds the weight to, then those it adds `weight × value` to.
    signatures: Vec<(Vec<u16>, Vec<u16>)>,
    /// Runs of parts of one signature: the signature, and where its parts end in `items`.
    runs: Vec<(u32, u32)>,
    /// Each part's item, signature by signature.
    items: Vec<u32>,
    /// Each part's values, in the order of its signature's valued sums.
    values: Vec<f64>,
}

impl FlatParts {
    /// `None` when the lanes cannot give the accumulator's own sums: more sums than a slot
    /// number holds, or a value that is not finite (where a lane that drew the item 0 times
    /// would add 0 × ∞ and the accumulator adds nothing).
    pub fn of(
        template: &IcAccumulator,
        parts: impl ExactSizeIterator<Item = (u32, IcPart)>,
    ) -> Option<Self> {
        let mut scratch = template.clone();
        let mut width = 0usize;
        scratch.visit(&mut |_| width += 1);
        let widths = template.widths();
        if width > usize::from(u16::MAX) {
            return None;
        }
        // A signature's key: its count sums, a separator no sum number reaches, its valued sums.
        let mut ids: HashMap<Vec<u16>, u32> = HashMap::new();
        let mut signatures = Vec::new();
        // Per part: its signature, item and where its values start in `values`.
        let mut decoded: Vec<(u32, u32, u32)> = Vec::with_capacity(parts.len());
        let mut values: Vec<f64> = Vec::new();
        let (mut ones, mut valued, mut key) = (Vec::new(), Vec::new(), Vec::new());
        let mut finite = true;
        for (i, p) in parts {
            scratch.add_times(&p, 1);
            ones.clear();
            valued.clear();
            scratch.visit_part(&p, widths, &mut |at, mut s: Slot<'_>| {
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
            key.clear();
            key.extend(&ones);
            key.push(u16::MAX);
            key.extend(valued.iter().map(|&(k, _)| k));
            let id = match ids.get(key.as_slice()) {
                Some(&id) => id,
                None => {
                    let id = signatures.len() as u32;
                    ids.insert(key.clone(), id);
                    signatures.push((ones.clone(), valued.iter().map(|&(k, _)| k).collect()));
                    id
                }
            };
            let Ok(start) = u32::try_from(values.len()) else {
                return None;
            };
            decoded.push((id, i, start));
            values.extend(valued.iter().map(|&(_, x)| x));
        }
        // Signature by signature (in the order first met), parts in item order within each.
        decoded.sort_by_key(|&(id, _, _)| id);
        let mut f = FlatParts {
            width,
            signatures,
            runs: Vec::new(),
            items: Vec::with_capacity(decoded.len()),
            values: Vec::with_capacity(values.len()),
        };
        for (id, i, start) in decoded {
            if f.runs.last().is_none_or(|r| r.0 != id) {
                f.runs.push((id, 0));
            }
            let n = f.signatures.get(id as usize).map_or(0, |s| s.1.len());
            let start = start as usize;
            f.items.push(i);
            f.values
                .extend(values.get(start..start + n).unwrap_or_default());
            let end = f.items.len() as u32;
            if let Some(r) = f.runs.last_mut() {
                r.1 = end;
            }
        }
        finite.then_some(f)
    }

    /// Every sum of the accumulator, lane by lane, for the block's weights.
    #[inline(always)]
    pub fn sums<K: Kernel>(&self, weights: &[Weights]) -> Vec<Lanes> {
        let mut sums = vec![[0.0; LANES]; self.width];
        let (mut from, mut v) = (0usize, 0usize);
        for &(id, end) in &self.runs {
            let end = end as usize;
            let Some((ones, valued)) = self.signatures.get(id as usize) else {
                continue;
            };
            let items = self.items.get(from..end).unwrap_or_default();
            let values = self
                .values
                .get(v..v + items.len() * valued.len())
                .unwrap_or_default();
            let (total, parts) = match valued.len() {
                0 => run::<K, 0>(items, values, weights),
                1 => run::<K, 1>(items, values, weights),
                2 => run::<K, 2>(items, values, weights),
                3 => run::<K, 3>(items, values, weights),
                4 => run::<K, 4>(items, values, weights),
                _ => {
                    by_part(items, values, valued, weights, &mut sums);
                    (K::total(items, weights), [[0.0; LANES]; IN_REGISTERS])
                }
            };
            for &s in ones {
                if let Some(s) = sums.get_mut(usize::from(s)) {
                    add(s, &total);
                }
            }
            if valued.len() <= IN_REGISTERS {
                for (&s, part) in valued.iter().zip(&parts) {
                    if let Some(s) = sums.get_mut(usize::from(s)) {
                        add(s, part);
                    }
                }
            }
            from = end;
            v += items.len() * valued.len();
        }
        sums
    }
}

/// One signature's totals: the sum of its parts' weights, and of `weight × value` for each of
/// its `N` valued sums (the rest zeros).
#[inline(always)]
fn run<K: Kernel, const N: usize>(
    items: &[u32],
    values: &[f64],
    weights: &[Weights],
) -> (Lanes, [Lanes; IN_REGISTERS]) {
    let (total, sums) = K::run::<N>(items, values, weights);
    let mut out = [[0.0; LANES]; IN_REGISTERS];
    for (o, s) in out.iter_mut().zip(sums) {
        *o = s;
    }
    (total, out)
}

/// A signature with more valued sums than registers hold: each part added to them in turn.
fn by_part(items: &[u32], values: &[f64], valued: &[u16], weights: &[Weights], sums: &mut [Lanes]) {
    for (&i, xs) in items.iter().zip(values.chunks(valued.len().max(1))) {
        let w = lanes(weights.get(i as usize).unwrap_or(&[0; LANES]));
        for (&s, &x) in valued.iter().zip(xs) {
            if let Some(s) = sums.get_mut(usize::from(s)) {
                add_scaled(s, &w, x);
            }
        }
    }
}

/// The inner loop over one signature's parts: portable code, or one CPU's intrinsics.
pub(super) trait Kernel {
    /// The sum of the parts' weights, and of `weight × value` for each of `N` values a part.
    fn run<const N: usize>(
        items: &[u32],
        values: &[f64],
        weights: &[Weights],
    ) -> (Lanes, [Lanes; N]);

    /// The sum of the parts' weights alone.
    fn total(items: &[u32], weights: &[Weights]) -> Lanes {
        Self::run::<0>(items, &[], weights).0
    }
}

/// The kernel in plain Rust, for any target.
pub(super) struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn run<const N: usize>(
        items: &[u32],
        values: &[f64],
        weights: &[Weights],
    ) -> (Lanes, [Lanes; N]) {
        let mut total = [0.0; LANES];
        let mut sums = [[0.0; LANES]; N];
        for (k, &i) in items.iter().enumerate() {
            let w = lanes(weights.get(i as usize).unwrap_or(&[0; LANES]));
            add(&mut total, &w);
            for (n, s) in sums.iter_mut().enumerate() {
                add_scaled(s, &w, values.get(k * N + n).copied().unwrap_or(0.0));
            }
        }
        (total, sums)
    }
}

/// The kernel in AVX-512 intrinsics: a block's lanes in registers of eight, every total of a
/// signature in registers. The portable kernel's operations in its order (a multiply, then an add), so the
/// same bits.
#[cfg(target_arch = "x86_64")]
pub(super) struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx512 {
    #[inline(always)]
    fn run<const N: usize>(
        items: &[u32],
        values: &[f64],
        weights: &[Weights],
    ) -> (Lanes, [Lanes; N]) {
        use std::arch::x86_64::*;
        const R: usize = LANES / 8;
        const _: () = assert!(
            LANES.is_multiple_of(16),
            "whole registers of sixteen counts"
        );
        // SAFETY: `Avx512` is used only inside `IcReplay::lanes_avx512`, compiled with AVX-512
        // F, BW, DQ and VL and called once the CPU was found to have them; every load and
        // store is of a whole array of `LANES` held by reference.
        unsafe {
            let none = [0u16; LANES];
            let z = [_mm512_setzero_pd(); R];
            let mut total = z;
            let mut sums = [z; N];
            for (k, &i) in items.iter().enumerate() {
                let w = weights.get(i as usize).unwrap_or(&none);
                let mut f = z;
                for c in 0..R / 2 {
                    let h = _mm256_loadu_si256(w.as_ptr().add(16 * c).cast());
                    let n = _mm512_cvtepu16_epi32(h);
                    f[2 * c] = _mm512_cvtepu32_pd(_mm512_castsi512_si256(n));
                    f[2 * c + 1] = _mm512_cvtepu32_pd(_mm512_extracti64x4_epi64::<1>(n));
                }
                for (t, &x) in total.iter_mut().zip(&f) {
                    *t = _mm512_add_pd(*t, x);
                }
                for (n, s) in sums.iter_mut().enumerate() {
                    let x = _mm512_set1_pd(values.get(k * N + n).copied().unwrap_or(0.0));
                    for (a, &w) in s.iter_mut().zip(&f) {
                        *a = _mm512_add_pd(*a, _mm512_mul_pd(w, x));
                    }
                }
            }
            let out = |s: [__m512d; R]| {
                let mut l = [0.0; LANES];
                for (r, &x) in s.iter().enumerate() {
                    _mm512_storeu_pd(l.as_mut_ptr().add(8 * r), x);
                }
                l
            };
            (out(total), sums.map(out))
        }
    }
}
