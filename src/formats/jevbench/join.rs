//! Joins JevBench task rows with the harness's results rows after the last file of a run, and says
//! clearly when they do not join (FORMATS §8.3: results rows carry no type, gold or tier).
//!
//! A task file none of whose tasks has a results row is left out with one warning (the harness was
//! probably run on another tier); in a task file that does join, a task without a results row is
//! scored as an invalid answer, as the method scores failed calls. Results rows matching no task
//! are skipped. The benchmark is `jevbench-hard-111` when every scored task is hard, else
//! `jevbench-public-231`.

use crate::formats::jevbench::rows::{Row, Task};
use crate::formats::jevbench::Pending;
use crate::formats::{Meta, Sink};
use crate::items::{Body, Item, OptionItem, Tier};
use crate::probs::{self, Source};
use crate::warning::Warning;

/// Emits the joined items of a run, with the warnings for what did not join.
pub fn join(mut p: Pending, sink: &mut dyn Sink) {
    let task_file =
        |p: &Pending, i: usize| p.task_files.get(i).map_or(String::new(), |f| f.0.clone());
    let result_file = |p: &Pending, i: usize| p.result_files.get(i).cloned().unwrap_or_default();
    if p.tasks.is_empty() {
        for f in &p.result_files {
            let why = "JevBench results rows carry no type, gold or tier; drop the task files \
                       (easy.jsonl, original.jsonl, hard.jsonl) together with results.jsonl";
            sink.warn(Warning::new(f, None, why));
        }
        return;
    }
    if p.result_files.is_empty() {
        for (f, _) in &p.task_files {
            let why = "a JevBench task file holds no answers; drop the harness's results.jsonl \
                       together with the task files";
            sink.warn(Warning::new(f, None, why));
        }
        return;
    }
    // Which task files have at least one results row.
    let mut joined_files = vec![false; p.task_files.len()];
    for t in &p.tasks {
        if p.results.contains_key(&t.id) {
            if let Some(j) = joined_files.get_mut(t.file) {
                *j = true;
            }
        }
    }
    if !joined_files.iter().any(|&j| j) {
        let sample = |ids: Vec<&String>| {
            let mut ids: Vec<&String> = ids;
            ids.sort();
            ids.iter()
                .take(3)
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let why = format!(
            "none of the {} results rows matches one of the {} task ids (results: {}; tasks: {}); \
             are these the results of these task files?",
            p.results.len(),
            p.tasks.len(),
            sample(p.results.keys().collect()),
            sample(p.tasks.iter().map(|t| &t.id).collect()),
        );
        let files: Vec<String> = p.result_files.clone();
        sink.warn(Warning::new(&files.join(", "), None, why));
        return;
    }
    for (i, (name, _)) in p.task_files.iter().enumerate() {
        if !joined_files.get(i).copied().unwrap_or(false) {
            let why = "no results row matches a task of this file, so it is left out (was the harness run on it?)";
            sink.warn(Warning::new(name, None, why));
        }
    }
    let tasks = std::mem::take(&mut p.tasks);
    let in_scope: Vec<Task> = tasks
        .into_iter()
        .filter(|t| joined_files.get(t.file).copied().unwrap_or(false))
        .collect();
    let all_hard = in_scope.iter().all(|t| t.tier == Some(Tier::Hard));
    let benchmark = if all_hard {
        "jevbench-hard-111"
    } else {
        "jevbench-public-231"
    };
    sink.meta(Meta::Benchmark, benchmark);
    for t in in_scope {
        let file = task_file(&p, t.file);
        match p.results.remove(&t.id) {
            Some(row) => {
                let rfile = result_file(&p, row.file);
                let (item, notes) = build(t, &row);
                for n in notes {
                    sink.warn(Warning::new(&rfile, Some(row.line), n));
                }
                sink.item_in(&rfile, item);
            }
            None => {
                let why = format!(
                    "task `{}` has no results row; scored as an invalid answer",
                    t.id
                );
                sink.warn(Warning::new(&file, Some(t.line), why));
                let (item, _) = build(
                    t,
                    &Row {
                        file: 0,
                        line: 0,
                        valid: false,
                        probs: Ok(None),
                        predicted: None,
                    },
                );
                sink.item_in(&file, item);
            }
        }
    }
    let mut left: Vec<(String, Row)> = p.results.drain().collect();
    left.sort_by_key(|(_, r)| (r.file, r.line));
    for (id, row) in left {
        let why = format!("task_id `{id}` matches no task in the task files; skipped");
        sink.skip(Warning::new(
            &result_file(&p, row.file),
            Some(row.line),
            why,
        ));
    }
}

/// The item of a task and its results row, with the output errors found.
pub fn build(t: Task, row: &Row) -> (Item, Vec<String>) {
    let mut notes = Vec::new();
    let probs = if !row.valid {
        None
    } else {
        match &row.probs {
            Ok(None) => None,
            Ok(Some(entries)) => {
                let mut values = vec![None; t.labels.len()];
                for (k, x) in entries {
                    if let Some(i) = t.labels.iter().position(|l| l == k) {
                        if let Some(v) = values.get_mut(i) {
                            *v = Some(*x);
                        }
                    }
                }
                match probs::build(&values, Source::Probs) {
                    Ok(p) => Some(p),
                    Err(why) => {
                        notes.push(format!("task `{}`: {why}; probabilities invalid", t.id));
                        None
                    }
                }
            }
            Err(why) => {
                notes.push(format!("task `{}`: {why}; probabilities invalid", t.id));
                None
            }
        }
    };
    let answer = if !row.valid {
        None
    } else {
        match &row.predicted {
            Some(l) => {
                let a = t.labels.iter().position(|x| x == l);
                if a.is_none() {
                    notes.push(format!(
                        "task `{}`: predicted `{l}` is not a label; counted as invalid",
                        t.id
                    ));
                }
                a
            }
            None => probs.as_ref().map(|p| p.argmax()),
        }
    };
    let item = Item {
        id: t.id.into(),
        line: Some(t.line),
        group: t.group.map(Into::into),
        tier: t.tier,
        split: t.split,
        modality: t.modality,
        cluster: None,
        body: Body::Option(OptionItem {
            kind: t.kind,
            options: t.labels.into(),
            gold: t.gold,
            gold_probs: t.gold_probs,
            answer,
            probs,
        }),
    };
    (item, notes)
}
