//! The branches a state took inside its merging context's loop: each
//! condition in order, that of a fork's side, of an assumption, and of a
//! branch whose other side the path does not allow. The last adds nothing
//! to the path condition (the path implies it), yet its letter belongs in
//! the state's word, or the last iteration's word falls out of its
//! regular pattern (`../shared/design/quantified_merging.md` §2.2). A
//! persistent list: states forked from one another share what they took
//! before the fork. Past [`MAX_BRANCHES`] it stops growing: words that
//! long are not partitioned.

use crate::expr::TermId;
use std::rc::Rc;

/// Branches kept at most; one more marks a list cut short.
pub const MAX_BRANCHES: usize = 50_000;

#[derive(Clone, Debug, Default)]
pub struct Branches {
    last: Option<Rc<Branch>>,
    len: usize,
}

#[derive(Debug)]
struct Branch {
    condition: TermId,
    before: Option<Rc<Branch>>,
}

impl Branches {
    pub fn push(&mut self, condition: TermId) {
        if self.len > MAX_BRANCHES {
            return;
        }
        let before = self.last.take();
        self.last = Some(Rc::new(Branch { condition, before }));
        self.len += 1;
    }

    /// How many it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The conditions, first taken first.
    pub fn conditions(&self) -> Vec<TermId> {
        let mut conditions = Vec::with_capacity(self.len);
        let mut at = self.last.as_deref();
        while let Some(branch) = at {
            conditions.push(branch.condition);
            at = branch.before.as_deref();
        }
        conditions.reverse();
        conditions
    }

    pub fn clear(&mut self) {
        *self = Branches::default();
    }
}

impl Drop for Branches {
    /// Without recursion: a loop may leave a list of millions.
    fn drop(&mut self) {
        let mut at = self.last.take();
        while let Some(branch) = at {
            at = match Rc::try_unwrap(branch) {
                Ok(mut branch) => branch.before.take(),
                // Another state still holds the rest.
                Err(_) => None,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Sort, TermStore};

    #[test]
    fn a_fork_shares_what_came_before_and_each_side_goes_on_alone() {
        let mut st = TermStore::new();
        let [a, b, c] = ["a", "b", "c"].map(|name| st.declare(name, Sort::Bool).unwrap());
        let mut first = Branches::default();
        first.push(a);
        let mut second = first.clone();
        first.push(b);
        second.push(c);
        assert_eq!(first.conditions(), [a, b]);
        assert_eq!(second.conditions(), [a, c]);
        second.clear();
        assert!(second.conditions().is_empty());
        assert_eq!(first.conditions(), [a, b]);
    }

    #[test]
    fn a_long_list_drops_without_recursion() {
        let mut st = TermStore::new();
        let a = st.declare("a", Sort::Bool).unwrap();
        let mut long = Branches::default();
        for _ in 0..MAX_BRANCHES {
            long.push(a);
        }
        let shared = long.clone();
        drop(long);
        assert_eq!(shared.conditions().len(), MAX_BRANCHES);
        // Past the most kept, one more marks the list cut short.
        let mut longer = shared.clone();
        for _ in 0..3 {
            longer.push(a);
        }
        assert_eq!(
            (longer.len(), longer.conditions().len()),
            (MAX_BRANCHES + 1, MAX_BRANCHES + 1)
        );
    }
}
