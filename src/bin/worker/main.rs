//! The scoring worker: reads dropped files in chunks and scores them off the page's thread.
//!
//! Trunk builds this bin as an ES-module worker (`data-type="worker"`). It owns every run's item
//! records, so the page holds only what it shows; the explorer asks for pages of them.

#[cfg(target_arch = "wasm32")]
mod deltas;

#[cfg(target_arch = "wasm32")]
mod intervals;

#[cfg(target_arch = "wasm32")]
mod file_stream;

#[cfg(target_arch = "wasm32")]
mod worker {
    use crate::deltas;
    use crate::file_stream::FileStream;
    use scorelens::explore::{Explorer, DEFAULT_CAP};
    use scorelens::formats::{FORMATS, HEAD};
    use scorelens::items::Mode;
    use scorelens::profiles::Profile;
    use scorelens::report::Report;
    use scorelens::web::protocol::{FromWorker, MassBins, Named, Scored, ToWorker};
    use scorelens::{Error, Options, Session};
    use std::cell::RefCell;
    use std::collections::{HashMap, HashSet};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{DedicatedWorkerGlobalScope, File, MessageEvent};

    /// Bytes between two progress messages: few messages, yet progress moves and a cancel is
    /// felt within a fraction of a second.
    const CHUNK: usize = 8 << 20;

    /// Milliseconds of reading between two turns of the event loop (`breathe`).
    const BREATHE_MS: f64 = 200.0;

    /// Lets the worker take its messages: resumes in a macrotask (a timeout of 0).
    async fn breathe() {
        let p = js_sys::Promise::new(&mut |resolve, _| {
            let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        });
        let _ = JsFuture::from(p).await;
    }

    /// The message that makes the worker panic, to test recovery in the shipped build.
    const DEBUG_PANIC: &str = "scorelens:debug-panic";

    /// The largest file the page reads with a format that holds the whole file in memory (JSON
    /// documents, archives, CSV): with the buffer's growth and the parse, several times this must
    /// fit in the 4 GiB a wasm32 worker can have. Line-based formats stream and have no size limit
    /// (their lines have one: `MAX_LINE`).
    const WHOLE_FILE_CAP: f64 = 512.0 * 1024.0 * 1024.0;

    /// The longest line the page reads from a line-based file. A line is held whole until its
    /// newline, and one of about a gigabyte ran the worker out of memory (a crash, where a clear
    /// message was due); no evaluation log has lines of this size.
    const MAX_LINE: usize = 64 << 20;

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
        let named = |name: &str, describe: &str| Named {
            name: name.to_string(),
            describe: describe.to_string(),
        };
        post(&FromWorker::Ready {
            profiles: Profile::all()
                .iter()
                .map(|p| named(p.name, p.describe))
                .collect(),
            formats: FORMATS
                .iter()
                .map(|f| named(f.name(), f.describe()))
                .collect(),
        });
    }

    fn handle(msg: ToWorker) {
        match msg {
            ToWorker::Score {
                run,
                files,
                profile,
            } => {
                let generation = bump(run);
                let files: Vec<File> = files.iter().filter_map(|f| f.dyn_into().ok()).collect();
                let live = Live::new(run);
                wasm_bindgen_futures::spawn_local(async move {
                    score(run, generation, files, profile).await;
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
        }
    }

    /// Why reading stopped early.
    enum Stop {
        Cancelled,
        Read(String),
        /// Over what the tab can hold: the message says why.
        TooBig(String),
    }

    /// True when the format reads the file line by line (JSON Lines), so that its size does not
    /// matter; the canonical and lm-eval readers also take one JSON array, which they hold whole.
    fn streams(format: &str, head: &[u8]) -> bool {
        let array = head
            .strip_prefix(b"\xEF\xBB\xBF".as_slice())
            .unwrap_or(head)
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            == Some(&b'[');
        match format {
            "scorelens" | "lm-eval" => !array,
            "openai-evals" | "jevbench" | "decision-bench" | "rewardbench-outputs" => true,
            _ => false,
        }
    }

    fn too_big(name: &str, size: f64, format: &str) -> String {
        format!(
            "{name} is {:.1} GB: a {format} file is read whole, and the page reads at most {} MB \
             of such a file (a browser tab cannot hold more). JSON Lines files have no limit. \
             The command line reads any size: scorelens score {name}",
            size / 1e9,
            WHOLE_FILE_CAP / (1024.0 * 1024.0)
        )
    }

    /// Why the page stops at line `line` of `name` (`MAX_LINE`), and the way out.
    fn too_long(name: &str, line: u64) -> String {
        format!(
            "{name}: line {line} is longer than {} MB, and the page reads lines of at most that \
             length (a browser tab cannot hold more). The command line reads any line: \
             scorelens score {name}",
            MAX_LINE >> 20
        )
    }

    /// The number of the line that starts at byte `at` of `file`: its newlines before `at`,
    /// counted by reading them again (only for `too_long`'s message).
    async fn line_at(file: &File, at: f64) -> Result<u64, Stop> {
        let mut stream = FileStream::open(file).map_err(Stop::Read)?;
        let (mut chunk, mut done, mut newlines) = (Vec::new(), 0.0, 0);
        while done < at {
            chunk.clear();
            stream.read_into(&mut chunk).await.map_err(Stop::Read)?;
            if chunk.is_empty() {
                break;
            }
            let take = chunk.len().min((at - done) as usize);
            newlines += memchr::memchr_iter(b'\n', &chunk[..take]).count() as u64;
            done += chunk.len() as f64;
        }
        Ok(newlines + 1)
    }

    /// `file`'s bytes `start..end`, for its head (the rest streams through `FileStream`).
    async fn bytes(file: &File, start: f64, end: f64) -> Result<Vec<u8>, Stop> {
        let read = |e: JsValue| Stop::Read(format!("{e:?}"));
        let blob = file.slice_with_f64_and_f64(start, end).map_err(read)?;
        let buf = JsFuture::from(blob.array_buffer()).await.map_err(read)?;
        Ok(js_sys::Uint8Array::new(&buf).to_vec())
    }

    /// Which read of a run: the first, which the page waits for, or a second one for the
    /// bootstrap sample alone (`resample`).
    #[derive(Clone, Copy, PartialEq)]
    enum Pass {
        First,
        Sample,
    }

    /// True when the run will almost surely hold more items than the browser resamples: a
    /// line-based file whose first lines, as long as the rest, would make more than twice
    /// `intervals::MAX_ITEMS` lines in the run's `total` bytes. Such a run keeps no bootstrap
    /// sample while it is read (building one for its first items cost a fifth of the worker's
    /// time on 100 MB); should it end with few enough items after all, `resample`
    /// reads it again for its sample, so no run loses its intervals to the guess.
    fn surely_too_many(format: &str, head: &[u8], total: f64) -> bool {
        let lines = head.iter().filter(|&&b| b == b'\n').count();
        let per_line = head.len() as f64 / lines.max(1) as f64;
        streams(format, head)
            && lines > 0
            && total / per_line > 2.0 * crate::intervals::MAX_ITEMS as f64
    }

    /// Reads the run's files into `session`: its size in bytes, and whether the session keeps
    /// the bootstrap sample (`surely_too_many`; always on the `Sample` pass).
    async fn read_all(
        session: &mut Session,
        run: u32,
        generation: u32,
        files: &[File],
        pass: Pass,
    ) -> Result<(f64, bool), Stop> {
        let total: f64 = files.iter().map(|f| f.size()).sum();
        let mut done = 0.0;
        let mut chunk = Vec::new();
        let mut sampled = None;
        for file in files {
            let name = file.name();
            let size = file.size();
            let head = bytes(file, 0.0, size.min(HEAD as f64)).await?;
            if !current(run, generation) {
                return Err(Stop::Cancelled);
            }
            let format = session.begin_file(&name, &head);
            if let Some(format) = format.filter(|f| size > WHOLE_FILE_CAP && !streams(f, &head)) {
                return Err(Stop::TooBig(too_big(&name, size, format)));
            }
            if sampled.is_none() {
                // Decided at the first file, before any item: only runs the browser resamples
                // keep their per-item sample.
                let skip =
                    pass == Pass::First && format.is_some_and(|f| surely_too_many(f, &head, total));
                if !skip {
                    session.keep_sample_up_to(crate::intervals::MAX_ITEMS);
                }
                sampled = Some(!skip);
            }
            // The seen-id set sized from the file's size, as natively (the browser's memory).
            session.expect_lines(&head, size as usize);
            // Canonical JSON Lines in blocks, the seen-id table warmed ahead (as natively).
            session.feed_in_blocks(&head);
            let mut stream = FileStream::open(file).map_err(Stop::Read)?;
            // Bytes of the file since its last newline (in a line-based format).
            let lined = format.is_some_and(|f| streams(f, &head));
            let (start, mut open_line) = (done, 0);
            let mut posted = done;
            let mut breathed = js_sys::Date::now();
            loop {
                // A read that finished while the last one was parsed resumes this loop in a
                // microtask, so a fast source (a file in memory) never hands the event loop
                // back: messages (Cancel) would wait for the end. A macrotask now and then.
                if js_sys::Date::now() - breathed > BREATHE_MS {
                    breathe().await;
                    breathed = js_sys::Date::now();
                }
                // Each read is parsed as it comes, the next one already under way: waiting for
                // several reads before parsing left the worker idle 10-15% of a 100 MB run.
                chunk.clear();
                stream.read_into(&mut chunk).await.map_err(Stop::Read)?;
                if !current(run, generation) {
                    return Err(Stop::Cancelled);
                }
                if chunk.is_empty() {
                    break;
                }
                open_line = match memchr::memrchr(b'\n', &chunk) {
                    Some(nl) => chunk.len() - nl - 1,
                    None => open_line + chunk.len(),
                };
                if lined && open_line > MAX_LINE {
                    let at = done + chunk.len() as f64 - open_line as f64 - start;
                    let line = line_at(file, at).await?;
                    return Err(Stop::TooBig(too_long(&name, line)));
                }
                session.feed(&chunk);
                done += chunk.len() as f64;
                if pass == Pass::Sample || done - posted < CHUNK as f64 {
                    continue;
                }
                posted = done;
                post(&FromWorker::Progress {
                    run,
                    file: name.clone(),
                    done,
                    total,
                });
            }
            session.end_file();
        }
        Ok((total, sampled.unwrap_or(true)))
    }

    /// The second read of a run that kept no sample on the first (`surely_too_many`) but ended
    /// with few enough items to resample: the same files, the same profile, read again with
    /// the sample kept and no explorer. The run is marked on loan meanwhile, so intervals and
    /// comparisons wait for it. Its report is the first read's (the same files give the same).
    async fn resample(run: u32, generation: u32, files: &[File], opts: &Options, report: Report) {
        let name = files.iter().map(File::name).collect::<Vec<_>>().join(" + ");
        SAMPLES.with_borrow_mut(|s| s.insert(run, Kept::Lent));
        // The first read made a session from the same options, so this one cannot fail.
        let Ok(mut session) = Session::new(opts) else {
            SAMPLES.with_borrow_mut(|s| s.remove(&run));
            return;
        };
        let read = read_all(&mut session, run, generation, files, Pass::Sample).await;
        if !current(run, generation) {
            return;
        }
        let sample = match (read, session.finish_sampled()) {
            (Ok(_), Ok(f)) if f.sample_dropped.is_none() => f.sample,
            (Ok(_), Ok(f)) => {
                // The files changed between the two reads: more items now.
                let items = f.sample_dropped.unwrap_or(0);
                SAMPLES.with_borrow_mut(|s| s.insert(run, Kept::TooMany { name, items }));
                return crate::intervals::start(run, generation);
            }
            (Err(Stop::Cancelled), _) => return,
            (Err(Stop::Read(why) | Stop::TooBig(why)), _) => {
                SAMPLES.with_borrow_mut(|s| s.remove(&run));
                return post(&FromWorker::IntervalsSkipped {
                    run,
                    reason: format!("the browser could not read the file again: {why}"),
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
        let sample = sample.unwrap_or_else(|| empty_sample(&report));
        SAMPLES.with_borrow_mut(|s| {
            s.insert(
                run,
                Kept::Here(Box::new(scorelens::Run {
                    name,
                    report,
                    sample,
                })),
            )
        });
        crate::intervals::start(run, generation);
    }

    /// As `scorelens::score_run`: a run of aggregate files only has an empty sample.
    fn empty_sample(report: &Report) -> scorelens::metrics::bootstrap::Sample {
        let profile = Profile::parse(&report.profile).unwrap_or_else(Profile::generic);
        scorelens::profiles::resampling::sample_for(profile)
    }

    async fn score(run: u32, generation: u32, files: Vec<File>, profile: Option<String>) {
        // Bootstraps of other runs wait while this one reads.
        let _reading = crate::intervals::Reading::new();
        let started = js_sys::Date::now();
        let opts = Options {
            profile,
            ..Options::default()
        };
        let mut session = match Session::new(&opts) {
            Ok(s) => s,
            Err(e) => return fail(run, e),
        };
        session.keep_items(DEFAULT_CAP);
        let name = files.iter().map(File::name).collect::<Vec<_>>().join(" + ");
        let (bytes, sampled) =
            match read_all(&mut session, run, generation, &files, Pass::First).await {
                Ok(b) => b,
                // A cancel was answered when it came; a newer score of the run replaces this one.
                Err(Stop::Cancelled) => return,
                Err(Stop::Read(why)) => {
                    return post(&FromWorker::Failed {
                        run,
                        error: format!("the browser could not read the file: {why}"),
                        warnings: Vec::new(),
                    })
                }
                Err(Stop::TooBig(error)) => {
                    return post(&FromWorker::Failed {
                        run,
                        error,
                        warnings: Vec::new(),
                    })
                }
            };
        match session.finish_sampled() {
            Ok(finished) => {
                let report = finished.report;
                let explorer = finished.explorer.unwrap_or_else(|| Explorer::new(0));
                // The items the profile admitted: each got a record or was counted past the cap.
                let admitted = explorer.len() as u64 + explorer.dropped();
                let mut again = false;
                let kept = match finished.sample_dropped {
                    Some(items) => Some(Kept::TooMany { name, items }),
                    None if !sampled && admitted > crate::intervals::MAX_ITEMS as u64 => {
                        Some(Kept::TooMany {
                            name,
                            items: admitted,
                        })
                    }
                    // The guess was wrong: few enough items to resample; read again below.
                    None if !sampled => {
                        again = true;
                        None
                    }
                    None => {
                        let sample = finished.sample.unwrap_or_else(|| empty_sample(&report));
                        Some(Kept::Here(Box::new(scorelens::Run {
                            name,
                            report: report.clone(),
                            sample,
                        })))
                    }
                };
                if let Some(kept) = kept {
                    SAMPLES.with_borrow_mut(|s| s.insert(run, kept));
                }
                let report_kept = again.then(|| report.clone());
                let scored = Scored {
                    json: report.to_json() + "\n",
                    report,
                    mass: MassBins {
                        conditioning: explorer.mass_bins(Mode::Conditioning),
                        mixing: explorer.mass_bins(Mode::Mixing),
                    },
                    kept: explorer.len() as u64,
                    dropped: explorer.dropped(),
                    bytes,
                    millis: js_sys::Date::now() - started,
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

    fn fail(run: u32, e: Error) {
        let warnings = match &e {
            Error::NoItems(w) => w.clone(),
            Error::Strict(w) => vec![w.clone()],
            _ => Vec::new(),
        };
        post(&FromWorker::Failed {
            run,
            error: e.to_string(),
            warnings,
        });
    }
}

fn main() {
    #[cfg(target_arch = "wasm32")]
    worker::start();
}
