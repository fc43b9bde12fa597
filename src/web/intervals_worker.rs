//! The worker's bootstrap of a scored run: intervals for every headline figure, computed after the
//! report is on screen, in slices, so that the worker keeps answering between them.
//!
//! Included by src/bin/worker.rs (`mod intervals`). It borrows the run's sample from the worker's
//! `SAMPLES` store while it draws (as src/web/deltas_worker.rs does), posts progress after each
//! slice, stops when the run's generation moves on (Cancel, Forget, a new score of the run), and
//! waits while any file is being read (a new drop is scored first). The result is the CLI's:
//! `sample.draws` over consecutive ranges joined by `sample.intervals` equals `Sample::bootstrap`,
//! so the JSON it posts is `scorelens score --json --bootstrap 2000 --seed 2024`'s.

use crate::protocol::FromWorker;
use crate::worker::{current, post, scope, Kept, SAMPLES};
use scorelens::{BootstrapOptions, Run};
use std::cell::Cell;
use wasm_bindgen_futures::JsFuture;

/// Milliseconds of drawing between two looks at the message queue.
const SLICE_MS: f64 = 40.0;
/// Milliseconds between two progress messages (the page announces them).
const PROGRESS_MS: f64 = 500.0;

/// Runs with more items are not resampled in the browser: 2000 resamples would take minutes on
/// one thread (the CLI's `--bootstrap` uses every core).
pub const MAX_ITEMS: usize = 200_000;

thread_local! {
    /// Scoring tasks reading files now; the bootstrap waits while there are any.
    static READING: Cell<u32> = const { Cell::new(0) };
}

/// Held by a scoring task while it reads: the bootstrap of other runs pauses meanwhile.
pub struct Reading;

impl Reading {
    pub fn new() -> Self {
        READING.set(READING.get() + 1);
        Reading
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        READING.set(READING.get().saturating_sub(1));
    }
}

/// Starts the bootstrap of `run` (scored in `generation`), once its report is posted.
pub fn start(run: u32, generation: u32) {
    wasm_bindgen_futures::spawn_local(bootstrap(run, generation, BootstrapOptions::default()));
}

/// Lets the worker handle its messages (a macrotask), after `ms` milliseconds.
async fn tick(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(p).await;
}

/// Takes the run out of the store, waiting while another task has it on loan.
async fn borrow(run: u32, generation: u32) -> Option<Run> {
    loop {
        if !current(run, generation) {
            return None;
        }
        let taken = SAMPLES.with_borrow_mut(|s| match s.get(&run) {
            Some(Kept::Here(_)) => match s.insert(run, Kept::Lent) {
                Some(Kept::Here(r)) => Some(Some(*r)),
                _ => Some(None),
            },
            Some(Kept::Lent) => None,
            None => Some(None),
        });
        match taken {
            Some(r) => return r,
            None => tick(0).await,
        }
    }
}

/// Puts the run back, unless it was closed or scored again meanwhile.
fn give_back(run: u32, kept: Run) {
    SAMPLES.with_borrow_mut(|s| {
        if let Some(slot @ Kept::Lent) = s.get_mut(&run) {
            *slot = Kept::Here(Box::new(kept));
        }
    });
}

async fn bootstrap(run: u32, generation: u32, opts: BootstrapOptions) {
    let Some(kept) = borrow(run, generation).await else {
        return;
    };
    let items = kept.sample.len();
    // No item scored (aggregate files only): the CLI reports no bootstrap either.
    if items == 0 {
        return give_back(run, kept);
    }
    if items > MAX_ITEMS {
        give_back(run, kept);
        return post(&FromWorker::IntervalsSkipped {
            run,
            reason: format!(
                "{items} items: more than the browser resamples ({MAX_ITEMS}); `scorelens score --bootstrap` computes them"
            ),
        });
    }
    let parts = draw(run, generation, &kept, &opts).await;
    let done = parts.map(|parts| {
        let bootstrap = kept.sample.intervals(&opts, parts);
        let mut report = kept.report.clone();
        report.intervals.bootstrap = Some(bootstrap.clone());
        (bootstrap, report.to_json() + "\n")
    });
    give_back(run, kept);
    if let Some((bootstrap, json)) = done {
        if current(run, generation) {
            post(&FromWorker::Intervals {
                run,
                bootstrap: Box::new(bootstrap),
                json,
            });
        }
    }
}

/// The resamples in slices of about `SLICE_MS`, in order; `None` when the run moved on.
async fn draw(
    run: u32,
    generation: u32,
    kept: &Run,
    opts: &BootstrapOptions,
) -> Option<Vec<scorelens::metrics::bootstrap::Draws>> {
    let total = opts.resamples;
    let mut parts = Vec::new();
    let (mut at, mut step) = (0u32, 8u32);
    let mut posted = js_sys::Date::now();
    post(&FromWorker::IntervalsProgress {
        run,
        done: 0,
        total,
    });
    while at < total {
        while READING.get() > 0 && current(run, generation) {
            tick(50).await;
        }
        if !current(run, generation) {
            return None;
        }
        let end = at.saturating_add(step).min(total);
        let started = js_sys::Date::now();
        parts.push(kept.sample.draws(opts, at..end));
        let took = js_sys::Date::now() - started;
        at = end;
        // Grow the slice while it is quick, shrink it when it is slow.
        if took < SLICE_MS / 2.0 {
            step = step.saturating_mul(2);
        } else if took > SLICE_MS * 2.0 {
            step = (step / 2).max(1);
        }
        if started + took - posted >= PROGRESS_MS {
            posted = started + took;
            post(&FromWorker::IntervalsProgress {
                run,
                done: at,
                total,
            });
        }
        tick(0).await;
    }
    current(run, generation).then_some(parts)
}
