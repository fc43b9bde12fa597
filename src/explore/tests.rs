//! Tests of the explorer's records and queries, driven through a `Session` like the worker does.

use super::*;
use crate::metrics::groups::NO_GROUP;
use crate::session::{score_sources, Options, Session, Source};
use proptest::prelude::*;
use std::sync::Arc;

const FILE: &str = r#"{"scorelens": 1, "model": "m"}
{"id": "a", "group": "g1", "options": ["A", "B"], "gold": "A", "probs": {"A": 0.9, "B": 0.1}}
{"id": "b", "group": "g1", "options": ["A", "B"], "gold": "A", "probs": {"A": 0.2, "B": 0.7}}
{"id": "c", "group": "g2", "options": ["A", "B", "C"], "gold": "C", "answer": "Z"}
{"id": "d", "options": ["A", "B"], "gold": "B", "probs": {"A": 0.05, "B": 0.45}}
{"id": "e", "type": "pair", "group": "g2", "chosen": 1.0, "rejected": 2.0}
{"id": "f", "type": "best_of_n", "scores": [1, 3, 3], "num_correct": 1}
"#;

fn explored(text: &str, cap: usize) -> (crate::Report, Explorer) {
    let opts = Options {
        items: Some(cap),
        ..Options::default()
    };
    let f = score_sources([Source::bytes("run.jsonl", text.as_bytes())], &opts).unwrap();
    (f.report, f.explorer.unwrap())
}

fn ids(page: &Page) -> Vec<&str> {
    page.rows.iter().map(|r| r.id.as_str()).collect()
}

#[test]
fn records_hold_what_the_explorer_shows() {
    let (report, mut e) = explored(FILE, 100);
    assert_eq!(e.len() as u64, report.items);
    let all = e.query(&Filter::default(), 0, 100);
    assert_eq!(ids(&all), ["a", "b", "c", "d", "e", "f"]);
    let b = &all.rows[1];
    assert_eq!((b.file.as_str(), b.line), ("run.jsonl", Some(3)));
    assert_eq!((b.group.as_str(), b.kind.as_str()), ("g1", "choice"));
    assert_eq!((b.gold.as_str(), b.answer.as_deref()), ("A", Some("B")));
    assert_eq!(b.credit, 0.0);
    // Conditioning 0.7 / 0.9; mixing 0.7 + 0.1 / 2.
    assert!((b.confidence.unwrap() - 0.7 / 0.9).abs() < 1e-6);
    assert!((b.confidence_mixing.unwrap() - 0.75).abs() < 1e-6);
    let c = &all.rows[2];
    assert_eq!((c.answer.as_ref(), c.confidence), (None, None));
    assert_eq!(all.rows[3].group, "(none)");
    assert_eq!(all.rows[4].answer.as_deref(), Some("rejected"));
    // Best-of-n: the correct first candidate is not at the maximum, which two others share.
    assert_eq!(all.rows[5].gold, "candidate 1");
    assert_eq!(all.rows[5].answer.as_deref(), Some("tie of 2, 3"));
}

#[test]
fn filters_select_wrong_invalid_and_confident_wrong() {
    let (_, mut e) = explored(FILE, 100);
    let show = |show, threshold| Filter {
        show,
        threshold,
        ..Filter::default()
    };
    assert_eq!(
        ids(&e.query(&show(Show::Wrong, 0.0), 0, 100)),
        ["b", "c", "e", "f"]
    );
    assert_eq!(ids(&e.query(&show(Show::Invalid, 0.0), 0, 100)), ["c"]);
    // b is wrong at 0.78; d is right at 0.9; the rest have no confidence.
    assert_eq!(
        ids(&e.query(&show(Show::ConfidentWrong, 0.75), 0, 100)),
        ["b"]
    );
    assert!(e
        .query(&show(Show::ConfidentWrong, 0.8), 0, 100)
        .rows
        .is_empty());
    let text = Filter {
        text: "G2".to_string(),
        ..Filter::default()
    };
    assert_eq!(ids(&e.query(&text, 0, 100)), ["c", "e"]);
    let group = Filter {
        group: Some("g1".to_string()),
        ..Filter::default()
    };
    assert_eq!(ids(&e.query(&group, 0, 100)), ["a", "b"]);
    let unknown = Filter {
        group: Some("nope".to_string()),
        ..Filter::default()
    };
    assert_eq!(e.query(&unknown, 0, 100).total, 0);
    let by_conf = Filter {
        order: Order::Confidence,
        ..Filter::default()
    };
    assert_eq!(ids(&e.query(&by_conf, 0, 3)), ["a", "d", "b"]);
}

#[test]
fn the_cap_bounds_records_but_not_the_equal_mass_bins() {
    let (report, mut e) = explored(FILE, 2);
    assert_eq!((e.len(), e.dropped()), (2, 4));
    assert_eq!(e.query(&Filter::default(), 0, 10).total, 2);
    let bins = &report.conditioning.bins_em;
    let n: u64 = bins.iter().map(|b| b.count).sum();
    assert_eq!(n, report.conditioning.items);
}

#[test]
fn equal_mass_bins_give_the_reports_ece_em() {
    let (report, _) = explored(FILE, 100);
    for (mode, figures) in [
        (Mode::Conditioning, &report.conditioning),
        (Mode::Mixing, &report.mixing),
    ] {
        let bins = &figures.bins_em;
        let n = figures.items as f64;
        let ece: f64 = bins
            .iter()
            .filter(|b| b.count > 0)
            .map(|b| b.count as f64 / n * (b.confidence.unwrap() - b.accuracy.unwrap()).abs())
            .sum();
        assert!((ece - figures.ece_em.unwrap()).abs() < 1e-12, "{mode:?}");
    }
}

#[test]
fn without_items_in_the_options_nothing_is_kept() {
    let f = score_sources(
        [Source::bytes("run.jsonl", FILE.as_bytes())],
        &Options::default(),
    );
    assert!(f.unwrap().explorer.is_none());
}

#[test]
fn files_are_named_per_record() {
    let opts = Options {
        items: Some(10),
        ..Options::default()
    };
    let one = br#"{"id": "x", "options": ["A", "B"], "gold": "A", "answer": "A"}"#;
    let two = br#"{"id": "y", "options": ["A", "B"], "gold": "A", "answer": "B"}"#;
    let sources = [
        Source::bytes("one.jsonl", one),
        Source::bytes("two.jsonl", two),
    ];
    let e = score_sources(sources, &opts).unwrap().explorer;
    let page = e.unwrap().query(&Filter::default(), 0, 10);
    let files: Vec<&str> = page.rows.iter().map(|r| r.file.as_str()).collect();
    assert_eq!(files, ["one.jsonl", "two.jsonl"]);
}

proptest! {
    /// The report's equal-mass bins (the diagram's) are those of every item's confidence fed to
    /// an equal-mass state of its own, bit for bit, whatever the explorer's cap.
    #[test]
    fn mass_bins_are_every_items_bins(
        items in proptest::collection::vec((1u32..16, any::<bool>(), any::<bool>()), 1..80),
        cap in 0usize..4,
    ) {
        let mut text = String::new();
        let mut own = crate::metrics::ece::equal_mass::EqualMass::default();
        for (i, &(p, says_a, probs)) in items.iter().enumerate() {
            // Sixteenths are exact: the confidence is q[answer] under both readings.
            let q_a = f64::from(p) / 16.0;
            let answer = if says_a { "A" } else { "B" };
            let probs = if probs {
                own.add(if says_a { q_a } else { 1.0 - q_a }, says_a);
                format!(r#", "probs": {{"A": {q_a}, "B": {}}}"#, 1.0 - q_a)
            } else {
                String::new()
            };
            text.push_str(&format!(
                "{{\"id\": \"i{i}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"{answer}\"{probs}}}\n"
            ));
        }
        let (report, e) = explored(&text, cap);
        prop_assert_eq!(e.len(), cap.min(items.len()));
        prop_assert_eq!(&report.conditioning.bins_em, &own.bins());
        prop_assert_eq!(&report.mixing.bins_em, &own.bins());
    }

    /// Paging through a query gives the whole query, in order, whatever the page size.
    #[test]
    fn pages_concatenate_to_the_whole(n in 1usize..60, page in 1u64..9, show in 0u8..4) {
        let mut text = String::new();
        for i in 0..n {
            let p = (i % 10) as f64 / 10.0;
            let answer = if i % 7 == 0 { r#", "answer": "Z""# } else { "" };
            text.push_str(&format!(
                "{{\"id\": \"i{i}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {{\"A\": {p}, \"B\": {q}}}{answer}}}\n",
                q = 1.0 - p
            ));
        }
        let (_, mut e) = explored(&text, 1000);
        let filter = Filter {
            show: [Show::All, Show::Wrong, Show::Invalid, Show::ConfidentWrong][show as usize],
            threshold: 0.6,
            ..Filter::default()
        };
        let whole = e.query(&filter, 0, u64::MAX);
        let mut paged = Vec::new();
        let mut offset = 0;
        while offset < whole.total {
            let p = e.query(&filter, offset, page);
            prop_assert_eq!(p.total, whole.total);
            paged.extend(p.rows);
            offset += page;
        }
        prop_assert_eq!(paged, whole.rows);
    }
}

/// A choice item for `Explorer::add` alone.
fn choice(
    id: &str,
    group: Option<Arc<str>>,
    options: Arc<[String]>,
    gold: usize,
    answer: Option<usize>,
) -> Item {
    use crate::items::{OptionItem, OptionKind};
    Item {
        id: id.into(),
        line: None,
        group,
        tier: None,
        split: None,
        modality: None,
        cluster: None,
        body: Body::Option(OptionItem {
            kind: OptionKind::Choice,
            options,
            gold,
            gold_probs: None,
            answer,
            probs: None,
        }),
    }
}

#[test]
fn labels_and_groups_found_by_address_are_the_items_own() {
    // Shared option lists and group names (as the canonical reader gives them), fresh copies of
    // each (dropped after the item, so that their addresses come back for other text), more
    // groups than the group cache has slots, and ids long, short and not ASCII.
    let lists: Vec<Arc<[String]>> = [&["A", "B"][..], &["A", "B", "C", "D"], &["yes", "no"]]
        .iter()
        .map(|l| l.iter().map(|s| s.to_string()).collect())
        .collect();
    let groups: Vec<Arc<str>> = (0..150)
        .map(|g| Arc::from(format!("g{g}").as_str()))
        .collect();
    let mut e = Explorer::new(10_000);
    let mut want = Vec::new();
    for i in 0..2000usize {
        let list = &lists[i % 3];
        let options = if i % 4 == 0 {
            list.iter().cloned().collect::<Arc<[String]>>()
        } else {
            list.clone()
        };
        let g = (i * 7) % 150;
        let group = match i % 5 {
            0 => None,
            1 => Some(Arc::from(format!("g{g}").as_str())),
            _ => Some(groups[g].clone()),
        };
        let gold = i % list.len();
        // Now and then an answer past the list: its label reads as "" (as before the cache).
        let answer = match i % 6 {
            0 => None,
            1 => Some(list.len() + 1),
            _ => Some((i / 3) % list.len()),
        };
        let id = match i % 3 {
            0 => format!("é✓-{i}"),
            1 => format!("a-rather-long-identifier-of-item-{i}"),
            _ => format!("{i}"),
        };
        want.push((
            id.clone(),
            group.as_deref().unwrap_or(NO_GROUP).to_string(),
            list[gold].clone(),
            answer.map(|a| list.get(a).cloned().unwrap_or_default()),
        ));
        e.add(&choice(&id, group, options, gold, answer));
    }
    let rows = e.query(&Filter::default(), 0, u64::MAX).rows;
    let got: Vec<_> = rows
        .into_iter()
        .map(|r| (r.id, r.group, r.gold, r.answer))
        .collect();
    assert_eq!(got, want);
    // A group filter still finds its items by name.
    let g3 = Filter {
        group: Some("g3".to_string()),
        ..Filter::default()
    };
    let n = want.iter().filter(|w| w.1 == "g3").count() as u64;
    assert!(n > 0);
    assert_eq!(e.query(&g3, 0, 0).total, n);
}

#[test]
fn room_made_from_the_file_size_holds_the_same_records_and_stops_at_the_cap() {
    // The worker's path: the head, the file's size, then the chunks. 600 lines of about the
    // head's length, so the guess is close; with a cap of 200 the room stops at the cap.
    let mut text = String::from("{\"scorelens\": 1, \"model\": \"m\"}\n");
    for i in 0..600 {
        text += &format!(
            "{{\"id\": \"q{i:04}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {{\"A\": 0.{}, \"B\": 0.1}}}}\n",
            i % 9
        );
    }
    for cap in [200, 10_000] {
        let opts = Options {
            items: Some(cap),
            ..Options::default()
        };
        let mut s = Session::new(&opts).unwrap();
        let head = &text.as_bytes()[..text.len().min(crate::formats::HEAD)];
        let mut feed = s.add("run.jsonl", head, Some(text.len() as u64));
        let room = feed.explorer_room();
        assert!(
            room >= 550.min(cap) && room <= cap.min(700),
            "cap {cap}: room {room}"
        );
        feed.push(text.as_bytes());
        feed.end();
        let grown = s.finish().unwrap().explorer;
        let (_, plain) = explored(&text, cap);
        assert_eq!(grown.unwrap().records, plain.records, "cap {cap}");
    }
}
