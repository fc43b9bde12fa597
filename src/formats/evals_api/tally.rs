//! The Evals API figures of a run, summed over its files: per grader the passes and the scores
//! (ours), and the run object's `result_counts` and `per_testing_criteria_results` (the API's).

use crate::formats::Sink;
use crate::reported::Reported;

#[derive(Default)]
pub struct Tally {
    /// Whether one run was read (its figures cover the report) or several (each its own scope).
    pub selected: bool,
    pub runs: Vec<RunTally>,
}

#[derive(Default)]
pub struct RunTally {
    pub id: String,
    pub passed: u64,
    pub failed: u64,
    pub errored: u64,
    /// Grader name → (results, passed, score sum, scores).
    pub graders: Vec<(String, u64, u64, f64, u64)>,
    /// The API's own figures, from the run object: (name, value).
    pub api: Vec<(String, f64)>,
}

impl Tally {
    pub fn run(&mut self, id: &str) -> &mut RunTally {
        let at = match self.runs.iter().position(|r| r.id == id) {
            Some(at) => at,
            None => {
                self.runs.push(RunTally {
                    id: id.to_string(),
                    ..RunTally::default()
                });
                self.runs.len() - 1
            }
        };
        &mut self.runs[at]
    }

    pub fn report(self, sink: &mut dyn Sink) {
        for r in self.runs {
            let scope = if self.selected {
                String::new()
            } else {
                r.id.clone()
            };
            let mut put = |source: &str, name: String, value: f64, note: &str| {
                sink.reported(Reported {
                    source: source.to_string(),
                    name,
                    scope: scope.clone(),
                    value,
                    note: note.to_string(),
                })
            };
            let ours = "scorelens";
            for (name, value, note) in [
                (
                    "passed",
                    r.passed,
                    "samples whose status is pass: scorelens' correct items",
                ),
                ("failed", r.failed, "samples graded and not passing"),
                (
                    "errored",
                    r.errored,
                    "samples that errored: counted apart from the failures, wrong with no answer",
                ),
            ] {
                put(ours, name.to_string(), value as f64, note);
            }
            for (g, n, passed, sum, scored) in &r.graders {
                put(
                    ours,
                    format!("{g} pass rate"),
                    *passed as f64 / *n as f64,
                    "passed / graded samples, errored ones not graded",
                );
                if *scored > 0 {
                    put(
                        ours,
                        format!("{g} mean score"),
                        sum / *scored as f64,
                        "mean of the grader's score over the graded samples",
                    );
                }
            }
            for (name, value) in r.api {
                put("OpenAI Evals API", name, value, "");
            }
        }
    }
}
