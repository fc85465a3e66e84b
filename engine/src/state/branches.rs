//! The branches a state took inside its merging context's loop: each
//! condition in order, that of a fork's side, of an assumption, and of a
//! branch whose other side the path does not allow, with the instruction
//! that branched and the side it took. The last adds nothing
//! to the path condition (the path implies it), yet its letter belongs in
//! the state's word, or the last iteration's word falls out of its
//! regular pattern (`../shared/design/quantified_merging.md` §2.2). A
//! persistent list: states forked from one another share what they took
//! before the fork. Past [`MAX_BRANCHES`] it stops growing: words that
//! long are not partitioned.

use crate::expr::TermId;
use std::rc::Rc;

/// The side of the branch an incremental merge leaves: one edge whose
/// condition is the disjunction of the merged states' ways from the fork
/// where they parted (`Taken::at`).
pub const MERGED_SIDE: u32 = u32::MAX;

/// Branches kept at most; one more marks a list cut short.
pub const MAX_BRANCHES: usize = 50_000;

#[derive(Clone, Debug, Default)]
pub struct Branches {
    last: Option<Rc<Branch>>,
    len: usize,
}

/// A branch taken: its condition, the instruction that branched
/// (function, pc) and which of its sides (the index of the fork's
/// alternative: `br_table`'s label, or an `if`'s then or else).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Taken {
    pub condition: TermId,
    pub at: (u32, u32),
    pub side: u32,
}

#[derive(Debug)]
struct Branch {
    taken: Taken,
    before: Option<Rc<Branch>>,
}

impl Branches {
    pub fn push(&mut self, taken: Taken) {
        if self.len > MAX_BRANCHES {
            return;
        }
        let before = self.last.take();
        self.last = Some(Rc::new(Branch { taken, before }));
        self.len += 1;
    }

    /// How many it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The branches, first taken first.
    pub fn taken(&self) -> Vec<Taken> {
        let mut taken = Vec::with_capacity(self.len);
        let mut at = self.last.as_deref();
        while let Some(branch) = at {
            taken.push(branch.taken);
            at = branch.before.as_deref();
        }
        taken.reverse();
        taken
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
        let [a, b, c] = ["a", "b", "c"].map(|name| {
            let condition = st.declare(name, Sort::Bool).unwrap();
            Taken {
                condition,
                at: (0, 7),
                side: 0,
            }
        });
        let mut first = Branches::default();
        first.push(a);
        let mut second = first.clone();
        first.push(b);
        second.push(c);
        assert_eq!(first.taken(), [a, b]);
        assert_eq!(second.taken(), [a, c]);
        second.clear();
        assert!(second.taken().is_empty());
        assert_eq!(first.taken(), [a, b]);
    }

    #[test]
    fn a_long_list_drops_without_recursion() {
        let mut st = TermStore::new();
        let condition = st.declare("a", Sort::Bool).unwrap();
        let a = Taken {
            condition,
            at: (0, 7),
            side: 1,
        };
        let mut long = Branches::default();
        for _ in 0..MAX_BRANCHES {
            long.push(a);
        }
        let shared = long.clone();
        drop(long);
        assert_eq!(shared.taken().len(), MAX_BRANCHES);
        // Past the most kept, one more marks the list cut short.
        let mut longer = shared.clone();
        for _ in 0..3 {
            longer.push(a);
        }
        assert_eq!(
            (longer.len(), longer.taken().len()),
            (MAX_BRANCHES + 1, MAX_BRANCHES + 1)
        );
    }
}
