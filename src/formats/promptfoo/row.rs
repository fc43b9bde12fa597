//! One promptfoo result (an `EvaluateResult`): the test, the provider × prompt it ran on, and
//! its verdict, read with the reason a bad one is skipped.

use serde_json::Value;

/// promptfoo's `ResultFailureReason.ERROR`: the provider or an assertion threw.
const ERROR: i64 = 2;

pub struct Row {
    pub part: String,
    pub test: u64,
    pub success: bool,
    pub errored: bool,
    pub score: Option<f64>,
    /// Named scores as promptfoo keeps them (metric name → this test's value).
    pub named: Vec<(String, f64)>,
    pub answer: Option<String>,
    pub description: String,
    /// The test's vars (`testCase.vars`) as text, for `--group-by VAR`.
    pub vars: Vec<(String, String)>,
}

/// A var's value as the text a group is named by: a string as it is, anything else as JSON.
pub fn var_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn label(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => ["label", "id", "raw"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str))
            .map(str::to_string),
        _ => None,
    }
}

impl Row {
    /// `[provider] prompt`, as promptfoo's table heads a column.
    pub fn part_of(v: &Value) -> Option<String> {
        let provider = label(v.get("provider"))?;
        let prompt = label(v.get("prompt")).unwrap_or_else(|| {
            let i = v.get("promptIdx").and_then(Value::as_u64).unwrap_or(0);
            format!("prompt {}", i + 1)
        });
        Some(format!("[{provider}] {prompt}"))
    }

    pub fn read(v: &Value) -> Result<Row, String> {
        if !v.is_object() {
            return Err(format!("expected a result object, found {}", kind(v)));
        }
        let part = Row::part_of(v).ok_or("a result without a `provider`")?;
        let test = v
            .get("testIdx")
            .and_then(Value::as_u64)
            .ok_or("a result without a non-negative integer `testIdx`")?;
        let success = v
            .get("success")
            .and_then(Value::as_bool)
            .ok_or("a result without a boolean `success`")?;
        let errored = v.get("failureReason").and_then(Value::as_i64) == Some(ERROR);
        let named = match v.get("namedScores") {
            Some(Value::Object(o)) => o
                .iter()
                .filter_map(|(k, x)| x.as_f64().map(|x| (k.clone(), x)))
                .collect(),
            _ => Vec::new(),
        };
        let answer = match v.get("response").and_then(|r| r.get("output")) {
            _ if errored => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Null) | None => None,
            Some(other) => Some(other.to_string()),
        };
        let description = v
            .get("testCase")
            .and_then(|t| t.get("description"))
            .and_then(Value::as_str)
            .map_or_else(|| format!("test {}", test + 1), str::to_string);
        Ok(Row {
            part,
            test,
            success,
            errored,
            score: v.get("score").and_then(Value::as_f64),
            named,
            answer,
            description,
            vars: match v
                .get("testCase")
                .and_then(|t| t.get("vars"))
                .or(v.get("vars"))
            {
                Some(Value::Object(o)) => o.iter().map(|(k, x)| (k.clone(), var_text(x))).collect(),
                _ => Vec::new(),
            },
        })
    }
}

pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
