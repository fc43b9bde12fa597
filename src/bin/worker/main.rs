//! The scoring worker: reads dropped files in chunks and scores them off the page's thread.
//!
//! Trunk builds this bin as an ES-module worker (`data-type="worker"`). It owns every run's item
//! records, so the page holds only what it shows; the explorer asks for pages of them.

#[cfg(target_arch = "wasm32")]
mod deltas;

#[cfg(target_arch = "wasm32")]
mod intervals;

#[cfg(target_arch = "wasm32")]
mod group;

#[cfg(target_arch = "wasm32")]
mod leaderboard;

#[cfg(target_arch = "wasm32")]
mod loans;

#[cfg(target_arch = "wasm32")]
mod parquet;

#[cfg(target_arch = "wasm32")]
mod queue;

#[cfg(target_arch = "wasm32")]
mod read;

#[cfg(target_arch = "wasm32")]
mod worker {
    use crate::deltas;
    use crate::intervals::MAX_ITEMS;
    use crate::read::{read_all, Stop};
    use scorelens::explore::{Explorer, DEFAULT_CAP};
    use scorelens::metrics::bootstrap::ClusterBy;
    use scorelens::report::groups::with_largest;
    use scorelens::report::packed_groups::PackedGroups;
    use scorelens::report::Report;
    use scorelens::web::blob::WHOLE_FILE_CAP;
    use scorelens::web::protocol::{FromWorker, Scored, Text, ToWorker, GROUPS_HELD};
    use scorelens::{Error, Options, Session};
    use std::cell::RefCell;
    use std::collections::{HashMap, HashSet};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, File, MessageEvent};

    /// The message that makes the worker panic, to test recovery in the shipped build.
    const DEBUG_PANIC: &str = "scorelens:debug-panic";

    thread_local! {
        /// Each run's item records, kept until the page forgets the run.
        static EXPLORERS: RefCell<HashMap<u32, Explorer>> = RefCell::new(HashMap::new());
        /// The current generation of each run: a cancel or a new score bumps it, and a scoring
        /// task that sees a newer generation stops.
        static GENERATION: RefCell<HashMap<u32, u32>> = RefCell::new(HashMap::new());
        /// Each scored run with its bootstrap sample (`Session::keep_sample`), kept until the page
        /// forgets the run: what comparisons (src/bin/worker/deltas.rs) and intervals resample.
        pub(crate) static SAMPLES: RefCell<HashMap<u32, Kept>> = RefCell::new(HashMap::new());
        /// Tasks under way per run (scoring, then its intervals), and the runs the page closed
        /// while some were: the last task of a closed run to end says `Stopped`, so that the page
        /// (and its tests) know that nothing more about the run can follow.
        /// Each kept run's group rows, packed (`keep`): only the export with the bootstrap's
        /// intervals reads them, and unpacks them for it.
        pub(crate) static GROUPS: RefCell<HashMap<u32, PackedGroups>> = RefCell::new(HashMap::new());
        static LIVE: RefCell<HashMap<u32, u32>> = RefCell::new(HashMap::new());
        static CLOSED: RefCell<HashSet<u32>> = RefCell::new(HashSet::new());
    }

    /// A task of a run under way, from before it is spawned until it ends (see `LIVE`).
    pub(crate) struct Live(u32);

    impl Live {
        pub(crate) fn new(run: u32) -> Self {
            LIVE.with_borrow_mut(|l| *l.entry(run).or_insert(0) += 1);
            Live(run)
        }
    }

    impl Drop for Live {
        fn drop(&mut self) {
            let run = self.0;
            let left = LIVE.with_borrow_mut(|l| {
                let n = l.entry(run).or_insert(1);
                *n -= 1;
                let left = *n;
                if left == 0 {
                    l.remove(&run);
                }
                left
            });
            if left == 0 && CLOSED.with_borrow_mut(|c| c.remove(&run)) {
                post(&FromWorker::Stopped { run });
            }
        }
    }

    /// A kept run, or a mark that a task has it on loan (it puts it back unless the run was
    /// closed or scored again meanwhile).
    pub(crate) enum Kept {
        Here(Box<scorelens::Run>),
        Lent,
        /// A run of more items than the browser resamples (`intervals::MAX_ITEMS`): its sample was
        /// freed while reading, so it has no intervals and cannot be compared here.
        TooMany {
            name: String,
            items: u64,
        },
    }

    /// Run `run` kept for resampling and comparing, without its groups' Wilson intervals and with
    /// its group rows packed in `GROUPS`: only the export with the bootstrap's intervals reads
    /// them, and unpacks them and makes the intervals again
    /// (`report::intervals::wilson_intervals`). The 200,000 groups of a file grouped by item id
    /// held some 14 MB of intervals and 18 MB of rows per run meanwhile; packed, some 11 MB.
    fn keep(
        run: u32,
        name: String,
        mut report: Report,
        sample: Option<scorelens::metrics::bootstrap::Sample>,
    ) -> Kept {
        report
            .intervals
            .wilson
            .0
            .retain(|(path, _)| !path.starts_with("groups."));
        let packed = PackedGroups::pack(&std::mem::take(&mut report.groups));
        GROUPS.with_borrow_mut(|g| g.insert(run, packed));
        Kept::Here(Box::new(scorelens::Run::new(name, report, sample)))
    }

    /// Gives the kept runs `ids` (their reports in `reports`, in the same order) their group
    /// rows back from `GROUPS` (`keep` packed them) when `back`, or packs them away again: the
    /// exports that show a run's groups (its report with intervals, a comparison's HTML) unpack
    /// them while they are written.
    pub(crate) fn unpack_groups<'a>(
        ids: &[u32],
        reports: impl Iterator<Item = &'a mut Report>,
        back: bool,
    ) {
        GROUPS.with_borrow(|g| {
            for (id, report) in ids.iter().zip(reports) {
                if let Some(packed) = g.get(id) {
                    report.groups = if back { packed.unpack() } else { Vec::new() };
                }
            }
        });
    }

    pub(crate) fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    pub(crate) fn post(msg: &FromWorker) {
        match serde_wasm_bindgen::to_value(msg) {
            Ok(v) => {
                if let Err(e) = scope().post_message(&v) {
                    web_sys::console::error_2(&"scorelens worker: post failed".into(), &e);
                }
            }
            Err(e) => web_sys::console::error_1(&format!("scorelens worker: {e}").into()),
        }
    }

    fn bump(run: u32) -> u32 {
        GENERATION.with_borrow_mut(|g| {
            let n = g.entry(run).or_insert(0);
            *n += 1;
            *n
        })
    }

    pub(crate) fn current(run: u32, generation: u32) -> bool {
        GENERATION.with_borrow(|g| g.get(&run) == Some(&generation))
    }

    pub fn start() {
        // A panic aborts (a wasm trap) and leaves this worker unusable: say so first, so that the
        // page fails the runs under way and starts a fresh worker (docs/reliability.md).
        std::panic::set_hook(Box::new(|info| {
            web_sys::console::error_1(&format!("scorelens worker: {info}").into());
            post(&FromWorker::Panicked {
                error: info.to_string(),
            });
        }));
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|ev: MessageEvent| {
            // A documented debug hook (docs/reliability.md): the page never sends it; the e2e test
            // posts it to check that a panic in the worker leaves the page usable.
            if ev.data().as_string().as_deref() == Some(DEBUG_PANIC) {
                panic!("debug hook: {DEBUG_PANIC}");
            }
            match serde_wasm_bindgen::from_value::<ToWorker>(ev.data()) {
                Ok(msg) => handle(msg),
                Err(e) => web_sys::console::error_1(
                    &format!("scorelens worker: unreadable message: {e}").into(),
                ),
            }
        });
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        post(&FromWorker::Ready {
            profiles: scorelens::catalog::profiles(),
            formats: scorelens::catalog::formats(),
        });
    }

    fn handle(msg: ToWorker) {
        match msg {
            ToWorker::Score {
                run,
                files,
                profile,
                cluster,
                part,
            } => {
                let generation = bump(run);
                let files: Vec<File> = files.iter().filter_map(|f| f.dyn_into().ok()).collect();
                let live = Live::new(run);
                wasm_bindgen_futures::spawn_local(async move {
                    score(run, generation, files, profile, cluster, part).await;
                    drop(live);
                });
            }
            ToWorker::Cancel { run } => {
                bump(run);
                post(&FromWorker::Cancelled { run });
            }
            ToWorker::Items {
                run,
                seq,
                filter,
                offset,
                limit,
            } => {
                let page = EXPLORERS
                    .with_borrow_mut(|e| e.get_mut(&run).map(|x| x.query(&filter, offset, limit)));
                if let Some(page) = page {
                    post(&FromWorker::Items { run, seq, page });
                }
            }
            ToWorker::Forget { run } => {
                bump(run);
                EXPLORERS.with_borrow_mut(|e| e.remove(&run));
                SAMPLES.with_borrow_mut(|s| s.remove(&run));
                GROUPS.with_borrow_mut(|g| g.remove(&run));
                // Its tasks stop at their next check; the last one to end says so.
                if LIVE.with_borrow(|l| l.contains_key(&run)) {
                    CLOSED.with_borrow_mut(|c| c.insert(run));
                } else {
                    post(&FromWorker::Stopped { run });
                }
            }
            ToWorker::Compare {
                seq,
                runs,
                resamples,
                seed,
            } => deltas::start(seq, runs, scorelens::BootstrapOptions { resamples, seed }),
            ToWorker::StopCompare { seq } => deltas::stop(seq),
            ToWorker::Rank {
                seq,
                runs,
                names,
                resamples,
                seed,
            } => crate::leaderboard::start(
                seq,
                runs,
                names,
                scorelens::BootstrapOptions { resamples, seed },
            ),
            ToWorker::RankBy { seq, figure } => crate::leaderboard::by(seq, &figure),
            ToWorker::Group {
                seq,
                files,
                paths,
                how,
            } => crate::group::start(seq, files, paths, how),
            ToWorker::Showing { run } => crate::intervals::showing(run),
        }
    }

    /// The second read of a run that kept no sample on the first (`surely_too_many`) but ended
    /// with few enough items to resample: the same files, the same profile, read again with
    /// the sample kept and no explorer. The run is marked on loan meanwhile, so intervals and
    /// comparisons wait for it. Its report is the first read's (the same files give the same).
    async fn resample(run: u32, generation: u32, files: &[File], opts: &Options, report: Report) {
        let name = files.iter().map(File::name).collect::<Vec<_>>().join(" + ");
        SAMPLES.with_borrow_mut(|s| s.insert(run, Kept::Lent));
        let opts = Options {
            items: None,
            sample: Some(MAX_ITEMS),
            ..opts.clone()
        };
        // The first read made a session from the same profile, so this one cannot fail.
        let Ok(mut session) = Session::new(&opts) else {
            SAMPLES.with_borrow_mut(|s| s.remove(&run));
            return;
        };
        let read = read_all(&mut session, run, generation, files, false).await;
        if !current(run, generation) {
            return;
        }
        let sample = match (read, session.finish()) {
            (Ok(_), Ok(f)) if f.sample_dropped.is_none() => f.sample,
            (Ok(_), Ok(f)) => {
                // The files changed between the two reads: more items now.
                let items = f.sample_dropped.unwrap_or(0);
                SAMPLES.with_borrow_mut(|s| s.insert(run, Kept::TooMany { name, items }));
                return crate::intervals::start(run, generation);
            }
            (Err(Stop::Cancelled), _) => return,
            (Err(Stop::Failed(e)), _) => {
                SAMPLES.with_borrow_mut(|s| s.remove(&run));
                return post(&FromWorker::IntervalsSkipped {
                    run,
                    reason: format!("the files could not be read again: {e}"),
                });
            }
            (Ok(_), Err(e)) => {
                SAMPLES.with_borrow_mut(|s| s.remove(&run));
                return post(&FromWorker::IntervalsSkipped {
                    run,
                    reason: e.to_string(),
                });
            }
        };
        let kept = keep(run, name, report, sample);
        SAMPLES.with_borrow_mut(|s| s.insert(run, kept));
        crate::intervals::start(run, generation);
    }

    async fn score(
        run: u32,
        generation: u32,
        files: Vec<File>,
        profile: Option<String>,
        cluster: Option<String>,
        part: Option<String>,
    ) {
        let cluster = cluster.as_deref().and_then(ClusterBy::parse);
        // Bootstraps of other runs wait while this one reads (or waits to).
        let _reading = crate::intervals::Reading::new();
        // One run reads at a time; the turn is held until the run is kept.
        let Some(_turn) = crate::queue::turn(run, generation).await else {
            return;
        };
        let started = js_sys::Date::now();
        // Only runs the browser resamples keep their per-item sample, decided from the first
        // file's first bytes before any item (`surely_too_many`).
        let total: f64 = files.iter().map(|f| f.size()).sum();
        let sampled = match files.first() {
            Some(first) => {
                let first = scorelens::web::blob::BrowserFile::file(first);
                !scorelens::session::surely_more_items(&first, total as u64, MAX_ITEMS).await
            }
            None => true,
        };
        // Clustered figures come from the sample: kept, up to the cap, whenever they are asked.
        let sampled = sampled || cluster.is_some();
        let opts = Options {
            profile,
            items: Some(DEFAULT_CAP),
            sample: sampled.then_some(MAX_ITEMS),
            cluster,
            part,
            whole_cap: Some(WHOLE_FILE_CAP),
            ..Options::default()
        };
        let mut session = match Session::new(&opts) {
            Ok(s) => s,
            Err(e) => return fail(run, e),
        };
        let name = files.iter().map(File::name).collect::<Vec<_>>().join(" + ");
        let bytes = match read_all(&mut session, run, generation, &files, true).await {
            Ok(b) => b,
            Err(stop) => return read_failed(run, stop),
        };
        match session.finish() {
            Ok(finished) => {
                let mut report = finished.report;
                let explorer = finished.explorer.unwrap_or_else(|| Explorer::new(0));
                // Written into Blobs a piece at a time: the JSON and tables of 200,000 groups
                // are tens of MB each.
                let mut json = Text::writer();
                let _ = report.write_json(&mut json);
                let html = Text::new(&scorelens::html::report(&report));
                let (csv, md) = Text::pieces(|take| scorelens::layout::each_piece(&report, take));
                let json = json.finish();
                // The page holds the largest groups only; the JSON and HTML above have them all,
                // and the whole report moves (uncopied) into the run kept for resampling.
                let groups_total = report.groups.len() as u64;
                let page = with_largest(&mut report, GROUPS_HELD);
                // The items the profile admitted: each got a record or was counted past the cap.
                let admitted = explorer.len() as u64 + explorer.dropped();
                let mut report_kept = None;
                let kept = match finished.sample_dropped {
                    Some(items) => Some(Kept::TooMany { name, items }),
                    None if !sampled && admitted > MAX_ITEMS as u64 => Some(Kept::TooMany {
                        name,
                        items: admitted,
                    }),
                    // The guess was wrong: few enough items to resample; read again below.
                    None if !sampled => {
                        report_kept = Some(report);
                        None
                    }
                    None => Some(keep(run, name, report, finished.sample)),
                };
                if let Some(kept) = kept {
                    SAMPLES.with_borrow_mut(|s| s.insert(run, kept));
                }
                let planning =
                    page.intervals.clustered.as_ref().and_then(|c| {
                        serde_json::to_string(&scorelens::html::planning::tree(c)).ok()
                    });
                let scored = Scored {
                    json,
                    html,
                    csv,
                    md,
                    groups_total,
                    report: page,
                    kept: explorer.len() as u64,
                    dropped: explorer.dropped(),
                    bytes,
                    millis: js_sys::Date::now() - started,
                    clustered_items: finished.clustered_items,
                    planning,
                };
                EXPLORERS.with_borrow_mut(|e| e.insert(run, explorer));
                post(&FromWorker::Scored {
                    run,
                    scored: Box::new(scored),
                });
                // The point estimates are on screen: now their intervals.
                if let Some(report) = report_kept {
                    resample(run, generation, &files, &opts, report).await;
                } else {
                    crate::intervals::start(run, generation);
                }
            }
            Err(e) => fail(run, e),
        }
    }

    /// Says why the run's files could not be read; a cancel was answered when it came, and a
    /// newer score of the run replaces this one.
    fn read_failed(run: u32, stop: Stop) {
        if let Stop::Failed(e) = stop {
            fail(run, e);
        }
    }

    fn fail(run: u32, e: Error) {
        post(&FromWorker::Failed {
            run,
            error: e.to_string(),
            warnings: e.warnings(),
        });
    }
}

fn main() {
    #[cfg(target_arch = "wasm32")]
    worker::start();
}
