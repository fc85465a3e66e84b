//! A persistent vector: a trie of fixed fan-out whose nodes are shared
//! behind [`Rc`] by every clone, so that a fork of memory costs one
//! pointer whatever its size (`../shared/design/fine_grain.md` §2, §6).
//!
//! A write copies the nodes on the path from the root to its entry that
//! another clone still shares, and changes the nodes this one alone holds
//! in place: a state pays for what it wrote since the fork, a few small
//! nodes per entry. Stretches never written share one *blank* subtree per
//! height, all of whose entries are the vector's fill value, so a vector of
//! millions of blank entries holds one node per height, and walks over a
//! range skip blank subtrees whole.

use std::cell::Cell;
use std::ops::Range;
use std::rc::Rc;

/// Bits of an index each level of the trie takes.
const BITS: u32 = 4;
/// Children of an inner node, entries of a leaf.
const FANOUT: usize = 1 << BITS;
const MASK: usize = FANOUT - 1;

#[derive(Clone, Debug)]
struct Node<T> {
    kind: Kind<T>,
    /// The subtree's hash once asked for, until the subtree changes.
    hash: Cell<Option<u64>>,
}

#[derive(Clone, Debug)]
enum Kind<T> {
    Inner([Rc<Node<T>>; FANOUT]),
    Leaf([T; FANOUT]),
}

impl<T> Node<T> {
    fn inner(children: [Rc<Node<T>>; FANOUT]) -> Rc<Node<T>> {
        Rc::new(Node {
            kind: Kind::Inner(children),
            hash: Cell::new(None),
        })
    }

    fn leaf(entries: [T; FANOUT]) -> Rc<Node<T>> {
        Rc::new(Node {
            kind: Kind::Leaf(entries),
            hash: Cell::new(None),
        })
    }

    /// The node made this vector's own (copied if another shares it), its
    /// hash forgotten: the caller changes what is below it.
    fn changed(node: &mut Rc<Node<T>>) -> &mut Kind<T>
    where
        T: Clone,
    {
        let node = Rc::make_mut(node);
        node.hash.set(None);
        &mut node.kind
    }
}

#[derive(Clone, Debug)]
pub struct PersistentVec<T> {
    root: Rc<Node<T>>,
    /// Levels of inner nodes above the leaves.
    height: u32,
    len: usize,
    /// The blank subtree of each height, from a leaf up to the root's.
    blank: Rc<Vec<Rc<Node<T>>>>,
}

impl<T: Clone> PersistentVec<T> {
    /// `len` entries, each `fill`; the entries a later [`Self::grow`] adds
    /// are `fill` too.
    pub fn filled(len: usize, fill: T) -> Self {
        let mut blank = vec![Node::leaf(std::array::from_fn(|_| fill.clone()))];
        let mut height = 0;
        while capacity(height) < len {
            let below = blank[height as usize].clone();
            blank.push(Node::inner(std::array::from_fn(|_| below.clone())));
            height += 1;
        }
        PersistentVec {
            root: blank[height as usize].clone(),
            height,
            len,
            blank: Rc::new(blank),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        let mut node = &*self.root;
        let mut shift = self.height * BITS;
        loop {
            match &node.kind {
                Kind::Inner(children) => {
                    node = &children[(i >> shift) & MASK];
                    shift -= BITS;
                }
                Kind::Leaf(entries) => return Some(&entries[i & MASK]),
            }
        }
    }

    /// Entry `i`, made this vector's own: the nodes above it that another
    /// clone shares are copied first.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i >= self.len {
            return None;
        }
        let mut node = Node::changed(&mut self.root);
        let mut shift = self.height * BITS;
        loop {
            match node {
                Kind::Inner(children) => {
                    node = Node::changed(&mut children[(i >> shift) & MASK]);
                    shift -= BITS;
                }
                Kind::Leaf(entries) => return Some(&mut entries[i & MASK]),
            }
        }
    }

    /// Adds blank entries up to `len` entries in all.
    pub fn grow(&mut self, len: usize) {
        if len <= self.len {
            return;
        }
        while capacity(self.height) < len {
            let blank = Rc::make_mut(&mut self.blank);
            let below = blank[self.height as usize].clone();
            if blank.len() == self.height as usize + 1 {
                blank.push(Node::inner(std::array::from_fn(|_| below.clone())));
            }
            let old = std::mem::replace(&mut self.root, below.clone());
            let mut children: [Rc<Node<T>>; FANOUT] = std::array::from_fn(|_| below.clone());
            children[0] = old;
            self.root = Node::inner(children);
            self.height += 1;
        }
        // Entries past the old length were blank all along: writes stay
        // below the length.
        self.len = len;
    }

    /// Sets every entry in `range` to `value`; a subtree the range covers
    /// whole becomes one shared subtree of `value`.
    pub fn set_range(&mut self, range: Range<usize>, value: T) {
        let range = range.start..range.end.min(self.len);
        if range.is_empty() {
            return;
        }
        let mut uniform: Vec<Rc<Node<T>>> = Vec::new();
        set_in(&mut self.root, self.height, 0, &range, &value, &mut uniform);
    }

    /// Calls `f` with the index and value of each entry in `range` that is
    /// not in a blank subtree (blank entries of a written leaf included).
    pub fn for_each_written(&self, range: Range<usize>, mut f: impl FnMut(usize, &T)) {
        let range = range.start..range.end.min(self.len);
        if !range.is_empty() {
            self.visit(&self.root, self.height, 0, &range, &mut f);
        }
    }

    fn visit(
        &self,
        node: &Rc<Node<T>>,
        height: u32,
        first: usize,
        range: &Range<usize>,
        f: &mut impl FnMut(usize, &T),
    ) {
        if Rc::ptr_eq(node, &self.blank[height as usize]) {
            return;
        }
        match &node.kind {
            Kind::Inner(children) => {
                let span = capacity(height - 1);
                for (k, child) in children.iter().enumerate() {
                    let start = first + k * span;
                    if start < range.end && range.start < start + span {
                        self.visit(child, height - 1, start, range, f);
                    }
                }
            }
            Kind::Leaf(entries) => {
                for (k, entry) in entries.iter().enumerate() {
                    if range.contains(&(first + k)) {
                        f(first + k, entry);
                    }
                }
            }
        }
    }

    /// Calls `f` with each index whose entry may differ between this
    /// vector and `other`: every entry of a node they do not share (the
    /// caller compares the entries). Vectors of different lengths differ
    /// everywhere.
    pub fn for_each_unshared(&self, other: &Self, mut f: impl FnMut(usize)) {
        if self.len != other.len || self.height != other.height {
            (0..self.len.max(other.len)).for_each(f);
            return;
        }
        unshared(&self.root, &other.root, self.height, 0, self.len, &mut f);
    }

    /// Bytes of the trie's nodes this vector holds, a node that `n`
    /// holders share counting `1 / n`; blank subtrees count nothing. Each
    /// entry's own bytes come from `entry`.
    pub fn heap_bytes(&self, entry: impl Fn(&T) -> usize) -> usize {
        self.shared_bytes(&self.root, self.height, 1, &entry)
    }

    /// A hash of the entries from `entry`'s hash of each, which must be
    /// the same function every time: each node keeps its subtree's hash
    /// until the subtree changes, so a vector that changed a few entries
    /// since it was last hashed hashes the nodes above them only. Equal
    /// entries give equal hashes however the vectors share their nodes,
    /// and entries hashed 0 add nothing.
    pub fn hash(&self, entry: impl Fn(&T) -> u64) -> u64 {
        node_hash(&self.root, &entry)
    }

    /// Bytes of the trie's nodes that no other vector shares, with what
    /// `entry` says each entry of theirs holds.
    pub fn own_bytes(&self, entry: impl Fn(&T) -> usize) -> usize {
        own_bytes(&self.root, &entry)
    }

    fn shared_bytes(
        &self,
        node: &Rc<Node<T>>,
        height: u32,
        holders: usize,
        entry: &impl Fn(&T) -> usize,
    ) -> usize {
        if Rc::ptr_eq(node, &self.blank[height as usize]) {
            return 0;
        }
        let holders = holders * Rc::strong_count(node);
        let own = std::mem::size_of::<Node<T>>() / holders;
        own + match &node.kind {
            Kind::Inner(children) => children
                .iter()
                .map(|c| self.shared_bytes(c, height - 1, holders, entry))
                .sum::<usize>(),
            Kind::Leaf(entries) => entries.iter().map(|e| entry(e) / holders).sum(),
        }
    }
}

impl<T: Clone> std::ops::Index<usize> for PersistentVec<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        self.get(i).expect("index in bounds")
    }
}

impl<T: Clone> std::ops::IndexMut<usize> for PersistentVec<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        self.get_mut(i).expect("index in bounds")
    }
}

/// [`PersistentVec::for_each_unshared`] below two nodes of one height
/// whose first entry is `first`, of vectors of `len` entries.
fn unshared<T>(
    a: &Rc<Node<T>>,
    b: &Rc<Node<T>>,
    height: u32,
    first: usize,
    len: usize,
    f: &mut impl FnMut(usize),
) {
    if Rc::ptr_eq(a, b) || first >= len {
        return;
    }
    match (&a.kind, &b.kind) {
        (Kind::Inner(xs), Kind::Inner(ys)) => {
            let span = capacity(height - 1);
            for (k, (x, y)) in xs.iter().zip(ys).enumerate() {
                unshared(x, y, height - 1, first + k * span, len, f);
            }
        }
        _ => (first..(first + capacity(height)).min(len)).for_each(f),
    }
}

fn node_hash<T>(node: &Node<T>, entry: &impl Fn(&T) -> u64) -> u64 {
    if let Some(known) = node.hash.get() {
        return known;
    }
    let hash = match &node.kind {
        Kind::Inner(children) => weighted(children.iter().map(|c| node_hash(c, entry))),
        Kind::Leaf(entries) => weighted(entries.iter().map(entry)),
    };
    node.hash.set(Some(hash));
    hash
}

/// The sum of a node's hashes, each times an odd weight for its place in
/// the node: the place counts, and a zero adds nothing.
fn weighted(hashes: impl Iterator<Item = u64>) -> u64 {
    hashes.enumerate().fold(0, |sum, (k, h)| {
        let weight = mix(k as u64) | 1;
        sum.wrapping_add(h.wrapping_mul(weight))
    })
}

/// A 64-bit hash of `x` (splitmix64's finaliser over `x` plus its
/// increment), for entries' and weights' hashes.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Bytes of `node` and of what it holds that no other vector shares: a
/// node another one shares is shared with all below it.
fn own_bytes<T>(node: &Rc<Node<T>>, entry: &impl Fn(&T) -> usize) -> usize {
    if Rc::strong_count(node) > 1 {
        return 0;
    }
    std::mem::size_of::<Node<T>>()
        + match &node.kind {
            Kind::Inner(children) => children.iter().map(|c| own_bytes(c, entry)).sum::<usize>(),
            Kind::Leaf(entries) => entries.iter().map(entry).sum(),
        }
}

/// Entries a trie of `height` levels of inner nodes holds.
fn capacity(height: u32) -> usize {
    1usize << (BITS * (height + 1))
}

/// Sets the entries of `range` under `node` (of `height`, its first entry
/// at index `first`) to `value`. `uniform[h]` is the subtree of height `h`
/// all of whose entries are `value`, made when first needed.
fn set_in<T: Clone>(
    node: &mut Rc<Node<T>>,
    height: u32,
    first: usize,
    range: &Range<usize>,
    value: &T,
    uniform: &mut Vec<Rc<Node<T>>>,
) {
    let span = capacity(height);
    if range.start <= first && first + span <= range.end {
        *node = uniform_node(height, value, uniform);
        return;
    }
    match Node::changed(node) {
        Kind::Inner(children) => {
            let below = capacity(height - 1);
            for (k, child) in children.iter_mut().enumerate() {
                let start = first + k * below;
                if start < range.end && range.start < start + below {
                    set_in(child, height - 1, start, range, value, uniform);
                }
            }
        }
        Kind::Leaf(entries) => {
            for (k, entry) in entries.iter_mut().enumerate() {
                if range.contains(&(first + k)) {
                    *entry = value.clone();
                }
            }
        }
    }
}

fn uniform_node<T: Clone>(height: u32, value: &T, uniform: &mut Vec<Rc<Node<T>>>) -> Rc<Node<T>> {
    while uniform.len() <= height as usize {
        let node = match uniform.last() {
            None => Node::leaf(std::array::from_fn(|_| value.clone())),
            Some(below) => Node::inner(std::array::from_fn(|_| below.clone())),
        };
        uniform.push(node);
    }
    uniform[height as usize].clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_entries_of_nodes_two_clones_do_not_share_are_walked() {
        let mut a = PersistentVec::filled(5000, 0u32);
        a[7] = 1;
        let mut b = a.clone();
        b[4000] = 2;
        b[7] = 1;
        let mut walked = Vec::new();
        a.for_each_unshared(&b, |i| walked.push(i));
        // The leaves of 7 and 4000, which `b` copied when it wrote them.
        let leaf = |i: usize| (i - i % FANOUT..i - i % FANOUT + FANOUT).collect::<Vec<_>>();
        assert_eq!(walked, [leaf(7), leaf(4000)].concat());
        let mut none = Vec::new();
        a.for_each_unshared(&a.clone(), |i| none.push(i));
        assert!(none.is_empty());
        let longer = PersistentVec::filled(5001, 0u32);
        let mut all = 0;
        a.for_each_unshared(&longer, |_| all += 1);
        assert_eq!(all, 5001);
    }

    #[test]
    fn a_clone_shares_every_node_until_one_of_them_writes() {
        let mut a = PersistentVec::filled(4096, 0u32);
        *a.get_mut(100).unwrap() = 7;
        let mut b = a.clone();
        assert!(Rc::ptr_eq(&a.root, &b.root));
        *b.get_mut(100).unwrap() = 8;
        *b.get_mut(4000).unwrap() = 9;
        assert_eq!((a.get(100), a.get(4000)), (Some(&7), Some(&0)));
        assert_eq!((b.get(100), b.get(4000)), (Some(&8), Some(&9)));
        // Only the paths to the two entries were copied.
        let Kind::Inner(ra) = &a.root.kind else {
            panic!()
        };
        let Kind::Inner(rb) = &b.root.kind else {
            panic!()
        };
        let shared = ra.iter().zip(rb).filter(|(x, y)| Rc::ptr_eq(x, y)).count();
        assert_eq!(shared, FANOUT - 2);
    }

    #[test]
    fn a_vector_it_alone_holds_is_written_in_place() {
        let mut a = PersistentVec::filled(300, 0u8);
        *a.get_mut(5).unwrap() = 1;
        let root = Rc::as_ptr(&a.root);
        *a.get_mut(6).unwrap() = 2;
        assert_eq!(Rc::as_ptr(&a.root), root);
    }

    #[test]
    fn millions_of_blank_entries_take_a_node_per_height() {
        let v = PersistentVec::filled(1 << 24, 0u64);
        assert_eq!(v.height, 5);
        assert_eq!(v.heap_bytes(|_| 0), 0);
        let mut seen = 0;
        v.for_each_written(0..1 << 24, |_, _| seen += 1);
        assert_eq!(seen, 0);
        assert_eq!(v.get((1 << 24) - 1), Some(&0));
        assert_eq!(v.get(1 << 24), None);
    }

    #[test]
    fn growing_keeps_entries_and_adds_blank_ones() {
        let mut v = PersistentVec::filled(16, 1u16);
        *v.get_mut(3).unwrap() = 5;
        let before = v.clone();
        v.grow(5000);
        assert_eq!(v.len(), 5000);
        assert_eq!(
            (v.get(3), v.get(4999), v.get(16)),
            (Some(&5), Some(&1), Some(&1))
        );
        *v.get_mut(4999).unwrap() = 6;
        assert_eq!(before.get(3), Some(&5));
        assert_eq!(before.len(), 16);
        let mut written = Vec::new();
        v.for_each_written(0..5000, |i, &x| {
            if x != 1 {
                written.push((i, x));
            }
        });
        assert_eq!(written, vec![(3, 5), (4999, 6)]);
    }

    #[test]
    fn setting_a_range_matches_setting_each_entry() {
        for (start, end) in [(0, 4096), (7, 9), (15, 300), (256, 512), (1000, 4095)] {
            let mut whole = PersistentVec::filled(4096, 0u8);
            let mut each = whole.clone();
            for i in (0..4096).step_by(37) {
                *whole.get_mut(i).unwrap() = 3;
                *each.get_mut(i).unwrap() = 3;
            }
            let kept = whole.clone();
            whole.set_range(start..end, 9);
            for i in start..end {
                *each.get_mut(i).unwrap() = 9;
            }
            for i in 0..4096 {
                assert_eq!(whole.get(i), each.get(i), "entry {i} of {start}..{end}");
            }
            assert_eq!(kept.get(start), Some(if start % 37 == 0 { &3 } else { &0 }));
        }
    }

    #[test]
    fn a_clone_owns_only_the_nodes_it_wrote() {
        let mut a = PersistentVec::filled(4096, 0u8);
        *a.get_mut(0).unwrap() = 1;
        assert!(a.own_bytes(|_| 0) > 0);
        let mut b = a.clone();
        assert_eq!((a.own_bytes(|_| 0), b.own_bytes(|_| 0)), (0, 0));
        *b.get_mut(4000).unwrap() = 2;
        // The root, a node per level down to the entry's leaf: three.
        let node = std::mem::size_of::<Node<u8>>();
        assert_eq!(b.own_bytes(|_| 0), 3 * node);
        assert_eq!(b.own_bytes(|&x| usize::from(x)), 3 * node + 2);
        assert_eq!(
            a.own_bytes(|_| 0),
            node,
            "its root: the other copied its own"
        );
    }

    #[test]
    fn equal_entries_hash_alike_however_their_nodes_are_shared() {
        let entry = |&x: &u32| u64::from(x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut a = PersistentVec::filled(5000, 0u32);
        let blank = a.hash(entry);
        assert_eq!(blank, 0, "zeros add nothing");
        *a.get_mut(7).unwrap() = 3;
        *a.get_mut(4000).unwrap() = 9;
        let mut b = PersistentVec::filled(5000, 0u32);
        *b.get_mut(4000).unwrap() = 9;
        let mut c = b.clone();
        *c.get_mut(7).unwrap() = 3;
        assert_eq!(
            a.hash(entry),
            c.hash(entry),
            "the same entries, written in another order"
        );
        assert_ne!(a.hash(entry), b.hash(entry));
        // Hashed, changed and changed back: the cached hashes follow.
        *a.get_mut(7).unwrap() = 4;
        assert_ne!(a.hash(entry), c.hash(entry));
        *a.get_mut(7).unwrap() = 3;
        assert_eq!(a.hash(entry), c.hash(entry));
        // A value moved to another place is another vector.
        let mut d = b.clone();
        *d.get_mut(8).unwrap() = 3;
        assert_ne!(d.hash(entry), c.hash(entry));
        // A range set at once hashes as the same entries set one by one.
        let mut whole = PersistentVec::filled(5000, 0u32);
        whole.set_range(256..1024, 5);
        let mut each = PersistentVec::filled(5000, 0u32);
        for i in 256..1024 {
            *each.get_mut(i).unwrap() = 5;
        }
        assert_eq!(whole.hash(entry), each.hash(entry));
        whole.set_range(300..301, 0);
        assert_ne!(whole.hash(entry), each.hash(entry));
    }

    #[test]
    fn shared_nodes_count_a_share_of_their_bytes() {
        let mut a = PersistentVec::filled(4096, 0u8);
        *a.get_mut(0).unwrap() = 1;
        let alone = a.heap_bytes(|&x| usize::from(x));
        let b = a.clone();
        // Two holders of one root: each counts half, together the whole.
        let half = a.heap_bytes(|&x| usize::from(x));
        assert!(half * 2 <= alone && alone <= half * 2 + 2);
        assert_eq!(b.heap_bytes(|&x| usize::from(x)), half);
    }
}
