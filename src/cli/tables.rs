//! Tables as aligned text, and what a terminal shows of a report (the largest groups).

use scorelens::inert::inert;
use scorelens::layout::group_row;
use scorelens::report::groups;
use scorelens::table::{Entry, Table, Written};
use scorelens::Report;

/// How a sentence counts items, shared with the report's tables.
pub use scorelens::layout::items;

/// Groups the aligned text lists, the largest first, when a run has more (groups that are really
/// ids number in the hundreds of thousands); CSV, Markdown and JSON keep every group.
pub const GROUPS_SHOWN: usize = 40;

/// The groups table cut to the `GROUPS_SHOWN` largest, with the count of the rest in its title.
fn largest_groups(r: &Report, t: &Table<Entry>) -> Table<Entry> {
    let rest = r.groups.len() - GROUPS_SHOWN;
    Table {
        title: format!(
            "Groups: the {GROUPS_SHOWN} largest of {} ({rest} more in --format csv or --json)",
            r.groups.len()
        ),
        columns: t.columns.clone(),
        rows: groups::largest(&r.groups, GROUPS_SHOWN)
            .into_iter()
            .map(|i| group_row(&r.groups[i]))
            .collect(),
    }
}

/// Aligned plain text, with a header naming the run.
pub fn text(r: &Report, tables: &[Table<Entry>]) -> String {
    let capped: Vec<Table<Entry>>;
    let tables = if r.groups.len() > GROUPS_SHOWN {
        capped = tables
            .iter()
            .map(|t| {
                if t.title == "Groups" && t.rows.len() == r.groups.len() {
                    largest_groups(r, t)
                } else {
                    t.clone()
                }
            })
            .collect();
        &capped[..]
    } else {
        tables
    };
    let mut out = format!(
        "scorelens · profile {} · model {} · {} scored, {} skipped\n",
        inert(&r.profile),
        inert(r.model.as_deref().unwrap_or("(unnamed)")),
        items(r.items),
        r.skipped
    );
    for f in &r.files {
        out += &format!(
            "  {} ({}): {}, {} skipped\n",
            inert(&f.name),
            f.format,
            items(f.items),
            f.skipped
        );
    }
    out += &layout(tables);
    for n in &r.notes {
        out += &format!("\nnote: {}", inert(n));
    }
    if !r.notes.is_empty() {
        out.push('\n');
    }
    out
}

/// The tables as aligned plain text, each under its title; every title, name and cell made inert
/// (`scorelens::inert`) before the columns are measured, so that a control character in a group
/// name neither acts on the terminal nor breaks the alignment.
pub fn layout<C: Written>(tables: &[Table<C>]) -> String {
    let mut out = String::new();
    for t in tables {
        out += &format!("\n{}\n", inert(&t.title));
        let head: Vec<String> = t.columns.iter().map(|c| inert(c).into_owned()).collect();
        let rows: Vec<Vec<String>> = t
            .rows
            .iter()
            .map(|r| r.iter().map(|c| inert(&c.shown()).into_owned()).collect())
            .collect();
        let widths: Vec<usize> = (0..head.len())
            .map(|i| {
                let cells = rows
                    .iter()
                    .filter_map(|r| r.get(i))
                    .map(|c| c.chars().count());
                cells
                    .chain(head.get(i).map(|c| c.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for cells in std::iter::once(&head).chain(&rows) {
            let line: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, w))| {
                    let numeric =
                        i > 0 && c.chars().all(|ch| ch.is_ascii_digit() || ".-".contains(ch));
                    if numeric {
                        format!("{c:>w$}")
                    } else {
                        format!("{c:<w$}")
                    }
                })
                .collect();
            out += &format!("  {}\n", line.join("  ").trim_end());
        }
    }
    out
}

/// The notes under a comparison or a leaderboard: per run, its items the others lack (`say`
/// words the count and the run), then the other notes; empty when there is nothing to say.
pub fn missing_notes(
    lists: &[scorelens::compare::OnlyIn],
    say: impl Fn(u64, &str) -> String,
    notes: &[String],
) -> String {
    let mut out = String::new();
    for o in lists.iter().filter(|o| o.count > 0) {
        let more = o.count.saturating_sub(o.ids.len() as u64);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        out += &format!(
            "\nnote: {}: {}{tail}",
            inert(&say(o.count, &o.run)),
            inert(&o.ids.join(", "))
        );
    }
    for n in notes {
        out += &format!("\nnote: {}", inert(n));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}
