//! Regular patterns in the branches of states that merge
//! (`../shared/design/quantified_merging.md` §2): each state's word is a
//! letter per branch it took inside the loop, the branches of one
//! instruction's one side whose conditions are alike but for constants
//! ([`Shapes`]) sharing a letter (§2.1, §9: the prototype salts the shape
//! with the branch's instruction; a `br_table`'s label is its side); the words are partitioned by
//! patterns `prefix (unit)^k suffix`, each state of a partition with its
//! own k. The next mode's quantified merge rests on them; today they say
//! what regularity a merge's states have.
//!
//! Partitioning, greedy (§2.3, the digest's design): candidate patterns
//! come from the words whose unit repeats (twice at least, starting within
//! the first [`MAX_PREFIX`] letters); the candidate that covers the most
//! words still in no partition is taken, ties going to the shorter prefix,
//! then the shorter unit, then the shorter suffix, then the first in
//! letter order; until no candidate covers two words, or
//! [`MAX_PATTERNS`] are taken. Words in none stay alone.

use super::shapes::Shapes;
use crate::expr::{TermId, TermStore};
use crate::report::RegularPartition;
use crate::state::{Taken, MAX_BRANCHES};
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;

/// How far into a word a repetition may start, and how long its unit may
/// be.
const MAX_PREFIX: usize = 16;
const MAX_UNIT: usize = 16;
/// Partitions at most; the prototype's default.
pub(super) const MAX_PATTERNS: usize = 10;
/// Candidates looked at, at most: those of the first words.
const MAX_CANDIDATES: usize = 512;
/// Letters of all words at most (a state's branches are kept up to that
/// many): past them a merge's words are not partitioned, nor kept in its
/// report.
const MAX_LETTERS: usize = MAX_BRANCHES;

/// `prefix (unit)^k suffix`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Pattern {
    pub(super) prefix: Vec<u32>,
    pub(super) unit: Vec<u32>,
    pub(super) suffix: Vec<u32>,
}

impl Pattern {
    /// The k for which `word` is `prefix (unit)^k suffix`, if one is.
    fn k_of(&self, word: &[u32]) -> Option<u32> {
        let ends = self.prefix.len() + self.suffix.len();
        if word.len() < ends || !word.starts_with(&self.prefix) || !word.ends_with(&self.suffix) {
            return None;
        }
        let middle = &word[self.prefix.len()..word.len() - self.suffix.len()];
        let unit = self.unit.len();
        if unit == 0 || !middle.len().is_multiple_of(unit) {
            return None;
        }
        (middle.chunks(unit).all(|c| c == self.unit)).then_some((middle.len() / unit) as u32)
    }
}

/// The partitions of `words`, and the words in none.
pub(super) fn partition(words: &[Vec<u32>]) -> (Vec<RegularPartition>, Vec<usize>) {
    // Each candidate's words with their k, found once.
    let matched: Vec<(Pattern, Vec<(usize, u32)>)> = (candidates(words).into_iter())
        .map(|c| {
            let members = (words.iter().enumerate())
                .filter_map(|(w, word)| c.k_of(word).map(|k| (w, k)))
                .collect();
            (c, members)
        })
        .filter(|(_, members): &(_, Vec<_>)| members.len() >= 2)
        .collect();
    let mut taken = vec![false; words.len()];
    let mut partitions = Vec::new();
    while partitions.len() < MAX_PATTERNS {
        let untaken =
            |members: &[(usize, u32)]| members.iter().filter(|&&(w, _)| !taken[w]).count();
        let key = |p: &Pattern| (p.prefix.len(), p.unit.len(), p.suffix.len());
        // The most words in no partition yet; then the shorter parts, then
        // the first in letter order (as the candidates come).
        let best = (matched.iter())
            .map(|(c, members)| (c, members, untaken(members)))
            .reduce(|best, next| {
                let better = (next.2.cmp(&best.2)).then_with(|| key(best.0).cmp(&key(next.0)));
                if better.is_gt() {
                    next
                } else {
                    best
                }
            });
        let Some((pattern, members, count)) = best.filter(|&(_, _, count)| count >= 2) else {
            break;
        };
        let members: Vec<(usize, u32)> = (members.iter())
            .filter(|&&(w, _)| !taken[w])
            .copied()
            .collect();
        debug_assert_eq!(members.len(), count);
        for &(w, _) in &members {
            taken[w] = true;
        }
        partitions.push(RegularPartition {
            prefix: pattern.prefix.clone(),
            unit: pattern.unit.clone(),
            suffix: pattern.suffix.clone(),
            members,
            synthesis: Default::default(),
        });
    }
    let alone = (0..words.len()).filter(|&w| !taken[w]).collect();
    (partitions, alone)
}

/// The patterns whose unit repeats in some word, in letter order, of the
/// first words as far as [`MAX_CANDIDATES`] go.
fn candidates(words: &[Vec<u32>]) -> Vec<Pattern> {
    let mut found = BTreeSet::new();
    for w in words {
        for p in 0..=w.len().min(MAX_PREFIX) {
            for u in (1..=MAX_UNIT).take_while(|u| p + 2 * u <= w.len()) {
                let unit = &w[p..p + u];
                let mut end = p + u;
                while w[end..].starts_with(unit) {
                    end += u;
                }
                if end >= p + 2 * u {
                    found.insert(Pattern {
                        prefix: w[..p].to_vec(),
                        unit: unit.to_vec(),
                        suffix: w[end..].to_vec(),
                    });
                }
            }
        }
        if found.len() >= MAX_CANDIDATES {
            break;
        }
    }
    found.into_iter().collect()
}

/// The words of states that took `branches` (each state's in order), with
/// a branch of each letter: letters numbered as they first come. An error
/// says why there are none: two sides of one branch share a letter, where
/// a word would not name one path and patterns would mean nothing (the
/// hash is not valid for the tree, §2.1); or there are more than
/// [`MAX_LETTERS`].
pub(super) fn words(
    store: &TermStore,
    shapes: &mut Shapes,
    branches: &[Vec<Taken>],
) -> Result<(Vec<Vec<u32>>, Vec<Taken>), &'static str> {
    if branches.iter().map(Vec::len).sum::<usize>() > MAX_LETTERS {
        return Err("more than 50,000 branches in all");
    }
    let mut letter_of: FxHashMap<(u64, (u32, u32), u32), u32> = FxHashMap::default();
    let mut letters = Vec::new();
    // The tree of the branches: a node by its parent and its condition,
    // and each node's children by letter.
    let mut child: FxHashMap<(usize, TermId), usize> = FxHashMap::default();
    let mut sides: FxHashMap<(usize, u32), TermId> = FxHashMap::default();
    let mut words = Vec::with_capacity(branches.len());
    for path in branches {
        let (mut at, mut word) = (0, Vec::with_capacity(path.len()));
        for &taken in path {
            let c = taken.condition;
            let shape = (shapes.of(store, c), taken.at, taken.side);
            let letter = *letter_of.entry(shape).or_insert_with(|| {
                letters.push(taken);
                letters.len() as u32 - 1
            });
            if *sides.entry((at, letter)).or_insert(c) != c {
                return Err("two sides of one branch have one letter");
            }
            let next = child.len() + 1;
            at = *child.entry((at, c)).or_insert(next);
            word.push(letter);
        }
        words.push(word);
    }
    Ok((words, letters))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Sort};

    /// Words over letters named by characters.
    fn words_of(texts: &[&str]) -> Vec<Vec<u32>> {
        (texts.iter())
            .map(|t| t.bytes().map(u32::from).collect())
            .collect()
    }

    fn text(letters: &[u32]) -> String {
        letters.iter().map(|&l| char::from(l as u8)).collect()
    }

    #[test]
    fn memspns_leaves_fall_into_the_seeds_two_partitions() {
        // symbolic_size.md's memspn (T2, T3) as this engine words it, from
        // the context's first fork on: G is n > c, R its negation, B is
        // s[c] = 97, Y its negation.
        let leaves = ["R", "GY", "GBR", "GBGY", "GBGBR", "GBGBGY", "GBGBGBR"];
        let (partitions, alone) = partition(&words_of(&leaves));
        // Each partition as "prefix (unit)^k suffix" with its words and k.
        let shown: Vec<String> = (partitions.iter())
            .map(|p| {
                let members: Vec<String> = (p.members.iter())
                    .map(|&(w, k)| format!("{} k={k}", leaves[w]))
                    .collect();
                format!(
                    "{} ({})^k {}: {}",
                    text(&p.prefix),
                    text(&p.unit),
                    text(&p.suffix),
                    members.join(", ")
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                " (GB)^k R: R k=0, GBR k=1, GBGBR k=2, GBGBGBR k=3",
                // (G, BG, Y) covers these three too: the shorter prefix wins.
                " (GB)^k GY: GY k=0, GBGY k=1, GBGBGY k=2",
            ]
        );
        assert!(alone.is_empty());
    }

    #[test]
    fn words_with_no_repetition_stay_alone_and_the_patterns_are_capped() {
        let (partitions, alone) = partition(&words_of(&["AB", "CD", "ABAB"]));
        // ABAB's (AB)^2 covers AB (k = 1) too; CD is alone.
        assert_eq!(partitions.len(), 1);
        assert_eq!(partitions[0].members, [(0, 1), (2, 2)]);
        assert_eq!(alone, [1]);
        // Twelve families of two words each: ten partitions, four alone.
        let many: Vec<String> = (0..12u8)
            .flat_map(|i| {
                let c = char::from(b'a' + i);
                [format!("{c}{c}"), format!("{c}{c}{c}")]
            })
            .collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let (partitions, alone) = partition(&words_of(&many));
        assert_eq!((partitions.len(), alone.len()), (MAX_PATTERNS, 4));
    }

    #[test]
    fn letters_are_shapes_at_one_branchs_one_side() {
        let mut st = TermStore::new();
        let x = st.declare("x", Sort::Bv(32)).unwrap();
        let [zero, one, two] = [0, 1, 2].map(|k| st.bv_const(32, k));
        let (e0, e1) = (st.eq(x, zero), st.eq(x, one));
        let n0 = st.not(e0);
        let g = st.cmp(BvCmp::Ult, two, x);
        let at = |condition, pc, side| Taken {
            condition,
            at: (0, pc),
            side,
        };
        let mut shapes = Shapes::default();
        // x = 0 or not, then 2 < x: letters A, B, C.
        let branches = [vec![at(e0, 3, 0)], vec![at(n0, 3, 1), at(g, 5, 0)]];
        let (words, letters) = words(&st, &mut shapes, &branches).unwrap();
        assert_eq!(words, [vec![0], vec![1, 2]]);
        assert_eq!(letters, [branches[0][0], branches[1][0], branches[1][1]]);
        // x = 0 and x = 1 as cases 0 and 1 of one br_table share a shape,
        // not a letter.
        let cases = [vec![at(e0, 3, 0)], vec![at(e1, 3, 1)]];
        let (words, _) = super::words(&st, &mut shapes, &cases).unwrap();
        assert_eq!(words, [vec![0], vec![1]]);
        // The same case at another instruction is another letter; at the
        // same one, one after the other, a repetition.
        let elsewhere = [vec![at(e0, 3, 0), at(e1, 9, 0), at(e1, 3, 0)]];
        let (words, _) = super::words(&st, &mut shapes, &elsewhere).unwrap();
        assert_eq!(words, [vec![0, 1, 0]]);
        // Two conditions as one side of one branch (not what a fork makes)
        // leave no words.
        let clash = [vec![at(e0, 3, 0)], vec![at(e1, 3, 0)]];
        assert_eq!(
            super::words(&st, &mut shapes, &clash),
            Err("two sides of one branch have one letter")
        );
    }
}
