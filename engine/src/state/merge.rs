//! Merging states with the same [`MergeKey`](super::MergeKey) into one
//! (`../shared/design/symbolic_size.md` §2.5): each value that differs
//! becomes one term by the merge's [`Join`], memory bytes likewise; the
//! rest (inputs, output, dropped segments) must be equal. The caller gives
//! the merged state its path condition and its tree node. How a run
//! merges is its [`MergeOptions`].

use super::value::Val;
use super::State;
use crate::expr::{Join, TermId, TermStore};
use crate::memory::ByteMerge;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// Which states a run merges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MergeMode {
    /// None: every path is explored on its own.
    #[default]
    None,
    /// States that leave a loop at the same exit, with the same call
    /// stack, wait there for the loop's other states and merge into one
    /// (`ite` values, the disjunction of their conditions): a loop is
    /// watched from its first fork with a side that leaves it on a
    /// symbolic condition.
    Cfg,
    /// Merging of size-dependent loops (`symbolic_size.md` §2.4): as CFG,
    /// for loops whose leaving fork reads a symbolic size (of an
    /// allocation or a sized buffer, kept symbolic under fork-lazy); a
    /// group that is every state its loop had, none having ended inside,
    /// takes the condition the loop started under.
    Sm,
    /// SM with formulas built over the forks the states went through
    /// inside the loop (`symbolic_size.md` §3, SMOpt): each fork's
    /// condition once in the merged condition, a fork whose sides all
    /// merged folded away, and each value chosen by the conditions of the
    /// forks that separate the states.
    #[serde(rename = "smopt")]
    SmOpt,
    /// Pattern-based merging (`quantified_merging.md` §3): as CFG, each
    /// exit's states partitioned by the regular patterns of the branches
    /// they took; a partition whose conditions have a formula pattern
    /// merges into one state over a new `k`, its path condition
    /// `∀i ∈ [1, k]: φ2[i]` and its values terms of `k`; the other states
    /// merge as under SMOpt.
    Pat,
}

impl MergeMode {
    pub const ALL: [MergeMode; 5] = [
        MergeMode::None,
        MergeMode::Cfg,
        MergeMode::Sm,
        MergeMode::SmOpt,
        MergeMode::Pat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MergeMode::None => "none",
            MergeMode::Cfg => "cfg",
            MergeMode::Sm => "sm",
            MergeMode::SmOpt => "smopt",
            MergeMode::Pat => "pat",
        }
    }

    pub fn parse(name: &str) -> Option<MergeMode> {
        MergeMode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The names of `modes`, for a message: `cfg, sm, smopt or pat`.
    pub fn listed(modes: &[MergeMode]) -> String {
        let names: Vec<&str> = modes.iter().map(|m| m.name()).collect();
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// Whether the mode merges only loops that depend on a size.
    pub fn follows_sizes(self) -> bool {
        matches!(self, MergeMode::Sm | MergeMode::SmOpt)
    }
}

impl std::fmt::Display for MergeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How a run merges states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MergeOptions {
    pub mode: MergeMode,
    /// The most states merged into one: a larger group merges in parts of
    /// this many (1: states wait at loop exits, none merges).
    pub max_states: usize,
    /// Whether the solver checks each merge against the states it
    /// replaced (a merge that fails is an engine error, and its states go
    /// on unmerged).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub validate: bool,
}

impl MergeOptions {
    /// Whether the run merges nothing (and waits nowhere).
    pub fn is_none(&self) -> bool {
        self.mode == MergeMode::None
    }
}

/// The seed's cap on the states of one merge (`symbolic_size.md` §2.2).
pub const MAX_MERGED_STATES: usize = 10_000;

impl Default for MergeOptions {
    fn default() -> Self {
        MergeOptions {
            mode: MergeMode::None,
            max_states: MAX_MERGED_STATES,
            validate: false,
        }
    }
}

/// A value's place in a state, for asking whether it may become a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Local `index` of frame `frame` (from the bottom of the stack).
    Local {
        frame: usize,
        index: usize,
    },
    Global(usize),
    /// Operand `index` from the bottom of the stack.
    Operand(usize),
}

impl std::fmt::Display for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Slot::Local { frame, index } => write!(f, "local {index} of frame {frame}"),
            Slot::Global(index) => write!(f, "global {index}"),
            Slot::Operand(index) => write!(f, "operand {index}"),
        }
    }
}

/// How far a merge made in steps ([`State::merge_step`]) has got.
#[derive(Default)]
pub struct MergeProgress(Stage);

#[derive(Default)]
enum Stage {
    /// The values of locals, globals and operands come first.
    #[default]
    Values,
    /// Then the bytes of each memory in turn, once it is known where
    /// they may differ.
    Memory {
        index: usize,
        bytes: Option<ByteMerge>,
    },
    Done,
}

impl State {
    /// A step of making this state the merge of itself and `others`, which
    /// have its merge key: a value that differs becomes `join`'s term of
    /// the states' values (this state's first). The first step merges the
    /// values of locals, globals and operands, each next one bytes of a
    /// memory, about `work` values read, so that a merge of many states
    /// leaves room between its steps (`exec/merge/`). Returns whether the
    /// merge is done.
    /// `kept_concrete` says which slots hold values the engine keeps
    /// concrete (floats, references, operands of a type it does not know),
    /// which must be equal. An error names what keeps the states apart
    /// (this state is then half merged, of no use).
    pub fn merge_step(
        &mut self,
        store: &mut TermStore,
        others: &[&State],
        join: &mut dyn Join,
        kept_concrete: &dyn Fn(Slot) -> bool,
        progress: &mut MergeProgress,
        work: u64,
    ) -> Result<bool, &'static str> {
        match &mut progress.0 {
            Stage::Values => {
                self.merge_values(store, others, join, kept_concrete)?;
                progress.0 = Stage::Memory {
                    index: 0,
                    bytes: None,
                };
            }
            Stage::Memory { index, bytes } => {
                let Some(memory) = self.memories.get_mut(*index) else {
                    progress.0 = Stage::Done;
                    return Ok(true);
                };
                let theirs: Vec<_> = others.iter().map(|o| &o.memories[*index]).collect();
                let plan = match bytes {
                    Some(plan) => plan,
                    None => bytes.insert(memory.byte_merge(&theirs)?),
                };
                memory.merge_bytes(store, &theirs, join, plan, work)?;
                if plan.is_done() {
                    *index += 1;
                    *bytes = None;
                }
            }
            Stage::Done => {}
        }
        Ok(matches!(progress.0, Stage::Done))
    }

    /// The first step of [`State::merge_step`]: everything but memory.
    fn merge_values(
        &mut self,
        store: &mut TermStore,
        others: &[&State],
        join: &mut dyn Join,
        kept_concrete: &dyn Fn(Slot) -> bool,
    ) -> Result<(), &'static str> {
        for o in others {
            self.same_history(o)?;
        }
        let slots: Vec<Slot> = self.slots().collect();
        let mut values = Vec::with_capacity(others.len() + 1);
        for slot in slots {
            values.clear();
            values.push(self.at(slot));
            values.extend(others.iter().map(|o| o.at(slot)));
            *self.at_mut(slot) = merged_value(store, &values, join, || kept_concrete(slot))?;
        }
        for o in others {
            self.depth = self.depth.max(o.depth);
            for note in o.notes.iter() {
                if !self.notes.contains(note) {
                    self.note(note.clone());
                }
            }
            for c in o.concretised.iter() {
                if !self.concretised.contains(c) {
                    Rc::make_mut(&mut self.concretised).push(c.clone());
                }
            }
        }
        Ok(())
    }

    /// The values of locals, globals and operands that differ between
    /// this state and `others` (which have its merge key), by place, this
    /// state's first.
    pub fn values_apart(&self, others: &[&State]) -> Vec<(Slot, Vec<Val>)> {
        (self.slots())
            .filter_map(|slot| {
                let first = self.at(slot);
                let differ = others.iter().any(|o| o.at(slot) != first);
                let values = std::iter::once(first).chain(others.iter().map(|o| o.at(slot)));
                differ.then(|| (slot, values.collect()))
            })
            .collect()
    }

    /// Every place a merge joins, in order: each frame's locals, the
    /// globals, the operands.
    fn slots(&self) -> impl Iterator<Item = Slot> + '_ {
        let locals = (self.frames.iter().enumerate()).flat_map(|(frame, f)| {
            (0..f.locals.len()).map(move |index| Slot::Local { frame, index })
        });
        (locals.chain((0..self.globals.len()).map(Slot::Global)))
            .chain((0..self.stack.len()).map(Slot::Operand))
    }

    /// The value in `slot` (one of [`State::slots`]).
    fn at(&self, slot: Slot) -> Val {
        match slot {
            Slot::Local { frame, index } => self.frames[frame].locals[index],
            Slot::Global(index) => self.globals[index],
            Slot::Operand(index) => self.stack[index],
        }
    }

    fn at_mut(&mut self, slot: Slot) -> &mut Val {
        match slot {
            Slot::Local { frame, index } => &mut self.frames[frame].locals[index],
            Slot::Global(index) => &mut self.globals[index],
            Slot::Operand(index) => &mut self.stack[index],
        }
    }

    /// Whether `other` made the same inputs and output as this state, and
    /// dropped the same segments: what no `ite` can merge.
    fn same_history(&self, other: &State) -> Result<(), &'static str> {
        // Rc's equality compares the pointers first.
        let inputs = self.inputs == other.inputs && self.name_uses == other.name_uses;
        if !inputs {
            return Err("the states made different inputs");
        }
        if self.stdout != other.stdout || self.stderr != other.stderr {
            return Err("the states wrote different output");
        }
        if self.dropped_data != other.dropped_data || self.dropped_elems != other.dropped_elems {
            return Err("the states dropped different segments");
        }
        if self.memories.len() != other.memories.len() || self.globals.len() != other.globals.len()
        {
            return Err("the states have different stores");
        }
        Ok(())
    }
}

/// The value `join` makes of the states' `values`; `kept_concrete()` says
/// the values must be equal instead.
fn merged_value(
    store: &mut TermStore,
    values: &[Val],
    join: &mut dyn Join,
    kept_concrete: impl Fn() -> bool,
) -> Result<Val, &'static str> {
    let first = values[0];
    if values.iter().all(|&v| v == first) {
        return Ok(first);
    }
    // Floats and references are never terms: a term among the values
    // makes them integers.
    if values.iter().all(|v| v.concrete().is_some()) && kept_concrete() {
        return Err("a float, reference or operand kept concrete differs");
    }
    let terms: Vec<TermId> = values.iter().map(|v| v.term(store)).collect();
    if terms
        .iter()
        .any(|&t| store.width(t) != store.width(terms[0]))
    {
        return Err("values of different widths");
    }
    let merged = join.join(store, &terms);
    Ok(Val::from_term(store, merged))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Guarded, Sort};
    use crate::state::Frame;

    /// `a` merged with `others` in one go.
    fn merge(
        st: &mut TermStore,
        a: &mut State,
        others: &[&State],
        guards: Vec<TermId>,
        kept_concrete: &dyn Fn(Slot) -> bool,
    ) -> Result<(), &'static str> {
        let (mut join, mut progress) = (Guarded(guards), MergeProgress::default());
        while !a.merge_step(
            st,
            others,
            &mut join,
            kept_concrete,
            &mut progress,
            u64::MAX,
        )? {}
        Ok(())
    }

    fn state(local: Val) -> State {
        State {
            frames: vec![Frame {
                func: 0,
                pc: 3,
                locals: vec![local, Val::i32(7)],
                base: 0,
            }],
            ..State::default()
        }
    }

    #[test]
    fn differing_values_become_an_ite_chain_and_equal_ones_stay() {
        let mut st = TermStore::new();
        let (c0, c1) = (
            st.declare("c0", Sort::Bool).unwrap(),
            st.declare("c1", Sort::Bool).unwrap(),
        );
        let x = st.declare("x", Sort::Bv(32)).unwrap();
        let mut a = state(Val::i32(0));
        let (b, c) = (state(Val::i32(1)), state(Val::Sym(x)));
        merge(&mut st, &mut a, &[&b, &c], vec![c0, c1], &|_| false).unwrap();
        let [zero, one] = [0, 1].map(|k| st.bv_const(32, k));
        let inner = st.ite(c1, one, x);
        let expected = st.ite(c0, zero, inner);
        assert_eq!(a.frames[0].locals, [Val::Sym(expected), Val::i32(7)]);
    }

    #[test]
    fn a_float_that_differs_keeps_the_states_apart() {
        let mut st = TermStore::new();
        let c = st.declare("c", Sort::Bool).unwrap();
        let mut a = state(Val::i32(1.5f32.to_bits()));
        let b = state(Val::i32(2.5f32.to_bits()));
        let float = |slot: Slot| slot == Slot::Local { frame: 0, index: 0 };
        assert!(merge(&mut st, &mut a.clone(), &[&b], vec![c], &float).is_err());
        assert!(merge(&mut st, &mut a, &[&b], vec![c], &|_| false).is_ok());
    }

    #[test]
    fn states_that_made_different_inputs_do_not_merge() {
        let mut st = TermStore::new();
        let c = st.declare("c", Sort::Bool).unwrap();
        let mut a = state(Val::i32(0));
        let mut b = a.clone();
        b.add_input(super::super::Input::Arg {
            width: 32,
            value: Val::i32(1),
        });
        assert_eq!(
            merge(&mut st, &mut a, &[&b], vec![c], &|_| false),
            Err("the states made different inputs")
        );
    }
}
