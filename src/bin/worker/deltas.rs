//! The worker's half of the comparison view: pairs of kept runs resampled in slices (so a newer
//! request, a stop or a closed run is felt between slices), then `scorelens::compare_with`.
//!
//! A module of the worker bin (`mod deltas`): it borrows the runs' samples from the worker's
//! `SAMPLES` store through `loans` (taking them out while it draws, putting them back after).

use crate::loans::{self, Task};
use crate::worker::{post, unpack_groups};
use scorelens::compare::{compare_with, PairDraws, Paired};
use scorelens::web::protocol::{FromWorker, Text};
use scorelens::{BootstrapOptions, Run};
use std::cell::{Cell, RefCell};
use std::collections::HashSet;

/// Milliseconds of drawing between two looks at the message queue.
const SLICE_MS: f64 = 40.0;

/// What a comparison borrows its runs for, in its messages.
const COMPARE: Task = Task {
    does: "compares",
    verb: "compare",
    command: "compare",
};

thread_local! {
    /// The comparison that should be running; an older task that sees a newer one stops.
    static CURRENT: Cell<u32> = const { Cell::new(0) };
    /// Comparisons under way (an older one may still be ending when a newer one starts).
    static RUNNING: RefCell<HashSet<u32>> = RefCell::new(HashSet::new());
}

/// A comparison under way; one that ends after a stop says `CompareStopped`, so that the page
/// knows nothing more of it can follow.
struct Running(u32);

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.with_borrow_mut(|r| r.remove(&self.0));
        if !live(self.0) {
            post(&FromWorker::CompareStopped { seq: self.0 });
        }
    }
}

/// Starts comparison `seq` of `runs` (in that order; deltas are earlier − later).
pub fn start(seq: u32, runs: Vec<u32>, opts: BootstrapOptions) {
    CURRENT.set(seq);
    RUNNING.with_borrow_mut(|r| r.insert(seq));
    let running = Running(seq);
    wasm_bindgen_futures::spawn_local(async move {
        compare(seq, runs, opts).await;
        drop(running);
    });
}

/// Stops comparison `seq` if it is the current one; `CompareStopped` follows once it has ended.
pub fn stop(seq: u32) {
    if CURRENT.get() == seq {
        CURRENT.set(0);
    }
    // Not under way (it ended already): nothing more of it can follow.
    if !RUNNING.with_borrow(|r| r.contains(&seq)) {
        post(&FromWorker::CompareStopped { seq });
    }
}

fn live(seq: u32) -> bool {
    CURRENT.get() == seq
}

async fn compare(seq: u32, ids: Vec<u32>, opts: BootstrapOptions) {
    let mut runs = match loans::borrow(&ids, || live(seq), &COMPARE).await {
        Ok(runs) => runs,
        Err(e) if e.is_empty() => return,
        Err(error) => return post(&FromWorker::CompareFailed { seq, error }),
    };
    let parts = draw_all(seq, &runs, &opts).await;
    if let Some(parts) = parts {
        let parts = RefCell::new(parts.into_iter());
        let c = compare_with(&runs, &opts, |_, _| {
            parts.borrow_mut().next().unwrap_or_default()
        });
        // The HTML shows each run's report, groups and all, as the CLI's does.
        unpack_groups(&ids, runs.iter_mut().map(|r| &mut r.report), true);
        let named: Vec<(&str, &scorelens::Report)> =
            runs.iter().map(|r| (r.name.as_str(), &r.report)).collect();
        let html = scorelens::html::runs(&named, Some(&c));
        drop(named);
        unpack_groups(&ids, runs.iter_mut().map(|r| &mut r.report), false);
        let pairs = scorelens::compare::tables::pair_tables(&c);
        post(&FromWorker::Compared {
            seq,
            csv: Text::new(&scorelens::table::csv(&pairs)),
            md: Text::new(&scorelens::table::markdown(&pairs)),
            json: c.to_json() + "\n",
            html,
            comparison: Box::new(c),
        });
    }
    loans::give_back(&ids, runs);
}

/// Every pair's paired resamples, in `compare_with`'s pair order, drawn in slices of about
/// `SLICE_MS`; `None` when the comparison was replaced or stopped.
async fn draw_all(seq: u32, runs: &[Run], opts: &BootstrapOptions) -> Option<Vec<Vec<PairDraws>>> {
    let pairs = runs.len() * runs.len().saturating_sub(1) / 2;
    let total = opts.resamples.saturating_mul(pairs as u32);
    let mut done = 0u32;
    let mut all = Vec::with_capacity(pairs);
    for (i, a) in runs.iter().enumerate() {
        for b in runs.iter().skip(i + 1) {
            let paired = Paired::new(a, b);
            let mut parts = Vec::new();
            let mut at = 0u32;
            let mut step = 8u32;
            while at < opts.resamples {
                let end = at.saturating_add(step).min(opts.resamples);
                let started = js_sys::Date::now();
                parts.push(paired.draws(opts, at..end));
                let took = js_sys::Date::now() - started;
                done += end - at;
                at = end;
                // Grow the slice while it is quick, shrink it when it is slow.
                if took < SLICE_MS / 2.0 {
                    step = step.saturating_mul(2);
                } else if took > SLICE_MS * 2.0 {
                    step = (step / 2).max(1);
                }
                post(&FromWorker::CompareProgress { seq, done, total });
                loans::tick().await;
                if !live(seq) {
                    return None;
                }
            }
            all.push(parts);
        }
    }
    Some(all)
}
