//! The summary lanes' two inner loops in AVX-512 intrinsics: a block's sums in registers of
//! eight lanes, all of a pass's sums in registers. Written out by hand because the compiler,
//! given the portable loops, split the block's whole-number counts into scalars kept on the
//! stack, a load and a store per lane per item.
//!
//! The operations are the portable kernel's, in its order: a weight widened exactly to `f64`,
//! multiplied by the value, then added (never fused), so the sums are the same bits.

use super::columns::{Columns, ModeColumns, INVALID, NORMALIZED, OUTSIDE};
use super::lanes::{GroupSums, Kernel, ModeSums, RunSums};
use crate::metrics::lanes::{Counts, Lanes, Weights, LANES};
use std::arch::x86_64::*;

/// The AVX-512 kernels; only ever called from a function compiled with the features, after the
/// CPU was checked for them.
pub(super) struct Avx512;

/// Registers of eight `f64` lanes, and of sixteen whole-number lanes, a block holds.
const R: usize = LANES / 8;
const C: usize = LANES / 16;
const _: () = assert!(
    LANES.is_multiple_of(16),
    "whole registers of sixteen counts"
);

/// A lane-wide sum: `R` registers of eight.
#[derive(Clone, Copy)]
struct Sum([__m512d; R]);

/// A lane-wide count: `C` registers of sixteen.
#[derive(Clone, Copy)]
struct Count([__m512i; C]);

/// One item's weights: as whole numbers, and as `f64`.
struct Wide {
    counts: [__m512i; C],
    f: [__m512d; R],
}

#[inline(always)]
unsafe fn widen(w: &Weights) -> Wide {
    let mut counts = [_mm512_setzero_si512(); C];
    let mut f = [_mm512_setzero_pd(); R];
    for (c, out) in counts.iter_mut().enumerate() {
        let h = _mm256_loadu_si256(w.as_ptr().add(16 * c).cast());
        *out = _mm512_cvtepu16_epi32(h);
        f[2 * c] = _mm512_cvtepu32_pd(_mm512_castsi512_si256(*out));
        f[2 * c + 1] = _mm512_cvtepu32_pd(_mm512_extracti64x4_epi64::<1>(*out));
    }
    Wide { counts, f }
}

#[inline(always)]
unsafe fn zero() -> Sum {
    Sum([_mm512_setzero_pd(); R])
}

#[inline(always)]
unsafe fn none() -> Count {
    Count([_mm512_setzero_si512(); C])
}

/// acc += w × x, lane by lane (a multiply, then an add).
#[inline(always)]
unsafe fn add_scaled(acc: &mut Sum, w: &Wide, x: f64) {
    let x = _mm512_set1_pd(x);
    for (a, &w) in acc.0.iter_mut().zip(&w.f) {
        *a = _mm512_add_pd(*a, _mm512_mul_pd(w, x));
    }
}

/// acc += w.
#[inline(always)]
unsafe fn count(acc: &mut Count, w: &Wide) {
    for (a, &w) in acc.0.iter_mut().zip(&w.counts) {
        *a = _mm512_add_epi32(*a, w);
    }
}

/// acc += w where `on`.
#[inline(always)]
unsafe fn count_if(acc: &mut Count, w: &Wide, on: bool) {
    let k: __mmask16 = 0u16.wrapping_sub(u16::from(on));
    for (a, &w) in acc.0.iter_mut().zip(&w.counts) {
        *a = _mm512_mask_add_epi32(*a, k, *a, w);
    }
}

#[inline(always)]
unsafe fn lanes(s: Sum) -> Lanes {
    let mut out = [0.0; LANES];
    for (r, &x) in s.0.iter().enumerate() {
        _mm512_storeu_pd(out.as_mut_ptr().add(8 * r), x);
    }
    out
}

#[inline(always)]
unsafe fn load(l: &Lanes) -> Sum {
    let mut s = zero();
    for (r, x) in s.0.iter_mut().enumerate() {
        *x = _mm512_loadu_pd(l.as_ptr().add(8 * r));
    }
    s
}

#[inline(always)]
unsafe fn counts(c: Count) -> Counts {
    let mut out = [0u32; LANES];
    for (k, &x) in c.0.iter().enumerate() {
        _mm512_storeu_si512(out.as_mut_ptr().add(16 * k).cast(), x);
    }
    out
}

#[inline(always)]
unsafe fn load_counts(c: &Counts) -> Count {
    let mut out = none();
    for (k, x) in out.0.iter_mut().enumerate() {
        *x = _mm512_loadu_si512(c.as_ptr().add(16 * k).cast());
    }
    out
}

/// A count as `f64`, exactly (`f64::from(u32)`).
#[inline(always)]
unsafe fn counts_f64(c: Count) -> Sum {
    let mut s = zero();
    for (k, &x) in c.0.iter().enumerate() {
        s.0[2 * k] = _mm512_cvtepu32_pd(_mm512_castsi512_si256(x));
        s.0[2 * k + 1] = _mm512_cvtepu32_pd(_mm512_extracti64x4_epi64::<1>(x));
    }
    s
}

impl Kernel for Avx512 {
    #[inline(always)]
    fn group(
        c: &Columns,
        rows: std::ops::Range<usize>,
        w: &[Weights],
        run: &mut RunSums,
    ) -> GroupSums {
        // SAFETY: `Avx512` is used only inside `lanes_avx512`, compiled with AVX-512 F, BW, DQ
        // and VL, and called only once the CPU was found to have them; every load and store
        // is of a whole array held by reference.
        unsafe {
            let (mut items, mut nitems) = (none(), none());
            let (mut invalid, mut oitems) = (load_counts(&run.invalid), load_counts(&run.oitems));
            let (mut credit, mut nsum) = (zero(), zero());
            let mut osum = load(&run.osum);
            for (wi, cr, nv, ov, f) in c.rows(rows, w) {
                let wide = widen(wi);
                count(&mut items, &wide);
                count_if(&mut nitems, &wide, f & NORMALIZED != 0);
                count_if(&mut invalid, &wide, f & INVALID != 0);
                count_if(&mut oitems, &wide, f & OUTSIDE != 0);
                add_scaled(&mut credit, &wide, cr);
                add_scaled(&mut nsum, &wide, nv);
                add_scaled(&mut osum, &wide, ov);
            }
            run.invalid = counts(invalid);
            run.oitems = counts(oitems);
            run.osum = lanes(osum);
            GroupSums {
                items: counts(items),
                credit: lanes(credit),
                nitems: counts(nitems),
                nsum: lanes(nsum),
            }
        }
    }

    #[inline(always)]
    fn mode(c: &ModeColumns, w: &[Weights], marks: &mut Vec<[Lanes; 3]>) -> ModeSums {
        // SAFETY: as in `group`.
        unsafe {
            let (mut items, mut right) = (none(), none());
            let mut confidence = zero();
            let mut scores = [zero(); 3];
            for (ws, xs, ys, ss) in c.blocks(w) {
                marks.push([
                    lanes(counts_f64(items)),
                    lanes(confidence),
                    lanes(counts_f64(right)),
                ]);
                for (((wi, &x), &y), s) in ws.iter().zip(xs).zip(ys).zip(ss) {
                    let wide = widen(wi);
                    count(&mut items, &wide);
                    count_if(&mut right, &wide, y);
                    add_scaled(&mut confidence, &wide, x);
                    add_scaled(&mut scores[0], &wide, s[0]);
                    add_scaled(&mut scores[1], &wide, s[1]);
                    add_scaled(&mut scores[2], &wide, s[2]);
                }
            }
            ModeSums {
                items: counts(items),
                confidence: lanes(confidence),
                right: counts(right),
                scores: scores.map(|s| lanes(s)),
            }
        }
    }
}
