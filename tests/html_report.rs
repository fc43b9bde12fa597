//! The HTML report: text from the files never becomes markup, the document asks for nothing and
//! runs nothing, every figure it marks is the JSON report's to the last bit, the headline is the
//! profile's, hand-worked figures and tooltips, the group cap, and the comparison's document.

use scorelens::html::{self, GROUPS_SHOWN};
use scorelens::profiles::headline::headline;
use scorelens::{compare, score, score_run, BootstrapOptions, Input, Options, Report};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples");

fn scored(name: &str, body: &str) -> Report {
    let input = Input {
        name,
        bytes: body.as_bytes(),
    };
    score(&[input], &Options::default()).unwrap()
}

fn sample(name: &str) -> Report {
    let body = std::fs::read_to_string(format!("{DIR}/{name}")).unwrap();
    scored(name, &body)
}

/// The top-level sample files.
fn samples() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(DIR)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") || n.ends_with(".jsonl"))
        // The page's list of what each sample is, not a sample.
        .filter(|n| n != "about.json")
        .collect();
    names.sort();
    assert!(names.len() >= 10, "the samples are there: {names:?}");
    names
}

/// Every tag of the document: (name, the text between the name and `>`).
fn tags(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').expect("every tag closes");
        let inner = &rest[..end];
        let name: String = inner
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
            .collect();
        out.push((name.to_ascii_lowercase(), inner.to_string()));
        rest = &rest[end + 1..];
    }
    out
}

const ALLOWED: &[&str] = &[
    "!doctype",
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "main",
    "h1",
    "h2",
    "h3",
    "h4",
    "p",
    "ul",
    "li",
    "strong",
    "span",
    "div",
    "section",
    "article",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "figure",
    "figcaption",
    "svg",
    "g",
    "line",
    "rect",
    "text",
    "footer",
];

/// No tag outside the renderer's own, no event handler, no script, no link out of the page.
fn assert_inert(doc: &str, what: &str) {
    for (name, inner) in tags(doc) {
        assert!(ALLOWED.contains(&name.as_str()), "{what}: tag <{inner}>");
        let lower = inner.to_ascii_lowercase();
        assert!(
            !lower
                .split_whitespace()
                .skip(1)
                .any(|a| a.starts_with("on")),
            "{what}: an event handler in <{inner}>"
        );
        assert!(
            !lower.contains(" src="),
            "{what}: <{inner}> loads something"
        );
        if let Some(at) = lower.find("href=\"") {
            assert!(
                lower[at + 6..].starts_with('#'),
                "{what}: <{inner}> links out of the page"
            );
        }
    }
    let lower = doc.to_ascii_lowercase();
    for bad in ["<script", "url(", "@import", "javascript:"] {
        assert!(!lower.contains(bad), "{what}: {bad}");
    }
    let http = lower.matches("http").count();
    let allowed =
        lower.matches("http://www.w3.org/2000/svg").count() + lower.matches("http-equiv").count();
    assert_eq!(http, allowed, "{what}: only the SVG namespace names a URL");
}

const HOSTILE: &str = "<img src=x onerror=alert(1)>";

fn hostile_file() -> String {
    let mut s = format!("{{\"scorelens\": 1, \"model\": \"{HOSTILE}\"}}\n");
    for i in 0..4 {
        s += &format!(
            "{{\"id\": \"q{i}\\\"><svg onload=alert(2)>\", \"group\": \"<script>alert({i})</script>\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {{\"A\": 0.{}, \"B\": 0.{}}}}}\n",
            6 + i,
            4 - i
        );
    }
    // A line the reader warns about, naming what it found.
    s += "{\"id\": \"<b>bad</b>\", \"options\": [\"A\"], \"gold\": \"<i>Z</i>\"}\n";
    s
}

#[test]
fn text_from_the_files_never_becomes_markup() {
    let name = "\"><iframe src=//evil>.jsonl";
    let r = scored(name, &hostile_file());
    assert_eq!(r.model.as_deref(), Some(HOSTILE));
    assert!(!r.warnings.is_empty(), "the bad line warns");
    let doc = html::report(&r);
    assert_inert(&doc, "report");
    assert!(doc.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(doc.contains("&lt;script&gt;alert(0)&lt;/script&gt;"));
    assert!(doc.contains("&quot;&gt;&lt;iframe src=//evil&gt;.jsonl"));
    // The same for several runs and their comparison, whose names are the files'.
    let runs: Vec<_> = [name, "<b>b</b>.jsonl"]
        .iter()
        .map(|n| {
            let body = hostile_file();
            let input = Input {
                name: n,
                bytes: body.as_bytes(),
            };
            score_run(n, [input], &Options::default()).unwrap()
        })
        .collect();
    let c = compare(
        &runs,
        &BootstrapOptions {
            resamples: 50,
            seed: 1,
        },
    );
    let named: Vec<(&str, &Report)> = runs.iter().map(|r| (r.name.as_str(), &r.report)).collect();
    let doc = html::runs(&named, Some(&c));
    assert_inert(&doc, "comparison");
    assert!(doc.contains("&lt;b&gt;b&lt;/b&gt;.jsonl"));
}

#[test]
fn escape_covers_text_and_attributes() {
    assert_eq!(
        html::escape("<a href='x'>\"&\"</a>"),
        "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;"
    );
    assert_eq!(html::escape("plain – text"), "plain – text");
}

/// The JSON value at a report path (`metrics.accuracy`, `groups.<name>.accuracy`,
/// `rewardbench.sections.<name>`, `conditioning.ece`, `ic.i`).
fn at<'a>(json: &'a Value, path: &str) -> &'a Value {
    if let Some(name) = path
        .strip_prefix("groups.")
        .and_then(|p| p.strip_suffix(".accuracy"))
    {
        let groups = json["groups"].as_array().unwrap();
        let g = groups.iter().find(|g| g["name"] == name).unwrap();
        return &g["accuracy"];
    }
    for table in ["sections", "subsets"] {
        if let Some(name) = path.strip_prefix(&format!("rewardbench.{table}.")) {
            return &json["rewardbench"][table][name];
        }
    }
    path.split('.').fold(json, |v, k| &v[k])
}

/// Every `data-figure`/`data-value` pair of one tag in the document.
fn marked(doc: &str) -> Vec<(String, String)> {
    let attr = |inner: &str, name: &str| {
        let key = format!("{name}=\"");
        let at = inner.find(&key)? + key.len();
        let end = inner[at..].find('"')?;
        Some(inner[at..at + end].to_string())
    };
    tags(doc)
        .into_iter()
        .filter_map(|(_, inner)| Some((attr(&inner, "data-figure")?, attr(&inner, "data-value")?)))
        .collect()
}

#[test]
fn every_marked_figure_is_the_json_reports() {
    for name in samples() {
        let r = sample(&name);
        let json: Value = serde_json::from_str(&r.to_json()).unwrap();
        let doc = html::report(&r);
        assert_inert(&doc, &name);
        let pairs = marked(&doc);
        assert!(pairs.len() >= 3, "{name}: figures are marked");
        for (path, shown) in pairs {
            let path = path.replace("&amp;", "&");
            let want = at(&json, &path);
            match want.as_f64() {
                Some(x) => assert_eq!(shown.parse::<f64>().ok(), Some(x), "{name}: {path}"),
                None => assert!(want.is_null() && shown.is_empty(), "{name}: {path} {want}"),
            }
        }
    }
}

#[test]
fn the_same_report_gives_the_same_bytes() {
    for name in [
        "choice.jsonl",
        "jevbench-public-231.jsonl",
        "rewardbench-v2-scores.json",
    ] {
        assert_eq!(html::report(&sample(name)), html::report(&sample(name)));
    }
}

/// The value the first card shows, and its report path.
fn first_card(doc: &str) -> (String, String) {
    let at = doc.find("<div class=\"cards\">").unwrap();
    marked(&doc[at..]).into_iter().next().unwrap()
}

#[test]
fn each_profile_leads_with_its_headline() {
    let cases = [
        (
            "choice.jsonl",
            None,
            vec!["metrics.accuracy", "conditioning.ece", "ic.i", "ic.c"],
        ),
        (
            "choice.jsonl",
            Some("steer"),
            vec!["metrics.macro_normalized", "metrics.accuracy"],
        ),
        ("jevbench-public-231.jsonl", None, vec!["ic.i", "ic.c"]),
        ("cmdb-1500.jsonl", None, vec!["ic.i", "ic.c"]),
        ("decision-bench.jsonl", None, vec!["ic.i", "ic.c"]),
        (
            "rewardbench-v1-scores.json",
            None,
            vec!["rewardbench.overall"],
        ),
        (
            "rewardbench-v2-scores.json",
            None,
            vec!["rewardbench.overall"],
        ),
    ];
    for (file, profile, lead) in cases {
        let body = std::fs::read_to_string(format!("{DIR}/{file}")).unwrap();
        let input = Input {
            name: file,
            bytes: body.as_bytes(),
        };
        let opts = Options {
            profile: profile.map(String::from),
            ..Options::default()
        };
        let r = score(&[input], &opts).unwrap();
        let paths: Vec<String> = headline(&r).into_iter().map(|f| f.path).collect();
        assert_eq!(&paths[..lead.len()], &lead[..], "{file} {profile:?}");
        let (path, value) = first_card(&html::report(&r));
        assert_eq!(path, lead[0], "{file}: the HTML's first card");
        let json: Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(
            value.parse::<f64>().ok(),
            at(&json, &path).as_f64(),
            "{file}"
        );
    }
    // RewardBench's sections follow its overall.
    let rb = headline(&sample("rewardbench-v1-scores.json"));
    let sections: Vec<&str> = rb.iter().map(|f| f.label.as_str()).collect();
    for s in ["Chat", "Chat Hard", "Safety", "Reasoning"] {
        assert!(sections.contains(&s), "{sections:?}");
    }
}

const TWO_GROUPS: &str = "\
{\"id\": 1, \"group\": \"g1\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}
{\"id\": 2, \"group\": \"g1\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}
{\"id\": 3, \"group\": \"g2\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}
{\"id\": 4, \"group\": \"g2\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"B\"}
";

#[test]
fn hand_worked_figures_as_written() {
    let r = scored("two.jsonl", TWO_GROUPS);
    let doc = html::report(&r);
    // 3 right of 4; normalized (1 + 1 + 1 − 1) / 4 with chance 1/2 scoring a miss −1.
    assert!(doc.contains(">75.0%</span>"), "accuracy card");
    assert!(doc.contains("Exact match: 3 right of 4 items = 75.0%."));
    assert!(doc.contains("data-figure=\"metrics.normalized\" data-value=\"0.5\">0.500<"));
    // g1 2 of 2, g2 1 of 2; the macro figures are their means.
    assert!(doc.contains("data-figure=\"groups.g1.accuracy\" data-value=\"1.0\">100.0%<"));
    assert!(doc.contains("data-figure=\"groups.g2.accuracy\" data-value=\"0.5\">50.0%<"));
    assert!(doc.contains("data-figure=\"metrics.macro_normalized\" data-value=\"0.5\">0.500<"));
    // No probabilities: calibration says so instead of drawing empty diagrams.
    assert!(doc.contains("No item carries probabilities"));
    assert!(!doc.contains("<svg"));
    // Plurals and counts.
    assert!(doc.contains("4 items scored, 0 skipped"));
}

#[test]
fn a_binary_tooltip_says_how_abstentions_make_i() {
    // q_yes 0.9 (gold yes: right), 0.1 (gold yes: decided no, wrong), three at 0.5 (abstain).
    let mut body = String::new();
    for (i, (p, gold)) in [
        (0.9, "yes"),
        (0.1, "yes"),
        (0.5, "yes"),
        (0.5, "no"),
        (0.5, "yes"),
    ]
    .iter()
    .enumerate()
    {
        body += &format!(
            "{{\"id\": {i}, \"type\": \"binary\", \"gold\": \"{gold}\", \"p_yes\": {p}}}\n"
        );
    }
    let r = scored("binary.jsonl", &body);
    let i = headline(&r).into_iter().find(|f| f.key == "i").unwrap();
    // 1 of 5 decided right: CC = 2 × (20% − 50%) = −60; 3 of 5 abstained.
    assert_eq!(i.value, Some(-60.0));
    assert!(
        i.how
            .contains("binary −60.0 = 2 × (20.0% decided right − 50%); 60.0% abstained"),
        "{}",
        i.how
    );
    let doc = html::report(&r);
    assert!(doc.contains(">−60.0</span>"), "U+2212 in the card");
    assert!(!doc.contains(">-60.0<"));
}

#[test]
fn past_the_cap_the_largest_groups_are_listed() {
    let n = GROUPS_SHOWN + 100;
    let mut body = String::new();
    for g in 0..n {
        // Group g has 1 item, every seventh group 3: those lead the list.
        for k in 0..(if g % 7 == 0 { 3 } else { 1 }) {
            body += &format!(
                "{{\"id\": \"{g}-{k}\", \"group\": \"g{g:04}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}}\n"
            );
        }
    }
    let r = scored("many.jsonl", &body);
    assert_eq!(r.groups.len(), n);
    let doc = html::report(&r);
    assert!(doc.contains(&format!(
        "{n} groups; the {GROUPS_SHOWN} largest are listed here"
    )));
    let listed = doc.matches("data-figure=\"groups.").count();
    assert_eq!(listed, GROUPS_SHOWN);
    // The first listed is the first of the largest.
    let first = doc.find("data-figure=\"groups.").unwrap();
    assert!(doc[first..].starts_with("data-figure=\"groups.g0000.accuracy\""));
    assert!(
        doc.contains("groups.g0007.accuracy"),
        "a three-item group is listed"
    );
}

#[test]
fn several_runs_have_a_summary_links_and_the_comparison() {
    let runs: Vec<_> = ["compare/model-a.jsonl", "compare/model-b.jsonl"]
        .iter()
        .map(|n| {
            let body = std::fs::read_to_string(format!("{DIR}/{n}")).unwrap();
            let input = Input {
                name: n,
                bytes: body.as_bytes(),
            };
            score_run(n, [input], &Options::default()).unwrap()
        })
        .collect();
    let c = compare(
        &runs,
        &BootstrapOptions {
            resamples: 200,
            seed: 3,
        },
    );
    let named: Vec<(&str, &Report)> = runs.iter().map(|r| (r.name.as_str(), &r.report)).collect();
    let doc = html::runs(&named, Some(&c));
    assert_inert(&doc, "comparison");
    for anchor in ["#run-1", "#run-2", "#comparison"] {
        let id = &anchor[1..];
        assert!(doc.contains(&format!("href=\"{anchor}\"")), "{anchor}");
        assert!(doc.contains(&format!("id=\"{id}\"")), "{id}");
    }
    // Each delta is written with its exact value.
    for d in &c.pairs[0].figures {
        assert!(
            doc.contains(&format!("data-value=\"{:?}\"", d.delta)),
            "{}",
            d.figure
        );
    }
    // The summary row of each run holds its headline accuracy.
    let summary = &doc[doc.find("id=\"summary\"").unwrap()..doc.find("id=\"comparison\"").unwrap()];
    for r in &runs {
        let a = r.report.metrics.accuracy.unwrap();
        assert!(summary.contains(&format!("data-value=\"{a:?}\"")));
    }
}

fn cli(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_cli_writes_the_renderers_bytes() {
    let path = format!("{DIR}/jevbench-public-231.jsonl");
    let body = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        cli(&["score", &path, "--format", "html"]),
        html::report(&scored(&path, &body))
    );
    // compare: the paired bootstrap drawn on every core equals one thread's.
    let (a, b) = (
        format!("{DIR}/compare/model-a.jsonl"),
        format!("{DIR}/compare/model-b.jsonl"),
    );
    let runs: Vec<_> = [&a, &b]
        .iter()
        .map(|p| {
            let body = std::fs::read_to_string(p).unwrap();
            let input = Input {
                name: p,
                bytes: body.as_bytes(),
            };
            score_run(p, [input], &Options::default()).unwrap()
        })
        .collect();
    let boot = BootstrapOptions {
        resamples: scorelens::metrics::bootstrap::DEFAULT_RESAMPLES,
        seed: scorelens::metrics::bootstrap::DEFAULT_SEED,
    };
    let c = compare(&runs, &boot);
    let named: Vec<(&str, &Report)> = runs.iter().map(|r| (r.name.as_str(), &r.report)).collect();
    assert_eq!(
        cli(&["compare", &a, &b, "--format", "html"]),
        html::runs(&named, Some(&c))
    );
    // A folder: one document, a summary row and a report per run, no comparison.
    let doc = cli(&["score", &format!("{DIR}/compare"), "--format", "html"]);
    assert_inert(&doc, "folder");
    assert!(doc.starts_with("<!DOCTYPE html>"));
    assert!(doc.contains("href=\"#run-2\"") && !doc.contains("id=\"comparison\""));
}

#[test]
fn the_cli_table_lists_the_largest_groups_and_counts_the_rest() {
    let mut body = String::new();
    for g in 0..100 {
        // Group g07 has 5 items, the others 1.
        for k in 0..(if g == 7 { 5 } else { 1 }) {
            body += &format!(
                "{{\"id\": \"{g}-{k}\", \"group\": \"g{g:02}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}}\n"
            );
        }
    }
    let dir = std::env::temp_dir().join(format!("scorelens-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("groups.jsonl");
    std::fs::write(&path, body).unwrap();
    let path = path.to_str().unwrap();
    let text = cli(&["score", path]);
    assert!(text.contains("Groups: the 40 largest of 100 (60 more in --format csv or --json)"));
    let at = text.find("Groups: the 40").unwrap();
    let listed: Vec<&str> = text[at..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("  g"))
        .collect();
    assert_eq!(listed.len(), 40);
    assert!(listed[0].trim_start().starts_with("g07 "), "{}", listed[0]);
    assert!(listed[1].trim_start().starts_with("g00 "), "{}", listed[1]);
    // CSV keeps every group.
    let csv = cli(&["score", path, "--format", "csv"]);
    let group_rows = csv
        .lines()
        .filter(|l| l.starts_with('g') && l.as_bytes()[1].is_ascii_digit())
        .count();
    assert_eq!(group_rows, 100);
}

#[test]
fn group_names_sort_naturally_in_the_table_csv_and_html() {
    // Written in byte order; natural order puts task_2 before task_10.
    let mut body = String::new();
    for (k, g) in ["task_10", "task_1", "task_2", "task_9", "alpha"]
        .iter()
        .enumerate()
    {
        body += &format!(
            "{{\"id\": \"{k}\", \"group\": \"{g}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}}\n"
        );
    }
    let dir = std::env::temp_dir().join(format!("scorelens-natural-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("natural.jsonl");
    std::fs::write(&path, body).unwrap();
    let path = path.to_str().unwrap();
    let want = ["alpha", "task_1", "task_2", "task_9", "task_10"];
    let order = |text: &str| -> Vec<usize> {
        want.iter()
            .map(|g| {
                text.find(&format!("{g} "))
                    .or_else(|| text.find(&format!("{g},")))
                    .or_else(|| text.find(&format!(">{g}<")))
                    .or_else(|| text.find(&format!("| {g} |")))
                    .unwrap_or_else(|| panic!("{g} missing"))
            })
            .collect()
    };
    for format in ["table", "csv", "markdown", "html"] {
        let out = cli(&["score", path, "--format", format]);
        let from = out.find("Groups").expect("a groups table");
        let at = order(&out[from..]);
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{format}: {at:?}");
    }
}
