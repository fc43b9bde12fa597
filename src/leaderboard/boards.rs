//! From the replicates to the boards: each column's standings (values, intervals, ranks) and pairs.

use super::join::Joined;
use super::pairs::{adjust, own_interval, pair, Test};
use super::rank::{competition, Better, RankCounts};
use super::{Board, Standing};
use crate::metrics::mcnemar::{bits, McNemar, Outcomes};
use crate::metrics::paired_z::{Design, Influence, Layout};

/// The figure every run has whose `metrics.accuracy` pairs McNemar's test decides.
const ACCURACY: &str = "metrics.accuracy";

/// What the boards share: the point estimates, the replicates, the design and each run's
/// credits over the shared items.
struct Context<'a, 'r> {
    j: &'a Joined<'r>,
    values: &'a [f64],
    point: Vec<f64>,
    resamples: usize,
    /// Every shared item laid out for the pairs' standard errors (a subset lays out its own).
    layout: Layout,
    design: Design<'a>,
    credits: Vec<Vec<f64>>,
    /// Each subset's shared items.
    members: Vec<Vec<u32>>,
    /// Each run's right and wrong answers over the shared items, as bits for McNemar's tables.
    outcomes: Vec<Outcomes>,
}

/// One column's outcome.
enum Column {
    Figure(Board),
    Subset(Board),
    /// Left out, with a note (or silently, for a subset).
    Out(Option<String>),
}

/// The boards of the headline figures and of the subsets, and notes on figures left out.
pub fn boards(j: &Joined, values: &[f64]) -> (Vec<Board>, Vec<Board>, Vec<String>) {
    let n = j.runs.len();
    let cols = j.columns();
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); j.subsets.len()];
    for (s, &g) in j.subset_of.iter().enumerate() {
        if let Some(list) = members.get_mut(g as usize) {
            list.push(s as u32);
        }
    }
    let design = Design::new(&j.unit_of, &j.strata);
    let credits: Vec<Vec<f64>> = (0..n).map(|r| j.credits(r)).collect();
    let cx = Context {
        j,
        values,
        point: j.point(),
        resamples: values.len().checked_div(cols * n).unwrap_or(0),
        layout: Layout::new(&design, None),
        design,
        outcomes: credits.iter().map(|c| Outcomes::of(c)).collect(),
        credits,
        members,
    };
    // Each column is independent of the others: on every core natively, in turn in wasm.
    #[cfg(not(target_arch = "wasm32"))]
    let columns: Vec<Column> = {
        use rayon::prelude::*;
        (0..cols).into_par_iter().map(|k| column(&cx, k)).collect()
    };
    #[cfg(target_arch = "wasm32")]
    let columns: Vec<Column> = (0..cols).map(|k| column(&cx, k)).collect();
    let (mut figures, mut subsets, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    for c in columns {
        match c {
            Column::Figure(b) => figures.push(b),
            Column::Subset(b) => subsets.push(b),
            Column::Out(note) => notes.extend(note),
        }
    }
    // One family for every subset's pairs: "leads on subset X" must survive the number of subsets.
    adjust(subsets.iter_mut().flat_map(|b| b.pairs.iter_mut()));
    for b in figures.iter_mut().chain(subsets.iter_mut()) {
        b.leader = leader(b);
        tied_ranks(b);
    }
    (figures, subsets, notes)
}

/// Column k's board: its standings (values, intervals, ranks) and pairs (tests before the
/// subsets' common adjustment).
fn column(cx: &Context, k: usize) -> Column {
    let j = cx.j;
    let n = j.runs.len();
    let cols = j.columns();
    let resamples = cx.resamples;
    // values at (b, column, run).
    let at = |b: usize, r: usize| cx.values.get((b * cols + k) * n + r).copied();
    let (name, subset) = match j.figures.get(k) {
        Some((name, _)) => (name.clone(), None),
        None => {
            let g = k - j.figures.len();
            let s = j.subsets.get(g).cloned().unwrap_or_default();
            (format!("subsets.{s}.accuracy"), Some(g as u32))
        }
    };
    let points: Vec<f64> = (0..n)
        .map(|r| cx.point.get(k * n + r).copied().unwrap_or(f64::NAN))
        .collect();
    if let Some(r) = points.iter().position(|v| v.is_nan()) {
        // A figure no resample could rank fairly: some run has no value at all.
        if subset.is_none() && points.iter().any(|v| !v.is_nan()) {
            let run = j.runs.get(r).map_or("", |x| x.name.as_str());
            return Column::Out(Some(format!(
                "{name} is left out: {run} has no value for it"
            )));
        }
        return Column::Out(None);
    }
    let better = if subset.is_some() {
        Better::Higher
    } else {
        Better::of(&name)
    };
    // Run by run (run r's resamples contiguous): the pairs read two runs' rows front to back
    // instead of striding across every column of every resample.
    let mut by_run = vec![f64::NAN; n * resamples];
    for b in 0..resamples {
        for r in 0..n {
            if let Some(slot) = by_run.get_mut(r * resamples + b) {
                *slot = at(b, r).unwrap_or(f64::NAN);
            }
        }
    }
    let row_of = |r: usize| {
        by_run
            .get(r * resamples..(r + 1) * resamples)
            .unwrap_or_default()
    };
    // Ranks in every resample.
    let mut counts = vec![RankCounts::new(n); n];
    let (mut order, mut ranks, mut row) = (Vec::new(), Vec::new(), Vec::with_capacity(n));
    for b in 0..resamples {
        row.clear();
        row.extend((0..n).map(|r| at(b, r).unwrap_or(f64::NAN)));
        competition(&row, better, &mut order, &mut ranks);
        for (c, &rank) in counts.iter_mut().zip(&ranks) {
            c.add(rank);
        }
    }
    competition(&points, better, &mut order, &mut ranks);
    let mut standings: Vec<Standing> = (0..n)
        .map(|r| {
            let (lo, hi, undefined) = own_interval(row_of(r).iter().copied());
            let s = counts.get(r).and_then(RankCounts::summary);
            let rank = ranks.get(r).copied().unwrap_or(0);
            Standing {
                run: j.runs.get(r).map(|x| x.name.clone()).unwrap_or_default(),
                value: points.get(r).copied().unwrap_or(f64::NAN),
                lo,
                hi,
                rank,
                tied_rank: rank,
                rank_median: s.map_or(rank, |s| s.median),
                rank_lo: s.map_or(rank, |s| s.lo),
                rank_hi: s.map_or(rank, |s| s.hi),
                undefined,
            }
        })
        .collect();
    // Each run's influence values when the figure is a mean of item values (a subset's
    // accuracy is the mean credit of its items): the pairs' CLT standard errors.
    let items = subset
        .and_then(|g| cx.members.get(g as usize))
        .map(Vec::as_slice);
    let own_layout = items.map(|list| Layout::new(&cx.design, Some(list)));
    let layout = own_layout.as_ref().unwrap_or(&cx.layout);
    // Each run's unit totals, once: a pair's standard error is then a pass over two of them. A
    // run's influence values (a vector over every shared item) go as soon as its totals are made.
    let influence = |r: usize| -> Option<Influence> {
        match subset {
            Some(g) => {
                let own: Vec<f64> = cx
                    .credits
                    .get(r)?
                    .iter()
                    .zip(&j.subset_of)
                    .map(|(&v, &s)| if s == g { v } else { f64::NAN })
                    .collect();
                Influence::of(&own)
            }
            None => j.item_values(k, r).and_then(|v| Influence::of(&v)),
        }
    };
    let totals: Option<Vec<Vec<f64>>> = (0..n)
        .map(|r| influence(r).map(|inf| layout.totals(&inf)))
        .collect();
    // McNemar's test takes items as independent: with clusters, the clustered z-test decides.
    let accuracy = (subset.is_some() || name == ACCURACY) && !j.clustered();
    let shared = items.map_or(j.common(), <[u32]>::len) as u64;
    let among = subset.map(|g| bits(j.subset_of.iter().map(|&s| s == g)));
    let mut pairs = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for a in 0..n {
        for b in a + 1..n {
            let se = match &totals {
                Some(t) => match (t.get(a), t.get(b)) {
                    (Some(x), Some(y)) => Some(layout.se(x, y)),
                    _ => None,
                },
                None => None,
            };
            let test = match (se, accuracy) {
                (Some(se), true) => {
                    let t = match (cx.outcomes.get(a), cx.outcomes.get(b)) {
                        (Some(x), Some(y)) => {
                            Outcomes::table(x, y, among.as_deref().map(|m| (m, shared)))
                        }
                        _ => McNemar::default(),
                    };
                    // Fractional credits (best-of-n ties, judges' half points) are not 0/1:
                    // the z-test takes them whole, where McNemar's would leave them out.
                    if t.not_binary == 0 {
                        Test::McNemar(t, se)
                    } else {
                        Test::PairedZ(se)
                    }
                }
                (Some(se), false) => Test::PairedZ(se),
                (None, _) => Test::BootstrapZ,
            };
            let names = (
                standings.get(a).map_or("", |s| s.run.as_str()),
                standings.get(b).map_or("", |s| s.run.as_str()),
            );
            let pv = (
                points.get(a).copied().unwrap_or(f64::NAN),
                points.get(b).copied().unwrap_or(f64::NAN),
            );
            let both = row_of(a).iter().copied().zip(row_of(b).iter().copied());
            pairs.push(pair(names, pv, both, test, better, shared));
        }
    }
    if subset.is_none() {
        adjust(pairs.iter_mut());
    }
    // Best first; ties keep the runs' order (a stable sort).
    standings.sort_by_key(|s| s.rank);
    let board = Board {
        figure: name,
        higher_is_better: better == Better::Higher,
        standings,
        pairs,
        leader: None,
    };
    match subset {
        Some(_) => Column::Subset(board),
        None => Column::Figure(board),
    }
}

/// Each run's tied rank: 1 + the runs that differ from it and are better.
fn tied_ranks(b: &mut Board) {
    let pairs = &b.pairs;
    for s in &mut b.standings {
        let above = pairs
            .iter()
            .filter(|p| p.differs && (p.a == s.run || p.b == s.run))
            .filter(|p| p.better.as_deref().is_some_and(|w| w != s.run))
            .count();
        s.tied_rank = 1 + above as u32;
    }
}

/// The run ranked first alone that differs from, and beats, every other run.
fn leader(b: &Board) -> Option<String> {
    let first = b.standings.first()?;
    let alone = b.standings.get(1).is_none_or(|s| s.rank > first.rank);
    let beats_all = b.pairs.iter().all(|p| {
        (p.a != first.run && p.b != first.run)
            || (p.differs && p.better.as_deref() == Some(first.run.as_str()))
    });
    (alone && beats_all && b.standings.len() > 1).then(|| first.run.clone())
}
