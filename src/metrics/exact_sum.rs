//! Sums of `f64` computed exactly and rounded once, so that they do not depend on the order of
//! the terms (the equal-mass bins' confidences, `ece_em`).
//!
//! Each term's 53-bit significand is added, as an integer, to an accumulator kept for its
//! exponent (a superaccumulator, as in Neal's "Fast exact summation using small and large
//! superaccumulators", 2015): an `i128` each, so 2^74 terms fit. `sum` carries the accumulators
//! into one long binary number and rounds it to nearest, ties to even. The `xsum` crate (0.1.6)
//! was tried first and dropped: its large accumulator loses 2048 in 8192 terms of [0, 1).

/// Biased exponents of an `f64`; the last is infinity and NaN's.
const EXPONENTS: usize = 1 << 11;

/// Bits of the significand below the implicit one.
const FRACTION: u32 = 52;

/// An exact sum of the terms added so far.
#[derive(Debug, Clone)]
pub struct ExactSum {
    /// Per biased exponent `e`, the sum of the signed significands of the terms with it; a term
    /// weighs 2^(max(e, 1) - 1075) for each unit.
    acc: Vec<i128>,
    /// The sum of the infinite and NaN terms, which the result then takes, as a naive sum would.
    special: Option<f64>,
}

impl Default for ExactSum {
    fn default() -> Self {
        ExactSum {
            acc: vec![0; EXPONENTS],
            special: None,
        }
    }
}

impl ExactSum {
    #[inline]
    pub fn add(&mut self, v: f64) {
        let bits = v.to_bits();
        let e = (bits >> FRACTION) as usize & (EXPONENTS - 1);
        if e == EXPONENTS - 1 {
            self.special = Some(self.special.map_or(v, |s| s + v));
            return;
        }
        let m = (bits & ((1 << FRACTION) - 1)) | u64::from(e != 0) << FRACTION;
        let sign = i128::from((bits as i64) >> 63);
        self.acc[e] += (i128::from(m) ^ sign) - sign;
    }

    /// The sum rounded to the nearest `f64` (ties to even); 0.0 for no terms.
    pub fn sum(&self) -> f64 {
        let exact = round(&self.acc);
        self.special.map_or(exact, |s| exact + s)
    }
}

/// Extra binary places above the largest exponent, for the carries of up to 2^74 terms.
const HEADROOM: usize = 80;

/// Σ acc[e] · 2^(max(e, 1) - 1075), rounded to nearest, ties to even.
fn round(acc: &[i128]) -> f64 {
    // The number in binary, place p weighing 2^(p - 1074): carry each place's excess upward
    // (arithmetic shifts, so a negative total ends as -1 past the top).
    let places = EXPONENTS - 2 + HEADROOM;
    let mut bits = vec![0u8; places];
    let mut carry: i128 = 0;
    for (p, bit) in bits.iter_mut().enumerate() {
        // Exponents 0 and 1 share place 0: a subnormal's unit is 2^-1074, as is exponent 1's.
        let term = match p {
            0 => acc[0] + acc[1],
            p if p + 1 < EXPONENTS - 1 => acc[p + 1],
            _ => 0,
        };
        let t = carry + term;
        *bit = (t & 1) as u8;
        carry = t >> 1;
    }
    let negative = carry < 0;
    if negative {
        // Two's complement: the magnitude is the inverted bits plus one.
        let mut one = 1u8;
        for b in &mut bits {
            let v = (*b ^ 1) + one;
            *b = v & 1;
            one = v >> 1;
        }
    }
    let Some(top) = bits.iter().rposition(|&b| b == 1) else {
        return 0.0;
    };
    let value = |from: usize, to: usize| -> u64 {
        (from..=to)
            .rev()
            .fold(0u64, |m, p| m << 1 | u64::from(bits[p]))
    };
    let magnitude = if top <= FRACTION as usize {
        // Below 2^53 units of 2^-1074: exactly representable.
        value(0, top) as f64 * pow2(-1074)
    } else {
        let low = top - FRACTION as usize;
        let mut m = value(low, top);
        let half = bits[low - 1] == 1;
        let sticky = bits[..low - 1].contains(&1);
        if half && (sticky || m & 1 == 1) {
            m += 1;
        }
        // m < 2^54 is exact as f64; the scaling by a power of two is exact unless it overflows.
        scale(m as f64, low as i32 - 1074)
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// 2^k for -1074 <= k <= 1023, exactly.
fn pow2(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << FRACTION)
    } else {
        f64::from_bits(1 << (k + 1074))
    }
}

/// x · 2^k for a k that may pass the range of one power of two.
fn scale(x: f64, k: i32) -> f64 {
    if k > 1023 {
        x * pow2(1023) * pow2(k - 1023)
    } else {
        x * pow2(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn exact(values: &[f64]) -> f64 {
        let mut s = ExactSum::default();
        values.iter().for_each(|&v| s.add(v));
        s.sum()
    }

    /// Terms k · 2^-60 (k < 2^60 of at most 53 significant bits) summed as integers, then rounded
    /// once by `u128 as f64` (to nearest, ties to even): an independent exact reference.
    fn on_grid(ks: &[u64]) -> (Vec<f64>, f64) {
        let unit = 2f64.powi(-60);
        let total: u128 = ks.iter().map(|&k| u128::from(k)).sum();
        (
            ks.iter().map(|&k| k as f64 * unit).collect(),
            total as f64 * unit,
        )
    }

    #[test]
    fn hand_worked_sums() {
        assert_eq!(exact(&[]).to_bits(), 0.0f64.to_bits());
        assert_eq!(exact(&[0.1, 0.2]), 0.30000000000000004);
        // 1 + 2^-53 + 2^-53: a naive sum left to right gives 1.0; the exact sum is 1 + 2^-52.
        let tiny = 2f64.powi(-53);
        assert_eq!(exact(&[1.0, tiny, tiny]), 1.0 + 2f64.powi(-52));
        assert_eq!(1.0 + tiny + tiny, 1.0);
        // Ties to even: 1 + 2^-53 is halfway between 1 and 1 + 2^-52, and rounds to 1.
        assert_eq!(exact(&[1.0, tiny]), 1.0);
        assert_eq!(exact(&[1e300, -1e300, 3.5]), 3.5);
        assert_eq!(exact(&[-0.25, -0.5]), -0.75);
        assert_eq!(exact(&[f64::MIN_POSITIVE / 8.0; 8]), f64::MIN_POSITIVE);
        assert_eq!(
            exact(&[f64::from_bits(1), f64::from_bits(1)]),
            f64::from_bits(2)
        );
        assert_eq!(exact(&[f64::MAX, f64::MAX]), f64::INFINITY);
        assert_eq!(exact(&[1.0, f64::INFINITY]), f64::INFINITY);
        assert!(exact(&[f64::INFINITY, f64::NEG_INFINITY]).is_nan());
        assert!(exact(&[0.5, f64::NAN]).is_nan());
    }

    #[test]
    fn a_million_terms_equal_the_integer_reference() {
        let mut x = 7u64;
        let ks: Vec<u64> = (0..1_000_000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 11) << (x % 8)
            })
            .collect();
        let (values, want) = on_grid(&ks);
        assert_eq!(exact(&values).to_bits(), want.to_bits());
        let naive: f64 = values.iter().sum();
        assert_ne!(naive.to_bits(), want.to_bits(), "the naive sum rounds");
    }

    proptest! {
        #[test]
        fn equals_the_integer_reference(
            ks in proptest::collection::vec((0u64..1 << 53, 0u32..8), 0..2000),
        ) {
            let ks: Vec<u64> = ks.into_iter().map(|(k, s)| k << s).collect();
            let (values, want) = on_grid(&ks);
            prop_assert_eq!(exact(&values).to_bits(), want.to_bits());
        }

        #[test]
        fn order_and_sign_do_not_change_the_sum(
            values in proptest::collection::vec(
                prop_oneof![-1e20..1e20f64, -1.0..1.0f64, Just(0.5)], 0..300),
            seed in any::<u64>(),
        ) {
            let mut shuffled = values.clone();
            let mut x = seed;
            for i in (1..shuffled.len()).rev() {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                shuffled.swap(i, (x >> 33) as usize % (i + 1));
            }
            let sum = exact(&values);
            prop_assert_eq!(exact(&shuffled).to_bits(), sum.to_bits());
            let negated: Vec<f64> = values.iter().map(|v| -v).collect();
            prop_assert_eq!(exact(&negated), -sum);
        }
    }
}
