//! Incremental merging under PAT (`../shared/design/quantified_merging.md`
//! §5): a state that comes to a merge point of its context's loop (the
//! start of a fork's side, or the loop's head: the seed's snapshots at
//! basic blocks' entries, where states stand between forks) merges with
//! a state that came there before (a snapshot), where the two agree on
//! every value that may still be read (the live locals of the loop's
//! frame; every other frame's locals, the globals, the operands and the
//! memory) and their ways parted at a fork just above one of them (up to
//! chains of one child that earlier merges left). The merged state's
//! condition is the prefix they share and the disjunction of what each
//! assumed since, one edge in the tree and one branch in its word; it
//! takes the new state's values, which are the snapshot's. The snapshot's
//! state went on from there: its subtree is superseded (its pending
//! and waiting states dropped, its snapshots forgotten) and the merged
//! state explores those cases again. A subtree where a path ended is
//! never superseded, so no result is lost or found twice.
//!
//! Without it a loop whose iterations fork two ways to one state (memspn
//! over "ab": a match of 'a', or a mismatch then a match of 'b') doubles
//! its states each iteration and may never reach the exit merge; with it,
//! the two ways merge where the match's block starts (the seed's line 5:
//! the pointer, different in the two, is dead there, set again), each
//! iteration ends in one state, and the exit's states fall into the
//! regular partitions of a single-character set.

use crate::exec::executor::Executor;
use crate::expr::{Join, TermId, TermStore};
use crate::report::{MergeReport, RegularPatterns};
use crate::search::Searcher;
use crate::state::{Branches, MergeProgress, PathCondition, State, Taken, MERGED_SIDE};
use crate::tree::NodeId;
use std::rc::Rc;

use super::sizes;

/// Whether `s` and `n` stand at one place: every frame's function, pc and
/// operand base, and the operand stack's height.
fn same_place(s: &State, n: &State) -> bool {
    s.stack.len() == n.stack.len()
        && s.frames.len() == n.frames.len()
        && (s.frames.iter().zip(&n.frames))
            .all(|(a, b)| (a.func, a.pc, a.base) == (b.func, b.pc, b.base))
}

/// A join that finds values differing: states whose memories differ are
/// not merged incrementally.
#[derive(Default)]
struct Differs(bool);

impl Join for Differs {
    fn join(&mut self, _: &mut TermStore, values: &[TermId]) -> TermId {
        self.0 = true;
        values[0]
    }
}

impl Executor<'_> {
    /// `s`, at a merge point of its context's loop, merged with a snapshot
    /// where one fits (its pending and waiting states below the snapshot's
    /// node dropped from `searcher` and the context), else `s` itself,
    /// kept as a snapshot.
    pub(crate) fn merge_at_point(&mut self, mut s: State, searcher: &mut Searcher<State>) -> State {
        s.at_merge_point = false;
        let Some(id) = s.merging else {
            return s;
        };
        let live = self.live_here(&s);
        let tree = &self.cx.records.tree;
        // The snapshots at this place, nearest the root first, as the
        // seed's search goes.
        let mut order: Vec<(usize, usize)> = (self.cx.merging.snapshots(id).iter())
            .enumerate()
            .filter(|(_, n)| same_place(&s, n))
            .map(|(i, n)| (tree.depth(n.node), i))
            .collect();
        order.sort_unstable();
        let found = order.into_iter().find_map(|(_, i)| {
            let parted = self.parted_just_above(&s, &self.cx.merging.snapshots(id)[i])?;
            let n = self.cx.merging.snapshots(id)[i].clone();
            self.agrees(&s, &n, &live).then_some((n, parted))
        });
        let Some((n, parted)) = found else {
            self.cx.merging.snapshot(s.clone());
            return s;
        };
        let tree = &mut self.cx.records.tree;
        tree.supersede_below(n.node);
        searcher.drop_below(n.node, tree);
        let tree = &self.cx.records.tree;
        self.cx
            .merging
            .supersede(id, |v| tree.is_at_or_above(n.node, v));
        let merged = self.merged(s, &n, parted);
        self.cx.merging.snapshot(merged.clone());
        merged
    }

    /// The node where the ways of `s` and snapshot `n` (at its place)
    /// parted, where it is just above one of them (chains of one child
    /// aside), `n` is no state `s` came from, they have one store (and,
    /// under a depth limit, are as deep: a merged path must reach the
    /// limit where each of its states would), and no path ended below
    /// `n`. The cheap tests first.
    fn parted_just_above(&self, s: &State, n: &State) -> Option<NodeId> {
        let tree = &self.cx.records.tree;
        let depth_limited = self.cx.bounds.max_depth != u32::MAX;
        if depth_limited && s.depth != n.depth {
            return None;
        }
        if tree.is_at_or_above(n.node, s.node) {
            return None;
        }
        let parted = tree.common_ancestor(s.node, n.node);
        let just_above = [s.node, n.node]
            .iter()
            .any(|&v| tree.forked_above(v, parted) == Some(parted));
        let fits = just_above && s.merge_key() == n.merge_key() && !tree.ended_below(n.node);
        fits.then_some(parted)
    }

    /// Whether `s` and `n` hold the same values wherever they may still
    /// be read: `live` says which locals of the top frame may be.
    fn agrees(&mut self, s: &State, n: &State, live: &[bool]) -> bool {
        let mut theirs = n.clone();
        let top = s.frames.len() - 1;
        let locals = &s.frames[top].locals;
        for (index, value) in theirs.frames[top].locals.iter_mut().enumerate() {
            if !live.get(index).copied().unwrap_or(true) {
                *value = locals[index];
            }
        }
        let mut ours = s.clone();
        let mut differs = Differs::default();
        let mut progress = MergeProgress::default();
        loop {
            let step = ours.merge_step(
                &mut self.cx.terms,
                &[&theirs],
                &mut differs,
                &|_| true,
                &mut progress,
                u64::MAX,
            );
            match step {
                _ if differs.0 => return false,
                Err(_) => return false,
                Ok(true) => return true,
                Ok(false) => {}
            }
        }
    }

    /// The live locals of the top frame of `s` where it stands, found once
    /// for each place.
    fn live_here(&mut self, s: &State) -> Rc<[bool]> {
        let top = s.frames.last().expect("a state in a loop has a frame");
        if let Some(live) = self.cx.merging.live((top.func, top.pc)) {
            return live;
        }
        let live: Rc<[bool]> = match self.program.code(top.func) {
            Some(code) => {
                let params = self
                    .program
                    .func_type(top.func)
                    .map_or(0, |t| t.params.len());
                code.live_locals(params, top.pc).into()
            }
            None => vec![true; top.locals.len()].into(),
        };
        self.cx.merging.set_live((top.func, top.pc), live.clone());
        live
    }

    /// The state `s` and snapshot `n` merge into: below `parted`, where
    /// their ways parted, under the disjunction of what each assumed
    /// since, with the values of `s`; its merge recorded.
    fn merged(&mut self, s: State, n: &State, parted: NodeId) -> State {
        let ours = s.condition.constraints();
        let theirs = n.condition.constraints();
        let shared = (ours.iter().zip(&theirs))
            .take_while(|(a, b)| a == b)
            .count();
        let ours_taken = s.branches.taken();
        let theirs_taken = n.branches.taken();
        let taken_shared = (ours_taken.iter().zip(&theirs_taken))
            .take_while(|(a, b)| a == b)
            .count();
        // The sides in the order of the fork's alternatives, so that each
        // iteration's merge has one shape.
        let side = |taken: &[Taken]| taken.get(taken_shared).map_or(0, |t| t.side);
        let mut suffixes = [
            (side(&ours_taken), &ours[shared..]),
            (side(&theirs_taken), &theirs[shared..]),
        ];
        suffixes.sort_by_key(|&(side, _)| side);
        let terms = &mut self.cx.terms;
        let guards: Vec<TermId> = suffixes.iter().map(|(_, c)| terms.and_all(c)).collect();
        let either = terms.or_all(&guards);
        let mut merged = s;
        merged.depth = merged.depth.max(n.depth);
        let mut condition = PathCondition::default();
        for &c in &ours[..shared] {
            condition.assume(terms, c, None);
        }
        condition.assume(terms, either, None);
        merged.condition = condition;
        let mut branches = Branches::default();
        for &t in &ours_taken[..taken_shared] {
            branches.push(t);
        }
        let at = ours_taken.get(taken_shared).map_or(merged.at, |t| t.at);
        branches.push(Taken {
            condition: either,
            at,
            side: MERGED_SIDE,
        });
        merged.branches = branches;
        let formula = self.cx.records.formulas.intern(&self.cx.terms, either);
        let from = vec![merged.node, n.node];
        merged.node = self.cx.records.tree.add_merged(parted, formula, from);
        let size = sizes::size_of(&self.cx.terms, &[either], true, self.cx.bounds.limits);
        let top = merged.frames.last().expect("a state in a loop has a frame");
        let point = (top.func, top.pc);
        let loop_at = self.cx.merging.loop_of(&merged).unwrap_or(point);
        let report = MergeReport {
            node: merged.node,
            root: parted,
            loop_at: self.program.location(loop_at),
            mode: self.cx.merging.options.mode,
            states: 2,
            condition: formula,
            disjunction: formula,
            condition_size: size,
            disjunction_size: size,
            values: 0,
            values_size: Default::default(),
            whole: false,
            // Its condition is the disjunction itself and its values are
            // the states' own, equal term for term: right as made.
            validated: self.cx.merging.options.validate,
            patterns: RegularPatterns::default(),
            k: None,
            incremental: true,
            point: Some(self.program.location(point)),
        };
        self.cx.merging.record(report);
        merged
    }
}
