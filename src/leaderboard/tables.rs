//! A leaderboard in the one table model, so that the CLI and the page lay out (and export) the
//! same tables: the ranking on one figure, who leads where, and that figure's pairs.

use super::{Board, Leaderboard};
use crate::table::{Cell, Table};

/// The figure ranked when none is asked for: RewardBench's overall score, else accuracy, else
/// the first figure every run has.
pub fn default_figure(l: &Leaderboard) -> Option<&str> {
    ["rewardbench.overall", "metrics.accuracy"]
        .into_iter()
        .find(|f| l.board(f).is_some())
        .or_else(|| l.figures.first().map(|b| b.figure.as_str()))
}

/// The ranking on `figure`, the leaders table, and `figure`'s pairs; `None` when no board has
/// that name.
pub fn tables(l: &Leaderboard, figure: &str) -> Option<Vec<Table>> {
    let board = l.board(figure)?;
    Some(vec![ranking(l, board), leaders(l), pairs(board)])
}

fn yes(b: bool) -> Cell {
    Cell::from(if b { "yes" } else { "no" })
}

fn ranking(l: &Leaderboard, b: &Board) -> Table {
    let direction = if b.higher_is_better {
        "higher"
    } else {
        "lower"
    };
    let rows = b
        .standings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let next = b.standings.get(i + 1).map(|n| {
                b.pairs
                    .iter()
                    .find(|p| (p.a == s.run && p.b == n.run) || (p.a == n.run && p.b == s.run))
                    .is_some_and(|p| p.differs)
            });
            vec![
                Cell::from(u64::from(s.rank)),
                Cell::from(u64::from(s.tied_rank)),
                Cell::from(s.run.clone()),
                Cell::Num(Some(s.value)),
                Cell::Num(s.lo),
                Cell::Num(s.hi),
                Cell::from(u64::from(s.rank_median)),
                Cell::from(u64::from(s.rank_lo)),
                Cell::from(u64::from(s.rank_hi)),
                next.map_or_else(|| Cell::from("-"), yes),
            ]
        })
        .collect();
    Table {
        title: format!(
            "Ranked by {} ({direction} is better) on {} shared items; tied rank: 1 + the runs \
             that differ from it and are better",
            b.figure, l.common
        ),
        columns: [
            "rank",
            "tied rank",
            "run",
            "value",
            "95% lo",
            "95% hi",
            "median rank",
            "rank 95% lo",
            "rank 95% hi",
            "differs from next",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

fn leaders(l: &Leaderboard) -> Table {
    let rows = l
        .figures
        .iter()
        .chain(&l.subsets)
        .map(|b| {
            let first: Vec<&str> = b
                .standings
                .iter()
                .take_while(|s| s.rank == 1)
                .map(|s| s.run.as_str())
                .collect();
            vec![
                Cell::from(b.figure.clone()),
                Cell::from(first.join(" = ")),
                Cell::from(b.leader.clone().unwrap_or_else(|| "-".to_string())),
            ]
        })
        .collect();
    Table {
        title: "Who leads: first at the point estimate, and the run that differs from every other \
                after Holm's adjustment"
            .to_string(),
        columns: ["figure", "first", "leads"].map(String::from).to_vec(),
        rows,
    }
}

fn pairs(b: &Board) -> Table {
    let rows = b
        .pairs
        .iter()
        .map(|p| {
            vec![
                Cell::from(p.a.clone()),
                Cell::from(p.b.clone()),
                Cell::Num(Some(p.delta)),
                Cell::Num(p.lo),
                Cell::Num(p.hi),
                Cell::from(p.test.clone()),
                Cell::Num(Some(p.p_value)),
                Cell::Num(Some(p.p_adjusted)),
                yes(p.differs),
                Cell::Num(p.mde),
                p.items_needed.map_or_else(|| Cell::from("-"), Cell::from),
            ]
        })
        .collect();
    let family = if b.figure.starts_with("subsets.") {
        "the pairs of every subset".to_string()
    } else {
        format!("{} pairs", b.pairs.len())
    };
    Table {
        title: format!(
            "Pairs on {}: A - B with paired 95% intervals, p-values Holm-adjusted over {family}",
            b.figure
        ),
        columns: [
            "A",
            "B",
            "A - B",
            "95% lo",
            "95% hi",
            "test",
            "p",
            "Holm p",
            "differs",
            "detectable (80% power)",
            "items for 80% power",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}
