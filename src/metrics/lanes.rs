//! Several resamples at once: item weights as `LANES` lanes, one per resample, so that one pass
//! over a run's records updates every lane with the same loads (and the compiler's vector units).
//! The leaderboard draws its resamples in blocks of `LANES` through `Replay::figures_lanes`.

/// Resamples a block holds.
pub const LANES: usize = 16;

/// One value per resample of a block.
pub type Lanes = [f64; LANES];

/// An item's count in each resample of a block. 16 bits, so that a run's weights (16 bytes an
/// item) stay in a core's cache while a pass reads them in another order than theirs (the
/// confidence order); a block with a count past `u16::MAX` is drawn lane by lane instead.
pub type Weights = [u16; LANES];

/// A count per resample of a block (a sum of weights, exact).
pub type Counts = [u32; LANES];

/// acc += w, lane by lane, in whole numbers: the same value as adding the weights as `f64`
/// (exact below 2^53), in a quarter of the vector width.
#[inline(always)]
pub fn count(acc: &mut Counts, w: &Weights) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a += u32::from(w);
    }
}

/// `count` where `on`, without a branch: a flag that follows no pattern (an item right or
/// wrong, in confidence order) would mispredict every other item.
#[inline(always)]
pub fn count_if(acc: &mut Counts, w: &Weights, on: bool) {
    let mask = 0u32.wrapping_sub(u32::from(on));
    for (a, &w) in acc.iter_mut().zip(w) {
        *a += u32::from(w) & mask;
    }
}

/// Whether this CPU has the AVX-512 features the lanes' intrinsic kernels are compiled with
/// (F, BW, DQ and VL); they are chosen at run time, so one binary serves every x86-64 CPU.
#[cfg(target_arch = "x86_64")]
pub fn avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
}

/// The weights as numbers.
#[inline(always)]
pub fn lanes(w: &Weights) -> Lanes {
    // A loop into a zeroed array, not `map`: the compiler vectorizes this one, where `map`
    // became an insert per lane.
    let mut out = [0.0; LANES];
    for (o, &x) in out.iter_mut().zip(w) {
        *o = f64::from(x);
    }
    out
}

/// acc += w × x, lane by lane.
#[inline(always)]
pub fn add_scaled(acc: &mut Lanes, w: &Lanes, x: f64) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a += w * x;
    }
}

/// acc += w, lane by lane.
#[inline(always)]
pub fn add(acc: &mut Lanes, w: &Lanes) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a += w;
    }
}

/// A block drawn lane by lane: `figures` of each lane's weights in turn, appended to `out` (for
/// a replay without a lane kernel, or whose kernel cannot take the block).
pub fn each_lane<O>(weights: &[Weights], out: &mut O, mut figures: impl FnMut(&[u32], &mut O)) {
    let mut one = Vec::with_capacity(weights.len());
    for k in 0..LANES {
        column(weights, k, &mut one);
        figures(&one, out);
    }
}

/// Lane `k` of every item's weights (for a replay without a lane kernel).
pub fn column(weights: &[Weights], k: usize, out: &mut Vec<u32>) {
    out.clear();
    out.extend(
        weights
            .iter()
            .map(|w| u32::from(w.get(k).copied().unwrap_or(0))),
    );
}

/// A replay's layout for the blocks of lanes: made by the first block that needs it, shared by
/// the threads drawing blocks, and let go through a shared reference once the caller has drawn
/// what it needs from this run (`Sample::release_lanes`): the browser's worker draws big runs
/// one after another, so that only one run's layout is held at a time.
#[derive(Debug, Default)]
pub struct Made<T>(std::sync::RwLock<Option<std::sync::Arc<T>>>);

impl<T> Made<T> {
    /// The layout, made by `make` if it is not held.
    pub fn get_or_make(&self, make: impl FnOnce() -> T) -> std::sync::Arc<T> {
        let held = self.0.read().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(t) = held {
            return t;
        }
        let mut slot = self.0.write().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert_with(|| std::sync::Arc::new(make()))
            .clone()
    }

    /// The layout if it is held.
    pub fn held(&self) -> Option<std::sync::Arc<T>> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Lets the layout go (it is freed when the last block using it ends).
    pub fn release(&self) {
        self.0.write().unwrap_or_else(|e| e.into_inner()).take();
    }
}

impl<T> Clone for Made<T> {
    /// A copy holds the same layout, as a clone of a `OnceLock` would.
    fn clone(&self) -> Self {
        Made(std::sync::RwLock::new(
            self.0.read().unwrap_or_else(|e| e.into_inner()).clone(),
        ))
    }
}
