//! How a face lists a report's groups: by name in natural order, the largest first when it can
//! list only some, and whether they look like ids. The report keeps every group; a group named by
//! an id (hundreds of thousands of them) must not reach a screen whole.

use super::{GroupFigures, Report};
use crate::natural::natural_cmp;
use std::cmp::Ordering;
use std::collections::HashSet;

/// Names in natural order (`task_2` before `task_10`), the order every table lists groups in.
pub fn by_name(a: &GroupFigures, b: &GroupFigures) -> Ordering {
    natural_cmp(&a.name, &b.name)
}

/// The indices of the groups in natural order of their names.
pub fn in_name_order(groups: &[GroupFigures]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by(|&a, &b| by_name(&groups[a], &groups[b]));
    order
}

/// The indices of the `n` largest groups (most items first; equal sizes in natural order of
/// name), in that order. Selects before it sorts, so 200,000 groups cost a linear pass and a sort
/// of `n`.
pub fn largest(groups: &[GroupFigures], n: usize) -> Vec<usize> {
    let bigger = |&a: &usize, &b: &usize| {
        groups[b]
            .items
            .cmp(&groups[a].items)
            .then_with(|| by_name(&groups[a], &groups[b]))
    };
    let mut order: Vec<usize> = (0..groups.len()).collect();
    if n < order.len() {
        order.select_nth_unstable_by(n, bigger);
        order.truncate(n);
    }
    order.sort_by(bigger);
    order
}

/// Whether the groups look like ids rather than categories: many of them, and nearly one item
/// each (fewer than 1.2 items a group on average), so that per-group figures say little.
pub fn look_like_ids(groups: u64, items: u64) -> bool {
    groups >= 100 && (items as f64) < 1.2 * groups as f64
}

/// Keeps only the `cap` largest groups of `report` (and their Wilson intervals), for a face that
/// cannot hold them all; returns how many groups the report had. The kept groups stay in the
/// report's own order, so that a report under the cap is unchanged.
pub fn keep_largest(report: &mut Report, cap: usize) -> u64 {
    let total = report.groups.len() as u64;
    if report.groups.len() <= cap {
        return total;
    }
    let keep = kept(&report.groups, cap);
    let mut flags = keep.into_iter();
    report.groups.retain(|_| flags.next().unwrap_or(false));
    let names: HashSet<&str> = report.groups.iter().map(|g| g.name.as_str()).collect();
    report
        .intervals
        .wilson
        .0
        .retain(|(path, _)| wilson_kept(path, &names));
    total
}

/// A copy of `report` as `keep_largest` leaves it, made without copying the groups it leaves
/// out: the browser's worker keeps the whole report and sends the page this copy, and a report
/// of 200,000 groups is some 33 MB. `report` is as it was after.
pub fn with_largest(report: &mut Report, cap: usize) -> Report {
    if report.groups.len() <= cap {
        return report.clone();
    }
    let keep = kept(&report.groups, cap);
    let groups = std::mem::take(&mut report.groups);
    let wilson = std::mem::take(&mut report.intervals.wilson.0);
    let mut copy = report.clone();
    copy.groups = groups
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(g, _)| g.clone())
        .collect();
    let names: HashSet<&str> = copy.groups.iter().map(|g| g.name.as_str()).collect();
    copy.intervals.wilson.0 = wilson
        .iter()
        .filter(|(path, _)| wilson_kept(path, &names))
        .cloned()
        .collect();
    report.groups = groups;
    report.intervals.wilson.0 = wilson;
    copy
}

/// Whether each of `groups` is among the `cap` largest.
fn kept(groups: &[GroupFigures], cap: usize) -> Vec<bool> {
    let mut keep = vec![false; groups.len()];
    for i in largest(groups, cap) {
        keep[i] = true;
    }
    keep
}

/// Whether a Wilson interval at `path` stays beside the groups `names`: every interval but those
/// of the groups left out.
fn wilson_kept(path: &str, names: &HashSet<&str>) -> bool {
    match path
        .strip_prefix("groups.")
        .and_then(|p| p.strip_suffix(".accuracy"))
    {
        Some(name) => names.contains(name),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn group(name: &str, items: u64) -> GroupFigures {
        GroupFigures {
            name: name.to_string(),
            items,
            correct: items as f64 / 2.0,
            accuracy: Some(0.5),
            normalized: None,
            invalid_share: Some(0.0),
        }
    }

    fn names(groups: &[GroupFigures], order: &[usize]) -> Vec<String> {
        order.iter().map(|&i| groups[i].name.clone()).collect()
    }

    #[test]
    fn largest_first_then_natural_name() {
        let g = [
            group("task_10", 3),
            group("task_2", 3),
            group("big", 9),
            group("task_1", 1),
            group("tiny", 1),
        ];
        assert_eq!(names(&g, &largest(&g, 3)), ["big", "task_2", "task_10"]);
        assert_eq!(
            names(&g, &largest(&g, 10)),
            ["big", "task_2", "task_10", "task_1", "tiny"]
        );
        assert_eq!(
            names(&g, &in_name_order(&g)),
            ["big", "task_1", "task_2", "task_10", "tiny"]
        );
        assert!(largest(&g, 0).is_empty());
    }

    #[test]
    fn ids_are_many_groups_of_about_one_item() {
        assert!(look_like_ids(200_000, 200_000));
        assert!(look_like_ids(100, 119));
        assert!(!look_like_ids(100, 120));
        // Few groups are read whatever their size.
        assert!(!look_like_ids(99, 99));
        assert!(!look_like_ids(57, 14_042));
    }

    fn scored(groups: &[(&str, usize)]) -> Report {
        let mut text = String::from("{\"scorelens\": 1}\n");
        let mut n = 0;
        for (name, items) in groups {
            for _ in 0..*items {
                n += 1;
                text += &format!(
                    "{{\"id\": \"i{n}\", \"type\": \"choice\", \"group\": \"{name}\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}}\n"
                );
            }
        }
        let input = crate::Input {
            name: "g.jsonl",
            bytes: text.as_bytes(),
        };
        crate::score(&[input], &crate::Options::default()).expect("scores")
    }

    #[test]
    fn keep_largest_cuts_groups_and_their_intervals_only() {
        let whole = scored(&[("a", 1), ("b", 3), ("c", 2), ("d", 1)]);
        let mut cut = whole.clone();
        assert_eq!(keep_largest(&mut cut, 2), 4);
        // The kept groups in the report's order, with their figures untouched.
        let kept: Vec<&str> = cut.groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(kept, ["b", "c"]);
        assert_eq!(cut.groups[0], whole.groups[1]);
        let paths: Vec<&str> = cut
            .intervals
            .wilson
            .0
            .iter()
            .map(|(p, _)| p.as_str())
            .collect();
        assert!(paths.contains(&"metrics.accuracy"));
        assert!(paths.contains(&"groups.b.accuracy") && paths.contains(&"groups.c.accuracy"));
        assert!(!paths.contains(&"groups.a.accuracy") && !paths.contains(&"groups.d.accuracy"));
        // Everything else is the whole report's.
        assert_eq!(cut.metrics, whole.metrics);
        // Under the cap nothing changes.
        let mut same = whole.clone();
        assert_eq!(keep_largest(&mut same, 4), 4);
        assert_eq!(same, whole);
    }

    #[test]
    fn with_largest_is_the_cut_as_a_copy() {
        let whole = scored(&[("a", 1), ("b", 3), ("c", 2), ("d", 1), ("e", 2)]);
        for cap in 0..7 {
            let mut cut = whole.clone();
            keep_largest(&mut cut, cap);
            let mut report = whole.clone();
            assert_eq!(with_largest(&mut report, cap), cut, "cap {cap}");
            // The report it was made from is left whole.
            assert_eq!(report, whole, "cap {cap}");
        }
    }

    proptest! {
        /// The cut keeps the largest groups whatever the order they come in, and `n` of them.
        #[test]
        fn largest_is_the_head_of_the_full_sort(
            sizes in proptest::collection::vec(0u64..5, 0..60),
            n in 0usize..70,
            seed in any::<u64>(),
        ) {
            let mut g: Vec<GroupFigures> =
                sizes.iter().enumerate().map(|(i, &s)| group(&format!("g{i}"), s)).collect();
            let full = names(&g, &largest(&g, usize::MAX));
            // A rotation of the input: the same answer.
            let len = g.len().max(1);
            g.rotate_left(seed as usize % len);
            let cut = names(&g, &largest(&g, n));
            prop_assert_eq!(cut.len(), n.min(g.len()));
            prop_assert_eq!(&cut[..], &full[..cut.len()]);
        }
    }
}
