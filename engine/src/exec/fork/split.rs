//! The fork: which alternatives of a condition the path condition allows,
//! and one successor per feasible one, each a child in the tree; a guided
//! replay follows the test's side, and past the path limit a state
//! follows one side only.

use crate::exec::executor::Executor;
use crate::exec::outcome::End;
use crate::expr::{TermId, TermStore};
use crate::limits::Checkpoint;
use crate::report::{DropCause, ForkKind, NodeMemory, MAX_OBJECTS};
use crate::solver::{Beside, SolveResult, Witness};
use crate::state::{State, Taken};
use std::ops::Range;

/// Where a fork left a state: the index of the alternative it took, and a
/// sibling state for each other feasible one, with its index.
pub(crate) type Forked = (usize, Vec<(usize, State)>);

/// The alternatives of a fork in a row found feasible so far, and whether
/// the solver left one undecided.
struct Row {
    feasible: Vec<Side>,
    undecided: bool,
    max: usize,
}

/// An alternative of a fork that the path allows: its index among the
/// fork's, its condition (settled), and the witness of the solver's
/// answer that it can hold, if one was asked.
struct Side {
    index: usize,
    cond: TermId,
    witness: Option<Witness>,
    /// Its base form, under address-aware caching.
    form: Option<TermId>,
}

impl Executor<'_> {
    /// Splits `s` over the alternatives `conds` (pairwise disjoint; several
    /// alternatives cover every case, a single one is a condition to assume).
    /// `s` continues with the first feasible one; the returned siblings carry
    /// the others. Each result names its alternative by index.
    pub(crate) fn fork(
        &mut self,
        s: &mut State,
        conds: &[TermId],
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        self.fork_as(s, conds, ForkKind::Branch, None)
    }

    /// [`fork`](Self::fork) of a `kind`, shown in the tree, where
    /// alternative `leaving` (if any) leaves a loop: past the path limit, a
    /// state takes it, so that it ends.
    pub(crate) fn fork_as(
        &mut self,
        s: &mut State,
        conds: &[TermId],
        kind: ForkKind,
        leaving: Option<usize>,
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        let (feasible, undecided) = self.feasible_sides(s, conds)?;
        self.take_sides(s, feasible, conds.len() == 1, undecided, kind, leaving)
    }

    /// [`fork_as`](Self::fork_as) over alternatives that models of the path
    /// are known to satisfy, one each: no query asks again whether they are
    /// feasible.
    pub(crate) fn fork_satisfied(
        &mut self,
        s: &mut State,
        conds: &[TermId],
        kind: ForkKind,
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        let feasible = conds
            .iter()
            .enumerate()
            .map(|(index, &c)| {
                let cond = self.settled_condition(s, c);
                Side {
                    index,
                    cond,
                    witness: None,
                    form: self.form_of(cond),
                }
            })
            .collect();
        self.take_sides(s, feasible, conds.len() == 1, false, kind, None)
    }

    /// Splits `s` over `n` pairwise disjoint alternatives in a row, of
    /// which the path allows at least one, where `cond(terms, i..j)` says
    /// that one of `i..j` holds. When the path implies the alternative
    /// `likely` (one a model of it takes), one query says so; else the
    /// feasible ones are found by bisection: a run the path does not allow
    /// costs one query however long it is, so that `n` may be large when
    /// few are feasible. At most `max` feasible alternatives are looked
    /// for: `None` when there are more (`s` is unchanged then).
    pub(crate) fn fork_in_row(
        &mut self,
        s: &mut State,
        (n, likely): (usize, Option<usize>),
        max: usize,
        cond: &mut dyn FnMut(&mut TermStore, Range<usize>) -> TermId,
    ) -> Result<Option<Forked>, End> {
        if let Some(i) = likely.filter(|&i| i < n) {
            let c = cond(&mut self.cx.terms, i..i + 1);
            let c = self.settled_condition(s, c);
            let other = self.cx.terms.not(c);
            if matches!(self.beside(s, other)?, Beside::Unsat) {
                // The path implies it: no other side, and nothing to add.
                let only = Side {
                    index: i,
                    cond: c,
                    witness: None,
                    form: self.form_of(c),
                };
                let taken = self.take_sides(s, vec![only], false, false, ForkKind::Branch, None)?;
                return Ok(Some(taken));
            }
        }
        let mut row = Row {
            feasible: Vec::new(),
            undecided: false,
            max,
        };
        if !self.feasible_in_row(s, 0..n, Some(None), cond, &mut row)? {
            return Ok(None);
        }
        let taken = self.take_sides(
            s,
            row.feasible,
            false,
            row.undecided,
            ForkKind::Branch,
            None,
        )?;
        Ok(Some(taken))
    }

    /// Adds to `row` the alternatives of `range` the path of `s` allows, in
    /// order; `known` when the path allows one of them (with the witness of
    /// the answer that said so, if one was asked). `false` when more than
    /// `row.max` are feasible.
    fn feasible_in_row(
        &mut self,
        s: &State,
        range: Range<usize>,
        known: Option<Option<Witness>>,
        cond: &mut dyn FnMut(&mut TermStore, Range<usize>) -> TermId,
        row: &mut Row,
    ) -> Result<bool, End> {
        // The run's condition, settled, once it is needed.
        let mut asked = None;
        let (sure, witness) = match known {
            Some(witness) => (true, witness),
            None => {
                let c = cond(&mut self.cx.terms, range.clone());
                let c = *asked.insert(self.settled_condition(s, c));
                match self.cx.terms.as_bool_const(c) {
                    Some(false) => return Ok(true),
                    Some(true) => (true, None),
                    None => match self.beside(s, c)? {
                        Beside::Sat(witness) => (true, Some(witness)),
                        Beside::Unsat => return Ok(true),
                        Beside::Unknown(_) => {
                            row.undecided = true;
                            (false, None)
                        }
                    },
                }
            }
        };
        if range.len() == 1 {
            if sure {
                let cond = match asked {
                    Some(c) => c,
                    None => {
                        let c = cond(&mut self.cx.terms, range.clone());
                        self.settled_condition(s, c)
                    }
                };
                row.feasible.push(Side {
                    index: range.start,
                    cond,
                    witness,
                    form: self.form_of(cond),
                });
            }
            return Ok(row.feasible.len() <= row.max);
        }
        let mid = range.start + range.len() / 2;
        let (found, undecided) = (row.feasible.len(), row.undecided);
        if !self.feasible_in_row(s, range.start..mid, None, cond, row)? {
            return Ok(false);
        }
        // Of a run one of which holds, the second half holds where the
        // first cannot: no query needs to say so.
        let second_known = sure && row.feasible.len() == found && row.undecided == undecided;
        let known = second_known.then_some(None);
        self.feasible_in_row(s, mid..range.end, known, cond, row)
    }

    /// Goes on on the `feasible` sides of a fork of `kind`: its single
    /// alternative (an assumption) or several, some of which the solver
    /// may have left `undecided`.
    fn take_sides(
        &mut self,
        s: &mut State,
        mut feasible: Vec<Side>,
        single: bool,
        undecided: bool,
        kind: ForkKind,
        leaving: Option<usize>,
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        if feasible.is_empty() {
            // A single alternative is an assumption, which fails here. Of
            // several, one always holds, since the path condition holds:
            // only the solver's not knowing which can leave none.
            return Err(End::Dropped(if single && !undecided {
                DropCause::Assumption
            } else {
                DropCause::Undecided
            }));
        }
        if self.cx.guidance.on_the_way() {
            if feasible.len() > 1 {
                return self.follow_route(s, feasible);
            }
        } else if !self.cx.guidance.guide.is_empty() {
            if feasible.len() > 1 {
                return self.follow_guide(s, feasible);
            }
            // The path allows the assumption; the test's values may not.
            if single && !self.on_guide(s, feasible[0].cond)? {
                return Err(End::Dropped(DropCause::Assumption));
            }
        }
        // A guided replay took its side above; past the path limit, an
        // exploration takes one side here.
        let split = feasible.len() > 1;
        let allowed = feasible.len();
        self.within_path_limit(s, &mut feasible, leaving);
        let left_out = undecided || feasible.len() < allowed;
        if feasible.len() == 1 && !split {
            // When the other cases are proven infeasible, the path condition
            // implies this one already; adding it would only lengthen every
            // later query (a loop over a symbolic counter would grow it by a
            // constraint per iteration).
            let only = feasible.remove(0);
            let index = only.index;
            if s.merging.is_some() {
                s.branches.push(taken(s, &only));
            }
            if single || undecided {
                assume(&mut self.cx.terms, s, only);
            }
            return Ok((index, Vec::new()));
        }
        self.split(s, feasible, kind, leaving, left_out)
    }

    /// The alternatives `conds` that the path condition of `s` allows, by
    /// index, each condition simplified and settled; and whether the
    /// solver could not decide some other one.
    fn feasible_sides(&mut self, s: &State, conds: &[TermId]) -> Result<(Vec<Side>, bool), End> {
        let mut feasible = Vec::new();
        let mut undecided = false;
        for (index, &c) in conds.iter().enumerate() {
            let cond = self.settled_condition(s, c);
            let form = self.form_of(cond);
            let side = |witness| Side {
                index,
                cond,
                witness,
                form,
            };
            match self.cx.terms.as_bool_const(cond) {
                Some(false) => {}
                Some(true) => feasible.push(side(None)),
                None => match self.beside_formed(s, cond, form)? {
                    Beside::Sat(witness) => feasible.push(side(Some(witness))),
                    Beside::Unsat => {}
                    Beside::Unknown(_) => undecided = true,
                },
            }
        }
        Ok((feasible, undecided))
    }

    /// `c` simplified, with the constants the path condition of `s` fixes.
    fn settled_condition(&mut self, s: &State, c: TermId) -> TermId {
        let c = self.cx.caches.simplifier.simplify(&mut self.cx.terms, c);
        self.with_facts(s, c)
    }

    /// A guided replay takes the side of the test's values, with the
    /// condition the exploration recorded there.
    fn follow_guide(
        &mut self,
        s: &mut State,
        mut feasible: Vec<Side>,
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        // The run forked here: a fork deeper than its limit ends the path.
        if s.depth >= self.cx.bounds.max_depth {
            return Err(End::DepthLimit);
        }
        s.depth += 1;
        let mut taken = 0;
        for (k, side) in feasible.iter().enumerate() {
            if self.on_guide(s, side.cond)? {
                taken = k;
                break;
            }
        }
        let taken = feasible.swap_remove(taken);
        let index = taken.index;
        assume(&mut self.cx.terms, s, taken);
        Ok((index, Vec::new()))
    }

    /// A job's state on its way to the state it was handed takes the side
    /// of its route, as the run it came from did there (a side the path
    /// no longer allows ends it, off course), and arrives at the route's
    /// end.
    fn follow_route(
        &mut self,
        s: &mut State,
        mut feasible: Vec<Side>,
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        let route = &self.cx.guidance.route;
        let Some(&side) = route.get(s.depth as usize) else {
            return Err(End::Dropped(DropCause::Undecided));
        };
        let Some(k) = feasible.iter().position(|f| f.index == side as usize) else {
            return Err(End::Dropped(DropCause::Undecided));
        };
        s.depth += 1;
        let arrived = s.depth as usize == route.len();
        let taken = feasible.swap_remove(k);
        let index = taken.index;
        assume(&mut self.cx.terms, s, taken);
        if arrived {
            self.cx.guidance.arrive();
        }
        Ok((index, Vec::new()))
    }

    /// Whether `c` can hold on the path of `s` with the test's values.
    fn on_guide(&mut self, s: &State, c: TermId) -> Result<bool, End> {
        let guide = self.cx.terms.and_all(&self.cx.guidance.guide.clone());
        let on_guide = self.cx.terms.and(guide, c);
        Ok(self.feasible(s, on_guide)? == Some(true))
    }

    /// Keeps of the `feasible` sides only as many as the path limit has
    /// room for (one at least).
    fn within_path_limit(&mut self, s: &State, feasible: &mut Vec<Side>, leaving: Option<usize>) {
        let Some(max) = self.cx.bounds.max_paths else {
            return;
        };
        // The pending count includes `s` itself; states waiting at loop
        // exits are paths to come too.
        let coming = self.cx.records.paths.len() as u64
            + u64::from(self.cx.records.tree.node(0).pending)
            + self.cx.merging.suspended() as u64;
        let room = max.saturating_sub(coming) as usize;
        if feasible.len() > room + 1 {
            self.past_path_limit(s, feasible, room + 1, leaving);
        }
    }

    /// Splits `s` over the `feasible` sides: a fork in the tree where `s`
    /// is, one child per side, `s` taking the first and a copy of it each
    /// other one (unless the path is as deep as the run allows). Where
    /// alternative `leaving` leaves a loop, the states may wait for each
    /// other at its exits; `left_out` when the path allowed sides that are
    /// not among `feasible`.
    fn split(
        &mut self,
        s: &mut State,
        mut feasible: Vec<Side>,
        kind: ForkKind,
        leaving: Option<usize>,
        left_out: bool,
    ) -> Result<(usize, Vec<(usize, State)>), End> {
        if s.depth >= self.cx.bounds.max_depth {
            return Err(End::DepthLimit);
        }
        let leaves = leaving.and_then(|l| feasible.iter().find(|side| side.index == l));
        if let (Some(side), Some(code)) = (leaves, self.program.code(s.at.0)) {
            if feasible.len() > 1 {
                self.cx.merging.watch(s, code, &self.cx.terms, side.cond);
            }
        }
        if !left_out {
            let sides: Vec<TermId> = feasible.iter().map(|side| side.cond).collect();
            self.cx.merging.forked(s, sides);
        }
        self.cx.counters.forks += 1;
        let parent = s.node;
        let at = self.program.location(s.at);
        let memory = self
            .program
            .memory(s)
            .map(|m| m.made_and_freed(MAX_OBJECTS))
            .filter(|&(made, _)| made > 0)
            .map(|(made, freed)| NodeMemory {
                objects: made,
                freed,
            });
        let state_bytes = s.own_bytes();
        self.cx
            .records
            .tree
            .set_fork(parent, at, kind, memory, state_bytes);
        let first = feasible.remove(0);
        let mut siblings = Vec::new();
        for side in feasible {
            let mut sibling = s.fork();
            let index = side.index;
            self.enter_child(&mut sibling, parent, side);
            siblings.push((index, sibling));
        }
        let index = first.index;
        self.enter_child(s, parent, first);
        Ok((index, siblings))
    }

    /// Keeps `keep` of the `feasible` alternatives of a fork past the path
    /// limit: first the one that leaves a loop, else the one a model of
    /// the path takes, so that a state that no longer splits still ends.
    fn past_path_limit(
        &mut self,
        s: &State,
        feasible: &mut Vec<Side>,
        keep: usize,
        leaving: Option<usize>,
    ) {
        let mut first = leaving.and_then(|l| feasible.iter().position(|side| side.index == l));
        if first.is_none() {
            if let SolveResult::Sat(model) = self.check(&s.condition.constraints()) {
                // Past a limit, the first alternative is as good as any.
                let checkpoint = &mut Checkpoint::new(self.cx.bounds.limits);
                first = feasible.iter().position(|side| {
                    let value = self.cx.terms.eval_within(side.cond, &model, checkpoint);
                    value.is_ok_and(|v| v.as_bool() == Some(true))
                });
            }
        }
        if let Some(m) = first {
            let taken = feasible.remove(m);
            feasible.insert(0, taken);
        }
        self.cx.counters.unforked += (feasible.len() - keep) as u64;
        feasible.truncate(keep);
    }

    fn enter_child(&mut self, s: &mut State, parent: usize, side: Side) {
        let formula = self.cx.records.formulas.intern(&self.cx.terms, side.cond);
        s.node = (self.cx.records.tree).add_side(parent, formula, side.index as u32);
        s.depth += 1;
        s.at_merge_point = true;
        if s.merging.is_some() {
            s.branches.push(taken(s, &side));
        }
        assume(&mut self.cx.terms, s, side);
    }
}

/// `side` as a branch `s` takes where it is.
fn taken(s: &State, side: &Side) -> Taken {
    Taken {
        condition: side.cond,
        at: s.at,
        side: side.index as u32,
    }
}

/// Adds `side`'s condition to the path condition of `s`, with its base
/// form.
fn assume(terms: &mut TermStore, s: &mut State, side: Side) {
    s.condition.assume(terms, side.cond, side.witness);
    if let Some(form) = side.form {
        s.condition.set_form(side.cond, form);
    }
}
