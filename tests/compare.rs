//! Paired comparisons: identical runs differ by exactly 0, items found in one file only are listed,
//! deltas are the figures on the common items, McNemar's table is counted right, and pairing
//! narrows the interval when both models find the same items hard.

use scorelens::{compare, score_run, BootstrapOptions, Input, Options, Run};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples");

fn text(name: &str) -> String {
    std::fs::read_to_string(format!("{DIR}/{name}")).unwrap()
}

fn runs(files: &[(&str, &str)]) -> Vec<Run> {
    files
        .iter()
        .map(|(name, body)| {
            let input = Input {
                name,
                bytes: body.as_bytes(),
            };
            score_run(name, [input], &Options::default()).unwrap()
        })
        .collect()
}

fn boot(resamples: u32) -> BootstrapOptions {
    BootstrapOptions { resamples, seed: 5 }
}

#[test]
fn identical_files_differ_by_exactly_zero() {
    for file in [
        "jevbench-public-231.jsonl",
        "rewardbench-v2-scores.json",
        "choice.jsonl",
    ] {
        let body = text(file);
        let c = compare(&runs(&[("a", &body), ("b", &body)]), &boot(300));
        let p = &c.pairs[0];
        // Every item the file scores is shared: the common count is the file's own item count.
        let input = Input {
            name: file,
            bytes: body.as_bytes(),
        };
        let items = scorelens::score(&[input], &Options::default())
            .unwrap()
            .items;
        assert!(items > 0, "{file}");
        assert_eq!(p.common, items, "{file}");
        assert_eq!((p.only_a.count, p.only_b.count), (0, 0));
        assert!(p.figures.len() >= 5, "{file}: {}", p.figures.len());
        for d in &p.figures {
            assert_eq!(d.a, d.b, "{file} {}", d.figure);
            assert_eq!(
                (d.delta, d.lo, d.hi, d.se),
                (0.0, 0.0, 0.0, 0.0),
                "{file} {}",
                d.figure
            );
            assert!(!d.distinguishable);
        }
        assert_eq!(p.mcnemar.only_a + p.mcnemar.only_b, 0);
        assert_eq!(p.mcnemar.p_value, Some(1.0));
    }
}

#[test]
fn items_in_one_file_only_are_listed() {
    let (a, b) = (text("compare/model-a.jsonl"), text("compare/model-b.jsonl"));
    let c = compare(&runs(&[("a", &a), ("b", &b)]), &boot(200));
    let p = &c.pairs[0];
    assert_eq!(p.common, 390);
    assert_eq!(p.only_a.ids, ["q395", "q396", "q397", "q398", "q399"]);
    assert_eq!(p.only_b.ids, ["q000", "q001", "q002", "q003", "q004"]);
    assert_eq!(c.only_in[0].count, 5);
    assert_eq!(c.only_in[1].ids[0], "q000");
    // With a third run holding every item, nothing is in one file only.
    let both: String = a
        .lines()
        .chain(b.lines().skip(1).take(5))
        .map(|l| format!("{l}\n"))
        .collect();
    let c = compare(&runs(&[("a", &a), ("b", &b), ("all", &both)]), &boot(50));
    assert_eq!(c.pairs.len(), 3);
    assert!(c.only_in.iter().all(|o| o.count == 0), "{:?}", c.only_in);
    assert_eq!(c.pairs[1].common, 395, "a vs all");
}

/// The lines of a canonical file whose id is in `keep`.
fn only(body: &str, keep: &[String]) -> String {
    body.lines()
        .filter(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.get("id")
                .is_none_or(|id| keep.iter().any(|k| id == k.as_str()))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn deltas_are_the_figures_on_the_common_items() {
    let (a, b) = (text("compare/model-a.jsonl"), text("compare/model-b.jsonl"));
    let c = compare(&runs(&[("a", &a), ("b", &b)]), &boot(100));
    let ids: Vec<String> = (5..395).map(|i| format!("q{i:03}")).collect();
    let score = |body: &str| {
        let input = Input {
            name: "x.jsonl",
            bytes: body.as_bytes(),
        };
        scorelens::score(&[input], &Options::default()).unwrap()
    };
    let (ra, rb) = (score(&only(&a, &ids)), score(&only(&b, &ids)));
    assert_eq!(ra.items, 390);
    let d = |name: &str| {
        c.pairs[0]
            .figures
            .iter()
            .find(|d| d.figure == name)
            .unwrap()
    };
    let acc = d("metrics.accuracy");
    assert_eq!(
        (acc.a, acc.b),
        (ra.metrics.accuracy.unwrap(), rb.metrics.accuracy.unwrap())
    );
    assert_eq!(acc.delta, acc.a - acc.b);
    let i = d("ic.i");
    assert_eq!(
        (i.a, i.b),
        (
            ra.ic.as_ref().unwrap().overall.i.unwrap(),
            rb.ic.as_ref().unwrap().overall.i.unwrap()
        )
    );
    let ece = d("conditioning.ece");
    assert!((ece.a - ra.conditioning.ece.unwrap()).abs() < 1e-12);
    assert!(acc.lo <= acc.delta && acc.delta <= acc.hi);
}

#[test]
fn mcnemar_counts_a_hand_made_table() {
    // Twenty items: both right 10, A only 1, B only 6, both wrong 3 -> p = 2 * 8/128.
    let pattern: Vec<(bool, bool)> = [(true, true); 10]
        .into_iter()
        .chain([(true, false); 1])
        .chain([(false, true); 6])
        .chain([(false, false); 3])
        .collect();
    let file = |pick: fn(&(bool, bool)) -> bool| -> String {
        pattern
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let answer = if pick(p) { "yes" } else { "no" };
                format!(
                    "{{\"id\":{i},\"type\":\"binary\",\"gold\":\"yes\",\"answer\":\"{answer}\"}}\n"
                )
            })
            .collect()
    };
    let (a, b) = (file(|p| p.0), file(|p| p.1));
    let c = compare(&runs(&[("a", &a), ("b", &b)]), &boot(200));
    let m = c.pairs[0].mcnemar;
    assert_eq!(
        (m.both_right, m.only_a, m.only_b, m.both_wrong),
        (10, 1, 6, 3)
    );
    assert!((m.p_value.unwrap() - 0.125).abs() < 1e-15);
    let acc = c.pairs[0]
        .figures
        .iter()
        .find(|d| d.figure == "metrics.accuracy")
        .unwrap();
    assert_eq!(acc.delta, 11.0 / 20.0 - 16.0 / 20.0);
}

#[test]
fn pairing_narrows_the_interval_and_the_seed_fixes_it() {
    let (a, b) = (text("compare/model-a.jsonl"), text("compare/model-b.jsonl"));
    let rs = runs(&[("a", &a), ("b", &b)]);
    let c = compare(&rs, &boot(1000));
    let acc = c.pairs[0]
        .figures
        .iter()
        .find(|d| d.figure == "metrics.accuracy")
        .unwrap();
    assert!(acc.distinguishable && acc.hi < 0.0, "{acc:?}");
    // Unpaired: each run's own interval; the paired one is narrower than their combination.
    let own = |r: &Run| {
        let f = r.sample.bootstrap(&boot(1000));
        let x = f.figures.get("metrics.accuracy").unwrap();
        x.hi - x.lo
    };
    let unpaired = own(&rs[0]).hypot(own(&rs[1]));
    assert!(
        acc.hi - acc.lo < 0.8 * unpaired,
        "{} vs {unpaired}",
        acc.hi - acc.lo
    );
    assert_eq!(compare(&rs, &boot(1000)).to_json(), c.to_json());
}

#[test]
fn pairs_drawn_in_parts_equal_one_run() {
    let (a, b) = (text("compare/model-a.jsonl"), text("compare/model-b.jsonl"));
    let rs = runs(&[("a", &a), ("b", &b)]);
    let opts = boot(90);
    let split = scorelens::compare::compare_with(&rs, &opts, |p, o| {
        vec![p.draws(o, 0..40), p.draws(o, 40..41), p.draws(o, 41..90)]
    });
    assert_eq!(split, compare(&rs, &opts));
}
