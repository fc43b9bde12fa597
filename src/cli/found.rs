//! Runs found in what the command line names: folders walked, each file's first bytes read (and
//! decoded, for a gzip, zstd or UTF-16 file), and the files grouped by `scorelens::runs`, so that
//! `score` and `compare` take a HELM suite, an lm-eval output folder or a pile of files as they are.

use scorelens::runs::{self, Grouping, Offered};
use std::io;
use std::path::{Path, PathBuf};

/// One run: its name and its files, in the order a user would name them (name order, folders
/// depth first).
pub struct Run {
    pub name: String,
    pub files: Vec<PathBuf>,
}

/// What the named paths hold.
pub struct Gathered {
    pub runs: Vec<Run>,
    /// Files no reader claims, with the reason, listed once and never stopping the rest.
    pub ignored: Vec<(PathBuf, String)>,
    /// How the files were grouped, in one line.
    pub summary: String,
}

/// One file to group: where it is, how grouping sees its path, and whether the user named it.
struct Entry {
    path: PathBuf,
    shown: String,
    named: bool,
}

/// Walks the named paths and groups their files into runs.
pub fn gather(paths: &[PathBuf], how: Grouping) -> io::Result<Gathered> {
    let mut entries = Vec::new();
    for p in paths {
        if p.is_dir() {
            // A folder's files are seen under the folder's own name, which can name a run.
            let root = p.file_name().map_or_else(
                || "folder".to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            walk(p, &root, &mut entries)?;
        } else {
            entries.push(Entry {
                path: p.clone(),
                shown: p.display().to_string().replace('\\', "/"),
                named: true,
            });
        }
    }
    // A file named twice (`d d`, or a folder and a file inside it) would be read twice.
    let mut seen = std::collections::HashSet::new();
    for e in &entries {
        let key = std::fs::canonicalize(&e.path).unwrap_or_else(|_| e.path.clone());
        if !seen.insert(key) {
            let why = format!("{} is given twice; give each file once", e.path.display());
            return Err(io::Error::new(io::ErrorKind::InvalidInput, why));
        }
    }
    let mut heads = Vec::with_capacity(entries.len());
    for e in &entries {
        let file = std::fs::File::open(&e.path)
            .map_err(|why| io::Error::new(why.kind(), format!("{}: {why}", e.path.display())))?;
        let (inner, head) = scorelens::session::peek(&e.shown, file)
            .map_err(|why| io::Error::new(why.kind(), format!("{}: {why}", e.path.display())))?;
        heads.push((inner, head));
    }
    let offered: Vec<Offered> = heads
        .iter()
        .map(|(path, head)| Offered { path, head })
        .collect();
    let found = runs::find(&offered, how);
    let summary = found.summary();
    let runs = found
        .runs
        .into_iter()
        .map(|r| {
            // A file named on the command line that is a run alone keeps the name it was given,
            // as `compare a.jsonl b.jsonl` always named its runs.
            let name = match r.files.as_slice() {
                [i] if entries[*i].named => entries[*i].path.display().to_string(),
                _ => r.name,
            };
            Run {
                name,
                files: r.files.iter().map(|&i| entries[i].path.clone()).collect(),
            }
        })
        .collect();
    let ignored = found
        .ignored
        .into_iter()
        .map(|(i, why)| (entries[i].path.clone(), why))
        .collect();
    Ok(Gathered {
        runs,
        ignored,
        summary,
    })
}

/// Every visible file under `dir`, depth first in name order.
fn walk(dir: &Path, shown: &str, out: &mut Vec<Entry>) -> io::Result<()> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // Hidden files (.DS_Store, .git) are no one's results.
        if !name.starts_with('.') {
            names.push((name, entry.path()));
        }
    }
    names.sort();
    for (name, path) in names {
        let shown = format!("{shown}/{name}");
        if path.is_dir() {
            walk(&path, &shown, out)?;
        } else {
            out.push(Entry {
                path,
                shown,
                named: false,
            });
        }
    }
    Ok(())
}

/// A file set aside, said quietly in one line: the reason without the list of formats.
pub fn note_ignored(ignored: &[(PathBuf, String)]) {
    for (path, why) in ignored {
        let short = why.split(". scorelens reads").next().unwrap_or(why);
        eprintln!("note: {}: not read: {short}", path.display());
    }
}
