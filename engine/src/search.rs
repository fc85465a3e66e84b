//! Searchers: which pending state runs next. All are deterministic; the
//! random one draws from a PRNG seeded by the options.

use crate::tree::ExecTree;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SearchKind {
    /// KLEE's default: random path and coverage-new take turns, each over
    /// every pending state. Random path keeps a loop over a symbolic bound
    /// from holding the search (its deep states draw few walks), and
    /// coverage-new heads for code not run yet.
    #[default]
    RandomPathCoverageNew,
    Dfs,
    Bfs,
    /// KLEE's random path: a walk from the root of the execution tree that
    /// takes, at each node, one of the children with pending states below,
    /// each alike. Shallow states are favoured, and a subtree whose states
    /// are all done no longer draws any walk.
    RandomPath,
    /// The newest state whose next instruction was never executed, else DFS.
    CoverageNew,
}

impl SearchKind {
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::RandomPathCoverageNew => "random-path+coverage-new",
            SearchKind::Dfs => "dfs",
            SearchKind::Bfs => "bfs",
            SearchKind::RandomPath => "random-path",
            SearchKind::CoverageNew => "coverage-new",
        }
    }

    /// Every searcher, the default first.
    pub const ALL: [SearchKind; 5] = [
        SearchKind::RandomPathCoverageNew,
        SearchKind::Dfs,
        SearchKind::Bfs,
        SearchKind::RandomPath,
        SearchKind::CoverageNew,
    ];

    pub fn parse(name: &str) -> Option<SearchKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The names, for messages: `random-path+coverage-new, dfs, ...`.
    pub fn names() -> String {
        Self::ALL.map(SearchKind::name).join(", ")
    }
}

/// What a searcher reads of a pending state.
pub trait Pending {
    /// The execution-tree node the state is in.
    fn node(&self) -> usize;
    /// The function and pc of the instruction the state runs next.
    fn next_instruction(&self) -> Option<(u32, u32)>;
    /// A rough size in bytes, for the memory estimate.
    fn estimated_bytes(&self) -> u64;
}

/// The pending states in the order they came, each under a number that
/// grows with arrival, indexed by tree node and by next instruction, so
/// that taking one costs a look-up, not a scan of every pending state (a
/// run of 16,384 paths spent a third of its time in such scans).
pub struct Searcher<S> {
    kind: SearchKind,
    states: BTreeMap<u64, S>,
    next_number: u64,
    /// The states' numbers at each tree node (a walk's end).
    at_node: BTreeMap<usize, BTreeSet<u64>>,
    /// The states' numbers by the instruction each runs next.
    at_instruction: BTreeMap<(u32, u32), BTreeSet<u64>>,
    rng: SplitMix64,
    /// Taking turns: whether the call under way is coverage-new's (it
    /// passes at each call, so the first is random path's).
    coverage_turn: bool,
}

impl<S: Pending> Searcher<S> {
    pub fn new(kind: SearchKind, seed: u64) -> Searcher<S> {
        Searcher {
            kind,
            states: BTreeMap::new(),
            next_number: 0,
            at_node: BTreeMap::new(),
            at_instruction: BTreeMap::new(),
            rng: SplitMix64(seed),
            coverage_turn: true,
        }
    }

    /// Adds a pending state, counted in `tree`, the execution tree it is in.
    pub fn push(&mut self, s: S, tree: &mut ExecTree) {
        tree.count_pending(s.node(), true);
        let number = self.next_number;
        self.next_number += 1;
        self.at_node.entry(s.node()).or_default().insert(number);
        if let Some(at) = s.next_instruction() {
            self.at_instruction.entry(at).or_default().insert(number);
        }
        self.states.insert(number, s);
    }

    /// Takes state `number` out of the searcher and its indexes.
    fn remove(&mut self, number: u64) -> Option<S> {
        let s = self.states.remove(&number)?;
        unfile(&mut self.at_node, s.node(), number);
        if let Some(at) = s.next_instruction() {
            unfile(&mut self.at_instruction, at, number);
        }
        Some(s)
    }

    /// Random path: walks down from the root through children with pending
    /// states below, to the node of the state to run (the oldest there).
    fn walk(&mut self, tree: &ExecTree) -> Option<u64> {
        let mut v = 0;
        loop {
            let live: Vec<usize> = tree
                .node(v)
                .children
                .iter()
                .copied()
                .filter(|&c| tree.node(c).pending > 0)
                .collect();
            if live.is_empty() {
                break;
            }
            v = live[(self.rng.next() % live.len() as u64) as usize];
        }
        self.at_node.get(&v)?.first().copied()
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Drops the pending states at or below node `v` of `tree`, counted
    /// out of it; the others keep their order.
    pub fn drop_below(&mut self, v: usize, tree: &mut ExecTree) {
        let below: Vec<u64> = (self.states.iter())
            .filter(|(_, s)| tree.is_at_or_above(v, s.node()))
            .map(|(&number, _)| number)
            .collect();
        for number in below {
            if let Some(s) = self.remove(number) {
                tree.count_pending(s.node(), false);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Takes the state `rank` puts first (the oldest of equals) out of the
    /// searcher, counted out of `tree`; `None` when `rank` gives none.
    pub fn take_first<K: Ord>(
        &mut self,
        rank: impl Fn(&S) -> Option<K>,
        tree: &mut ExecTree,
    ) -> Option<S> {
        let (_, number) = (self.states.iter())
            .filter_map(|(&number, s)| Some((rank(s)?, number)))
            .min()?;
        let s = self.remove(number)?;
        tree.count_pending(s.node(), false);
        Some(s)
    }

    pub fn estimated_bytes(&self) -> u64 {
        self.states.values().map(S::estimated_bytes).sum()
    }

    /// Takes every state out, in the order they came, counted out of `tree`.
    pub fn drain(&mut self, tree: &mut ExecTree) -> Vec<S> {
        self.at_node.clear();
        self.at_instruction.clear();
        let states: Vec<S> = std::mem::take(&mut self.states).into_values().collect();
        for s in &states {
            tree.count_pending(s.node(), false);
        }
        states
    }

    /// The next state, counted out of `tree`; `covered(func, pc)` tells
    /// whether an instruction ran.
    pub fn pop(&mut self, covered: impl Fn(u32, u32) -> bool, tree: &mut ExecTree) -> Option<S> {
        // The turn passes at every call, with a state to take or none.
        self.coverage_turn = !self.coverage_turn;
        let oldest = *self.states.first_key_value()?.0;
        let newest = *self.states.last_key_value()?.0;
        let number = match self.kind {
            SearchKind::Dfs => newest,
            SearchKind::Bfs => oldest,
            SearchKind::CoverageNew => self.coverage_new(covered).unwrap_or(newest),
            SearchKind::RandomPath => self.walk(tree).unwrap_or(oldest),
            SearchKind::RandomPathCoverageNew => {
                if self.coverage_turn {
                    self.coverage_new(covered).unwrap_or(newest)
                } else {
                    // A walk that ends on no state (a tree it was not told
                    // of) falls back to the oldest one.
                    self.walk(tree).unwrap_or(oldest)
                }
            }
        };
        let s = self.remove(number)?;
        tree.count_pending(s.node(), false);
        Some(s)
    }

    /// Coverage-new: the newest state whose next instruction never ran (a
    /// look at each instruction states wait at, not at each state).
    fn coverage_new(&self, covered: impl Fn(u32, u32) -> bool) -> Option<u64> {
        (self.at_instruction.iter())
            .filter(|((f, pc), _)| !covered(*f, *pc))
            .filter_map(|(_, numbers)| numbers.last().copied())
            .max()
    }
}

/// Takes `number` out of the set filed under `key`, and the set once empty.
fn unfile<K: Ord>(index: &mut BTreeMap<K, BTreeSet<u64>>, key: K, number: u64) {
    if let Some(numbers) = index.get_mut(&key) {
        numbers.remove(&number);
        if numbers.is_empty() {
            index.remove(&key);
        }
    }
}

/// A small, fast, seedable PRNG (Steele et al.'s SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pending state at a tree node, about to run nothing.
    struct At(usize);

    impl Pending for At {
        fn node(&self) -> usize {
            self.0
        }
        fn next_instruction(&self) -> Option<(u32, u32)> {
            None
        }
        fn estimated_bytes(&self) -> u64 {
            0
        }
    }

    fn state_at(node: usize) -> At {
        At(node)
    }

    /// root -> {a, b}; b -> {b1 (done), b2}; b2 -> {x1, x2}. States wait at
    /// a, x1 and x2.
    fn lopsided() -> ExecTree {
        let mut tree = ExecTree::new();
        for parent in [0, 0, 2, 2, 4, 4] {
            tree.add_child(parent, 0);
        }
        tree
    }

    #[test]
    fn random_path_walks_live_subtrees_alike() {
        let mut tree = lopsided();
        let mut picked = [0u32; 7];
        for seed in 0..4000 {
            let mut searcher = Searcher::new(SearchKind::RandomPath, seed);
            for v in [1, 5, 6] {
                searcher.push(state_at(v), &mut tree);
            }
            picked[searcher.pop(|_, _| false, &mut tree).unwrap().0] += 1;
            while searcher.pop(|_, _| false, &mut tree).is_some() {}
        }
        // The walk: a half at a, a quarter each at x1 and x2 (weights of
        // 2^-depth would give a two thirds).
        let share = |v: usize| f64::from(picked[v]) / 4000.0;
        assert!((share(1) - 0.5).abs() < 0.03, "{picked:?}");
        assert!((share(5) - 0.25).abs() < 0.03, "{picked:?}");
        assert!((share(6) - 0.25).abs() < 0.03, "{picked:?}");
    }

    #[test]
    fn random_path_gives_every_state_once_and_then_none() {
        let mut tree = lopsided();
        let mut searcher = Searcher::new(SearchKind::RandomPath, 9);
        for v in [1, 5, 6] {
            searcher.push(state_at(v), &mut tree);
        }
        assert_eq!(tree.node(0).pending, 3);
        assert_eq!(tree.node(4).pending, 2);
        let mut nodes: Vec<usize> = (0..3)
            .map(|_| searcher.pop(|_, _| false, &mut tree).unwrap().0)
            .collect();
        nodes.sort();
        assert_eq!(nodes, [1, 5, 6]);
        assert!(searcher.pop(|_, _| false, &mut tree).is_none());
        assert!((0..tree.len()).all(|v| tree.node(v).pending == 0));
    }

    /// A pending state at a tree node, about to run an instruction.
    #[derive(Debug, PartialEq)]
    struct Waiting {
        node: usize,
        next: Option<(u32, u32)>,
    }

    impl Pending for Waiting {
        fn node(&self) -> usize {
            self.node
        }
        fn next_instruction(&self) -> Option<(u32, u32)> {
            self.next
        }
        fn estimated_bytes(&self) -> u64 {
            1
        }
    }

    /// The searchers' rules read off a list of the states in the order they
    /// came, by a scan of every state: what the indexed searcher must pick.
    fn picked_by_scan(
        kind: SearchKind,
        states: &[Waiting],
        covered: impl Fn(u32, u32) -> bool,
        walked_to: Option<usize>,
        coverage_turn: bool,
    ) -> usize {
        let newest = states.len() - 1;
        let coverage_new = || {
            (states.iter())
                .rposition(|s| s.next.is_some_and(|(f, pc)| !covered(f, pc)))
                .unwrap_or(newest)
        };
        let walk = || {
            walked_to
                .and_then(|v| states.iter().position(|s| s.node == v))
                .unwrap_or(0)
        };
        match kind {
            SearchKind::Dfs => newest,
            SearchKind::Bfs => 0,
            SearchKind::CoverageNew => coverage_new(),
            SearchKind::RandomPath => walk(),
            SearchKind::RandomPathCoverageNew if coverage_turn => coverage_new(),
            SearchKind::RandomPathCoverageNew => walk(),
        }
    }

    #[test]
    fn each_searcher_picks_the_state_a_scan_of_every_state_would() {
        // A binary tree of 63 nodes; states wait at its nodes, several at
        // some, at one of four instructions or none, and instructions
        // become covered as the run goes on.
        let mut tree = ExecTree::new();
        for v in 0..31 {
            tree.add_child(v, 0);
            tree.add_child(v, 1);
        }
        let mut draw = SplitMix64(7);
        for kind in SearchKind::ALL {
            let mut searcher = Searcher::new(kind, 3);
            let mut scan: Vec<Waiting> = Vec::new();
            let mut walker = SplitMix64(3);
            // The default searcher's first call is random path's turn, and
            // every call passes the turn, with a state or none.
            let mut coverage_turn = true;
            for round in 0..400u64 {
                coverage_turn = !coverage_turn;
                for _ in 0..draw.next() % 3 {
                    let node = 31 + (draw.next() % 32) as usize;
                    let next =
                        (!draw.next().is_multiple_of(5)).then(|| (0, (draw.next() % 4) as u32));
                    searcher.push(Waiting { node, next }, &mut tree);
                    tree.count_pending(node, true);
                    scan.push(Waiting { node, next });
                }
                if round % 50 == 49 && !scan.is_empty() {
                    // A merge drops a subtree's states.
                    let v = 1 + (draw.next() % 62) as usize;
                    searcher.drop_below(v, &mut tree);
                    scan.retain(|s| {
                        let below = tree.is_at_or_above(v, s.node);
                        if below {
                            tree.count_pending(s.node, false);
                        }
                        !below
                    });
                }
                if scan.is_empty() {
                    assert!(searcher.pop(|_, _| false, &mut tree).is_none());
                    continue;
                }
                let covered = |_: u32, pc: u32| u64::from(pc) < round / 100;
                // The walk the searcher makes, made again on a copy of its
                // generator (the tree counts the scan's states too, twice
                // each, which changes no live child).
                let walked_to = {
                    let mut v = 0;
                    loop {
                        let live: Vec<usize> = (tree.node(v).children.iter().copied())
                            .filter(|&c| tree.node(c).pending > 0)
                            .collect();
                        let walks = kind == SearchKind::RandomPath
                            || kind == SearchKind::RandomPathCoverageNew && !coverage_turn;
                        if !walks || live.is_empty() {
                            break;
                        }
                        v = live[(walker.next() % live.len() as u64) as usize];
                    }
                    Some(v)
                };
                let picked = picked_by_scan(kind, &scan, covered, walked_to, coverage_turn);
                let expected = scan.remove(picked);
                tree.count_pending(expected.node, false);
                let got = searcher.pop(covered, &mut tree).expect("a state waits");
                assert_eq!(got, expected, "{kind:?}, round {round}");
                assert_eq!(searcher.len(), scan.len());
            }
        }
    }
}
