//! Decision Bench rows and the join: corpus questions, answer rows, and the items they make.
//!
//! Rows that already carry what an item needs (a predictions row with its gold and probabilities)
//! are scored at once; the others wait on the shelf until the corpus is there, at the latest until
//! the run ends, so the order in which files are dropped does not matter.

use crate::formats::json::Val;
use crate::formats::{Meta, Sink};
use crate::items::Modality;
use crate::warning::Warning;
use std::collections::HashMap;

/// The keys read from any Decision Bench row; all others are skipped unparsed.
pub const FIELDS: [&str; 14] = [
    "row_id",
    "case_id",
    "id",
    "task",
    "category",
    "status",
    "answer",
    "gold",
    "correct",
    "confidence",
    "probabilities",
    "modality",
    "answers",
    "questions",
];

const ROW_ID: usize = 0;
const CASE_ID: usize = 1;
const ID: usize = 2;
const TASK: usize = 3;
const CATEGORY: usize = 4;
const STATUS: usize = 5;
const ANSWER: usize = 6;
const GOLD: usize = 7;
const CORRECT: usize = 8;
const CONFIDENCE: usize = 9;
const PROBABILITIES: usize = 10;
const MODALITY: usize = 11;
const ANSWERS: usize = 12;
const QUESTIONS: usize = 13;

type Fields<'a> = [Option<Val<'a>>; FIELDS.len()];

/// A corpus question: its options in the order the model saw them, and the gold label.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub options: Vec<String>,
    pub gold: String,
    pub category: Option<String>,
    pub task: Option<String>,
    pub modality: Option<Modality>,
}

/// One answer (a predictions row, or one question of a run's results record).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: String,
    pub file: String,
    pub line: u64,
    pub task: Option<String>,
    pub category: Option<String>,
    pub modality: Option<Modality>,
    /// `ok`, or why there is no valid answer.
    pub status: String,
    pub answer: Option<String>,
    pub gold: Option<String>,
    /// Label and value in file order; `Err` names a malformed value.
    pub probabilities: Option<Result<Vec<(String, f64)>, String>>,
    pub correct: Option<bool>,
    pub confidence: Option<f64>,
}

/// What the format keeps across the files of a run.
#[derive(Debug, Default)]
struct Shelved {
    corpus: HashMap<String, Case>,
    corpus_files: Vec<String>,
    parked: Vec<Row>,
    /// Option counts seen per task, for error rows whose options are nowhere else.
    task_k: HashMap<String, usize>,
    answered: u64,
}

fn text(v: &Option<Val>) -> Option<String> {
    match v {
        Some(Val::Str(s)) => Some(s.to_string()),
        Some(Val::Int(i)) => Some(i.to_string()),
        _ => None,
    }
}

fn modality(v: &Option<Val>) -> Option<Modality> {
    text(v).and_then(|m| Modality::parse(&m))
}

/// The questions of a corpus row, keyed by row id (or `row/question` when it has several).
pub fn case(v: &Fields) -> Result<Vec<(String, Case)>, String> {
    let id = text(&v[ID]).ok_or("a corpus row needs a string `id`")?;
    let Some(Val::List(questions)) = &v[QUESTIONS] else {
        return Err("`questions` must be a list".to_string());
    };
    let mut out = Vec::new();
    for q in questions {
        let qid = match q.get("id") {
            Some(Val::Str(s)) => s.to_string(),
            _ => "decision".to_string(),
        };
        let options: Vec<String> = match (q.get("option_order"), q.get("options")) {
            (Some(Val::List(order)), _) => order
                .iter()
                .filter_map(|o| o.as_label())
                .map(|s| s.into_owned())
                .collect(),
            (_, Some(Val::Map(opts))) => opts.iter().map(|(k, _)| k.to_string()).collect(),
            _ => return Err(format!("question `{qid}` has no `options`")),
        };
        let gold = q
            .get("gold")
            .and_then(Val::as_label)
            .ok_or_else(|| format!("question `{qid}` has no `gold`"))?
            .into_owned();
        let key = if questions.len() == 1 {
            id.clone()
        } else {
            format!("{id}/{qid}")
        };
        out.push((
            key,
            Case {
                options,
                gold,
                category: text(&v[CATEGORY]),
                task: text(&v[TASK]),
                modality: modality(&v[MODALITY]),
            },
        ));
    }
    Ok(out)
}

fn probabilities(v: Option<&Val>) -> Option<Result<Vec<(String, f64)>, String>> {
    match v? {
        Val::Null => None,
        Val::Map(entries) => Some(
            entries
                .iter()
                .map(|(k, x)| match x.as_f64() {
                    Some(p) => Ok((k.to_string(), p)),
                    None => Err(format!(
                        "the probability of `{k}` is {}, not a number",
                        x.kind()
                    )),
                })
                .collect(),
        ),
        other => Some(Err(format!(
            "`probabilities` is {}, not an object",
            other.kind()
        ))),
    }
}

/// A published predictions row.
pub fn prediction(v: &Fields, file: &str, line: u64) -> Result<Row, String> {
    let id = text(&v[ROW_ID]).ok_or("no `row_id`")?;
    Ok(Row {
        id,
        file: file.to_string(),
        line,
        task: text(&v[TASK]),
        category: text(&v[CATEGORY]),
        modality: modality(&v[MODALITY]),
        status: text(&v[STATUS]).unwrap_or_else(|| "ok".to_string()),
        answer: text(&v[ANSWER]),
        gold: text(&v[GOLD]),
        probabilities: probabilities(v[PROBABILITIES].as_ref()),
        correct: match v[CORRECT] {
            Some(Val::Bool(b)) => Some(b),
            _ => None,
        },
        confidence: v[CONFIDENCE].as_ref().and_then(Val::as_f64),
    })
}

/// A run's results record: one row per answered question.
pub fn result(v: &Fields, file: &str, line: u64) -> Result<Vec<Row>, String> {
    let id = text(&v[CASE_ID]).ok_or("no `case_id`")?;
    let status = text(&v[STATUS]).unwrap_or_else(|| "ok".to_string());
    let answers: &[(std::borrow::Cow<str>, Val)] = match &v[ANSWERS] {
        Some(Val::Map(a)) => a,
        Some(Val::Null) | None => &[],
        Some(other) => return Err(format!("`answers` is {}, not an object", other.kind())),
    };
    let row = |id: String, label: Option<String>, probs| Row {
        id,
        file: file.to_string(),
        line,
        task: None,
        category: None,
        modality: None,
        status: status.clone(),
        answer: label,
        gold: None,
        probabilities: probs,
        correct: None,
        confidence: None,
    };
    if answers.is_empty() {
        return Ok(vec![row(id, None, None)]);
    }
    Ok(answers
        .iter()
        .map(|(qid, a)| {
            let key = if answers.len() == 1 {
                id.clone()
            } else {
                format!("{id}/{qid}")
            };
            row(
                key,
                a.get("label")
                    .and_then(Val::as_label)
                    .map(|l| l.into_owned()),
                probabilities(a.get("probabilities")),
            )
        })
        .collect())
}

/// Adds corpus questions to the shelf.
pub fn shelve_case(cases: Vec<(String, Case)>, file: &str, line: u64, sink: &mut dyn Sink) {
    let mut dupes = Vec::new();
    let shelf = sink.shelf().get::<Shelved>();
    for (id, case) in cases {
        match shelf.corpus.entry(id) {
            std::collections::hash_map::Entry::Occupied(e) => dupes.push(e.key().clone()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(case);
            }
        }
    }
    for id in dupes {
        sink.warn(Warning::new(
            file,
            Some(line),
            format!("corpus row `{id}` appears twice; the first is kept"),
        ));
    }
}

/// Notes that a corpus file was read.
pub fn corpus_done(file: &str, sink: &mut dyn Sink) {
    sink.shelf()
        .get::<Shelved>()
        .corpus_files
        .push(file.to_string());
}

/// Scores each row now if it has what it needs, else keeps it for the join.
pub fn park_or_emit(rows: Vec<Row>, sink: &mut dyn Sink) {
    for row in rows {
        emit_or_park(row, sink);
    }
}

/// Scores the row now if it has what it needs, else keeps it for the join.
pub fn emit_or_park(row: Row, sink: &mut dyn Sink) {
    let shelf = sink.shelf().get::<Shelved>();
    shelf.answered += 1;
    let case = shelf.corpus.get(&row.id).cloned();
    let has_options = case.is_some() || matches!(row.probabilities, Some(Ok(_)));
    let has_gold = case.is_some() || row.gold.is_some();
    if has_options && has_gold {
        emit(&row, case.as_ref(), None, sink);
    } else {
        shelf.parked.push(row);
    }
}

/// Scores the rows of a predictions file that waited for options (error rows without
/// probabilities): from the corpus when it is already read, else with their task's option count.
pub fn predictions_done(file: &str, sink: &mut dyn Sink) {
    let shelf = sink.shelf().get::<Shelved>();
    let (mine, rest): (Vec<Row>, Vec<Row>) = std::mem::take(&mut shelf.parked)
        .into_iter()
        .partition(|r| r.file == file && r.gold.is_some());
    shelf.parked = rest;
    for row in mine {
        let shelf = sink.shelf().get::<Shelved>();
        match shelf.corpus.get(&row.id).cloned() {
            Some(case) => emit(&row, Some(&case), None, sink),
            None => {
                let k = row.task.as_ref().and_then(|t| shelf.task_k.get(t)).copied();
                emit(&row, None, Some(k.unwrap_or(0)), sink);
            }
        }
    }
}

/// Joins the rows that waited for the corpus, after the last file of the run.
pub fn join_at_end(sink: &mut dyn Sink) {
    let Some(mut shelf) = sink.shelf().take::<Shelved>() else {
        return;
    };
    // Rows without gold (a run's results) and no corpus at all, by file: one warning each. With a
    // corpus, a row it lacks is a data error of its own line (SPEC §1), as in the JevBench join.
    let mut unjoined: Vec<(String, Vec<String>)> = Vec::new();
    for row in std::mem::take(&mut shelf.parked) {
        if let Some(case) = shelf.corpus.get(&row.id) {
            emit(&row, Some(case), None, sink);
        } else if !shelf.corpus.is_empty() {
            let why = format!(
                "row `{}` matches no row of the corpus, so it is skipped: is it the corpus of this run?",
                row.id
            );
            sink.skip(Warning::new(&row.file, Some(row.line), why));
        } else {
            match unjoined.iter_mut().find(|(f, _)| *f == row.file) {
                Some((_, ids)) => ids.push(row.id),
                None => unjoined.push((row.file.clone(), vec![row.id])),
            }
        }
    }
    for (file, ids) in unjoined {
        let first: Vec<String> = ids.iter().take(3).map(|i| format!("`{i}`")).collect();
        let why = format!(
            "{} rows (first {}) carry no gold: drop the corpus cases.jsonl together with the run's results.jsonl",
            ids.len(),
            first.join(", ")
        );
        sink.warn(Warning::new(&file, None, why));
    }
    if shelf.answered == 0 {
        for f in &shelf.corpus_files {
            let why = "a Decision Bench corpus holds no answers: drop predictions.jsonl or a run's results.jsonl with it";
            sink.warn(Warning::new(f, None, why));
        }
    }
}

/// Builds and pushes the item (or the data error). `fallback_k` is set for a row whose options are
/// known nowhere: the option count of its task's other rows (0 when unknown).
fn emit(row: &Row, case: Option<&Case>, fallback_k: Option<usize>, sink: &mut dyn Sink) {
    let mut notes = Vec::new();
    match crate::formats::decision_bench::item::build(row, case, fallback_k, &mut notes) {
        Ok(item) => {
            if let (Some(task), Some(o)) = (&row.task, item.as_option()) {
                sink.shelf()
                    .get::<Shelved>()
                    .task_k
                    .entry(task.clone())
                    .or_insert(o.options.len());
            }
            for n in notes {
                sink.warn(Warning::new(&row.file, Some(row.line), n));
            }
            if fallback_k.is_some() {
                sink.meta(
                    Meta::Mapping,
                    "error rows without a corpus: option count taken from the task's other rows",
                );
            }
            sink.item_in(&row.file, item);
        }
        Err(why) => sink.skip(Warning::new(&row.file, Some(row.line), why)),
    }
}
