//! The page's side of the worker: starts it at first need, queues messages until it says Ready,
//! and turns its answers into state changes.
//!
//! File handles stay here (they are not plain data for signals), keyed by run, so that a run can be
//! scored again with another profile or merged with others without asking the user again.

use super::protocol::{FromWorker, ToWorker};
use super::state::{AppState, Boot, Compared, Ranked, Run, Status};
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, MessageEvent, Worker, WorkerOptions, WorkerType};

struct Client {
    worker: Worker,
    ready: bool,
    queue: Vec<JsValue>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

/// A run's files, and the run inside them for files that hold several (`Options::part`).
type RunFiles = (Vec<File>, Option<String>);

thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
    static FILES: RefCell<HashMap<u32, RunFiles>> = RefCell::new(HashMap::new());
    static NEXT_RUN: RefCell<u32> = const { RefCell::new(1) };
    static NEXT_COMPARE: RefCell<u32> = const { RefCell::new(0) };
    static STATE: RefCell<Option<AppState>> = const { RefCell::new(None) };
    /// Messages held until the next task, behind a scored run (`receive`).
    static LATER: RefCell<Option<Vec<FromWorker>>> = const { RefCell::new(None) };
}

/// Gives the client the state its answers update; the app calls this once.
pub fn init(state: AppState) {
    STATE.with_borrow_mut(|s| *s = Some(state));
    // The worker draws the shown run's intervals first: after a drop of fifty runs, the report
    // on screen gets its intervals in seconds, not after every other run's.
    Effect::new(move |_| {
        if let Some(run) = state.active.get() {
            send(&ToWorker::Showing { run });
        }
    });
}

fn state() -> Option<AppState> {
    STATE.with_borrow(|s| *s)
}

fn log_error(what: &str, e: &JsValue) {
    web_sys::console::error_2(&format!("scorelens: {what}").into(), e);
}

fn start() -> Option<Client> {
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Module);
    let worker = match Worker::new_with_options("./worker_loader.js", &opts) {
        Ok(w) => w,
        Err(e) => {
            log_error("the scoring worker did not start", &e);
            return None;
        }
    };
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|ev: MessageEvent| {
        match serde_wasm_bindgen::from_value::<FromWorker>(ev.data()) {
            Ok(msg) => receive(msg),
            Err(e) => log_error("unreadable message from the worker", &e.into()),
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // An exception that escapes the worker (a trap after a panic, a script that did not load).
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(|ev: web_sys::Event| {
        ev.prevent_default();
        let message = js_sys::Reflect::get(&ev, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_else(|| "the scoring worker stopped".to_string());
        crashed(message);
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Some(Client {
        worker,
        ready: false,
        queue: Vec::new(),
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// The worker died (a panic is a wasm trap, after which its memory cannot be trusted): stop it,
/// fail the runs it was reading, and start a new one that reads the scored runs again, so that
/// their item lists work. A worker that never came up is not restarted until the next drop.
fn crashed(error: String) {
    let Some(old) = CLIENT.with_borrow_mut(|c| c.take()) else {
        return;
    };
    web_sys::console::error_1(&format!("scorelens: the scoring worker stopped: {error}").into());
    old.worker.set_onmessage(None);
    old.worker.set_onerror(None);
    old.worker.terminate();
    let was_ready = old.ready;
    // This runs inside one of its closures: they are leaked, not dropped under themselves.
    std::mem::forget(old);
    let Some(state) = state() else { return };
    // Nothing more comes from the old worker: what it was ending has ended.
    state.closing.set(Vec::new());
    state.stopping.set(None);
    let runs = state.runs.get_untracked();
    for r in &runs {
        if matches!(r.status, Status::Waiting | Status::Reading { .. }) {
            state.update_run(r.id, |r| {
                r.status = Status::Failed {
                    error: format!(
                        "The scorer stopped while reading this ({error}). It was restarted: \
                         drop the file again to retry."
                    ),
                    warnings: Arc::new(Vec::new()),
                }
            });
        }
    }
    if was_ready {
        for r in runs.iter().filter(|r| r.scored().is_some()) {
            score(r.id, r.profile.clone(), r.cluster.clone());
        }
        warm_up();
    }
}

/// Starts the worker if it is not running yet (opening the formats list does this too).
pub fn warm_up() {
    CLIENT.with_borrow_mut(|c| {
        if c.is_none() {
            *c = start();
        }
    });
}

/// Sends a message, starting the worker first if needed.
pub fn send(msg: &ToWorker) {
    let value = match serde_wasm_bindgen::to_value(msg) {
        Ok(v) => v,
        Err(e) => return log_error("message not sent", &e.into()),
    };
    warm_up();
    CLIENT.with_borrow_mut(|c| {
        if let Some(c) = c.as_mut() {
            if c.ready {
                if let Err(e) = c.worker.post_message(&value) {
                    log_error("message not sent", &e);
                }
            } else {
                c.queue.push(value);
            }
        }
    });
}

/// A scored run's view is built in a task of its own: reading a report of a thousand groups out
/// of the message already takes a good part of a frame. Messages that come meanwhile wait behind
/// it, in order (a run's intervals must find it scored).
fn receive(msg: FromWorker) {
    // `Some(msg)`: apply it now; `None`: held, and `first` says a task must drain the queue.
    let mut first = false;
    let now = LATER.with_borrow_mut(|later| match later {
        Some(queue) => {
            queue.push(msg);
            None
        }
        None if matches!(msg, FromWorker::Scored { .. }) => {
            *later = Some(vec![msg]);
            first = true;
            None
        }
        None => Some(msg),
    });
    if let Some(msg) = now {
        apply(msg);
    } else if first {
        set_timeout(
            || {
                for msg in LATER.take().unwrap_or_default() {
                    apply(msg);
                }
            },
            std::time::Duration::ZERO,
        );
    }
}

fn apply(msg: FromWorker) {
    let Some(state) = state() else { return };
    match msg {
        FromWorker::Ready { profiles, formats } => {
            state.profiles.set(profiles);
            state.formats.set(formats);
            CLIENT.with_borrow_mut(|c| {
                if let Some(c) = c.as_mut() {
                    c.ready = true;
                    for v in c.queue.drain(..) {
                        if let Err(e) = c.worker.post_message(&v) {
                            log_error("message not sent", &e);
                        }
                    }
                }
            });
        }
        FromWorker::Progress {
            run,
            file,
            done,
            total,
        } => state.update_run(run, |r| {
            // A scored run read again after a worker restart keeps its report on screen.
            if r.scored().is_none() {
                r.status = Status::Reading { file, done, total };
            }
        }),
        FromWorker::Scored { run, scored } => {
            state.intervals.update(|m| {
                m.remove(&run);
            });
            state.update_run(run, |r| r.status = Status::Scored(Arc::new(*scored)));
        }
        FromWorker::Failed {
            run,
            error,
            warnings,
        } => state.update_run(run, |r| {
            r.status = Status::Failed {
                error,
                warnings: Arc::new(warnings),
            }
        }),
        FromWorker::Cancelled { run } => state.update_run(run, |r| r.status = Status::Cancelled),
        FromWorker::Items { run, seq, page } => state.items.set(Some((run, seq, Arc::new(page)))),
        FromWorker::IntervalsProgress { run, done, total } => {
            intervals(state, run, Boot::Computing { done, total })
        }
        FromWorker::Intervals {
            run,
            bootstrap,
            json,
            html,
        } => intervals(
            state,
            run,
            Boot::Done {
                bootstrap: Arc::new(*bootstrap),
                json,
                html,
            },
        ),
        FromWorker::IntervalsSkipped { run, reason } => {
            intervals(state, run, Boot::Skipped(reason))
        }
        FromWorker::CompareProgress { seq, done, total } => {
            compared(state, seq, Compared::Running { done, total })
        }
        FromWorker::Compared {
            seq,
            comparison,
            json,
            html,
            csv,
            md,
        } => compared(
            state,
            seq,
            Compared::Done {
                comparison: Arc::new(*comparison),
                json: json.into(),
                html: html.into(),
                csv,
                md,
            },
        ),
        FromWorker::CompareFailed { seq, error } => compared(state, seq, Compared::Failed(error)),
        FromWorker::RankProgress { seq, done, total } => {
            ranked(state, seq, Ranked::Running { done, total })
        }
        FromWorker::Ranked { seq, shown } => ranked(state, seq, Ranked::Done(Arc::new(*shown))),
        FromWorker::RankFailed { seq, error } => ranked(state, seq, Ranked::Failed(error)),
        FromWorker::Stopped { run } => state.closing.update(|c| c.retain(|&r| r != run)),
        FromWorker::CompareStopped { seq } => state.stopping.update(|s| {
            if *s == Some(seq) {
                *s = None;
            }
        }),
        FromWorker::Grouped {
            seq,
            found,
            summary,
            files,
            paths,
        } => {
            let files = files.iter().filter_map(|f| f.dyn_into().ok());
            let files = files.zip(paths).collect();
            super::grouping::grouped(state, seq, found, summary, files)
        }
        FromWorker::Panicked { error } => crashed(error),
    }
}

/// Records where a run's bootstrap is, if the run is still there and scored.
fn intervals(state: AppState, run: u32, now: Boot) {
    let scored = state.runs.with_untracked(|runs| {
        runs.iter()
            .any(|r| r.id == run && matches!(r.status, Status::Scored(_)))
    });
    if scored {
        state.intervals.update(|m| {
            m.insert(run, now);
        });
    }
}

/// Records news of comparison `seq` unless a newer one was asked for or it was stopped (a
/// progress message already on its way must not undo the stop).
fn compared(state: AppState, seq: u32, now: Compared) {
    state.compared.update(|c| {
        if let Some((_, _, status)) = c
            .as_mut()
            .filter(|c| c.0 == seq && c.2 != Compared::Stopped)
        {
            *status = now;
        }
    });
}

/// Records news of leaderboard `seq` unless a newer one was asked for.
fn ranked(state: AppState, seq: u32, now: Ranked) {
    state.ranked.update(|c| {
        if let Some((_, _, status)) = c.as_mut().filter(|c| c.0 == seq) {
            *status = now;
        }
    });
}

/// Asks the worker to rank `runs` named `names` (replacing any leaderboard under way).
pub fn rank(state: AppState, runs: Vec<u32>, names: Vec<String>, resamples: u32, seed: u64) {
    // The leaderboard lists its runs by name; the view's run numbers index this order.
    let mut by_name: Vec<(u32, String)> = runs.into_iter().zip(names).collect();
    by_name.sort_by(|a, b| a.1.cmp(&b.1));
    let (runs, names): (Vec<u32>, Vec<String>) = by_name.into_iter().unzip();
    let seq = NEXT_COMPARE.with_borrow_mut(|n| {
        *n += 1;
        *n
    });
    let running = Ranked::Running {
        done: 0,
        total: resamples,
    };
    state.ranked.set(Some((seq, runs.clone(), running)));
    send(&ToWorker::Rank {
        seq,
        runs,
        names,
        resamples,
        seed,
    });
}

/// Asks the worker for leaderboard `seq` on another figure.
pub fn rank_by(seq: u32, figure: String) {
    send(&ToWorker::RankBy { seq, figure });
}

/// Asks the worker to compare `runs` pairwise (replacing any comparison under way).
pub fn compare(state: AppState, runs: Vec<u32>, resamples: u32, seed: u64) {
    let seq = NEXT_COMPARE.with_borrow_mut(|n| {
        *n += 1;
        *n
    });
    let running = Compared::Running {
        done: 0,
        total: resamples,
    };
    state.compared.set(Some((seq, runs.clone(), running)));
    send(&ToWorker::Compare {
        seq,
        runs,
        resamples,
        seed,
    });
}

/// Stops the comparison under way, if any.
pub fn stop_compare(state: AppState) {
    let running = state.compared.with_untracked(|c| {
        c.as_ref()
            .filter(|c| matches!(c.2, Compared::Running { .. }))
            .map(|c| c.0)
    });
    if let Some(seq) = running {
        state.stopping.set(Some(seq));
        send(&ToWorker::StopCompare { seq });
        compared(state, seq, Compared::Stopped);
    }
}

fn next_id() -> u32 {
    NEXT_RUN.with_borrow_mut(|n| {
        *n += 1;
        *n - 1
    })
}

fn files_array(files: &[File]) -> js_sys::Array {
    files.iter().collect()
}

fn score(run: u32, profile: Option<String>, cluster: Option<String>) {
    let (files, part) = FILES.with_borrow(|f| f.get(&run).cloned().unwrap_or_default());
    send(&ToWorker::Score {
        run,
        files: files_array(&files),
        profile,
        cluster,
        part,
    });
}

/// Stops the runs still being read: a new drop replaces them, and their tabs go.
pub fn stop_reading(state: AppState) {
    let busy: Vec<u32> = state.runs.with_untracked(|runs| {
        runs.iter()
            .filter(|r| matches!(r.status, Status::Waiting | Status::Reading { .. }))
            .map(|r| r.id)
            .collect()
    });
    for run in busy {
        close(state, run);
    }
}

/// Asks the worker to group files into runs (src/web/grouping.rs makes them).
pub fn group(seq: u32, files: &[(File, String)], how: crate::runs::Grouping) {
    send(&ToWorker::Group {
        seq,
        files: files.iter().map(|(f, _)| f).collect(),
        paths: files.iter().map(|(_, p)| p.clone()).collect(),
        how,
    });
}

/// Adds and scores one run per (name, files); the first is shown. Their ids.
pub fn add_runs(state: AppState, runs: Vec<(String, Vec<File>, Option<String>)>) -> Vec<u32> {
    let mut ids = Vec::new();
    for (label, files, part) in runs {
        let id = next_id();
        let run = Run {
            id,
            label,
            files: files.len(),
            profile: None,
            cluster: None,
            status: Status::Waiting,
        };
        FILES.with_borrow_mut(|f| f.insert(id, (files, part)));
        state.runs.update(|runs| runs.push(run));
        score(id, None, None);
        ids.push(id);
    }
    if let Some(&first) = ids.first() {
        state.active.set(Some(first));
    }
    ids
}

/// Scores a run again under another profile (`None`: the file decides).
pub fn rescore(state: AppState, run: u32, profile: Option<String>) {
    score_again(state, run, |r| r.profile = profile);
}

/// Scores a run again with another cluster rule (`None`: the file decides).
pub fn recluster(state: AppState, run: u32, cluster: Option<String>) {
    score_again(state, run, |r| r.cluster = cluster);
}

/// Changes what the run is scored with, and scores it again.
fn score_again(state: AppState, run: u32, change: impl FnOnce(&mut Run)) {
    let mut with = (None, None);
    state.update_run(run, |r| {
        change(r);
        r.status = Status::Waiting;
        with = (r.profile.clone(), r.cluster.clone());
    });
    score(run, with.0, with.1);
}

pub fn cancel(run: u32) {
    send(&ToWorker::Cancel { run });
}

/// Closes a run and frees its items in the worker.
pub fn close(state: AppState, run: u32) {
    FILES.with_borrow_mut(|f| f.remove(&run));
    state.closing.update(|c| c.push(run));
    send(&ToWorker::Forget { run });
    state.intervals.update(|m| {
        m.remove(&run);
    });
    state.runs.update(|runs| runs.retain(|r| r.id != run));
    if state.active.get_untracked() == Some(run) {
        state
            .active
            .set(state.runs.with_untracked(|r| r.last().map(|r| r.id)));
    }
}

/// Asks the worker for a page of a run's items.
pub fn items(run: u32, seq: u32, filter: crate::explore::Filter, offset: u64, limit: u64) {
    send(&ToWorker::Items {
        run,
        seq,
        filter,
        offset,
        limit,
    });
}
