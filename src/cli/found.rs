//! Runs found in what the command line names: folders walked (a zip of result files is walked as
//! a folder of the zip's name), each file's first bytes read (and decoded, for a gzip, zstd or
//! UTF-16 file), and the files grouped by `scorelens::runs`, so that `score` and `compare` take a
//! HELM suite, an lm-eval output folder, a zip of either or a pile of files as they are.

use scorelens::runs::{self, Grouping, Offered};
use scorelens::session::{holds_parts, list_zip, peek, ZipEntry, ZipListing};
use scorelens::{Options, Source};
use std::io;
use std::path::{Path, PathBuf};

/// Where a file of a run is: on disk, or in a zip on disk that is read as a folder.
#[derive(Debug, Clone)]
pub enum Place {
    File(PathBuf),
    Zipped { zip: PathBuf, entry: ZipEntry },
}

impl Place {
    /// The name reports give the file: its path, or the zip's path and the entry's, as a folder
    /// of the zip's name would give it (`results.zip/model-a/samples.jsonl`).
    pub fn name(&self) -> String {
        match self {
            Place::File(path) => path.display().to_string(),
            Place::Zipped { zip, entry } => format!("{}/{}", zip.display(), entry.name),
        }
    }

    /// The file as a source, opened now (so that a wrong path stops the run before any file is
    /// read); a zip's entry is decoded as the session reads it.
    pub fn open(&self) -> io::Result<Source<'static>> {
        match self {
            Place::File(path) => Source::path(path),
            Place::Zipped { zip, entry } => Source::zip_entry(self.name(), zip, entry),
        }
    }
}

/// One run: its name and its files, in the order a user would name them (name order, folders
/// depth first).
pub struct Run {
    pub name: String,
    pub files: Vec<Place>,
    /// The run inside files that hold several (`Options::part`).
    pub part: Option<String>,
}

impl Run {
    /// `opts` reading this run's part of its files.
    pub fn options(&self, opts: &Options) -> Options {
        Options {
            part: self.part.clone(),
            ..opts.clone()
        }
    }
}

/// What the named paths hold.
pub struct Gathered {
    pub runs: Vec<Run>,
    /// Files no reader claims (by name), with the reason, listed once and never stopping the rest.
    pub ignored: Vec<(String, String)>,
    /// How the files were grouped, in one line.
    pub summary: String,
}

/// One file to group: where it is, how grouping sees its path, and whether the user named it.
struct Entry {
    place: Place,
    shown: String,
    named: bool,
}

/// Whether the file holds several runs, or names the one it holds (`Format::parts`): it is read
/// as the runs it holds.
pub fn has_parts(path: &Path) -> bool {
    // A pipe or a device is read as one run: peeking at its first bytes here would take them
    // from the session that reads it next (and a pipe's writer may be gone by then).
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let shown = path.display().to_string();
    let Ok((name, head)) = peek(&shown, file) else {
        return false;
    };
    holds_parts(&name, &head)
}

/// True when `path` is read as a folder: a folder, or a zip of result files (not an Inspect log).
pub fn is_folder(path: &Path) -> bool {
    path.is_dir()
        || matches!(
            list_zip(path),
            Ok(Some(Err(_))) | Ok(Some(Ok(ZipListing { inspect: false, .. })))
        )
}

/// `path` as entries to group: itself, or a zip's entries under `shown` as a folder's would be;
/// a zip's unreadable entries (or the zip, when its directory is) go to `ignored`.
fn file(
    path: PathBuf,
    shown: String,
    named: bool,
    out: &mut Vec<Entry>,
    ignored: &mut Vec<(String, String)>,
) -> io::Result<()> {
    let listing = list_zip(&path)
        .map_err(|why| io::Error::new(why.kind(), format!("{}: {why}", path.display())))?;
    let listing = match listing {
        Some(Ok(l)) if !l.inspect => l,
        Some(Err(why)) => {
            ignored.push((path.display().to_string(), why));
            return Ok(());
        }
        _ => {
            out.push(Entry {
                place: Place::File(path),
                shown,
                named,
            });
            return Ok(());
        }
    };
    // Grouping sees a zip as a folder of its own name, as a named folder is seen under its name.
    let root = if named {
        path.file_name()
            .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned())
    } else {
        shown
    };
    for (name, why) in listing.unreadable {
        ignored.push((format!("{}/{name}", path.display()), why));
    }
    for entry in listing.entries {
        out.push(Entry {
            shown: format!("{root}/{}", entry.name),
            place: Place::Zipped {
                zip: path.clone(),
                entry,
            },
            named: false,
        });
    }
    Ok(())
}

/// Walks the named paths and groups their files into runs.
pub fn gather(paths: &[PathBuf], how: Grouping) -> io::Result<Gathered> {
    let mut entries = Vec::new();
    let mut ignored = Vec::new();
    for p in paths {
        if p.is_dir() {
            // A folder's files are seen under the folder's own name, which can name a run.
            let root = p.file_name().map_or_else(
                || "folder".to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            walk(p, &root, &mut entries, &mut ignored)?;
        } else {
            let shown = p.display().to_string().replace('\\', "/");
            file(p.clone(), shown, true, &mut entries, &mut ignored)?;
        }
    }
    // A file named twice (`d d`, or a folder and a file inside it) would be read twice.
    let mut seen = std::collections::HashSet::new();
    for e in &entries {
        let (path, inside) = match &e.place {
            Place::File(path) => (path, ""),
            Place::Zipped { zip, entry } => (zip, entry.name.as_str()),
        };
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if !seen.insert((key, inside)) {
            let why = format!("{} is given twice; give each file once", e.place.name());
            return Err(io::Error::new(io::ErrorKind::InvalidInput, why));
        }
    }
    let mut heads = Vec::with_capacity(entries.len());
    let mut undecoded = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let failed =
            |why: io::Error| io::Error::new(why.kind(), format!("{}: {why}", e.place.name()));
        let peeked = match &e.place {
            Place::File(path) => {
                let file = std::fs::File::open(path).map_err(failed)?;
                peek(&e.shown, file).map_err(failed)?
            }
            // An entry that cannot be decoded is set aside, as the zip's unreadable entries are.
            Place::Zipped { zip, entry } => {
                let peeked = Source::zip_entry(e.place.name(), zip, entry)
                    .and_then(|source| source.peek_as(&e.shown));
                peeked.unwrap_or_else(|why| {
                    undecoded.push((i, why.to_string()));
                    (String::new(), Vec::new())
                })
            }
        };
        heads.push(peeked);
    }
    let offered: Vec<Offered> = heads
        .iter()
        .map(|(path, head)| Offered { path, head })
        .collect();
    let mut found = runs::find(&offered, how);
    for (i, why) in undecoded {
        found
            .runs
            .iter_mut()
            .for_each(|r| r.files.retain(|&f| f != i));
        found.runs.retain(|r| !r.files.is_empty());
        found.ignored.retain(|(j, _)| *j != i);
        found.ignored.push((i, why));
    }
    found.ignored.sort_by_key(|(i, _)| *i);
    // What the zips held that cannot be read counts with the files not read, after them.
    let (names, whys): (Vec<String>, Vec<String>) = ignored.into_iter().unzip();
    found.ignored.extend(
        whys.into_iter()
            .enumerate()
            .map(|(k, why)| (entries.len() + k, why)),
    );
    let summary = found.summary();
    let runs = found
        .runs
        .into_iter()
        .map(|r| {
            // A file named on the command line that is a run alone keeps the name it was given,
            // as `compare a.jsonl b.jsonl` always named its runs.
            let name = match r.files.as_slice() {
                [i] if entries[*i].named && r.part.is_none() => entries[*i].place.name(),
                _ => r.name,
            };
            Run {
                name,
                files: r.files.iter().map(|&i| entries[i].place.clone()).collect(),
                part: r.part,
            }
        })
        .collect();
    let name = |i: usize| match entries.get(i) {
        Some(e) => e.place.name(),
        None => names[i - entries.len()].clone(),
    };
    let ignored = found
        .ignored
        .into_iter()
        .map(|(i, why)| (name(i), why))
        .collect();
    Ok(Gathered {
        runs,
        ignored,
        summary,
    })
}

/// Every visible file under `dir` (a zip's entries in its place), depth first in name order.
fn walk(
    dir: &Path,
    shown: &str,
    out: &mut Vec<Entry>,
    ignored: &mut Vec<(String, String)>,
) -> io::Result<()> {
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
            walk(&path, &shown, out, ignored)?;
        } else {
            file(path, shown, false, out, ignored)?;
        }
    }
    Ok(())
}

/// A file set aside, said quietly in one line: the reason without the list of formats.
pub fn note_ignored(ignored: &[(String, String)]) {
    for (name, why) in ignored {
        let short = why.split(". scorelens reads").next().unwrap_or(why);
        say!("note: {name}: not read: {short}");
    }
}
