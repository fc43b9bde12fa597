//! The leaderboard as HTML (`scorelens::html::leaderboard`, the CLI's `--format html` and the
//! page's export): the ranking in the board's order with its figures, a mark exactly where two
//! neighbours do not differ, one plot row per run and no tick label lost at 50 runs, text from the
//! files never markup, the page's buttons only in the page's view, and the same bytes each time.

use scorelens::html::{self, leaderboard::view};
use scorelens::leaderboard::{leaderboard, Board, Leaderboard};
use scorelens::{score_run, BootstrapOptions, Input, Options};

/// 40 choice items in groups g1 and g2; item i is right when `right(i)`.
fn run(name: &str, right: impl Fn(usize) -> bool) -> scorelens::Run {
    let mut text = String::from("{\"scorelens\": 1, \"benchmark\": \"generic\"}\n");
    for i in 0..40 {
        let answer = if right(i) { "A" } else { "B" };
        let group = if i % 2 == 0 { "g1" } else { "g2" };
        text += &format!(
            "{{\"id\": \"q{i}\", \"type\": \"choice\", \"options\": [\"A\", \"B\", \"C\"], \"gold\": \"A\", \"answer\": \"{answer}\", \"group\": \"{group}\"}}\n"
        );
    }
    let input = Input {
        name,
        bytes: text.as_bytes(),
    };
    score_run(name, [input], &Options::default()).unwrap()
}

const HOSTILE: &str = "<img src=x onerror=alert(1)>";

/// Four runs of clearly different skill, two of them close; one is named to break out of markup.
fn four() -> Leaderboard {
    let runs = vec![
        run("w.jsonl", |i| i % 10 != 0),
        run(HOSTILE, |i| i % 10 != 0 && i != 5),
        run("y.jsonl", |i| i % 2 == 0),
        run("z.jsonl", |i| i % 5 == 0),
    ];
    leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 300,
            seed: 3,
        },
    )
}

/// The values of `attr="…"` in `doc`, in order.
fn values<'a>(doc: &'a str, attr: &str) -> Vec<&'a str> {
    let key = format!(" {attr}=\"");
    doc.match_indices(&key)
        .map(|(at, _)| {
            let rest = &doc[at + key.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

fn differs_next(b: &Board, i: usize) -> bool {
    let (s, n) = (&b.standings[i], &b.standings[i + 1]);
    b.pairs
        .iter()
        .any(|p| p.differs && ((p.a == s.run && p.b == n.run) || (p.a == n.run && p.b == s.run)))
}

#[test]
fn the_ranking_is_the_boards_in_order_with_marks_where_neighbours_do_not_differ() {
    let l = four();
    let doc = html::leaderboard(&l, "metrics.accuracy").unwrap();
    let b = l.board("metrics.accuracy").unwrap();
    let table = &doc[doc.find("<table").unwrap()..doc.find("</table>").unwrap()];
    let escaped: Vec<String> = b.standings.iter().map(|s| html::escape(&s.run)).collect();
    assert_eq!(values(table, "data-run"), escaped);
    let shown: Vec<f64> = values(table, "data-value")
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    let want: Vec<f64> = b.standings.iter().map(|s| s.value).collect();
    assert_eq!(shown, want);
    // w is right on 36 of 40: 90.0%; its rank interval is written lo–hi.
    assert!(table.contains(">90.0%<"), "{table}");
    let s = &b.standings[0];
    let ranks = if s.rank_lo == s.rank_hi {
        s.rank_lo.to_string()
    } else {
        format!("{}–{}", s.rank_lo, s.rank_hi)
    };
    assert!(table.contains(&format!(">{ranks}<")));
    // The two close runs (36 and 35 of 40 right) cannot differ; w and z (36 and 8) must.
    let same = (0..3).filter(|&i| !differs_next(b, i)).count();
    assert!(same >= 1);
    assert_eq!(
        table
            .matches("<td class=\"same\" data-label=\"differs from next\">≈ no</td>")
            .count(),
        same
    );
    assert_eq!(doc.matches("class=\"between same\"").count(), same);
    assert_eq!(doc.matches("class=\"between\"").count(), 3 - same);
    // Then who leads and the pairs, as the CSV has them.
    assert!(doc.contains("<h2>Who leads"));
    assert!(doc.contains("<h2>Pairs on metrics.accuracy"));
}

#[test]
fn text_from_the_files_never_becomes_markup_and_the_document_is_inert() {
    let l = four();
    for figure in ["metrics.accuracy", "subsets.g1.accuracy"] {
        let doc = html::leaderboard(&l, figure).unwrap();
        assert!(
            !doc.contains(HOSTILE),
            "{figure}: the name went in as markup"
        );
        assert!(doc.contains(&html::escape(HOSTILE)));
        let lower = doc.to_ascii_lowercase();
        for bad in ["<script", "<img", "<button", "javascript:", "url("] {
            assert!(!lower.contains(bad), "{figure}: {bad}");
        }
        // No event handler in any tag (the name's `onerror` is text, escaped, between tags).
        for tag in lower.split('<').skip(1).map(|t| &t[..t.find('>').unwrap()]) {
            // Attribute names only: quoted values (escaped, so free of quotes) are left out.
            let names: String = tag.split('"').step_by(2).collect();
            assert!(
                !names
                    .split_whitespace()
                    .skip(1)
                    .any(|a| a.starts_with("on")),
                "{figure}: a handler in <{tag}>"
            );
        }
        assert_eq!(
            lower.matches("http").count(),
            lower.matches("http-equiv").count(),
            "{figure}: nothing is fetched"
        );
    }
    assert!(html::leaderboard(&l, "metrics.no_such_figure").is_none());
}

#[test]
fn the_pages_view_has_a_button_per_run_and_per_neighbours_and_the_export_none() {
    let l = four();
    let page = view(&l, "metrics.accuracy", true).unwrap().to_html();
    let export = view(&l, "metrics.accuracy", false).unwrap().to_html();
    // Buttons open run k of the leaderboard's runs, or compare neighbours k and k + 1 of the board.
    let mut open: Vec<&str> = values(&page, "data-open");
    open.sort_unstable();
    assert_eq!(open, ["0", "1", "2", "3"]);
    // Each pair of neighbours twice: its mark in the table and its gap in the plot.
    assert_eq!(values(&page, "data-a").len(), 6);
    let b = l.board("metrics.accuracy").unwrap();
    let k = |run: &str| {
        l.runs
            .iter()
            .position(|r| r.name == run)
            .unwrap()
            .to_string()
    };
    let first = (k(&b.standings[0].run), k(&b.standings[1].run));
    assert_eq!(values(&page, "data-a")[0], first.0);
    assert_eq!(values(&page, "data-b")[0], first.1);
    assert!(!export.contains("data-open") && !export.contains("data-a="));
}

#[test]
fn fifty_runs_every_row_and_name_beside_the_plot_and_no_tick_label_lost() {
    let runs: Vec<scorelens::Run> = (0..50)
        .map(|r| {
            run(
                &format!("model-{r:02}-with-a-rather-long-name.jsonl"),
                move |i| (i * 7 + r) % 50 < 10 + r / 2,
            )
        })
        .collect();
    let l = leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 40,
            seed: 9,
        },
    );
    let doc = html::leaderboard(&l, "metrics.accuracy").unwrap();
    let plot = &doc[doc.find("<svg").unwrap()..doc.find("</svg>").unwrap()];
    assert_eq!(plot.matches("class=\"rank-row\"").count(), 50);
    // Every name is written whole in the column beside the plot, in the plot's order (the style
    // sheet ends a long one in an ellipsis; the tooltip holds it whole).
    let names = &doc[doc.find("class=\"rank-names\"").unwrap()..doc.find("<svg").unwrap()];
    let rows: Vec<&str> = plot
        .match_indices("<g class=\"rank-row\" data-run=\"")
        .map(|(at, m)| {
            let rest = &plot[at + m.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    let written: Vec<&str> = names
        .match_indices("<div class=\"run-name\" data-run=\"")
        .map(|(at, m)| {
            let rest = &names[at + m.len()..];
            &rest[rest.find('>').unwrap() + 1..rest.find("</div>").unwrap()]
        })
        .collect();
    assert_eq!(written, rows);
    for r in &l.runs {
        assert!(names.contains(&format!("title=\"{}\"", r.name)));
    }
    // A tick at every rank, labelled at 1 and every fifth: 11 labels, 5 rank units apart, so
    // that no two collide.
    let labels: Vec<&str> = plot
        .match_indices("class=\"tick\"")
        .map(|(at, _)| {
            let rest = &plot[at..];
            &rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()]
        })
        .collect();
    assert_eq!(
        labels,
        ["1", "5", "10", "15", "20", "25", "30", "35", "40", "45", "50"]
    );
    assert_eq!(plot.matches("<line x1=").count(), 50);
    assert_eq!(
        html::leaderboard(&l, "metrics.accuracy").unwrap(),
        doc,
        "the same input gives the same bytes"
    );
}
