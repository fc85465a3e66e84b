//! Merging the states a merging context released
//! (`../shared/design/symbolic_size.md` §2.5): each group of states at one
//! exit, in parts of at most the run's `max_states`, becomes one state
//! whose path condition is the context's prefix and the disjunction of
//! the states' suffixes (what each assumed inside the loop), whose
//! differing values and bytes are `ite`s over those suffixes, and whose
//! node in the tree names the leaves it came from. States that cannot be
//! merged (they allocated, made inputs or wrote output differently, or
//! differ in a value kept concrete) go on as they were.

use crate::exec::context::merging::Released;
use crate::exec::executor::Executor;
use crate::exec::program::Program;
use crate::expr::TermId;
use crate::state::{MergeMode, PathCondition, Slot, State};
use crate::tree::NodeId;
use symplay_wasm::ValType;

impl Executor<'_> {
    /// The states to go on with from what a context released: merged
    /// where the run merges and they can be.
    pub(crate) fn merge_released(&mut self, released: Released) -> Vec<State> {
        let options = self.cx.merging.options;
        let mut out = Vec::new();
        for group in released.groups {
            // (A run that merges nothing opens no context.)
            if group.len() < 2 || options.max_states < 2 {
                out.extend(group);
                continue;
            }
            let total = group.len();
            let mut group = group.into_iter().peekable();
            while group.peek().is_some() {
                let part: Vec<State> = group.by_ref().take(options.max_states).collect();
                let states = part.len();
                // SM's shortcut: a group of every state the loop had may
                // hold wherever the loop started.
                let whole = released.complete && states == total && options.mode == MergeMode::Sm;
                match self.merge_part(&released.prefix, released.root, part, whole) {
                    Ok(merged) => {
                        self.cx.merging.count_merge(states, true);
                        out.push(merged);
                    }
                    Err(part) => {
                        if states > 1 {
                            self.cx.merging.count_merge(states, false);
                        }
                        out.extend(part);
                    }
                }
            }
        }
        out
    }

    /// `part` merged into one state, or given back when it cannot be;
    /// `whole` when it is every state of its loop, whose suffixes may
    /// cover every case of the prefix (then the prefix is its condition).
    fn merge_part(
        &mut self,
        prefix: &PathCondition,
        root: NodeId,
        part: Vec<State>,
        whole: bool,
    ) -> Result<State, Vec<State>> {
        let [first, others @ ..] = &part[..] else {
            return Err(part);
        };
        // Under a depth limit, a merged path must reach it where each of
        // its states would (and replay to it).
        let depth_limited = self.cx.bounds.max_depth != u32::MAX;
        if others.is_empty() || depth_limited && others.iter().any(|s| s.depth != first.depth) {
            return Err(part);
        }
        let assumed = prefix.constraints().len();
        let suffixes: Vec<TermId> = (part.iter())
            .map(|s| {
                let constraints = s.condition.constraints();
                self.cx
                    .terms
                    .and_all(&constraints[assumed.min(constraints.len())..])
            })
            .collect();
        let mut merged = first.clone();
        let others: Vec<&State> = others.iter().collect();
        let program = &self.program;
        let kept_concrete = |slot: Slot| kept_concrete(program, first, slot);
        let terms = &mut self.cx.terms;
        if merged
            .merge(terms, &others, &suffixes, &kept_concrete)
            .is_err()
        {
            return Err(part);
        }
        let mut either = terms.or_all(&suffixes);
        merged.condition = prefix.clone();
        if whole {
            // The suffixes may not cover every case of the prefix: a side
            // the path limit left out, a value made concrete. One query
            // says whether they do.
            let uncovered = self.cx.terms.not(either);
            if matches!(self.feasible(&merged, uncovered), Ok(Some(false))) {
                either = self.cx.terms.tru();
            }
        }
        // A model of one suffix is no witness for the others' states: the
        // merged path asks the solver for its model.
        merged.condition.assume(&mut self.cx.terms, either, None);
        let formula = self.cx.records.formulas.intern(&self.cx.terms, either);
        let leaves = part.iter().map(|s| s.node).collect();
        merged.node = self.cx.records.tree.add_merged(root, formula, leaves);
        Ok(merged)
    }
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
