//! Merging the states a merging context released
//! (`../shared/design/symbolic_size.md` §2.5): each group of states at one
//! exit, in parts of at most the run's `max_states`, becomes one state
//! whose path condition is the context's prefix and the disjunction of
//! the states' suffixes (what each assumed inside the loop), whose
//! differing values and bytes are `ite`s over those suffixes, and whose
//! node in the tree names the leaves it came from. States that cannot be
//! merged (they allocated, made inputs or wrote output differently, or
//! differ in a value kept concrete) go on as they were.

mod forks;
mod joins;
mod sizes;
mod validate;

use crate::exec::context::merging::Released;
use crate::exec::executor::Executor;
use crate::exec::program::Program;
use crate::expr::{Guarded, Join, TermId};
use crate::report::MergeReport;
use crate::state::{MergeMode, PathCondition, Slot, State};
use crate::tree::NodeId;
use forks::Forks;
use joins::Recorded;
use std::ops::Range;
use symplay_wasm::ValType;

/// What a released context's states assumed inside the loop, each state's
/// in the order of the groups, and (SMOpt) the forks between them.
struct Suffixes {
    of: Vec<Vec<TermId>>,
    forks: Option<Forks>,
}

impl Executor<'_> {
    /// The states to go on with from what a context released: merged
    /// where the run merges and they can be.
    pub(crate) fn merge_released(&mut self, released: Released) -> Vec<State> {
        let options = self.cx.merging.options;
        let assumed = released.prefix.constraints().len();
        let of: Vec<Vec<TermId>> = (released.groups.iter().flatten())
            .map(|s| {
                let constraints = s.condition.constraints();
                constraints[assumed.min(constraints.len())..].to_vec()
            })
            .collect();
        let forks = (options.mode == MergeMode::SmOpt).then(|| {
            let suffixes = of.iter().map(Vec::as_slice);
            Forks::new(&mut self.cx.terms, suffixes, &released.complete_forks)
        });
        let suffixes = Suffixes { of, forks };
        let mut out = Vec::new();
        let mut first = 0;
        for group in released.groups {
            let total = group.len();
            let start = first;
            first += total;
            // (A run that merges nothing opens no context.)
            if total < 2 || options.max_states < 2 {
                out.extend(group);
                continue;
            }
            let mut group = group.into_iter().peekable();
            let mut at = start;
            while group.peek().is_some() {
                let part: Vec<State> = group.by_ref().take(options.max_states).collect();
                let members = at..at + part.len();
                at = members.end;
                let states = part.len();
                // SM's shortcut: a group of every state the loop had may
                // hold wherever the loop started.
                let whole = released.complete && states == total && options.mode == MergeMode::Sm;
                let merging = Merging {
                    prefix: &released.prefix,
                    root: released.root,
                    loop_at: released.loop_at,
                    suffixes: &suffixes,
                    members,
                    whole,
                };
                match self.merge_part(&merging, part) {
                    Ok(merged) => out.push(merged),
                    Err(part) => {
                        if states > 1 {
                            self.cx.merging.count_unmerged();
                        }
                        out.extend(part);
                    }
                }
            }
        }
        out
    }

    /// The states of `merging` merged into one, or given back when they
    /// cannot be (or, validated, were merged wrong).
    fn merge_part(&mut self, merging: &Merging, part: Vec<State>) -> Result<State, Vec<State>> {
        let [first, others @ ..] = &part[..] else {
            return Err(part);
        };
        // Under a depth limit, a merged path must reach it where each of
        // its states would (and replay to it).
        let depth_limited = self.cx.bounds.max_depth != u32::MAX;
        if others.is_empty() || depth_limited && others.iter().any(|s| s.depth != first.depth) {
            return Err(part);
        }
        let terms = &mut self.cx.terms;
        let guards: Vec<TermId> = (merging.members.clone())
            .map(|i| terms.and_all(&merging.suffixes.of[i]))
            .collect();
        let disjunction = terms.or_all(&guards);
        let (mut either, mut join): (TermId, Box<dyn Join>) = match &merging.suffixes.forks {
            Some(forks) => (
                forks.condition(terms, &merging.members),
                Box::new(forks.values(&merging.members)),
            ),
            None => (disjunction, Box::new(Guarded(&guards))),
        };
        let validate = self.cx.merging.options.validate;
        let mut recorded = Recorded::new(join.as_mut(), validate, self.cx.bounds.limits);
        let mut merged = first.clone();
        let others: Vec<&State> = others.iter().collect();
        let program = &self.program;
        let kept_concrete = |slot: Slot| kept_concrete(program, first, slot);
        if merged
            .merge(terms, &others, &mut recorded, &kept_concrete)
            .is_err()
        {
            return Err(part);
        }
        let joined = recorded.finish();
        drop(join);
        if joined.stopped.is_some() {
            // A limit stopped the merge: the states go on as they were,
            // and the run stops at its next look at the limits.
            return Err(part);
        }
        merged.condition = merging.prefix.clone();
        if merging.whole {
            // The suffixes may not cover every case of the prefix: a side
            // the path limit left out, a value made concrete. One query
            // says whether they do.
            let uncovered = self.cx.terms.not(either);
            if matches!(self.feasible(&merged, uncovered), Ok(Some(false))) {
                either = self.cx.terms.tru();
            }
        }
        let proved = match validate {
            true => match self.merge_holds(
                &merged,
                (either, disjunction),
                &guards,
                &joined.joins,
                merging.root,
            ) {
                Some(false) => return Err(part),
                holds => holds.is_some(),
            },
            false => false,
        };
        // A model of one suffix is no witness for the others' states: the
        // merged path asks the solver for its model.
        merged.condition.assume(&mut self.cx.terms, either, None);
        let formula = self.cx.records.formulas.intern(&self.cx.terms, either);
        let leaves = part.iter().map(|s| s.node).collect();
        merged.node = self
            .cx
            .records
            .tree
            .add_merged(merging.root, formula, leaves);
        let report = self.merge_report(
            merging,
            &merged,
            (either, disjunction),
            &joined.terms,
            proved,
        );
        self.cx.merging.record(report);
        Ok(merged)
    }

    /// The report of a merge into `merged` under `merging`: its condition
    /// past the prefix `either` beside the states' `disjunction`, the terms
    /// it `joined`, and whether validation `proved` it.
    fn merge_report(
        &mut self,
        merging: &Merging,
        merged: &State,
        (either, disjunction): (TermId, TermId),
        joined: &[TermId],
        proved: bool,
    ) -> MergeReport {
        let limits = self.cx.bounds.limits;
        let terms = &self.cx.terms;
        let condition_size = sizes::size_of(terms, &[either], true, limits);
        // CFG's and SM's condition is the disjunction itself: measured once.
        let disjunction_size = match either == disjunction {
            true => condition_size,
            false => sizes::size_of(terms, &[disjunction], true, limits),
        };
        let formulas = &mut self.cx.records.formulas;
        let options = self.cx.merging.options;
        MergeReport {
            node: merged.node,
            root: merging.root,
            loop_at: self.program.location(merging.loop_at),
            mode: options.mode,
            states: merging.members.len() as u64,
            condition: formulas.intern(terms, either),
            disjunction: formulas.intern(terms, disjunction),
            condition_size,
            disjunction_size,
            values: joined.len() as u64,
            values_size: sizes::size_of(terms, joined, false, limits),
            whole: terms.as_bool_const(either) == Some(true),
            validated: proved,
        }
    }
}

/// One part of a group to merge: its states' indices among the released
/// context's, and what they share.
struct Merging<'a> {
    prefix: &'a PathCondition,
    root: NodeId,
    /// The loop's function and header pc.
    loop_at: (u32, u32),
    suffixes: &'a Suffixes,
    members: Range<usize>,
    /// Whether the part is every state its loop had, whose suffixes may
    /// cover every case of the prefix (then the prefix is its condition).
    whole: bool,
}

/// Whether the value in `slot` of `s` is one the engine keeps concrete (a
/// float or a reference), or of a type it does not know (an operand, a
/// global), so that states must agree on it.
fn kept_concrete(program: &Program<'_>, s: &State, slot: Slot) -> bool {
    let Slot::Local { frame, index } = slot else {
        return true;
    };
    let func = s.frames[frame].func;
    let params = program.func_type(func).map_or(&[][..], |t| &t.params[..]);
    let locals = program.code(func).map_or(&[][..], |c| &c.locals[..]);
    let ty = params.iter().chain(locals).nth(index);
    !matches!(ty, Some(ValType::I32 | ValType::I64))
}
