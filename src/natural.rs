//! Natural order for names that carry numbers (`task_2` before `task_10`): one comparator that the
//! CLI's tables, the page and the exports all sort group names by, so that every face lists them
//! alike.

use std::cmp::Ordering;

/// A run of ASCII digits (compared by value) or of anything else (compared byte for byte).
#[derive(Debug, PartialEq, Eq)]
enum Chunk<'a> {
    Number(&'a str),
    Text(&'a str),
}

fn chunks(s: &str) -> impl Iterator<Item = Chunk<'_>> {
    let mut rest = s;
    std::iter::from_fn(move || {
        let first = rest.as_bytes().first()?;
        let digits = first.is_ascii_digit();
        let end = rest
            .bytes()
            .position(|b| b.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        // Digits are ASCII, so `end` falls on a character boundary.
        let (chunk, tail) = rest.split_at(end);
        rest = tail;
        Some(if digits {
            Chunk::Number(chunk.trim_start_matches('0'))
        } else {
            Chunk::Text(chunk)
        })
    })
}

fn chunk_cmp(a: &Chunk, b: &Chunk) -> Ordering {
    match (a, b) {
        // Without leading zeros, the shorter run of digits is the smaller number: no overflow
        // whatever the length.
        (Chunk::Number(x), Chunk::Number(y)) => x.len().cmp(&y.len()).then_with(|| x.cmp(y)),
        (Chunk::Number(_), Chunk::Text(_)) => Ordering::Less,
        (Chunk::Text(_), Chunk::Number(_)) => Ordering::Greater,
        (Chunk::Text(x), Chunk::Text(y)) => x.cmp(y),
    }
}

/// Compares two names in natural order: runs of digits by their value, the rest byte for byte.
/// Names that differ only in leading zeros (`a01`, `a1`) then fall back to byte order, so the
/// order is total and `Equal` only for equal strings.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (chunks(a), chunks(b));
    loop {
        match (x.next(), y.next()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) => match chunk_cmp(&p, &q) {
                Ordering::Equal => {}
                o => return o,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sorted(names: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| natural_cmp(a, b));
        v
    }

    #[test]
    fn numbers_sort_by_value() {
        assert_eq!(
            sorted(&["task_10", "task_2", "task_1", "task_100", "task_9"]),
            ["task_1", "task_2", "task_9", "task_10", "task_100"]
        );
        assert_eq!(natural_cmp("task_2", "task_10"), Ordering::Less);
        assert_eq!(natural_cmp("v1.10", "v1.9"), Ordering::Greater);
    }

    #[test]
    fn text_and_mixed_names() {
        // Digits sort before letters, as in byte order; a prefix comes first.
        assert_eq!(
            sorted(&["b", "a10", "a", "a2b", "a2", "1"]),
            ["1", "a", "a2", "a2b", "a10", "b"]
        );
        // Leading zeros: equal values, then byte order ('0' < '1').
        assert_eq!(
            sorted(&["a1", "a01", "a001", "a2"]),
            ["a001", "a01", "a1", "a2"]
        );
        // Numbers longer than any integer type still compare by value.
        assert_eq!(
            natural_cmp("x99999999999999999999999", "x100000000000000000000000"),
            Ordering::Less
        );
        // Non-ASCII text is compared byte for byte around the numbers.
        assert_eq!(sorted(&["é10", "é9", "(none)"]), ["(none)", "é9", "é10"]);
        assert_eq!(natural_cmp("", ""), Ordering::Equal);
        assert_eq!(natural_cmp("", "0"), Ordering::Less);
    }

    fn name() -> impl Strategy<Value = String> {
        // Few letters and digits, so that shared prefixes, equal numbers and leading zeros are common.
        "[ab0-2_é]{0,6}"
    }

    proptest! {
        /// A total order consistent with equality: antisymmetric, `Equal` exactly when equal,
        /// and transitive.
        #[test]
        fn total_order(a in name(), b in name(), c in name()) {
            let ab = natural_cmp(&a, &b);
            prop_assert_eq!(ab, natural_cmp(&b, &a).reverse());
            prop_assert_eq!(ab == Ordering::Equal, a == b);
            if ab != Ordering::Greater && natural_cmp(&b, &c) != Ordering::Greater {
                prop_assert_ne!(natural_cmp(&a, &c), Ordering::Greater);
            }
        }

        /// Sorting does not depend on the input's order.
        #[test]
        fn permutation_invariant(mut names in proptest::collection::vec(name(), 0..30)) {
            let mut a = names.clone();
            a.sort_by(|x, y| natural_cmp(x, y));
            names.reverse();
            names.sort_by(|x, y| natural_cmp(x, y));
            prop_assert_eq!(a, names);
        }
    }
}
