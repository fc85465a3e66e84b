//! Searchers: which pending state runs next. All are deterministic; the
//! random one draws from a PRNG seeded by the options.

use crate::exec::state::State;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SearchKind {
    #[default]
    Dfs,
    Bfs,
    /// A pending state with probability proportional to 2^-depth: what a
    /// random walk from the root of a binary execution tree gives (KLEE).
    RandomPath,
    /// The newest state whose next instruction was never executed, else DFS.
    CoverageNew,
}

impl SearchKind {
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Dfs => "dfs",
            SearchKind::Bfs => "bfs",
            SearchKind::RandomPath => "random-path",
            SearchKind::CoverageNew => "coverage-new",
        }
    }

    pub fn parse(name: &str) -> Option<SearchKind> {
        [
            SearchKind::Dfs,
            SearchKind::Bfs,
            SearchKind::RandomPath,
            SearchKind::CoverageNew,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

pub struct Searcher {
    kind: SearchKind,
    states: VecDeque<State>,
    rng: SplitMix64,
}

impl Searcher {
    pub fn new(kind: SearchKind, seed: u64) -> Searcher {
        Searcher {
            kind,
            states: VecDeque::new(),
            rng: SplitMix64(seed),
        }
    }

    pub fn push(&mut self, s: State) {
        self.states.push_back(s);
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn estimated_bytes(&self) -> u64 {
        self.states.iter().map(State::estimated_bytes).sum()
    }

    /// The next state; `covered(func, pc)` tells whether an instruction ran.
    pub fn pop(&mut self, covered: impl Fn(u32, u32) -> bool) -> Option<State> {
        match self.kind {
            SearchKind::Dfs => self.states.pop_back(),
            SearchKind::Bfs => self.states.pop_front(),
            SearchKind::RandomPath => {
                let min = self.states.iter().map(|s| s.depth).min()?;
                let weight = |s: &State| 1u64 << (40 - (s.depth - min).min(40));
                let total: u64 = self.states.iter().map(weight).sum();
                let mut pick = self.rng.next() % total;
                let index = self.states.iter().position(|s| {
                    let w = weight(s);
                    if pick < w {
                        return true;
                    }
                    pick -= w;
                    false
                })?;
                self.states.remove(index)
            }
            SearchKind::CoverageNew => {
                let fresh = self
                    .states
                    .iter()
                    .rposition(|s| s.frames.last().is_some_and(|f| !covered(f.func, f.pc)));
                match fresh {
                    Some(i) => self.states.remove(i),
                    None => self.states.pop_back(),
                }
            }
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
