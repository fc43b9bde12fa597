//! A zip of result files is read as a folder by `score`, `compare` and `leaderboard`: the same
//! output, byte for byte, as a folder of the zip's name holding the files the zip holds (the
//! zips in tests/fixtures/zip were made by `zip -r` from those folders; see make.sh). Entries the
//! zip holds but scorelens cannot read are noted quietly, and an Inspect `.eval` stays one file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scorelens(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scorelens-zip-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Two places to run from: `zipped/<at>` holding the fixture zip `zip`, and `unzipped/<at>`
/// holding a folder of the same name with `folder` (what was zipped) inside it as `inner`.
fn both(test: &str, zip: &str, folder: &Path, inner: &str, at: &str) -> (PathBuf, PathBuf) {
    let root = scratch(test);
    let (zipped, unzipped) = (root.join("zipped"), root.join("unzipped"));
    // `create_dir_all("x/.")` fails: "." is no folder to make.
    let under = |base: &Path| {
        if at == "." {
            base.to_path_buf()
        } else {
            base.join(at)
        }
    };
    std::fs::create_dir_all(under(&zipped)).unwrap();
    std::fs::copy(fixtures().join("zip").join(zip), under(&zipped).join(zip)).unwrap();
    copy_dir(folder, &under(&unzipped).join(zip).join(inner));
    (zipped, unzipped)
}

/// Runs `args` in both places: stdout must be the same bytes; returns both stderrs.
fn same_stdout(zipped: &Path, unzipped: &Path, args: &[&str]) -> (String, String) {
    let z = scorelens(zipped, args);
    let u = scorelens(unzipped, args);
    let text = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(u.status.success(), "{args:?} on the folder: {}", text(&u));
    assert_eq!(z.status.code(), u.status.code(), "{args:?}: {}", text(&z));
    assert!(!z.stdout.is_empty());
    assert!(z.stdout == u.stdout, "{args:?}: stdout differs");
    (text(&z), text(&u))
}

#[test]
fn an_lm_eval_output_folder_zipped_scores_compares_and_ranks_as_the_folder() {
    let folder = fixtures().join("lm_eval/output_folder");
    let (z, u) = both("lm", "lm_eval_output.zip", &folder, "output_folder", ".");
    let zip = "lm_eval_output.zip";
    for args in [
        vec!["score", zip, "--json"],
        vec!["score", zip],
        vec!["score", zip, "--format", "csv"],
        vec!["compare", zip, "--json"],
        vec!["leaderboard", zip, "--json", "--bootstrap", "200"],
    ] {
        let (ze, ue) = same_stdout(&z, &u, &args);
        assert_eq!(ze, ue, "{args:?}");
    }
    // Two models, found in the zip as in the folder.
    let (ze, _) = same_stdout(&z, &u, &["score", zip]);
    assert!(
        ze.contains("2 runs: model-a, 3 files; model-b, 3 files"),
        "{ze}"
    );
}

#[test]
fn a_helm_suite_zipped_in_a_folder_gives_its_runs() {
    // The zip lies inside a named folder, as a download folder holds it.
    let folder = fixtures().join("helm/suite");
    let (z, u) = both("helm", "helm_suite.zip", &folder, "suite", "downloads");
    for args in [
        vec!["score", "downloads", "--json"],
        vec!["compare", "downloads", "--json"],
    ] {
        let (ze, ue) = same_stdout(&z, &u, &args);
        assert_eq!(ze, ue, "{args:?}");
    }
    let out = scorelens(&z, &["score", "downloads", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "simple_mcqa:model=simple_model1",
            "simple_mcqa_separate:model=simple_model1"
        ]
    );
    let first = &v["runs"][0]["report"]["files"][0]["name"];
    assert_eq!(
        first,
        "downloads/helm_suite.zip/suite/runs/fix/simple_mcqa:model=simple_model1/display_predictions.json"
    );
}

#[test]
fn compressed_entries_are_decoded_and_unreadable_ones_noted() {
    let folder = fixtures().join("zip/mixed");
    let (z, u) = both("mixed", "mixed.zip", &folder, "mixed", ".");
    let (ze, ue) = same_stdout(&z, &u, &["score", "mixed.zip", "--json"]);
    // model-a from a plain and a gzipped entry, model-b from a zstd one: 395 items each.
    let out = scorelens(&z, &["score", "mixed.zip", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for run in v["runs"].as_array().unwrap() {
        assert_eq!(run["report"]["items"], 395, "{}", run["name"]);
    }
    assert_eq!(v["runs"][0]["report"]["files"].as_array().unwrap().len(), 2);
    // The folder's note, and the zip's own: its bzip2 entry (the hidden file and macOS's
    // __MACOSX copies are skipped, as a folder's hidden files are).
    let note = "note: mixed.zip/mixed/notes.txt: not read: not a file scorelens reads: text that \
                is neither JSON nor a table: drop the results file the evaluation wrote\n";
    assert!(ue.starts_with(note), "{ue}");
    assert!(ze.starts_with(note), "{ze}");
    assert!(ze.contains(
        "note: mixed.zip/mixed/bzip2.jsonl: not read: compressed with zip method 12, which \
         scorelens does not read: zip the files again with the usual compression (DEFLATE), or \
         unzip them\n"
    ));
    assert!(!ze.contains("DS_Store") && !ze.contains("MACOSX"), "{ze}");
    assert!(ze.ends_with("1 file (2 files not read)\n"), "{ze}");
    assert!(ue.ends_with("1 file (1 file not read)\n"), "{ue}");
}

#[test]
fn a_damaged_zip_is_set_aside_and_the_rest_is_read() {
    let dir = scratch("damaged");
    let zip = std::fs::read(fixtures().join("zip/lm_eval_output.zip")).unwrap();
    std::fs::create_dir_all(dir.join("d")).unwrap();
    std::fs::write(dir.join("d/cut.zip"), &zip[..zip.len() / 2]).unwrap();
    std::fs::copy(
        fixtures().join("compressed/choice.jsonl.gz"),
        dir.join("d/choice.jsonl.gz"),
    )
    .unwrap();
    let out = scorelens(&dir, &["score", "d", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.starts_with(
            "note: d/cut.zip: not read: a zip archive whose directory cannot be read ("
        ),
        "{err}"
    );
    assert!(err.contains("): it may be cut short or damaged\n"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"][0]["name"], "d/choice.jsonl.gz");
    // Named alone, it is not scored either, and says why.
    let out = scorelens(&dir, &["score", "d/cut.zip"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("d/cut.zip: not read: a zip archive whose directory"),
        "{err}"
    );
}

#[test]
fn an_inspect_log_stays_one_file() {
    let eval = fixtures().join("inspect/colour_mc.eval");
    let dir = scratch("eval");
    // Renamed to .zip, its entries still say it is a log.
    std::fs::copy(&eval, dir.join("log.zip")).unwrap();
    let out = scorelens(&dir, &["score", "log.zip", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"][0]["format"], "inspect");
    assert_eq!(v["files"][0]["name"], "log.zip");
}
