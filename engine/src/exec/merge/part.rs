//! One part of a group merging into one state, a step at a time: the
//! values and bytes join (a step of about [`STEP_WORK`] values each), SM's
//! query whether the states cover every case of the prefix, each query of
//! validation, and last the merged state's node in the tree and the
//! merge's report. A part that cannot merge, or that validation finds
//! wrong, gives its states back as they were.

use super::joins::Recorded;
use super::partitions;
use super::quantified::{self, ByK, Partitioned};
use super::shapes::Shapes;
use super::sizes;
use super::synthesis::{self, Synthesised};
use super::validate::{Checked, Validation};
use super::{kept_concrete, Origin, STEP_WORK};
use crate::exec::executor::Executor;
use crate::exec::record::formulas::FormulaTable;
use crate::expr::{Guarded, Join, Node, Sort, TermId, TermStore};
use crate::report::{
    FormulaPattern, HoleFit, MergeReport, RegularPartition, RegularPatterns, Synthesis,
    ValuePattern,
};
use crate::search::Pending;
use crate::state::{MergeProgress, State, Taken};
use crate::tree::{ExecTree, NodeId};
use std::ops::Range;

/// A part under way: its states (the first is the one merged into), the
/// merge so far and what comes next.
pub(super) struct Part {
    states: Vec<State>,
    /// The states' indices among the released context's.
    members: Range<usize>,
    /// Whether the part is every state its loop had, whose suffixes may
    /// cover every case of the prefix (then the prefix is its condition).
    whole: bool,
    merged: State,
    /// Each state's suffix, as one term.
    guards: Vec<TermId>,
    /// The merged condition past the prefix, and the disjunction of the
    /// suffixes.
    conditions: (TermId, TermId),
    join: Recorded,
    stage: Stage,
    /// Under PAT, the partition the states are and its merge over a `k`.
    pattern: Option<PatternMerge>,
}

/// A partition's merge (PAT): its states, the `k` they merge over, and
/// their formula pattern over `k`, or why they have none (they then merge
/// as under SMOpt).
struct PatternMerge {
    partitioned: Partitioned,
    k: TermId,
    found: Result<synthesis::FormulaPattern, String>,
}

impl PatternMerge {
    /// The merged condition past the prefix over `k`, where the states
    /// have a pattern (else `found` says why not).
    fn condition(&mut self, terms: &mut TermStore) -> Option<TermId> {
        let pattern = self.found.as_ref().ok()?;
        match quantified::condition(terms, self.k, &self.partitioned.ks, pattern) {
            Ok(condition) => Some(condition),
            Err(why) => {
                self.found = Err(why);
                None
            }
        }
    }

    /// `k` and each state's k_j, where the states merged over them.
    fn over_k(&self) -> Option<(TermId, &[u32])> {
        self.found
            .is_ok()
            .then_some((self.k, &self.partitioned.ks[..]))
    }
}

enum Stage {
    /// The values and bytes join.
    Joining(MergeProgress),
    /// SM's query whether the suffixes cover every case of the prefix.
    Covering,
    /// The solver checks the merge, a query a step.
    Validating(Validation),
    /// The merged state gets its node and the merge its report.
    Recording { proved: bool },
}

/// What a step of a part did.
pub(super) enum Stepped {
    /// The part goes on at the next step.
    Going,
    Merged(Box<State>),
    /// The states cannot be merged (or were merged wrong): they go on as
    /// they were.
    Unmerged(Vec<State>),
}

impl Part {
    pub(super) fn states(&self) -> &[State] {
        &self.states
    }

    /// Its states as they were, the merge given up.
    pub(super) fn into_states(self) -> Vec<State> {
        self.states
    }

    pub(super) fn estimated_bytes(&self) -> u64 {
        let states: u64 = self.states.iter().map(State::estimated_bytes).sum();
        states + self.merged.estimated_bytes()
    }
}

impl Executor<'_> {
    /// The part of `states` (indices `members` among those `origin`
    /// released; under PAT, a share of a regular partition when
    /// `partitioned`) ready to merge, or its states when they cannot be.
    pub(super) fn begin_part(
        &mut self,
        origin: &Origin,
        states: Vec<State>,
        members: Range<usize>,
        whole: bool,
        partitioned: Option<Partitioned>,
    ) -> Result<Part, Vec<State>> {
        let [first, others @ ..] = &states[..] else {
            return Err(states);
        };
        // Under a depth limit, a merged path must reach it where each of
        // its states would (and replay to it).
        let depth_limited = self.cx.bounds.max_depth != u32::MAX;
        if others.is_empty() || depth_limited && others.iter().any(|s| s.depth != first.depth) {
            return Err(states);
        }
        let terms = &mut self.cx.terms;
        let suffixes = &origin.suffixes;
        let guards: Vec<TermId> = (members.clone())
            .map(|i| terms.and_all(&suffixes.of[i]))
            .collect();
        let disjunction = terms.or_all(&guards);
        let mut pattern = partitioned.map(|partitioned| {
            let k = terms.fresh("k", Sort::Bv(32));
            let assumed: Vec<&[TermId]> = members.clone().map(|i| &suffixes.of[i][..]).collect();
            let found = partitioned.formula_pattern(terms, k, &assumed);
            PatternMerge {
                partitioned,
                k,
                found,
            }
        });
        let by_k = pattern
            .as_mut()
            .and_then(|p| Some((p.condition(terms)?, p.k)));
        let (either, join): (TermId, Box<dyn Join>) = match (by_k, &suffixes.forks) {
            (Some((condition, k)), _) => {
                let ks = &pattern.as_ref().expect("a pattern merge").partitioned.ks;
                (condition, Box::new(ByK::new(terms, k, ks)))
            }
            (None, Some(forks)) => (
                forks.condition(terms, &members),
                Box::new(forks.values(&members)),
            ),
            (None, None) => (disjunction, Box::new(Guarded(guards.clone()))),
        };
        let validate = self.cx.merging.options.validate;
        Ok(Part {
            merged: first.clone(),
            states,
            members,
            whole,
            guards,
            conditions: (either, disjunction),
            join: Recorded::new(join, validate, self.cx.bounds.limits),
            stage: Stage::Joining(MergeProgress::default()),
            pattern,
        })
    }

    /// A step of `part`, of the states `origin` released.
    pub(super) fn part_step(&mut self, origin: &Origin, part: &mut Part) -> Stepped {
        let unmerged = |part: &mut Part| Stepped::Unmerged(std::mem::take(&mut part.states));
        match &mut part.stage {
            Stage::Joining(progress) => {
                let [first, others @ ..] = &part.states[..] else {
                    return unmerged(part);
                };
                let others: Vec<&State> = others.iter().collect();
                let program = &self.program;
                let kept_concrete = |slot| kept_concrete(program, first, slot);
                let joined = part.merged.merge_step(
                    &mut self.cx.terms,
                    &others,
                    &mut part.join,
                    &kept_concrete,
                    progress,
                    STEP_WORK,
                );
                match joined {
                    // A limit stopped the merge: the states go on as they
                    // were, and the run stops at its next look at the
                    // limits.
                    _ if part.join.stopped().is_some() => return unmerged(part),
                    Err(_) => return unmerged(part),
                    Ok(false) => {}
                    Ok(true) => {
                        part.merged.condition = origin.prefix.clone();
                        part.stage = match part.whole {
                            true => Stage::Covering,
                            false => self.checking(),
                        };
                    }
                }
            }
            Stage::Covering => {
                // The suffixes may not cover every case of the prefix: a
                // side the path limit left out, a value made concrete. One
                // query says whether they do.
                let uncovered = self.cx.terms.not(part.conditions.0);
                if matches!(self.feasible(&part.merged, uncovered), Ok(Some(false))) {
                    part.conditions.0 = self.cx.terms.tru();
                }
                part.stage = self.checking();
            }
            Stage::Validating(validation) => {
                let checked = Checked {
                    merged: &part.merged,
                    conditions: part.conditions,
                    guards: &part.guards,
                    joins: part.join.joins(),
                    over_k: part.pattern.as_ref().and_then(PatternMerge::over_k),
                };
                if self.validate_step(&checked, validation) {
                    let validation = std::mem::take(validation);
                    let states = part.states.len();
                    part.stage = match self.merge_holds(validation, states, origin.root) {
                        Some(false) => return unmerged(part),
                        holds => Stage::Recording {
                            proved: holds.is_some(),
                        },
                    };
                }
            }
            &mut Stage::Recording { proved } => {
                return Stepped::Merged(Box::new(self.record_merge(origin, part, proved)));
            }
        }
        Stepped::Going
    }

    /// What follows the joins: validation, when the run asks for it.
    fn checking(&self) -> Stage {
        match self.cx.merging.options.validate {
            true => Stage::Validating(Validation::default()),
            false => Stage::Recording { proved: false },
        }
    }

    /// The merged state of `part` on its path, at its node in the tree,
    /// its merge recorded (proved by validation, when `proved`).
    fn record_merge(&mut self, origin: &Origin, part: &mut Part, proved: bool) -> State {
        let mut merged = std::mem::take(&mut part.merged);
        let (either, _) = part.conditions;
        // A model of one suffix is no witness for the others' states: the
        // merged path asks the solver for its model.
        merged.condition.assume(&mut self.cx.terms, either, None);
        let formula = self.cx.records.formulas.intern(&self.cx.terms, either);
        let leaves = part.states.iter().map(|s| s.node).collect();
        let tree = &mut self.cx.records.tree;
        merged.node = tree.add_merged(origin.root, formula, leaves);
        if let Some((k, _)) = part.pattern.as_ref().and_then(PatternMerge::over_k) {
            self.cx.merging.merged_over(k);
        }
        let report = self.merge_report(origin, part, merged.node, proved);
        self.cx.merging.record(report);
        merged
    }

    /// The report of the merge of `part` into tree node `node`: its
    /// condition past the prefix beside the states' disjunction, the
    /// terms it joined, and whether validation `proved` it.
    fn merge_report(
        &mut self,
        origin: &Origin,
        part: &Part,
        node: usize,
        proved: bool,
    ) -> MergeReport {
        let (terms, formulas) = (&mut self.cx.terms, &mut self.cx.records.formulas);
        let taken: Vec<Vec<Taken>>;
        let (mut patterns, branches) = match &part.pattern {
            Some(merge) => (
                partition_patterns(terms, formulas, merge, &part.states),
                &merge.partitioned.branches,
            ),
            None => {
                taken = part.states.iter().map(|s| s.branches.taken()).collect();
                (
                    regular_patterns(terms, formulas, &part.states, &taken),
                    &taken,
                )
            }
        };
        let tree = &self.cx.records.tree;
        let paths = (part.states.iter().zip(branches)).map(|(s, taken)| (s.node, &taken[..]));
        patterns.edges = edge_letters(tree, formulas, origin.root, paths, &patterns.words);
        let limits = self.cx.bounds.limits;
        let terms = &self.cx.terms;
        let (either, disjunction) = part.conditions;
        let condition_size = sizes::size_of(terms, &[either], true, limits);
        // CFG's and SM's condition is the disjunction itself: measured once.
        let disjunction_size = match either == disjunction {
            true => condition_size,
            false => sizes::size_of(terms, &[disjunction], true, limits),
        };
        let joined = part.join.terms();
        let formulas = &mut self.cx.records.formulas;
        let options = self.cx.merging.options;
        MergeReport {
            node,
            root: origin.root,
            loop_at: self.program.location(origin.loop_at),
            mode: options.mode,
            states: part.members.len() as u64,
            condition: formulas.intern(terms, either),
            disjunction: formulas.intern(terms, disjunction),
            condition_size,
            disjunction_size,
            values: joined.len() as u64,
            values_size: sizes::size_of(terms, joined, false, limits),
            whole: terms.as_bool_const(either) == Some(true),
            validated: proved,
            patterns,
            k: (part.pattern.as_ref())
                .and_then(PatternMerge::over_k)
                .map(|(k, _)| k_name(terms, k)),
            incremental: false,
            point: None,
        }
    }
}

/// The regular patterns of `states`, their letters' conditions interned
/// in `formulas`, and each partition's formula pattern over a new `k`.
fn regular_patterns(
    terms: &mut TermStore,
    formulas: &mut FormulaTable,
    states: &[State],
    branches: &[Vec<Taken>],
) -> RegularPatterns {
    let (words, letters) = match partitions::words(terms, &mut Shapes::default(), branches) {
        Ok(found) => found,
        Err(why) => {
            return RegularPatterns {
                none_because: Some(why.into()),
                ..RegularPatterns::default()
            }
        }
    };
    let (mut partitions, alone) = partitions::partition(&words);
    if !partitions.is_empty() {
        let k = terms.fresh("k", Sort::Bv(32));
        for p in &mut partitions {
            let found = synthesis::formula_pattern(terms, k, p, branches);
            p.synthesis = synthesis_of(terms, formulas, k, p, &found, states);
        }
    }
    RegularPatterns {
        letters: (letters.iter())
            .map(|t| formulas.intern(terms, t.condition))
            .collect(),
        words,
        partitions,
        alone,
        none_because: None,
        edges: Vec::new(),
    }
}

/// The tree's nodes on the states' paths below `root` (each state's leaf
/// and branches taken, in `paths`) whose edge from their parent is a
/// branch of their `words`, with its letter: the tree's edges are the
/// branches that forked, in order; a branch the path allowed one side of
/// has no edge.
fn edge_letters<'a>(
    tree: &ExecTree,
    formulas: &FormulaTable,
    root: NodeId,
    paths: impl Iterator<Item = (NodeId, &'a [Taken])>,
    words: &[Vec<u32>],
) -> Vec<(usize, u32)> {
    let mut edges = Vec::new();
    for ((leaf, taken), word) in paths.zip(words) {
        let mut path = Vec::new();
        let mut at = Some(leaf);
        while let Some(v) = at.filter(|&v| v != root) {
            let node = tree.node(v);
            if let Some(condition) = node.condition {
                path.push((v, condition));
            }
            at = node.parent;
        }
        path.reverse();
        let mut branch = 0;
        for (v, condition) in path {
            // An edge's condition was interned with the edge; looking a
            // branch up interns nothing (one with no edge need not be).
            let found = (branch..taken.len())
                .find(|&b| formulas.index_of(taken[b].condition) == Some(condition));
            if let Some(b) = found {
                edges.push((v, word[b]));
                branch = b + 1;
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    edges
}

/// The regular patterns of a PAT merge's states, one partition, its
/// letters numbered as they come in its words; its formula pattern the
/// merge's.
fn partition_patterns(
    terms: &mut TermStore,
    formulas: &mut FormulaTable,
    merge: &PatternMerge,
    states: &[State],
) -> RegularPatterns {
    let partitioned = &merge.partitioned;
    let mut numbered: Vec<u32> = Vec::new();
    let mut renumber = |letters: &[u32]| -> Vec<u32> {
        (letters.iter())
            .map(|&l| match numbered.iter().position(|&n| n == l) {
                Some(at) => at as u32,
                None => {
                    numbered.push(l);
                    numbered.len() as u32 - 1
                }
            })
            .collect()
    };
    let words: Vec<Vec<u32>> = partitioned.words.iter().map(|w| renumber(w)).collect();
    let mut partition = partitioned.partition();
    partition.prefix = renumber(&partition.prefix);
    partition.unit = renumber(&partition.unit);
    partition.suffix = renumber(&partition.suffix);
    partition.synthesis = synthesis_of(terms, formulas, merge.k, &partition, &merge.found, states);
    RegularPatterns {
        letters: (numbered.iter())
            .map(|&l| formulas.intern(terms, partitioned.letters[l as usize].condition))
            .collect(),
        words,
        partitions: vec![partition],
        alone: Vec::new(),
        none_because: None,
        edges: Vec::new(),
    }
}

/// Partition `p`'s formula pattern over `x` as `found`, and its states'
/// differing values as terms of `x`, for the report.
fn synthesis_of(
    terms: &mut TermStore,
    formulas: &mut FormulaTable,
    x: TermId,
    p: &RegularPartition,
    found: &Result<synthesis::FormulaPattern, String>,
    states: &[State],
) -> Synthesis {
    let found = match found {
        Ok(found) => found,
        Err(why) => return Synthesis::Fallback(why.clone()),
    };
    let mut conjunction = |terms: &mut TermStore, parts: &[TermId]| {
        let all = terms.and_all(parts);
        formulas.intern(terms, all)
    };
    let (first, repeated, last) = (
        conjunction(terms, &found.first),
        conjunction(terms, &found.repeated.terms),
        conjunction(terms, &found.last.terms),
    );
    let ks: Vec<u32> = p.members.iter().map(|&(_, k)| k).collect();
    // Each hole's instances in the order of x.
    let holes = |s: &Synthesised, at: &[u32]| -> Vec<HoleFit> {
        (s.holes.iter())
            .map(|h| {
                let mut pairs: Vec<(u32, u64)> = at.iter().copied().zip(h.values.clone()).collect();
                pairs.sort_unstable();
                HoleFit {
                    width: h.width,
                    at: pairs.iter().map(|p| p.0).collect(),
                    values: pairs.iter().map(|p| p.1).collect(),
                    a: h.a,
                    b: h.b,
                }
            })
            .collect()
    };
    let iterations: Vec<u32> = (1..=ks.iter().copied().max().unwrap_or(0)).collect();
    let (repeated_holes, last_holes) =
        (holes(&found.repeated, &iterations), holes(&found.last, &ks));
    let members: Vec<&State> = p.members.iter().map(|&(w, _)| &states[w]).collect();
    let values = (members[0].values_apart(&members[1..]).into_iter())
        .map(|(slot, values)| {
            let instances: Vec<Vec<TermId>> = values.iter().map(|v| vec![v.term(terms)]).collect();
            let place = slot.to_string();
            match synthesis::synthesize(terms, x, &ks, &instances) {
                Ok(t) => ValuePattern {
                    place,
                    term: Some(formulas.intern(terms, t.terms[0])),
                    reason: None,
                },
                Err(why) => ValuePattern {
                    place,
                    term: None,
                    reason: Some(why),
                },
            }
        })
        .collect();
    let variable = k_name(terms, x);
    Synthesis::Pattern(FormulaPattern {
        variable,
        first,
        repeated,
        last,
        repeated_holes,
        last_holes,
        values,
    })
}

/// The name of the symbol `k`.
fn k_name(terms: &TermStore, k: TermId) -> String {
    match *terms.node(k) {
        Node::Symbol(s) => terms.symbol_name(s).to_string(),
        _ => unreachable!("k is a symbol"),
    }
}
