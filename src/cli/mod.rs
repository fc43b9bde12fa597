//! Command-line arguments, file reading and exit codes; the figures come from the library.

/// `eprintln!` for a line that may carry text from a file (a warning, a run's name, a reason):
/// what would act on the terminal is shown as an escape (`scorelens::inert`), line breaks too,
/// so that one message stays one line.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", scorelens::inert::inert(&format!($($arg)*)))
    };
}

/// `say!` for an error whose text is lines by design ("no item could be scored" and a line for
/// each warning): its line feeds are kept, all else that would act is escaped.
macro_rules! say_lines {
    ($($arg:tt)*) => {
        eprintln!("{}", scorelens::inert::inert_lines(&format!($($arg)*)))
    };
}

mod compare;
mod folder;
mod found;
mod leaderboard;
mod tables;

use clap::{Parser, Subcommand, ValueEnum};
use scorelens::metrics::bootstrap::{ClusterBy, DEFAULT_RESAMPLES, DEFAULT_SEED};
use scorelens::runs::Grouping;
use scorelens::table;
use scorelens::{score_sources, BootstrapOptions, Error, Options, Source};
use std::io::Write;
use std::path::PathBuf;

/// Exit code: the report was made.
const OK: i32 = 0;
/// Exit code: strict mode met a warning, or no item could be scored.
const INPUT_ERROR: i32 = 1;
/// Exit code: the command line was wrong (clap uses 2 as well).
const USAGE: i32 = 2;

/// Warnings echoed to stderr before the rest are only counted.
const SHOWN_WARNINGS: usize = 20;

#[derive(Parser)]
#[command(
    name = "scorelens",
    version,
    about = "Score LLM evaluation results on your own machine"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Score predictions: one file, or files and folders, grouped into runs by what they say
    /// (a HELM run folder, an lm-eval model folder, a scorelens header's model). One run prints
    /// its report; several are scored in parallel, one report each and a summary table.
    Score {
        /// Predictions files (plain, gzip, zstd or UTF-16) and folders, read recursively.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        grouping: GroupingArgs,
        /// Benchmark rules to apply; by default the file's header or `benchmark` field decides.
        #[arg(long)]
        profile: Option<String>,
        /// Stop with exit code 1 at the first warning.
        #[arg(long)]
        strict: bool,
        /// Print the JSON report and nothing else on stdout.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// Output layout.
        #[arg(long, value_enum, default_value_t = Layout::Table)]
        format: Layout,
        /// Add seeded percentile bootstrap intervals to every headline figure, from B resamples
        /// (2000 when B is left out).
        #[arg(long, value_name = "B", num_args = 0..=1, default_missing_value = "2000")]
        bootstrap: Option<u32>,
        /// Seed of the bootstrap's draws (the same seed gives the same intervals everywhere).
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// Items that belong together (questions on one passage, epochs of one sample): `cluster`
        /// (the file's `cluster` or `passage_id` field, the default where items have one),
        /// `group`, `none`, or any other field: a column, a key, `metadata.KEY` (Inspect),
        /// `doc.KEY` (lm-eval). Intervals, resamples and paired tests then count clusters.
        #[arg(long, value_name = "FIELD", value_parser = cluster_rule)]
        cluster: Option<ClusterBy>,
        /// Group the items by this field where the file gives them no group of its own:
        /// promptfoo's test vars (`--group-by region`). Accuracy is then shown per group.
        #[arg(long, value_name = "VAR")]
        group_by: Option<String>,
    },
    /// Compare runs of one benchmark item by item: each figure's difference with a paired
    /// bootstrap interval, McNemar's exact test on accuracy, items found in only one file.
    Compare {
        /// Predictions files and folders, grouped into runs as `score` groups them.
        #[arg(required = true, num_args = 1..)]
        files: Vec<PathBuf>,
        /// Read each file as its own run, whatever the files say.
        #[arg(long)]
        runs_per_file: bool,
        /// Benchmark rules to apply to every run; by default each file's header decides.
        #[arg(long)]
        profile: Option<String>,
        /// Resamples of the paired bootstrap.
        #[arg(long, value_name = "B", default_value_t = DEFAULT_RESAMPLES)]
        bootstrap: u32,
        /// Seed of the bootstrap's draws.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// Items that belong together (questions on one passage, epochs of one sample): `cluster`
        /// (the file's `cluster` or `passage_id` field, the default where items have one),
        /// `group`, `none`, or any other field: a column, a key, `metadata.KEY` (Inspect),
        /// `doc.KEY` (lm-eval). Intervals, resamples and paired tests then count clusters.
        #[arg(long, value_name = "FIELD", value_parser = cluster_rule)]
        cluster: Option<ClusterBy>,
        /// Group the items by this field where the file gives them no group of its own:
        /// promptfoo's test vars (`--group-by region`). Accuracy is then shown per group.
        #[arg(long, value_name = "VAR")]
        group_by: Option<String>,
        /// Print the JSON comparison and nothing else on stdout.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// Output layout.
        #[arg(long, value_enum, default_value_t = Layout::Table)]
        format: Layout,
    },
    /// Rank many runs of one benchmark: each run's figures with intervals, its median rank and 95%
    /// rank interval from one paired bootstrap, and pairwise tests Holm-adjusted over all pairs.
    Leaderboard {
        /// Predictions files (one run each) or folders (each file or subfolder one run).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Benchmark rules to apply to every run; by default each file's header decides.
        #[arg(long)]
        profile: Option<String>,
        /// Rank this figure only (a report path such as `metrics.accuracy`, or
        /// `subsets.NAME.accuracy`): the others are not computed. By default every figure is
        /// ranked and RewardBench's overall score or accuracy shown.
        #[arg(long, value_name = "FIGURE")]
        by: Option<String>,
        /// With `--by`: rank every figure and subset all the same, showing that one (the page's
        /// leaderboard exports are these).
        #[arg(long, requires = "by")]
        all: bool,
        /// Resamples of the paired bootstrap.
        #[arg(long, value_name = "B", default_value_t = DEFAULT_RESAMPLES)]
        bootstrap: u32,
        /// Seed of the bootstrap's draws.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// Items that belong together (questions on one passage, epochs of one sample): `cluster`
        /// (the file's `cluster` or `passage_id` field, the default where items have one),
        /// `group`, `none`, or any other field: a column, a key, `metadata.KEY` (Inspect),
        /// `doc.KEY` (lm-eval). Intervals, resamples and paired tests then count clusters.
        #[arg(long, value_name = "FIELD", value_parser = cluster_rule)]
        cluster: Option<ClusterBy>,
        /// Group the items by this field where the file gives them no group of its own:
        /// promptfoo's test vars (`--group-by region`). Accuracy is then shown per group.
        #[arg(long, value_name = "VAR")]
        group_by: Option<String>,
        /// Subsets (groups) to rank, the largest first: a number, or `all`.
        #[arg(long, value_name = "N|all", default_value = "50", value_parser = subsets_limit)]
        subsets: usize,
        /// Print the JSON leaderboard (every figure and subset) and nothing else on stdout.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// Output layout.
        #[arg(long, value_enum, default_value_t = Layout::Table)]
        format: Layout,
    },
    /// List the profiles.
    Profiles,
    /// List the input formats.
    Formats,
}

/// How files become runs, when the found grouping is not what the user wants.
#[derive(clap::Args)]
struct GroupingArgs {
    /// Read every file as one run.
    #[arg(long, conflicts_with = "runs_per_file")]
    one_run: bool,
    /// Read each file as its own run.
    #[arg(long)]
    runs_per_file: bool,
}

impl GroupingArgs {
    fn grouping(&self) -> Grouping {
        match (self.one_run, self.runs_per_file) {
            (true, _) => Grouping::OneRun,
            (_, true) => Grouping::PerFile,
            _ => Grouping::Found,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Layout {
    Table,
    Csv,
    Markdown,
    /// One self-contained HTML file (inline CSS and SVG, no script), to share or print.
    Html,
}

/// Runs the command line and returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { USAGE } else { OK };
        }
    };
    match cli.command {
        Command::Profiles => {
            for p in scorelens::catalog::profiles() {
                println!("{:<22} {}", p.name, p.describe);
            }
            OK
        }
        Command::Formats => {
            for f in scorelens::catalog::formats() {
                println!("{:<22} {}", f.name, f.describe);
            }
            OK
        }
        Command::Score {
            files,
            grouping,
            profile,
            strict,
            json,
            format,
            bootstrap,
            seed,
            cluster,
            group_by,
        } => {
            let opts = Options {
                profile,
                strict,
                bootstrap: bootstrap.map(|resamples| BootstrapOptions { resamples, seed }),
                cluster,
                group_by,
                ..Options::default()
            };
            score(&files, grouping.grouping(), opts, json, format)
        }
        Command::Compare {
            files,
            runs_per_file,
            profile,
            bootstrap,
            seed,
            cluster,
            group_by,
            json,
            format,
        } => {
            let opts = Options {
                profile,
                cluster,
                group_by,
                ..Options::default()
            };
            let boot = BootstrapOptions {
                resamples: bootstrap,
                seed,
            };
            let how = if runs_per_file {
                Grouping::PerFile
            } else {
                Grouping::Found
            };
            compare::run(&files, how, &opts, boot, json, format)
        }
        Command::Leaderboard {
            paths,
            profile,
            by,
            all,
            bootstrap,
            seed,
            cluster,
            group_by,
            subsets,
            json,
            format,
        } => {
            let opts = Options {
                profile,
                cluster,
                group_by,
                ..Options::default()
            };
            let boot = BootstrapOptions {
                resamples: bootstrap,
                seed,
            };
            let ask = leaderboard::Ask {
                by: by.as_deref(),
                all,
                subsets,
            };
            leaderboard::run(&paths, &opts, ask, boot, json, format)
        }
    }
}

/// `--cluster`: a cluster rule by name.
fn cluster_rule(s: &str) -> Result<ClusterBy, String> {
    ClusterBy::parse(s).ok_or_else(|| {
        format!(
            "`{s}` cannot name a field (it is empty, has a blank at an end or a control character); scorelens reads clusters from {}",
            ClusterBy::NAMES
        )
    })
}

/// `--subsets`: a number of subsets, or `all`.
fn subsets_limit(s: &str) -> Result<usize, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(usize::MAX);
    }
    s.parse()
        .map_err(|_| format!("`{s}` is not a number of subsets or `all`"))
}

fn score(files: &[PathBuf], how: Grouping, opts: Options, json: bool, layout: Layout) -> i32 {
    // An unknown profile is a usage error once, not one error per run.
    if let Err(e) = scorelens::Session::new(&opts) {
        say!("scorelens: {e}");
        return USAGE;
    }
    if let [one] = files {
        if !found::is_folder(one) && !found::has_parts(one) {
            return score_run(&[found::Place::File(one.clone())], &opts, json, layout);
        }
    }
    let gathered = match found::gather(files, how) {
        Ok(g) => g,
        Err(why) => {
            say!("scorelens: {why}");
            return USAGE;
        }
    };
    found::note_ignored(&gathered.ignored);
    match gathered.runs.as_slice() {
        [] => {
            say!("scorelens: no file here holds predictions scorelens reads");
            INPUT_ERROR
        }
        // One run prints exactly what naming its files one by one prints.
        [run] => score_run(&run.files, &run.options(&opts), json, layout),
        runs => {
            say!("scorelens: {}", gathered.summary);
            folder::run(runs, &opts, json, layout)
        }
    }
}

/// Scores the files as one run and prints its report.
fn score_run(files: &[found::Place], opts: &Options, json: bool, layout: Layout) -> i32 {
    // Every file must open before any is read, so that a wrong path stops the run at once.
    let sources = match open(files) {
        Ok(s) => s,
        Err(why) => {
            say!("scorelens: {why}");
            return USAGE;
        }
    };
    let report = match score_sources(sources, opts) {
        Ok(f) => f.report,
        Err(e @ (Error::UnknownProfile(_) | Error::Io { .. } | Error::TooBig { .. })) => {
            say!("scorelens: {e}");
            return USAGE;
        }
        Err(e) => {
            say_lines!("scorelens: {e}");
            return INPUT_ERROR;
        }
    };
    for w in report.warnings.iter().take(SHOWN_WARNINGS) {
        say!("warning: {w}");
    }
    if report.warnings.len() > SHOWN_WARNINGS {
        say!(
            "warning: {} more warnings; see the JSON report (--json)",
            report.warnings.len() - SHOWN_WARNINGS
        );
    }
    let text = if json {
        report.to_json() + "\n"
    } else {
        let t = scorelens::layout::tables(&report);
        match layout {
            Layout::Table => tables::text(&report, &t),
            Layout::Csv => table::csv(&t),
            Layout::Markdown => table::markdown(&t),
            Layout::Html => scorelens::html::report(&report),
        }
    };
    print(&text, json, layout);
    OK
}

/// Writes `text` to stdout. Aligned text and Markdown are read in terminals, so whatever in them
/// would act there is shown as an escape; each piece from a file was made inert where it was laid
/// out (a line break in a cell too), and this pass guarantees it for the whole. CSV, HTML and JSON
/// are data for other programs and keep the text as it is, in their own escaping.
fn print(text: &str, json: bool, layout: Layout) {
    let text = match layout {
        Layout::Table | Layout::Markdown if !json => scorelens::inert::inert_lines(text),
        _ => std::borrow::Cow::Borrowed(text),
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
}

/// Each file as a source, opened now; or the first that does not open, as `path: why`.
fn open(files: &[found::Place]) -> Result<Vec<Source<'static>>, String> {
    files
        .iter()
        .map(|p| p.open().map_err(|e| format!("{}: {e}", p.name())))
        .collect()
}
