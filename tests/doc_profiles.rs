//! Every profile a document's example names (`profile="…"` on the widget, `profile: '…'` in the
//! API, `--profile …` on the command line) is one scorelens has: an example copied into a docs
//! site must not fail on a name that never existed.

use scorelens::profiles::Profile;
use std::path::Path;

/// The documents a user copies examples from.
fn documents() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs = vec![root.join("README.md"), root.join("www/embed/README.md")];
    for dir in ["docs"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                docs.push(p);
            }
        }
    }
    docs
}

/// The names after each of the markers, up to the closing quote or the next blank.
fn named(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (marker, ends) in [
        ("profile=\"", &['"'][..]),
        ("profile: '", &['\''][..]),
        ("profile: \"", &['"'][..]),
        ("--profile ", &[' ', '`', '\n', ')', '\\'][..]),
    ] {
        for (at, _) in text.match_indices(marker) {
            let rest = &text[at + marker.len()..];
            let name: String = rest.chars().take_while(|c| !ends.contains(c)).collect();
            out.push(name);
        }
    }
    out
}

#[test]
fn every_profile_an_example_names_exists() {
    let mut seen = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for name in named(&text) {
            // A placeholder such as `--profile NAME` is a name to fill in, not an example.
            if name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                continue;
            }
            seen += 1;
            assert!(
                Profile::parse(&name).is_some(),
                "{}: the example's profile `{name}` is none of scorelens's ({})",
                doc.display(),
                Profile::all()
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    assert!(
        seen >= 4,
        "only {seen} examples name a profile: is the scan still finding them?"
    );
}

#[test]
fn the_scan_finds_a_wrong_name() {
    let found =
        named("<scorelens-report profile=\"jevbench\"></scorelens-report> and `--profile steer`");
    assert_eq!(found, ["jevbench", "steer"]);
    assert!(Profile::parse("jevbench").is_none());
}
