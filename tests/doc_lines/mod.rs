//! The command lines of Markdown shell blocks, split into words as sh splits them: what
//! tests/readme_commands.rs runs, kept apart from how it runs them.

/// Fence languages whose lines are shell commands.
const SHELL: &[&str] = &["sh", "bash", "shell"];

/// One command line of a doc, as written (without its comment).
#[derive(Debug)]
pub struct DocLine {
    /// `README.md:33`, for the messages.
    pub place: String,
    pub text: String,
    pub words: Vec<String>,
    /// The exit code the line's comment announces (`# exits 1`), 0 otherwise.
    pub exit: i32,
}

/// Whether a line (trimmed) is one to run: it starts with one of the commands.
fn is_command(line: &str) -> bool {
    ["cargo run", "scorelens", "make"].iter().any(|cmd| {
        line.strip_prefix(cmd)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
    })
}

/// The command lines of a document's shell blocks; a line that cannot be split into words is an
/// error naming its place.
pub fn command_lines(name: &str, text: &str) -> Vec<Result<DocLine, String>> {
    let mut out = Vec::new();
    // The open fence's marker (``` or ~~~, maybe longer) and whether its block is shell.
    let mut fence: Option<(String, bool)> = None;
    // A line ended by `\`: its first line number and its text so far.
    let mut pending: Option<(usize, String)> = None;
    for (index, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        match &fence {
            None => {
                if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                    let mark = trimmed.chars().next().unwrap_or('`');
                    let marker: String = trimmed.chars().take_while(|&c| c == mark).collect();
                    let lang = trimmed[marker.len()..]
                        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
                        .next()
                        .unwrap_or("");
                    fence = Some((marker, SHELL.contains(&lang)));
                }
            }
            Some((marker, shell)) => {
                if trimmed.starts_with(marker.as_str())
                    && trimmed.chars().all(|c| marker.starts_with(c))
                {
                    fence = None;
                    pending = None;
                    continue;
                }
                if !shell {
                    continue;
                }
                let (first, mut joined) = pending.take().unwrap_or((index + 1, String::new()));
                joined.push_str(trimmed);
                if let Some(head) = joined.strip_suffix('\\') {
                    pending = Some((first, format!("{head} ")));
                    continue;
                }
                if !is_command(&joined) {
                    continue;
                }
                let place = format!("{name}:{first}");
                out.push(match split_words(&joined) {
                    Ok((words, comment)) => Ok(DocLine {
                        text: words.join(" "),
                        exit: announced_exit(&comment),
                        place,
                        words,
                    }),
                    Err(reason) => Err(format!("{place}: `{joined}`: {reason}")),
                });
            }
        }
    }
    out
}

/// Splits a line into words as sh would (quotes and backslashes), and returns its trailing
/// `# comment`. Pipes, redirections, variables and globs are refused: a doc line is a command and
/// its arguments, so that this test runs exactly what the reader would.
pub fn split_words(line: &str) -> Result<(Vec<String>, String), String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '#' if word.is_none() => return Ok((words, line[at + 1..].trim().to_string())),
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some((_, '\'')) => break,
                        Some((_, c)) => word.push(c),
                        None => return Err("a ' quote is not closed".into()),
                    }
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, c @ ('"' | '\\'))) => word.push(c),
                            Some((_, c)) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a \" quote is not closed".into()),
                        },
                        Some((_, c @ ('$' | '`'))) => return Err(refused(c)),
                        Some((_, c)) => word.push(c),
                        None => return Err("a \" quote is not closed".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some((_, c)) => word.get_or_insert_with(String::new).push(c),
                None => return Err("it ends with a lone backslash".into()),
            },
            '|' | '&' | ';' | '<' | '>' | '`' | '$' | '(' | ')' | '*' | '?' | '[' | '~' => {
                return Err(refused(c))
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok((words, String::new()))
}

fn refused(c: char) -> String {
    format!(
        "`{c}` is shell syntax this test does not run; write the line as a command and its arguments"
    )
}

/// The exit code a comment announces with `exits N`; 0 when it announces none.
pub fn announced_exit(comment: &str) -> i32 {
    let mut words = comment.split_whitespace();
    while let Some(word) = words.next() {
        if word == "exits" {
            if let Some(code) = words.next().and_then(|w| w.parse().ok()) {
                return code;
            }
        }
    }
    0
}

/// Whether an argument names a file or folder: it has a `/`, or ends in an extension such as
/// `.jsonl` (not a number such as `0.5`).
pub fn looks_like_file(arg: &str) -> bool {
    if arg.starts_with('-') {
        return false;
    }
    arg.contains('/')
        || arg.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && ext.starts_with(|c: char| c.is_ascii_alphabetic())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

#[test]
fn lines_split_as_sh_splits_them() {
    let split = |line: &str| split_words(line).expect(line);
    assert_eq!(
        split("cargo run --release -- score a.jsonl   # a readable table"),
        (
            ["cargo", "run", "--release", "--", "score", "a.jsonl"]
                .map(String::from)
                .to_vec(),
            "a readable table".to_string()
        )
    );
    assert_eq!(
        split(r#"scorelens score 'my file.jsonl' "x#y" a\ b"#).0[2..],
        ["my file.jsonl", "x#y", "a b"]
    );
    assert!(split_words("scorelens score a.jsonl | head").is_err());
    assert!(split_words("scorelens score $FILE").is_err());
    assert!(split_words("scorelens score 'a.jsonl").is_err());
    assert_eq!(announced_exit("strict mode meets a warning: exits 1"), 1);
    assert_eq!(announced_exit("a readable table"), 0);
    assert!(looks_like_file("runs/") && looks_like_file("results.jsonl"));
    assert!(!looks_like_file("steer") && !looks_like_file("0.5") && !looks_like_file("--json"));
}

#[test]
fn shell_blocks_are_found_and_joined() {
    let doc = "text\n```sh\ncargo run -- score \\\n  a.jsonl\nrustup show\n```\n```text\nmake x\n```\n~~~bash\nmake serve # x\n~~~\n";
    let lines: Vec<DocLine> = command_lines("d.md", doc)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let found: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| (l.place.as_str(), l.text.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("d.md:3", "cargo run -- score a.jsonl"),
            ("d.md:11", "make serve")
        ]
    );
}
