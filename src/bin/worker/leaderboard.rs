//! The worker's half of the leaderboard view: the runs' paired resamples drawn in slices (a newer
//! request or a closed run is felt between slices), then `leaderboard_of`, so the page gets what
//! `scorelens leaderboard` prints for the same files and seed; and the view of one figure, laid out
//! here (the ranking and its plot as `html::node::Node`, the exports as the CLI writes them), so
//! that the page only mounts it.

use crate::loans::{self, Task};
use crate::worker::post;
use scorelens::html::leaderboard::{label, view};
use scorelens::html::node::Node;
use scorelens::leaderboard::tables::{default_figure, tables};
use scorelens::leaderboard::{leaderboard_of, Joined, Leaderboard, Replicates};
use scorelens::metrics::lanes::LANES;
use scorelens::web::protocol::{FromWorker, RankedView, Text};
use scorelens::BootstrapOptions;
use std::cell::{Cell, RefCell};

/// Milliseconds of drawing between two looks at the message queue.
const SLICE_MS: f64 = 40.0;

/// What the leaderboard borrows its runs for, in its messages.
const RANK: Task = Task {
    does: "ranks",
    verb: "rank",
    command: "leaderboard",
};

thread_local! {
    /// The leaderboard that should be running; an older task that sees a newer one stops.
    static CURRENT: Cell<u32> = const { Cell::new(0) };
    /// The last leaderboard made, kept to show it on another figure.
    static LAST: RefCell<Option<(u32, Leaderboard)>> = const { RefCell::new(None) };
}

/// Starts leaderboard `seq` of `runs` (in that order), named `names` as the page names them.
pub fn start(seq: u32, runs: Vec<u32>, names: Vec<String>, opts: BootstrapOptions) {
    CURRENT.set(seq);
    LAST.set(None);
    wasm_bindgen_futures::spawn_local(rank(seq, runs, names, opts));
}

/// Shows leaderboard `seq` ranked on `figure`.
pub fn by(seq: u32, figure: &str) {
    LAST.with_borrow(|last| {
        if let Some((s, l)) = last.as_ref().filter(|(s, _)| *s == seq) {
            if let Some(shown) = shown(l, figure) {
                post(&FromWorker::Ranked {
                    seq: *s,
                    shown: Box::new(shown),
                });
            }
        }
    });
}

fn live(seq: u32) -> bool {
    CURRENT.get() == seq
}

async fn rank(seq: u32, ids: Vec<u32>, names: Vec<String>, opts: BootstrapOptions) {
    let mut runs = match loans::borrow(&ids, || live(seq), &RANK).await {
        Ok(runs) => runs,
        Err(e) if e.is_empty() => return,
        Err(error) => return post(&FromWorker::RankFailed { seq, error }),
    };
    // Ranked under the page's names (the CLI's for the same files); the store keeps its own.
    let own: Vec<String> = runs
        .iter_mut()
        .zip(names)
        .map(|(r, n)| std::mem::replace(&mut r.name, n))
        .collect();
    // One join for the draws and the boards: joining four runs of 200,000 ids again holds their
    // id maps a second time, and wasm memory never shrinks.
    let joined = Joined::new(&runs);
    if let Some(parts) = draw_all(seq, &joined, &opts).await {
        let parts = RefCell::new(Some(parts));
        let l = leaderboard_of(joined, &opts, |_, _| {
            parts.borrow_mut().take().unwrap_or_default()
        });
        match default_figure(&l).and_then(|f| shown(&l, f)) {
            Some(shown) if l.common > 0 => {
                post(&FromWorker::Ranked {
                    seq,
                    shown: Box::new(shown),
                });
                LAST.set(Some((seq, l)));
            }
            _ => post(&FromWorker::RankFailed {
                seq,
                error: "The runs share no item id, so there is nothing to rank.".to_string(),
            }),
        }
    }
    for (r, n) in runs.iter_mut().zip(own) {
        r.name = n;
    }
    loans::give_back(&ids, runs);
}

/// Every paired resample, in order, drawn in slices of about `SLICE_MS`; `None` when a newer
/// leaderboard was asked for. Runs are drawn in turns of at most `ITEMS_AT_ONCE` items (at least
/// one run a turn), each turn's lane layouts let go before the next: four runs of 200,000 items
/// held some 55 MB of them at once, and wasm memory never shrinks. Each resample's draw is the
/// same in every turn, so the values are those of one turn over every run.
async fn draw_all(
    seq: u32,
    joined: &Joined<'_>,
    opts: &BootstrapOptions,
) -> Option<Vec<Replicates>> {
    let turns = joined.turns(ITEMS_AT_ONCE);
    let total = opts.resamples.saturating_mul(turns.len() as u32);
    let mut parts: Vec<(std::ops::Range<u32>, Replicates)> = Vec::new();
    let mut done = 0u32;
    for (t, of) in turns.iter().enumerate() {
        // The first turn chooses the slices; the others draw the same ones.
        let (mut at, mut step, mut k) = (0u32, LANES as u32, 0usize);
        while at < opts.resamples {
            let started = js_sys::Date::now();
            let range = match parts.get(k) {
                Some((r, _)) if t > 0 => r.clone(),
                _ => at..at.saturating_add(step).min(opts.resamples),
            };
            if t == 0 {
                parts.push((range.clone(), Replicates::default()));
            }
            if let Some((_, into)) = parts.get_mut(k) {
                joined.draws_into(opts, range.clone(), of.clone(), into);
            }
            let took = js_sys::Date::now() - started;
            done = done.saturating_add(range.end - range.start);
            at = range.end;
            k += 1;
            // Grow the slice while it is quick, shrink it when it is slow.
            if took < SLICE_MS / 2.0 {
                step = step.saturating_mul(2);
            } else if took > SLICE_MS * 2.0 {
                step = (step / 2).max(LANES as u32) / LANES as u32 * LANES as u32;
            }
            post(&FromWorker::RankProgress { seq, done, total });
            loans::tick().await;
            if !live(seq) {
                joined.release_lanes(of.clone());
                return None;
            }
        }
        joined.release_lanes(of.clone());
    }
    Some(parts.into_iter().map(|(_, r)| r).collect())
}

/// Items drawn in one turn: their lane layouts are some 20 MB. Four runs of 200,000 items are
/// drawn one at a time; fifty of 15,000, twenty at a time.
const ITEMS_AT_ONCE: usize = 300_000;

/// The page's view of `figure`: the menu of figures, the ranking and plot with their buttons, the
/// export buttons, and the exports themselves (`scorelens leaderboard --json`, and `--format
/// csv|markdown|html --by figure`).
fn shown(l: &Leaderboard, figure: &str) -> Option<RankedView> {
    let t = tables(l, figure)?;
    let options = l.figures.iter().chain(&l.subsets).map(|b| {
        let o = Node::new("option")
            .attr("value", b.figure.clone())
            .text(label(&b.figure).0);
        if b.figure == figure {
            o.attr("selected", "")
        } else {
            o
        }
    });
    let menu = Node::el("label", "small", "Rank by ").kid(
        Node::new("select")
            .attr("data-testid", "leaderboard-by")
            .kids(options),
    );
    let buttons = [
        ("json", "Leaderboard JSON"),
        ("csv", "Tables CSV"),
        ("md", "Tables Markdown"),
        ("html", "Leaderboard HTML"),
    ]
    .map(|(kind, text)| Node::new("button").attr("data-export", kind).text(text));
    let exports = Node::el("div", "export", "")
        .attr("role", "group")
        .attr("aria-label", "Export the leaderboard")
        .kids(buttons);
    let about = "Ranks with 95% intervals from one paired bootstrap over the items every run has. \
        A run leads only where it differs from every other after Holm's adjustment. Click a run \
        for its report, a mark between two runs for their comparison.";
    let tree = Node::el("div", "", "")
        .kid(Node::el("h2", "", "Leaderboard"))
        .kid(Node::el("p", "muted small", about))
        .kid(menu)
        .kid(view(l, figure, true)?)
        .kid(exports);
    // The exports go to the page as Blobs, written a piece at a time (the JSON of 50 runs is
    // about 19 MB).
    let mut json = Text::writer();
    l.write_json(&mut json).ok()?;
    let (csv, markdown) = Text::tables(&t);
    Some(RankedView {
        view: serde_json::to_string(&tree).ok()?,
        json: json.finish(),
        csv,
        markdown,
        html: Text::new(&scorelens::html::leaderboard(l, figure)?),
    })
}
