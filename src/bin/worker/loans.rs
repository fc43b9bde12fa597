//! Runs lent out of the worker's `SAMPLES` store to a task that resamples them (a comparison, a
//! leaderboard), and put back after: one loan rule for every such task, so that two tasks never
//! draw from one run at once and a run closed meanwhile is not brought back.

use crate::worker::{scope, Kept, SAMPLES};
use scorelens::Run;
use wasm_bindgen_futures::JsFuture;

/// What a borrowing task does, for its messages: `("compares", "compare")` says "more than the
/// browser compares … `scorelens compare` compares any size" and "no scored items to compare".
pub struct Task {
    /// The verb as "the browser …s" takes it: `compares`, `ranks`.
    pub does: &'static str,
    /// The verb's plain form: `compare`, `rank`.
    pub verb: &'static str,
    /// The CLI's command that does the same at any size.
    pub command: &'static str,
}

/// Lets the worker handle its messages (a macrotask: the page's messages are macrotasks too).
pub async fn tick() {
    wait(0).await;
}

/// Lets the worker handle its messages, after `ms` milliseconds (a task polling for its turn).
pub async fn wait(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(p).await;
}

/// Takes the runs out of the store, waiting while another task has one of them on loan. An empty
/// error means the task was superseded (`live` turned false) while it waited.
pub async fn borrow(ids: &[u32], live: impl Fn() -> bool, task: &Task) -> Result<Vec<Run>, String> {
    loop {
        if !live() {
            return Err(String::new());
        }
        let state = SAMPLES.with_borrow(|s| {
            ids.iter()
                .map(|id| match s.get(id) {
                    Some(Kept::Here(_)) => Ok(true),
                    Some(Kept::Lent) => Ok(false),
                    Some(Kept::TooMany { name, items }) => Err(format!(
                        "{name} has {items} items: more than the browser {} ({}), so the page \
                         kept no per-item sample of it; `scorelens {}` {} any size",
                        task.does,
                        crate::intervals::MAX_ITEMS,
                        task.command,
                        task.does
                    )),
                    None => Err(format!("run {id} has no scored items to {}", task.verb)),
                })
                .collect::<Result<Vec<bool>, String>>()
        })?;
        if state.iter().all(|&here| here) {
            return Ok(SAMPLES.with_borrow_mut(|s| {
                ids.iter()
                    .filter_map(|id| match s.insert(*id, Kept::Lent) {
                        Some(Kept::Here(run)) => Some(*run),
                        _ => None,
                    })
                    .collect()
            }));
        }
        tick().await;
    }
}

/// Puts the runs back, unless the run was closed or scored again meanwhile.
pub fn give_back(ids: &[u32], runs: Vec<Run>) {
    SAMPLES.with_borrow_mut(|s| {
        for (id, run) in ids.iter().zip(runs) {
            if let Some(slot @ Kept::Lent) = s.get_mut(id) {
                *slot = Kept::Here(Box::new(run));
            }
        }
    });
}
