//! The faces (the CLI, the wasm bins, the widget, the page) call the session and nothing under it:
//! none names a format reader or a session internal, so that how a file is read stays the
//! session's choice (docs/architecture.md). A face that needs more asks the session's API.

use std::path::{Path, PathBuf};

const FACES: &[&str] = &["src/cli", "src/bin", "src/embed", "src/web", "src/main.rs"];

/// What a face must not name: the format registry and readers, and the session's private rooms.
const BELOW: &[&str] = &[
    "formats::",
    "session::whole",
    "session::zipped",
    "session::decompress",
    "session::line_guard",
    "session::cores",
    "session::blocks",
];

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for e in entries {
            rust_files(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn no_face_names_a_format_or_a_session_internal() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for face in FACES {
        rust_files(&root.join(face), &mut files);
    }
    assert!(
        files.len() > 40,
        "the faces' files were found: {}",
        files.len()
    );
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            // Prose may name the rooms below; code may not.
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for below in BELOW {
                if code.contains(below) {
                    let shown = file.strip_prefix(root).unwrap().display();
                    found.push(format!("{shown}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "faces that reach under the session:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_a_face_that_reaches_under() {
    // The same scan over a line that would break the rule finds it.
    let line = "use scorelens::formats::{detect, HEAD};";
    assert!(BELOW.iter().any(|b| line.contains(b)));
    let prose = "// the session reads it through formats::detect";
    assert!(prose.trim_start().starts_with("//"));
}
