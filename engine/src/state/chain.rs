//! A persistent log that forks share: what a state added before its last
//! fork sits in frozen links behind [`Rc`], newest first, that the fork's
//! states share; what it added since is its own tail. A fork freezes the
//! tail into a link (moving it, not copying it), so it costs a pointer
//! whatever the log holds, and a state pays for what it adds since.
//!
//! A link that no other state holds any more takes the next tail in place
//! instead of growing the chain, and a chain deeper than its part's
//! [`Part::MAX_DEPTH`] is flattened into one link, so that walking it
//! (a look-up, a copy for the solver) stays short.

use std::rc::Rc;

/// What a link holds: entries that a newer part's extend.
pub trait Part: Default + std::fmt::Debug {
    /// Links a chain may have before it is flattened into one.
    const MAX_DEPTH: u32;

    fn is_empty(&self) -> bool;
    /// Adds `newer`'s entries after this part's.
    fn extend_with(&mut self, newer: &Self);
    /// Bytes its entries take on the heap.
    fn heap_bytes(&self) -> usize;
}

#[derive(Clone, Debug, Default)]
pub struct Chain<P> {
    /// Frozen at earlier forks, newest first.
    frozen: Option<Rc<Link<P>>>,
    /// What this state added since its last fork.
    tail: P,
}

#[derive(Debug)]
struct Link<P> {
    part: P,
    parent: Option<Rc<Link<P>>>,
    /// Links from this one to the oldest, this one included.
    depth: u32,
}

impl<P: Part> Chain<P> {
    /// What this state added since its last fork, to add more to.
    pub fn tail_mut(&mut self) -> &mut P {
        &mut self.tail
    }

    /// Every part, newest first: the tail, then the frozen links.
    pub fn parts(&self) -> impl Iterator<Item = &P> {
        let links = std::iter::successors(self.frozen.as_deref(), |l| l.parent.as_deref());
        std::iter::once(&self.tail).chain(links.map(|l| &l.part))
    }

    /// Every part, oldest first: the order its entries were added in.
    pub fn parts_oldest_first(&self) -> Vec<&P> {
        let mut parts: Vec<&P> = self.parts().collect();
        parts.reverse();
        parts
    }

    /// Makes the tail a link that a clone shares: called before a fork.
    pub fn freeze(&mut self) {
        if self.tail.is_empty() {
            return;
        }
        let tail = std::mem::take(&mut self.tail);
        if let Some(head) = self.frozen.as_mut().and_then(Rc::get_mut) {
            head.part.extend_with(&tail);
            return;
        }
        let depth = self.frozen.as_ref().map_or(1, |l| l.depth + 1);
        let (part, parent, depth) = if depth > P::MAX_DEPTH {
            let mut all = P::default();
            // The tail was taken above: what is left of it is empty.
            for part in self.parts_oldest_first() {
                all.extend_with(part);
            }
            all.extend_with(&tail);
            (all, None, 1)
        } else {
            (tail, self.frozen.take(), depth)
        };
        self.frozen = Some(Rc::new(Link {
            part,
            parent,
            depth,
        }));
    }

    /// Bytes this state holds that no other one shares: its tail and the
    /// newest links until one that another state holds too (which holds
    /// all older ones for both).
    pub fn own_bytes(&self) -> usize {
        let links = std::iter::successors(self.frozen.as_ref(), |l| l.parent.as_ref());
        self.tail.heap_bytes()
            + links
                .take_while(|l| Rc::strong_count(l) == 1)
                .map(|l| link_bytes(l))
                .sum::<usize>()
    }

    /// Bytes of the chain, a link that `n` states share counting `1 / n`
    /// (each link's holders times those of the links above it), so that the
    /// states' figures add up to what they hold together.
    pub fn shared_bytes(&self) -> usize {
        let mut holders = 1;
        let mut bytes = self.tail.heap_bytes();
        let mut link = self.frozen.as_ref();
        while let Some(l) = link {
            holders *= Rc::strong_count(l);
            bytes += link_bytes(l) / holders;
            link = l.parent.as_ref();
        }
        bytes
    }

    /// Whether `other` shares this chain's newest frozen link (or neither
    /// has one).
    #[cfg(test)]
    pub fn shares_with(&self, other: &Self) -> bool {
        match (&self.frozen, &other.frozen) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

fn link_bytes<P: Part>(link: &Link<P>) -> usize {
    // The reference counts beside the link.
    2 * std::mem::size_of::<usize>() + std::mem::size_of::<Link<P>>() + link.part.heap_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{TermId, TermStore};

    /// `n` distinct terms.
    fn terms(n: u64) -> Vec<TermId> {
        let mut store = TermStore::new();
        (0..n).map(|k| store.bv_const(32, k)).collect()
    }

    fn oldest_first(chain: &Chain<Vec<TermId>>) -> Vec<TermId> {
        let mut parts: Vec<&Vec<TermId>> = chain.parts().collect();
        parts.reverse();
        parts.into_iter().flatten().copied().collect()
    }

    #[test]
    fn a_fork_shares_the_frozen_links_and_each_side_adds_its_own() {
        let t = terms(4);
        let mut a = Chain::<Vec<TermId>>::default();
        a.tail_mut().extend(&t[..2]);
        a.freeze();
        let mut b = a.clone();
        assert!(a.shares_with(&b));
        assert_eq!(a.own_bytes(), 0);
        a.tail_mut().push(t[2]);
        b.tail_mut().push(t[3]);
        assert_eq!(oldest_first(&a), t[..3]);
        assert_eq!(oldest_first(&b), [t[0], t[1], t[3]]);
        assert_eq!(a.own_bytes(), a.tail_mut().heap_bytes());
        // Each of the two counts half of the shared link.
        let shared = link_bytes(a.frozen.as_ref().unwrap());
        assert_eq!(a.shared_bytes(), a.own_bytes() + shared / 2);
    }

    #[test]
    fn a_link_no_one_else_holds_takes_the_tail_in_place() {
        let t = terms(3);
        let mut a = Chain::<Vec<TermId>>::default();
        a.tail_mut().push(t[0]);
        a.freeze();
        let b = a.clone();
        a.tail_mut().push(t[1]);
        a.freeze();
        assert_eq!(a.frozen.as_ref().unwrap().depth, 2);
        drop(b);
        a.tail_mut().push(t[2]);
        a.freeze();
        assert_eq!(a.frozen.as_ref().unwrap().depth, 2);
        assert_eq!(oldest_first(&a), t);
        assert!(a.own_bytes() > 0);
    }

    #[test]
    fn a_chain_past_its_depth_is_flattened_in_order() {
        let n = u64::from(<Vec<TermId> as Part>::MAX_DEPTH) + 5;
        let t = terms(n);
        let mut a = Chain::<Vec<TermId>>::default();
        let mut forks = Vec::new();
        for &c in &t {
            a.tail_mut().push(c);
            a.freeze();
            forks.push(a.clone());
        }
        let head = a.frozen.as_ref().unwrap();
        assert!(head.depth <= <Vec<TermId> as Part>::MAX_DEPTH);
        assert_eq!(oldest_first(&a), t);
        // The forks made before it still read what they had.
        assert_eq!(oldest_first(&forks[1]), t[..2]);
    }
}
