//! An accumulator's running sums seen as one flat list of numbers, in a fixed order: so that a
//! block of resamples can keep every sum lane-wide (`bootstrap::ic`'s lanes), add each item's
//! part to every lane with the same loads, and put each lane back into an ordinary accumulator
//! that finishes with its own code.
//!
//! Only sums that grow by `weight × value` are sums here (counts grow by the weight); settings
//! such as an item type or a scope are not visited, and stay the template's.

/// One running sum of an accumulator.
pub enum Slot<'a> {
    /// A sum of weighted values.
    Sum(&'a mut f64),
    /// A count of weighted items.
    Count(&'a mut u64),
}

impl Slot<'_> {
    /// The sum as a number (a count is exact below 2^53).
    pub fn get(&self) -> f64 {
        match self {
            Slot::Sum(x) => **x,
            Slot::Count(n) => **n as f64,
        }
    }

    /// Sets the sum from a number (a count from a whole one).
    pub fn set(&mut self, v: f64) {
        match self {
            Slot::Sum(x) => **x = v,
            Slot::Count(n) => **n = v as u64,
        }
    }
}

/// An accumulator whose state is running sums, visited in the same order every time.
pub trait Sums {
    /// Calls `f` with every running sum, in a fixed order that depends only on the settings.
    fn visit(&mut self, f: &mut dyn FnMut(Slot<'_>));
}

impl<T: Sums> Sums for [T] {
    fn visit(&mut self, f: &mut dyn FnMut(Slot<'_>)) {
        for x in self {
            x.visit(f);
        }
    }
}

impl<T: Sums> Sums for Option<T> {
    fn visit(&mut self, f: &mut dyn FnMut(Slot<'_>)) {
        if let Some(x) = self {
            x.visit(f);
        }
    }
}
