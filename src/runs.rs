//! Runs found in what a user hands over: several files or a folder are grouped into runs by what
//! the files say, so that a user never has to declare which files belong together.
//!
//! The tools lay out a run in their own ways: HELM writes a folder per run, lm-eval a folder per
//! model (several tasks of one model are one run), JevBench and Decision Bench a folder of parts,
//! RewardBench one `<model>.json` per folder of results; a scorelens file names its model in its
//! header. Each file's format (from its first bytes) picks the rule. Files no reader claims are
//! set aside with their reason, and never stop the rest.

use crate::formats::{self, Format};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The format of HELM's files that describe a run or a suite and hold nothing to score.
const COMPANION: &str = "helm-run-file";

/// A file offered for grouping: its path (folders separated by `/`) and its first bytes (at least
/// `formats::HEAD`, or the whole file when shorter).
#[derive(Debug, Clone, Copy)]
pub struct Offered<'a> {
    pub path: &'a str,
    pub head: &'a [u8],
}

/// How the user wants the files grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Grouping {
    /// By what the files say (the default).
    #[default]
    Found,
    /// Every file in one run.
    OneRun,
    /// One run per file.
    PerFile,
}

/// One run: a name and the indices of its files in the order offered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundRun {
    pub name: String,
    pub files: Vec<usize>,
    /// The run inside its files when they hold several (`formats::Part::select`), to be read
    /// with `Options::part`; `None`: every item of the files.
    #[serde(default)]
    pub part: Option<String>,
}

/// What grouping found: the runs in a stable order, and the files set aside (index, reason).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Found {
    pub runs: Vec<FoundRun>,
    pub ignored: Vec<(usize, String)>,
}

impl Found {
    /// One line saying how the files were grouped, e.g. "3 runs: model-a, 4 files; …".
    pub fn summary(&self) -> String {
        let runs = self
            .runs
            .iter()
            .map(|r| format!("{}, {}", r.name, count(r.files.len(), "file", "files")))
            .collect::<Vec<_>>()
            .join("; ");
        let mut line = format!("{}: {runs}", count(self.runs.len(), "run", "runs"));
        if !self.ignored.is_empty() {
            line.push_str(&format!(
                " ({} not read)",
                count(self.ignored.len(), "file", "files")
            ));
        }
        line
    }
}

/// "1 file", "3 files".
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Groups the offered files into runs.
pub fn find(files: &[Offered<'_>], how: Grouping) -> Found {
    let mut found = Found::default();
    // Key → (name, files, whether every file is a HELM companion, part).
    let mut runs: BTreeMap<String, Entry> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        let name = base(f.path);
        let Some(format) = formats::detect(name, f.head) else {
            found.ignored.push((i, formats::unknown_format(f.head)));
            continue;
        };
        let parts = match how {
            Grouping::Found => format.parts(f.path, f.head),
            _ => Vec::new(),
        };
        // A file that holds several runs (promptfoo's provider × prompt, Evals API run ids)
        // gives one run per part; parts of one key in several files are one run.
        for part in parts.iter() {
            let entry = runs.entry(format!("part:{}", part.key)).or_insert_with(|| {
                (
                    part.name.clone(),
                    Vec::new(),
                    false,
                    Some(part.select.clone()),
                )
            });
            if part.named {
                entry.0 = part.name.clone();
            }
            entry.1.push(i);
        }
        if !parts.is_empty() {
            continue;
        }
        let (key, run) = match how {
            Grouping::OneRun => (String::new(), one_run_name(files)),
            Grouping::PerFile => (format!("{i:09}"), name.to_string()),
            Grouping::Found => key_of(format, f),
        };
        let entry = runs
            .entry(key)
            .or_insert_with(|| (run, Vec::new(), true, None));
        entry.1.push(i);
        entry.2 &= format.name() == COMPANION;
    }
    for (name, files, companions_only, part) in runs.into_values() {
        if companions_only {
            // A HELM suite's own files (summary.json, runs.json, …) describe runs; none holds one.
            let why = "a HELM suite or run description: nothing to score in it";
            found
                .ignored
                .extend(files.into_iter().map(|i| (i, why.to_string())));
        } else {
            found.runs.push(FoundRun { name, files, part });
        }
    }
    found.ignored.sort_by_key(|(i, _)| *i);
    // Runs in the order their files came: as the user named them, or as the folder was walked.
    found.runs.sort_by_key(|r| r.files[0]);
    dedupe_names(&mut found.runs);
    found
}

/// A run being found: its name, files, whether every file is a HELM companion, and its part.
type Entry = (String, Vec<usize>, bool, Option<String>);

/// The grouping key and the run's name for one file under `Grouping::Found`.
fn key_of(format: &dyn Format, f: &Offered<'_>) -> (String, String) {
    let name = base(f.path);
    let dir = parent(f.path);
    match format.name() {
        // A folder of files that only make sense together: the run is the folder.
        n if n.starts_with("helm-")
            || n.starts_with("lm-eval")
            || n == "jevbench"
            || n == "decision-bench" =>
        {
            let run = if dir.is_empty() {
                tool_name(n).to_string()
            } else {
                base(dir).to_string()
            };
            (format!("dir:{dir}"), run)
        }
        // lighteval writes a run's details to `details/<model>/<date>/`, one file per task: the
        // run is the date's folder, named after the model.
        "lighteval" => {
            let model = if base(dir).starts_with(|c: char| c.is_ascii_digit()) {
                base(parent(dir))
            } else {
                base(dir)
            };
            let run = if model.is_empty() {
                "lighteval run"
            } else {
                model
            };
            (format!("dir:{dir}"), run.to_string())
        }
        // RewardBench names each model's files after the model, in one folder per kind
        // (eval-set/<model>.json beside eval-set-scores/<model>.json).
        n if n.starts_with("rewardbench") => {
            let model = stem(name).trim_end_matches("_outputs");
            (format!("model:{model}"), model.to_string())
        }
        "scorelens" => match header_model(f.head) {
            Some(model) => (format!("model:{model}"), model),
            None => (format!("file:{}", f.path), name.to_string()),
        },
        _ => (format!("file:{}", f.path), name.to_string()),
    }
}

/// The name of the one run every file makes: their common folder, else "run".
fn one_run_name(files: &[Offered<'_>]) -> String {
    let dirs: Vec<&str> = files.iter().map(|f| parent(f.path)).collect();
    match dirs.first() {
        Some(d) if !d.is_empty() && dirs.iter().all(|x| x == d) => base(d).to_string(),
        _ => "run".to_string(),
    }
}

/// How a tool's run is called when its files come without a folder.
fn tool_name(format: &str) -> &'static str {
    match format {
        f if f.starts_with("helm-") => "HELM run",
        f if f.starts_with("lm-eval") => "lm-eval run",
        "jevbench" => "JevBench run",
        _ => "Decision Bench run",
    }
}

/// Two runs may end with one name (`a/model` and `b/model`): the later ones get " (2)", " (3)",
/// skipping any such name a run already has or was given (a folder may itself be called
/// `model (2)`), so that every run's name is its own.
fn dedupe_names(runs: &mut [FoundRun]) {
    let own: BTreeSet<String> = runs.iter().map(|r| r.name.clone()).collect();
    let mut given: BTreeSet<String> = BTreeSet::new();
    let mut tried: BTreeMap<String, usize> = BTreeMap::new();
    for r in runs.iter_mut() {
        if given.contains(&r.name) {
            let n = tried.entry(r.name.clone()).or_insert(1);
            r.name = loop {
                *n += 1;
                let name = format!("{} ({n})", r.name);
                if !given.contains(&name) && !own.contains(&name) {
                    break name;
                }
            };
        }
        given.insert(r.name.clone());
    }
}

/// `model` from a scorelens header line (`{"scorelens": …, "model": …}`), if the file has one.
/// The line may end with a carriage return alone, as the session reads it.
fn header_model(head: &[u8]) -> Option<String> {
    let head = head.strip_prefix(formats::lines::BOM).unwrap_or(head);
    let line = head.split(|&b| b == b'\n' || b == b'\r').next()?;
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    v.get("scorelens")?;
    let model = v.get("model")?.as_str()?.trim();
    (!model.is_empty()).then(|| model.to_string())
}

/// The last component of a `/`-separated path.
fn base(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Everything before the last component, or "" for a bare file name.
fn parent(path: &str) -> &str {
    path.rfind(['/', '\\']).map_or("", |i| &path[..i])
}

/// A file name without its extensions (`samples_x.jsonl.gz` → `samples_x`).
fn stem(name: &str) -> &str {
    name.split('.')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered<'a>(files: &'a [(&'a str, &'a [u8])]) -> Vec<Offered<'a>> {
        files
            .iter()
            .map(|(path, head)| Offered { path, head })
            .collect()
    }

    const CANON_A: &[u8] = b"{\"scorelens\": 1, \"model\": \"model-a\"}\n{\"id\": \"1\", \"options\": [\"x\", \"y\"], \"gold\": \"x\", \"answer\": \"x\"}\n";
    const CANON_B: &[u8] = b"{\"scorelens\": 1, \"model\": \"model-b\"}\n{\"id\": \"1\", \"options\": [\"x\", \"y\"], \"gold\": \"x\", \"answer\": \"y\"}\n";
    const BARE: &[u8] =
        b"{\"id\": \"1\", \"options\": [\"x\", \"y\"], \"gold\": \"x\", \"answer\": \"x\"}\n";

    #[test]
    fn a_header_ended_by_a_carriage_return_alone_names_its_run() {
        let mac: &[u8] = b"{\"scorelens\": 1, \"model\": \"model-c\"}\r{\"id\": \"1\", \"options\": [\"x\", \"y\"], \"gold\": \"x\", \"answer\": \"y\"}\r";
        let found = find(
            &offered(&[("mac.jsonl", mac), ("b.jsonl", CANON_B)]),
            Grouping::Found,
        );
        let names: Vec<&str> = found.runs.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["model-c", "model-b"]);
    }

    #[test]
    fn canonical_files_group_by_their_header_model() {
        let files = [
            ("part2.jsonl", CANON_A),
            ("b.jsonl", CANON_B),
            ("part1.jsonl", CANON_A),
            ("loose.jsonl", BARE),
            ("notes.txt", b"hello" as &[u8]),
        ];
        let found = find(&offered(&files), Grouping::Found);
        let runs: Vec<(&str, &[usize])> = found
            .runs
            .iter()
            .map(|r| (r.name.as_str(), r.files.as_slice()))
            .collect();
        assert_eq!(
            runs,
            [
                ("model-a", &[0, 2][..]),
                ("model-b", &[1]),
                ("loose.jsonl", &[3])
            ]
        );
        assert_eq!(found.ignored.len(), 1);
        assert_eq!(found.ignored[0].0, 4);
        assert!(found.ignored[0]
            .1
            .starts_with("not a file scorelens reads: text"));
        assert_eq!(
            found.summary(),
            "3 runs: model-a, 2 files; model-b, 1 file; loose.jsonl, 1 file (1 file not read)"
        );
    }

    #[test]
    fn the_user_can_regroup() {
        let files = [("x/a.jsonl", CANON_A), ("x/b.jsonl", CANON_B)];
        let one = find(&offered(&files), Grouping::OneRun);
        assert_eq!(
            one.runs,
            [FoundRun {
                name: "x".into(),
                files: vec![0, 1],
                part: None,
            }]
        );
        let each = find(&offered(&files), Grouping::PerFile);
        let names: Vec<&str> = each.runs.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a.jsonl", "b.jsonl"]);
    }

    #[test]
    fn equal_names_are_told_apart() {
        let files = [("a/run.jsonl", BARE), ("b/run.jsonl", BARE)];
        let found = find(&offered(&files), Grouping::Found);
        let names: Vec<&str> = found.runs.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["run.jsonl", "run.jsonl (2)"]);
    }

    #[test]
    fn paths_split_on_either_slash() {
        assert_eq!(base("a/b\\c.json"), "c.json");
        assert_eq!(parent("a/b/c.json"), "a/b");
        assert_eq!(parent("c.json"), "");
        assert_eq!(stem("samples_x.jsonl.gz"), "samples_x");
        assert_eq!(stem(".hidden"), ".hidden");
    }
}
