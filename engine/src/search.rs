//! Searchers: which pending state runs next. All are deterministic; the
//! random one draws from a PRNG seeded by the options.

use crate::tree::ExecTree;
use std::collections::VecDeque;

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

pub struct Searcher<S> {
    kind: SearchKind,
    states: VecDeque<S>,
    rng: SplitMix64,
    /// Taking turns: whether random path has the next one.
    random_turn: bool,
}

impl<S: Pending> Searcher<S> {
    pub fn new(kind: SearchKind, seed: u64) -> Searcher<S> {
        Searcher {
            kind,
            states: VecDeque::new(),
            rng: SplitMix64(seed),
            random_turn: true,
        }
    }

    /// Adds a pending state, counted in `tree`, the execution tree it is in.
    pub fn push(&mut self, s: S, tree: &mut ExecTree) {
        tree.count_pending(s.node(), true);
        self.states.push_back(s);
    }

    /// Random path: walks down from the root through children with pending
    /// states below, to the node of the state to run.
    fn walk(&mut self, tree: &ExecTree) -> Option<usize> {
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
        self.states.iter().position(|s| s.node() == v)
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Drops the pending states at or below node `v` of `tree`, counted
    /// out of it; the others keep their order.
    pub fn drop_below(&mut self, v: usize, tree: &mut ExecTree) {
        let mut dropped = Vec::new();
        self.states.retain(|s| {
            let below = tree.is_at_or_above(v, s.node());
            if below {
                dropped.push(s.node());
            }
            !below
        });
        for node in dropped {
            tree.count_pending(node, false);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn estimated_bytes(&self) -> u64 {
        self.states.iter().map(S::estimated_bytes).sum()
    }

    /// The next state, counted out of `tree`; `covered(func, pc)` tells
    /// whether an instruction ran.
    pub fn pop(&mut self, covered: impl Fn(u32, u32) -> bool, tree: &mut ExecTree) -> Option<S> {
        let index = match self.kind {
            SearchKind::Dfs => self.states.len().checked_sub(1)?,
            SearchKind::Bfs => 0,
            SearchKind::CoverageNew => self.coverage_new(covered),
            SearchKind::RandomPath => self.walk(tree).unwrap_or(0),
            SearchKind::RandomPathCoverageNew => {
                self.random_turn = !self.random_turn;
                if self.random_turn {
                    self.coverage_new(covered)
                } else {
                    // A walk that ends on no state (a tree it was not told
                    // of) falls back to the oldest one.
                    self.walk(tree).unwrap_or(0)
                }
            }
        };
        let s = self.states.remove(index)?;
        tree.count_pending(s.node(), false);
        Some(s)
    }

    /// Coverage-new: the newest state whose next instruction never ran,
    /// else the newest.
    fn coverage_new(&self, covered: impl Fn(u32, u32) -> bool) -> usize {
        self.states
            .iter()
            .rposition(|s| s.next_instruction().is_some_and(|(f, pc)| !covered(f, pc)))
            .unwrap_or(self.states.len().saturating_sub(1))
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
}
