//! The worker's bootstrap of a scored run: intervals for every headline figure, computed after the
//! report is on screen, in slices, so that the worker keeps answering between them.
//!
//! Included by src/bin/worker/main.rs (`mod intervals`). It reads the run's sample in the worker's
//! `SAMPLES` store one slice at a time (so a comparison, src/bin/worker/deltas.rs, can take the run
//! between slices), posts progress, stops when the run's generation moves on (Cancel, Forget, a
//! new score of the run), and waits while any file is being read (a new drop is scored first) and
//! while another run's bootstrap has its turn (the shown run's first, then in the order they
//! started). The result is the CLI's:
//! `sample.draws` over consecutive ranges joined by `sample.intervals` equals `Sample::bootstrap`,
//! so the JSON it posts is `scorelens score --json --bootstrap 2000 --seed 2024`'s.

use crate::worker::{current, post, unpack_groups, Kept, SAMPLES};
use scorelens::web::protocol::{FromWorker, Text};
use scorelens::{BootstrapOptions, Run};
use std::cell::{Cell, RefCell};

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
    /// Bootstraps under way, (ticket, run) in the order they started. One draws at a time: each
    /// run then has its intervals as early as its place allows, where fifty drawn in turn slice
    /// by slice all finished together, at the end.
    static QUEUE: RefCell<Vec<(u64, u32)>> = const { RefCell::new(Vec::new()) };
    static NEXT_TICKET: Cell<u64> = const { Cell::new(0) };
    /// The run the page shows (`ToWorker::Showing`): its bootstrap goes first.
    static SHOWN: Cell<Option<u32>> = const { Cell::new(None) };
}

/// Records the run on screen, whose bootstrap draws before the others'.
pub fn showing(run: u32) {
    SHOWN.set(Some(run));
}

/// A bootstrap's place in `QUEUE`, from its start to its end (however it ends).
struct Turn(u64);

impl Turn {
    fn new(run: u32) -> Self {
        let ticket = NEXT_TICKET.get();
        NEXT_TICKET.set(ticket + 1);
        QUEUE.with_borrow_mut(|q| q.push((ticket, run)));
        Turn(ticket)
    }

    /// Whether this bootstrap draws next: the shown run's if it has one under way, else the
    /// oldest.
    fn now(&self) -> bool {
        QUEUE.with_borrow(|q| {
            let shown = SHOWN.get();
            let next = q.iter().find(|(_, run)| Some(*run) == shown).or(q.first());
            next.is_some_and(|(ticket, _)| *ticket == self.0)
        })
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        QUEUE.with_borrow_mut(|q| q.retain(|(ticket, _)| *ticket != self.0));
    }
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
    // Counted as under way from now, so that the run's scoring task ending first does not make
    // the run look idle (`Live`).
    let live = crate::worker::Live::new(run);
    let turn = Turn::new(run);
    wasm_bindgen_futures::spawn_local(async move {
        bootstrap(run, generation, &turn, BootstrapOptions::default()).await;
        drop(turn);
        drop(live);
    });
}

/// Runs `f` on the run's kept sample, waiting while another task has the run on loan (a
/// comparison); `None` when the run moved on or is gone. The store is borrowed only while `f`
/// runs, so a comparison can take the run between two slices.
async fn with_run<T>(run: u32, generation: u32, mut f: impl FnMut(&mut Run) -> T) -> Option<T> {
    loop {
        if !current(run, generation) {
            return None;
        }
        let done = SAMPLES.with_borrow_mut(|s| match s.get_mut(&run) {
            Some(Kept::Here(r)) => Some(Some(f(r))),
            Some(Kept::Lent) => None,
            Some(Kept::TooMany { .. }) | None => Some(None),
        });
        match done {
            Some(out) => return out,
            None => crate::loans::tick().await,
        }
    }
}

/// The message for a run of `items` items, more than the browser resamples.
pub fn too_many(items: u64) -> String {
    format!(
        "{items} items: more than the browser resamples ({MAX_ITEMS}); `scorelens score --bootstrap` computes them"
    )
}

async fn bootstrap(run: u32, generation: u32, turn: &Turn, opts: BootstrapOptions) {
    // A large run kept no sample: say why it has no intervals.
    let over = SAMPLES.with_borrow(|s| match s.get(&run) {
        Some(Kept::TooMany { items, .. }) => Some(*items),
        _ => None,
    });
    if let Some(items) = over.filter(|_| current(run, generation)) {
        return post(&FromWorker::IntervalsSkipped {
            run,
            reason: too_many(items),
        });
    }
    let Some(items) = with_run(run, generation, |r| r.sample.len()).await else {
        return;
    };
    // No item scored (aggregate files only): the CLI reports no bootstrap either.
    if items == 0 {
        return;
    }
    if items > MAX_ITEMS {
        return post(&FromWorker::IntervalsSkipped {
            run,
            reason: too_many(items as u64),
        });
    }
    let Some(parts) = draw(run, generation, turn, &opts).await else {
        return;
    };
    let parts = std::cell::RefCell::new(Some(parts));
    let done = with_run(run, generation, |r| {
        let bootstrap = r.sample.intervals(&opts, parts.take()?);
        // The kept report shows its intervals while its exports are written, then goes back as
        // it was (comparisons read it): a copy of 200,000 groups' report would be some 33 MB.
        let report = &mut r.report;
        let before = report.intervals.bootstrap.replace(bootstrap.clone());
        // The kept run packed its group rows and let their Wilson intervals go (`keep`): the
        // export has them all.
        unpack_groups(&[run], std::iter::once(&mut *report), true);
        let all = scorelens::report::intervals::wilson_intervals(report);
        let kept = std::mem::replace(&mut report.intervals.wilson, all);
        let html = Text::new(&scorelens::html::report(report));
        // Into a Blob a piece at a time: the JSON of 200,000 groups is 52 MB.
        let mut json = Text::writer();
        let _ = report.write_json(&mut json);
        report.intervals.bootstrap = before;
        report.intervals.wilson = kept;
        unpack_groups(&[run], std::iter::once(&mut *report), false);
        Some((bootstrap, json.finish(), html))
    })
    .await
    .flatten();
    if let Some((bootstrap, json, html)) = done {
        post(&FromWorker::Intervals {
            run,
            bootstrap: Box::new(bootstrap),
            json,
            html,
        });
    }
}

/// The resamples in slices of about `SLICE_MS`, in order; `None` when the run moved on.
async fn draw(
    run: u32,
    generation: u32,
    turn: &Turn,
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
        while (READING.get() > 0 || !turn.now()) && current(run, generation) {
            crate::loans::wait(20).await;
        }
        let end = at.saturating_add(step).min(total);
        let (part, took) = with_run(run, generation, |r| {
            let started = js_sys::Date::now();
            let part = r.sample.draws(opts, at..end);
            (part, js_sys::Date::now() - started)
        })
        .await?;
        parts.push(part);
        at = end;
        // Grow the slice while it is quick, shrink it when it is slow.
        if took < SLICE_MS / 2.0 {
            step = step.saturating_mul(2);
        } else if took > SLICE_MS * 2.0 {
            step = (step / 2).max(1);
        }
        let now = js_sys::Date::now();
        if now - posted >= PROGRESS_MS {
            posted = now;
            post(&FromWorker::IntervalsProgress {
                run,
                done: at,
                total,
            });
        }
        crate::loans::tick().await;
    }
    Some(parts)
}
