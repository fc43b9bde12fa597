//! A run's item ids, one after another in one buffer: the comparisons and the leaderboard join
//! runs on them, and a boxed string per id cost three times the id's own bytes (its pointer
//! and length, and the allocator's smallest block) on files of short ids.

/// Ids in the order they were pushed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ids {
    text: String,
    /// Where each id ends in `text`.
    ends: Vec<usize>,
}

impl Ids {
    pub fn push(&mut self, id: &str) {
        self.text.push_str(id);
        self.ends.push(self.text.len());
    }

    /// Lets go of the room grown beyond the ids.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Id `i`.
    pub fn get(&self, i: usize) -> Option<&str> {
        let start = match i.checked_sub(1) {
            Some(before) => *self.ends.get(before)?,
            None => 0,
        };
        self.text.get(start..*self.ends.get(i)?)
    }

    /// Every id, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let id = self.text.get(start..end).unwrap_or_default();
            start = end;
            id
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back_in_order() {
        let given = [
            "q1",
            "",
            "é-2",
            "a much longer id than the others, with spaces",
            "q1",
        ];
        let mut ids = Ids::default();
        given.iter().for_each(|s| ids.push(s));
        assert_eq!(ids.len(), 5);
        assert_eq!(ids.iter().collect::<Vec<_>>(), given);
        for (i, s) in given.iter().enumerate() {
            assert_eq!(ids.get(i), Some(*s));
        }
        assert_eq!(ids.get(5), None);
        assert!(Ids::default().is_empty());
    }
}
