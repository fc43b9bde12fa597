//! Command-line arguments, file reading and exit codes; the figures come from the library.

mod compare;
mod folder;
mod ic_tables;
mod interval_tables;
mod leaderboard;
mod parallel;
mod rewardbench_tables;
mod source_tables;
mod tables;

use clap::{Parser, Subcommand, ValueEnum};
use scorelens::formats::FORMATS;
use scorelens::metrics::bootstrap::{DEFAULT_RESAMPLES, DEFAULT_SEED};
use scorelens::profiles::Profile;
use scorelens::table;
use scorelens::{BootstrapOptions, Error, Options};
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
    /// Score one run of predictions (several files are read as one run).
    Score {
        /// Predictions files; or one folder, whose files (and subfolders) are scored in parallel
        /// as separate runs, one report each and a summary table.
        #[arg(required = true)]
        files: Vec<PathBuf>,
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
    },
    /// Compare runs of one benchmark item by item: each figure's difference with a paired
    /// bootstrap interval, McNemar's exact test on accuracy, items found in only one file.
    Compare {
        /// Predictions files, one run (model) each.
        #[arg(required = true, num_args = 2..)]
        files: Vec<PathBuf>,
        /// Benchmark rules to apply to every run; by default each file's header decides.
        #[arg(long)]
        profile: Option<String>,
        /// Resamples of the paired bootstrap.
        #[arg(long, value_name = "B", default_value_t = DEFAULT_RESAMPLES)]
        bootstrap: u32,
        /// Seed of the bootstrap's draws.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
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
        /// The figure to rank by (a report path such as `metrics.accuracy`, or
        /// `subsets.NAME.accuracy`); RewardBench's overall score or accuracy by default.
        #[arg(long, value_name = "FIGURE")]
        by: Option<String>,
        /// Resamples of the paired bootstrap.
        #[arg(long, value_name = "B", default_value_t = DEFAULT_RESAMPLES)]
        bootstrap: u32,
        /// Seed of the bootstrap's draws.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
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

#[derive(Clone, Copy, ValueEnum)]
enum Layout {
    Table,
    Csv,
    Markdown,
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
            for p in Profile::all() {
                println!("{:<22} {}", p.name, p.describe);
            }
            OK
        }
        Command::Formats => {
            for f in FORMATS {
                println!("{:<22} {}", f.name(), f.describe());
            }
            OK
        }
        Command::Score {
            files,
            profile,
            strict,
            json,
            format,
            bootstrap,
            seed,
        } => {
            let boot = bootstrap.map(|resamples| BootstrapOptions { resamples, seed });
            score(&files, Options { profile, strict }, boot, json, format)
        }
        Command::Compare {
            files,
            profile,
            bootstrap,
            seed,
            json,
            format,
        } => {
            let opts = Options {
                profile,
                strict: false,
            };
            let boot = BootstrapOptions {
                resamples: bootstrap,
                seed,
            };
            compare::run(&files, &opts, boot, json, format)
        }
        Command::Leaderboard {
            paths,
            profile,
            by,
            bootstrap,
            seed,
            json,
            format,
        } => {
            let opts = Options {
                profile,
                strict: false,
            };
            let boot = BootstrapOptions {
                resamples: bootstrap,
                seed,
            };
            leaderboard::run(&paths, &opts, by.as_deref(), boot, json, format)
        }
    }
}

fn score(
    files: &[PathBuf],
    opts: Options,
    boot: Option<BootstrapOptions>,
    json: bool,
    layout: Layout,
) -> i32 {
    if files.iter().any(|p| p.is_dir()) {
        return match files {
            [dir] => folder::run(dir, &opts, boot, json, layout),
            _ => {
                eprintln!("scorelens: give a folder alone, or files (not both)");
                USAGE
            }
        };
    }
    // Every file must open before any is read, so that a wrong path stops the run at once.
    for path in files {
        if let Err(e) = std::fs::File::open(path) {
            eprintln!("scorelens: {}: {e}", path.display());
            return USAGE;
        }
    }
    let report = match parallel::score_files(files, &opts, boot) {
        Ok(r) => r,
        Err(parallel::Fail::Io(name, e)) => {
            eprintln!("scorelens: {name}: {e}");
            return USAGE;
        }
        Err(parallel::Fail::Score(e @ Error::UnknownProfile(_))) => {
            eprintln!("scorelens: {e}");
            return USAGE;
        }
        Err(parallel::Fail::Score(e)) => {
            eprintln!("scorelens: {e}");
            return INPUT_ERROR;
        }
    };
    for w in report.warnings.iter().take(SHOWN_WARNINGS) {
        eprintln!("warning: {w}");
    }
    if report.warnings.len() > SHOWN_WARNINGS {
        eprintln!(
            "warning: {} more warnings; see the JSON report (--json)",
            report.warnings.len() - SHOWN_WARNINGS
        );
    }
    let text = if json {
        report.to_json() + "\n"
    } else {
        let t = tables::tables(&report);
        match layout {
            Layout::Table => tables::text(&report, &t),
            Layout::Csv => table::csv(&t),
            Layout::Markdown => table::markdown(&t),
        }
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
    OK
}
