//! The leaderboard as HTML: the ranking on one figure (value, interval, rank interval, whether
//! each run differs from the next), its rank-interval plot as inline SVG, then who leads and the
//! figure's pairs. The ranking and the plot are one `Node` tree: the CLI's
//! `leaderboard --format html` writes it into a self-contained document, and the page mounts the
//! same tree, sent by its worker, with buttons on the names and the marks.

use super::node::Node;
use super::{close, open, Html};
use crate::fmt::{self, Kind};
use crate::leaderboard::tables::tables;
use crate::leaderboard::{Board, Leaderboard, Standing};
use crate::table::{Cell, Table};

/// The plot's rows, in pixels; the room before rank 1 and for the marks on the right; its width.
/// It is drawn at this size, one SVG unit a pixel, so that the run names beside it (HTML, see
/// `plot`) line up with its rows: the style sheets give them the same row height and top.
const ROW: f64 = 16.0;
const LEFT: f64 = 8.0;
const RIGHT: f64 = 28.0;
const WIDTH: f64 = 450.0;
const TOP: f64 = 6.0;

/// A figure's or subset's label and how its values are written.
pub fn label(figure: &str) -> (String, Kind) {
    match figure
        .strip_prefix("subsets.")
        .and_then(|s| s.strip_suffix(".accuracy"))
    {
        Some(s) => (format!("accuracy on {s}"), Kind::Share),
        None => fmt::figure(figure),
    }
}

/// Whether standings `i` and `i + 1` differ after the adjustment (`None` for the last run).
fn differs_next(b: &Board, i: usize) -> Option<bool> {
    let (s, n) = (b.standings.get(i)?, b.standings.get(i + 1)?);
    Some(
        b.pairs.iter().any(|p| {
            p.differs && ((p.a == s.run && p.b == n.run) || (p.a == n.run && p.b == s.run))
        }),
    )
}

/// A run's place in the leaderboard's runs (the order the page knows them in).
fn index(l: &Leaderboard, run: &str) -> String {
    l.runs
        .iter()
        .position(|r| r.name == run)
        .map_or_else(String::new, |k| k.to_string())
}

fn px(v: f64) -> String {
    format!("{v:.1}")
}

fn ranks(lo: u32, hi: u32) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

/// The ranking's columns; the fourth is the figure's own name.
const COLUMNS: [&str; 8] = [
    "rank",
    "tied rank",
    "run",
    "",
    "95% interval",
    "median rank",
    "95% rank interval",
    "differs from next",
];

fn num(text: impl Into<String>, column: &str) -> Node {
    Node::el("td", "num", text).attr("data-label", column)
}

/// One run's row. Each cell carries its column's name (`data-label`): on a phone the table is
/// `stack`ed, one block per run, each figure under its name, and no part of it scrolls sideways.
fn row(
    l: &Leaderboard,
    b: &Board,
    i: usize,
    s: &Standing,
    shown: (&str, Kind),
    page: bool,
) -> Node {
    let (figure, kind) = shown;
    let name = if page {
        Node::new("th").kid(
            Node::el("button", "link", s.run.clone())
                .attr("data-open", index(l, &s.run))
                .attr("title", format!("Open the report of {}", s.run)),
        )
    } else {
        Node::new("th").text(s.run.clone())
    };
    let interval = match (s.lo, s.hi) {
        (Some(lo), Some(hi)) => fmt::interval(lo, hi, kind),
        _ => fmt::NA.to_string(),
    };
    let next = b.standings.get(i + 1);
    let mark = match (differs_next(b, i), next) {
        (Some(d), Some(n)) => {
            let text = if d { "yes" } else { "≈ no" };
            let cell =
                Node::el("td", if d { "" } else { "same" }, "").attr("data-label", COLUMNS[7]);
            if page {
                cell.kid(
                    Node::el("button", "link", text)
                        .attr("data-a", index(l, &s.run))
                        .attr("data-b", index(l, &n.run))
                        .attr("title", format!("Compare {} and {}", s.run, n.run)),
                )
            } else {
                cell.text(text)
            }
        }
        _ => Node::el("td", "", fmt::NA).attr("data-label", COLUMNS[7]),
    };
    Node::new("tr")
        .attr("data-run", s.run.clone())
        .kid(num(s.rank.to_string(), COLUMNS[0]))
        .kid(
            num(s.tied_rank.to_string(), COLUMNS[1])
                .attr("data-tied-rank", s.tied_rank.to_string()),
        )
        .kid(name.attr("scope", "row"))
        .kid(
            num(fmt::show(Some(s.value), kind), figure)
                .attr("data-value", fmt::exact(Some(s.value))),
        )
        .kid(Node::el("td", "num interval", interval).attr("data-label", COLUMNS[4]))
        .kid(num(s.rank_median.to_string(), COLUMNS[5]))
        .kid(num(ranks(s.rank_lo, s.rank_hi), COLUMNS[6]))
        .kid(mark)
}

fn ranking(l: &Leaderboard, b: &Board, page: bool) -> Node {
    let (name, kind) = label(&b.figure);
    let better = if b.higher_is_better {
        "higher"
    } else {
        "lower"
    };
    let head = Node::new("tr").kids(COLUMNS.iter().enumerate().map(|(k, c)| {
        let (text, numeric) = match k {
            2 | 7 => (*c, false),
            3 => (name.as_str(), true),
            _ => (*c, true),
        };
        Node::el("th", if numeric { "num" } else { "" }, text).attr("scope", "col")
    }));
    let rows = b
        .standings
        .iter()
        .enumerate()
        .map(|(i, s)| row(l, b, i, s, (&name, kind), page));
    let caption = format!(
        "Ranked by {name} ({better} is better) on {}",
        fmt::plural(l.common, "shared item", "shared items")
    );
    Node::el("div", "scroll", "").kid(
        Node::el("table", "figures leaderboard stack", "")
            .attr("data-testid", "leaderboard-table")
            .attr("data-figure", b.figure.clone())
            .kid(Node::new("caption").text(caption))
            .kid(Node::new("thead").kid(head))
            .kid(Node::new("tbody").kids(rows)),
    )
}

/// One row per run, best first: a bar from the 2.5% to the 97.5% rank, a dot at the median, the
/// name on the left; "≈" between neighbours that do not differ; a tick at every rank, labelled
/// at every rank up to 20 runs and at 1 and every fifth beyond, so that none collide at 50.
/// The names are a column of HTML beside the SVG, not text in it: on a phone the plot scrolls
/// sideways in its box while the names stay pinned at its left edge (sticky), and a long name
/// ends in an ellipsis at the column's width, which the style sheet narrows on a small screen.
fn plot(l: &Leaderboard, b: &Board, page: bool) -> Node {
    let n = b.standings.len().max(1);
    let x = |rank: f64| LEFT + (rank - 0.5) / n as f64 * (WIDTH - LEFT - RIGHT);
    let bottom = TOP + ROW * n as f64;
    let height = bottom + 30.0;
    let (name, _) = label(&b.figure);
    let title = format!(
        "95% rank intervals on {name}: a bar from the 2.5% to the 97.5% rank, a dot at the median \
         rank; ≈ between neighbours that do not differ after Holm's adjustment"
    );
    let mut svg = Node::new("svg")
        .attr("id", "leaderboard-plot")
        .attr("class", "rank-plot")
        .attr("viewBox", format!("0 0 {WIDTH} {}", px(height)))
        .attr("width", px(WIDTH))
        .attr("height", px(height))
        .attr("font-size", "11")
        .attr("role", "img")
        .attr("aria-label", title.clone())
        .kid(Node::new("title").text(title));
    let every = if n <= 20 { 1 } else { 5 };
    for r in 1..=n {
        let tx = px(x(r as f64));
        let labelled = r == 1 || r % every == 0;
        let (y1, stroke) = if labelled {
            (TOP, "#ddd")
        } else {
            (bottom, "#999")
        };
        svg = svg.kid(
            Node::new("line")
                .attr("x1", tx.clone())
                .attr("x2", tx.clone())
                .attr("y1", px(y1))
                .attr("y2", px(bottom + 4.0))
                .attr("stroke", stroke),
        );
        if labelled {
            svg = svg.kid(
                Node::new("text")
                    .attr("class", "tick")
                    .attr("x", tx)
                    .attr("y", px(bottom + 16.0))
                    .attr("text-anchor", "middle")
                    .text(r.to_string()),
            );
        }
    }
    // The SVG's label (its `aria-label`) names the picture; the names beside it are part of it.
    let mut names = Node::el("div", "rank-names", "").attr("aria-hidden", "true");
    for (i, s) in b.standings.iter().enumerate() {
        let y = TOP + ROW * i as f64 + ROW / 2.0;
        names = names.kid(
            Node::el("div", "run-name", s.run.clone())
                .attr("data-run", s.run.clone())
                .attr("title", s.run.clone()),
        );
        let row = Node::new("g")
            .attr("class", "rank-row")
            .attr("data-run", s.run.clone())
            .kid(
                Node::new("line")
                    .attr("class", "rank-bar")
                    .attr("x1", px(x(f64::from(s.rank_lo))))
                    .attr("x2", px(x(f64::from(s.rank_hi))))
                    .attr("y1", px(y))
                    .attr("y2", px(y))
                    .attr("stroke", "#4c78a8")
                    .attr("stroke-width", "6")
                    .attr("stroke-linecap", "round"),
            )
            .kid(
                Node::new("circle")
                    .attr("class", "rank-median")
                    .attr("cx", px(x(f64::from(s.rank_median))))
                    .attr("cy", px(y))
                    .attr("r", "3")
                    .attr("fill", "#1d1d1f"),
            );
        svg = svg.kid(row);
        if let (Some(same), Some(next)) = (differs_next(b, i).map(|d| !d), b.standings.get(i + 1)) {
            let gap = TOP + ROW * (i + 1) as f64;
            let mut mark =
                Node::new("g").attr("class", if same { "between same" } else { "between" });
            if page {
                // The whole space between the two rows is the click target.
                mark = mark
                    .attr("data-a", index(l, &s.run))
                    .attr("data-b", index(l, &next.run))
                    .kid(Node::new("title").text(format!("Compare {} and {}", s.run, next.run)))
                    .kid(
                        Node::new("rect")
                            .attr("x", "0")
                            .attr("y", px(gap - 4.0))
                            .attr("width", px(WIDTH))
                            .attr("height", "8")
                            .attr("fill", "transparent"),
                    );
            }
            if same {
                mark = mark.kid(
                    Node::new("text")
                        .attr("x", px(WIDTH - RIGHT / 2.0))
                        .attr("y", px(gap + 4.0))
                        .attr("text-anchor", "middle")
                        .text("≈"),
                );
            }
            svg = svg.kid(mark);
        }
    }
    names = names.kid(Node::el("div", "rank-axis", "rank"));
    // On a phone the plot keeps a legible size and scrolls in its own box, the names pinned.
    Node::new("figure")
        .kid(
            Node::el("div", "scroll rank-scroll", "")
                .attr("data-testid", "rank-scroll")
                .kid(names)
                .kid(svg),
        )
        .kid(Node::new("figcaption").text(format!(
        "95% rank intervals on {name}, best first: bar from the 2.5% to the 97.5% rank, dot at the \
         median; ≈ marks neighbours that do not differ after Holm's adjustment."
    )))
}

/// What the leaderboard rests on, in one line.
fn settings(l: &Leaderboard) -> String {
    let b = &l.bootstrap;
    format!(
        "{} runs on {}; {} {} resamples, seed {}, {:.0}% intervals, resampled within {} ({}). \
         Ranks: {}. Tests: {}.",
        l.runs.len(),
        fmt::plural(l.common, "shared item", "shared items"),
        fmt::count(u64::from(b.resamples)),
        b.method,
        b.seed,
        b.level * 100.0,
        b.strata,
        fmt::plural(b.strata_count, "stratum", "strata"),
        l.tie_rule,
        b.adjustment
    )
}

/// The notes: items not ranked, figures left out, runs not ranked.
fn notes(l: &Leaderboard) -> Vec<Node> {
    let missing = l.not_shared.iter().filter(|o| o.count > 0).map(|o| {
        format!(
            "{} of {} missing from another run and not ranked.",
            fmt::plural(o.count, "item", "items"),
            o.run
        )
    });
    missing
        .chain(l.notes.iter().cloned())
        .map(|n| Node::el("p", "meta muted small note", n))
        .collect()
}

/// The leaderboard on `figure`: its settings, its ranking and its plot; `page` adds the page's
/// buttons (open a run, compare neighbours). `None` when no board has that name.
pub fn view(l: &Leaderboard, figure: &str, page: bool) -> Option<Node> {
    let b = l.board(figure)?;
    Some(
        Node::el("div", "leaderboard-view", "")
            .kid(Node::el("p", "meta muted small", settings(l)))
            .kid(ranking(l, b, page))
            .kid(plot(l, b, page))
            .kids(notes(l)),
    )
}

/// A table of the model, figures with four decimals as the Markdown export writes them.
fn table(h: &mut Html, t: &Table) {
    h.el("h2", "", &t.title);
    let text: Vec<usize> = (0..t.columns.len()).filter(|&i| !t.numeric(i)).collect();
    let columns: Vec<&str> = t.columns.iter().map(String::as_str).collect();
    super::sections::thead(h, &columns, &text);
    for r in &t.rows {
        h.raw("<tr>");
        for c in r {
            match c {
                Cell::Num(v) => {
                    h.raw("<td class=\"num\"")
                        .attr("data-value", &fmt::exact(*v))
                        .raw(">")
                        .text(&c.shown())
                        .raw("</td>");
                }
                Cell::Text(s) => {
                    h.el("td", "", s);
                }
            }
        }
        h.raw("</tr>\n");
    }
    super::sections::tend(h);
}

/// The leaderboard ranked on `figure` as one self-contained document: the ranking and its plot,
/// who leads on every figure and subset, and the figure's pairs. `None` when no board has that
/// name.
pub fn document(l: &Leaderboard, figure: &str) -> Option<String> {
    let all = tables(l, figure)?;
    let view = view(l, figure, false)?;
    let mut h = open(&format!("Leaderboard of {} runs · scorelens", l.runs.len()));
    h.el("h1", "", &format!("Leaderboard of {} runs", l.runs.len()));
    view.write(&mut h);
    for t in all.iter().skip(1) {
        table(&mut h, t);
    }
    Some(close(h))
}
