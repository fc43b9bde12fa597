//! The summary lanes' two inner loops in AVX-512 intrinsics: sixteen resamples' sums in two
//! registers each, all of a pass's sums in registers. Written out by hand because the compiler,
//! given the portable loops, split the sixteen whole-number counts into sixteen scalars kept on
//! the stack, a load and a store per lane per item.
//!
//! The operations are the portable kernel's, in its order: a weight widened exactly to `f64`,
//! multiplied by the value, then added (never fused), so the sums are the same bits.

use super::lanes::{
    Columns, GroupSums, Kernel, ModeColumns, ModeSums, RunSums, INVALID, NORMALIZED, OUTSIDE, STEP,
};
use crate::metrics::lanes::{Counts, Lanes, Weights, LANES};
use std::arch::x86_64::*;

/// The AVX-512 kernels; only ever called from a function compiled with the features, after the
/// CPU was checked for them.
pub(super) struct Avx512;

/// A lane-wide sum of 16 values: two registers of eight.
#[derive(Clone, Copy)]
struct Sum(__m512d, __m512d);

/// One item's weights: as whole numbers, and as `f64` in two halves.
struct Wide {
    counts: __m512i,
    lo: __m512d,
    hi: __m512d,
}

const _: () = assert!(LANES == 16, "the kernels hold sixteen lanes");

#[inline(always)]
unsafe fn widen(w: &Weights) -> Wide {
    let h = _mm256_loadu_si256(w.as_ptr().cast());
    let counts = _mm512_cvtepu16_epi32(h);
    Wide {
        counts,
        lo: _mm512_cvtepu32_pd(_mm512_castsi512_si256(counts)),
        hi: _mm512_cvtepu32_pd(_mm512_extracti64x4_epi64::<1>(counts)),
    }
}

#[inline(always)]
unsafe fn zero() -> Sum {
    Sum(_mm512_setzero_pd(), _mm512_setzero_pd())
}

/// acc += w × x, lane by lane (a multiply, then an add).
#[inline(always)]
unsafe fn add_scaled(acc: &mut Sum, w: &Wide, x: f64) {
    let x = _mm512_set1_pd(x);
    acc.0 = _mm512_add_pd(acc.0, _mm512_mul_pd(w.lo, x));
    acc.1 = _mm512_add_pd(acc.1, _mm512_mul_pd(w.hi, x));
}

/// acc += w where `on`.
#[inline(always)]
unsafe fn count_if(acc: __m512i, w: &Wide, on: bool) -> __m512i {
    let k: __mmask16 = 0u16.wrapping_sub(u16::from(on));
    _mm512_mask_add_epi32(acc, k, acc, w.counts)
}

#[inline(always)]
unsafe fn lanes(s: Sum) -> Lanes {
    let mut out = [0.0; LANES];
    _mm512_storeu_pd(out.as_mut_ptr(), s.0);
    _mm512_storeu_pd(out.as_mut_ptr().add(8), s.1);
    out
}

#[inline(always)]
unsafe fn counts(c: __m512i) -> Counts {
    let mut out = [0u32; LANES];
    _mm512_storeu_si512(out.as_mut_ptr().cast(), c);
    out
}

/// A count as `f64`, exactly (`f64::from(u32)`).
#[inline(always)]
unsafe fn counts_f64(c: __m512i) -> Sum {
    Sum(
        _mm512_cvtepu32_pd(_mm512_castsi512_si256(c)),
        _mm512_cvtepu32_pd(_mm512_extracti64x4_epi64::<1>(c)),
    )
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
            let (mut items, mut nitems) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            let (mut invalid, mut oitems) = (
                _mm512_loadu_si512(run.invalid.as_ptr().cast()),
                _mm512_loadu_si512(run.oitems.as_ptr().cast()),
            );
            let (mut credit, mut nsum) = (zero(), zero());
            let mut osum = Sum(
                _mm512_loadu_pd(run.osum.as_ptr()),
                _mm512_loadu_pd(run.osum.as_ptr().add(8)),
            );
            let r = rows;
            let rows = w
                .get(r.clone())
                .unwrap_or_default()
                .iter()
                .zip(c.credit.get(r.clone()).unwrap_or_default())
                .zip(c.normalized.get(r.clone()).unwrap_or_default())
                .zip(c.outside.get(r.clone()).unwrap_or_default())
                .zip(c.flags.get(r).unwrap_or_default());
            for ((((wi, &cr), &nv), &ov), &f) in rows {
                let wide = widen(wi);
                items = _mm512_add_epi32(items, wide.counts);
                nitems = count_if(nitems, &wide, f & NORMALIZED != 0);
                invalid = count_if(invalid, &wide, f & INVALID != 0);
                oitems = count_if(oitems, &wide, f & OUTSIDE != 0);
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
            let (mut items, mut right) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            let mut confidence = zero();
            let mut scores = [zero(); 3];
            let rows = w
                .chunks(STEP)
                .zip(c.confidence.chunks(STEP))
                .zip(c.correct.chunks(STEP))
                .zip(c.scores.chunks(STEP));
            for (((ws, xs), ys), ss) in rows {
                marks.push([
                    lanes(counts_f64(items)),
                    lanes(confidence),
                    lanes(counts_f64(right)),
                ]);
                for (((wi, &x), &y), s) in ws.iter().zip(xs).zip(ys).zip(ss) {
                    let wide = widen(wi);
                    items = _mm512_add_epi32(items, wide.counts);
                    right = count_if(right, &wide, y);
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
