//! The bootstrap's random numbers: SplitMix64 and an unbiased bounded draw, in 64-bit integer
//! arithmetic only, so that one seed gives the same resamples natively and in wasm32.
//!
//! No `usize`, no floating point and no platform-dependent path is involved in a draw; the
//! sequence for a seed is fixed by this file alone (pinned by a test below).

/// SplitMix64 (Steele, Lea and Flood 2014): a 64-bit counter passed through a mixing function.
/// Small, fast, and good enough for resampling (it passes BigCrush).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in [0, n), n >= 1, without modulo bias (Lemire's multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let n = n.max(1);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_for_a_seed_is_pinned() {
        // SplitMix64 from seed 0: the first outputs as published with the algorithm.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn bounded_draws_stay_in_range_and_cover_it() {
        let mut r = SplitMix64::new(42);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let x = r.below(7);
            assert!(x < 7);
            seen[x as usize] += 1;
        }
        // Each value about 1000 times; 800 is more than six standard deviations away.
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
        assert_eq!(SplitMix64::new(1).below(1), 0);
    }
}
