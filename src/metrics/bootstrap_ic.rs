//! The bootstrap's replay of I and C (SPEC §5): each item's `IcPart` (its competence cell and
//! calibration terms, about 80 bytes) folded into a fresh `IcAccumulator`, finished by its own code.

use super::bootstrap::Replay;
use super::ic::{IcAccumulator, IcOptions, IcPart};
use super::ic_figures::{IcFigures, ScopeFigures, TypeFigures};
use super::lanes::{Weights, LANES};
use crate::items::Item;

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
    parts: Vec<(u32, IcPart)>,
}

impl IcReplay {
    /// A replay under the profile's I/C options.
    pub fn new(opts: IcOptions) -> Self {
        IcReplay {
            template: IcAccumulator::new(opts),
            items: 0,
            parts: Vec::new(),
        }
    }
}

impl Replay for IcReplay {
    fn push(&mut self, item: &Item) {
        if let Some(p) = self.template.part(item) {
            self.parts.push((self.items, p));
        }
        self.items += 1;
    }

    fn names(&self) -> Vec<String> {
        FIGURES.iter().map(|(n, _)| n.to_string()).collect()
    }

    fn figures_lanes(&self, weights: &[Weights], out: &mut Vec<Option<f64>>) {
        // One accumulator per lane, each part decoded once for all of them.
        let mut accs: [IcAccumulator; LANES] = std::array::from_fn(|_| self.template.clone());
        for (i, p) in &self.parts {
            let Some(w) = weights.get(*i as usize) else {
                continue;
            };
            for (acc, &t) in accs.iter_mut().zip(w) {
                if t > 0 {
                    acc.add_times(p, u32::from(t));
                }
            }
        }
        for acc in &accs {
            let f = acc.finish();
            out.extend(FIGURES.iter().map(|(_, get)| f.as_ref().and_then(get)));
        }
    }

    fn figures(&self, weights: &[u32], out: &mut Vec<Option<f64>>) {
        let mut acc = self.template.clone();
        for (i, p) in &self.parts {
            for _ in 0..weights.get(*i as usize).copied().unwrap_or(0) {
                acc.add(p);
            }
        }
        let f = acc.finish();
        out.extend(FIGURES.iter().map(|(_, get)| f.as_ref().and_then(get)));
    }
}
