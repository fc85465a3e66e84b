//! One path's state: call frames, operand stack, the store's globals,
//! memories and tables, path condition and the symbolic inputs created so far,
//! and its node in the execution tree. What two states must share to be
//! merged is their [`MergeKey`].

pub mod value;

use crate::expr::{TermId, TermStore};
use crate::memory::{DeadStack, MemoryModel};
use crate::search::Pending;
use crate::solver::simplify::Simplifier;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use symplay_wasm::ir::Target;
use value::Val;

#[derive(Clone, Debug)]
pub struct Frame {
    /// Store function id (an index in the exploration's links).
    pub func: u32,
    /// The next instruction to execute.
    pub pc: u32,
    pub locals: Vec<Val>,
    /// Operand-stack height when the frame was entered.
    pub base: usize,
}

/// A symbolic input and the terms that make it up, for building test inputs.
#[derive(Clone, Debug)]
pub enum Input {
    /// A parameter of the entry function (width 32 or 64).
    Arg { width: u8, value: Val },
    Int {
        name: String,
        width: u8,
        term: TermId,
    },
    /// A buffer, one array symbol `name`: byte `k` is `select(name, k)`
    /// (a constant in a concrete replay).
    Bytes { name: String, bytes: Vec<TermId> },
    /// A buffer of which the first `len` (a 32-bit term) bytes are the input.
    SizedBytes {
        name: String,
        bytes: Vec<TermId>,
        len: TermId,
    },
}

/// A table of references.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Table {
    /// `None` is a null entry; else a store function id (a `funcref`
    /// table) or a host value (an `externref` table).
    pub entries: Vec<Option<u32>>,
    /// The most entries it may grow to.
    pub max: Option<u32>,
}

/// The store of every instance is part of the state: a fork copies it (the
/// memories copy on write), and instances address it through their links.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub frames: Vec<Frame>,
    pub stack: Vec<Val>,
    pub globals: Vec<Val>,
    pub memories: Vec<MemoryModel>,
    /// The C stack variables of the frames that have returned.
    pub dead_stack: DeadStack,
    pub tables: Vec<Table>,
    /// Per instance, per segment: dropped (by `data.drop`, or instantiation).
    pub dropped_data: Vec<Vec<bool>>,
    pub dropped_elems: Vec<Vec<bool>>,
    /// The path condition: boolean terms that all hold on this path.
    pub constraints: Vec<TermId>,
    /// The symbols and input bytes the path condition fixes to a constant
    /// (`x = 5`, `text[3] = 97`), to that constant: conditions and
    /// addresses are rewritten with them before the solver is asked
    /// (KLEE's equality rewriting), so a pinned input costs no query.
    pub facts: FxHashMap<TermId, TermId>,
    pub inputs: Vec<Input>,
    /// How often each input name was used, for unique names (`x`, `x#2`).
    pub name_uses: BTreeMap<String, u32>,
    pub notes: Vec<String>,
    /// What this path made concrete, and where (function, pc).
    pub concretised: Vec<(String, (u32, u32))>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// The execution-tree node this state is in.
    pub node: usize,
    /// Forks on this path so far.
    pub depth: u32,
    /// Function and pc of the instruction executing (or last executed).
    pub at: (u32, u32),
}

/// What two states must have in common to be merged into one whose
/// differing values, path condition and memory contents are `ite` terms
/// (`../shared/design/quantified_merging.md` §9): the same place (every
/// frame's function, pc and stack base: the call stack with its return
/// sites), the operand-stack height, each memory's size, the tables, and
/// the dead stack frames.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MergeKey {
    frames: Vec<(u32, u32, usize)>,
    stack: usize,
    memory_pages: Vec<u32>,
    tables: Vec<Table>,
    dead_stack: DeadStack,
}

impl State {
    pub fn merge_key(&self) -> MergeKey {
        MergeKey {
            frames: self.frames.iter().map(|f| (f.func, f.pc, f.base)).collect(),
            stack: self.stack.len(),
            memory_pages: self.memories.iter().map(MemoryModel::pages).collect(),
            tables: self.tables.clone(),
            dead_stack: self.dead_stack.clone(),
        }
    }

    /// Adds `c` to the path condition (unless it is `true`), and to the
    /// facts if it fixes a symbol or an input byte.
    pub(crate) fn assume(&mut self, terms: &mut TermStore, c: TermId) {
        if terms.as_bool_const(c) == Some(true) {
            return;
        }
        if let Some((symbol, value)) = Simplifier::fact(terms, c) {
            self.facts.entry(symbol).or_insert(value);
        }
        self.constraints.push(c);
    }

    pub(crate) fn pop(&mut self) -> Val {
        self.stack
            .pop()
            .expect("validated code never pops an empty stack")
    }

    pub(crate) fn set_pc(&mut self, pc: u32) {
        if let Some(f) = self.frames.last_mut() {
            f.pc = pc;
        }
    }

    pub(crate) fn set_local(&mut self, i: u32, v: Val) {
        if let Some(f) = self.frames.last_mut() {
            f.locals[i as usize] = v;
        }
    }

    /// Takes a branch: keeps the top `keep` values, removes `drop` beneath
    /// them.
    pub(crate) fn jump(&mut self, t: Target) {
        let len = self.stack.len();
        let (keep, drop) = (t.keep as usize, t.drop as usize);
        if drop > 0 {
            self.stack.drain(len - keep - drop..len - keep);
        }
        self.set_pc(t.pc);
    }

    /// Bytes this state holds that no other one shares: what it wrote to
    /// memory since it was forked, and the parts a fork copies whole.
    pub fn own_bytes(&self) -> u64 {
        let memory: usize = self.memories.iter().map(MemoryModel::own_bytes).sum();
        memory as u64 + self.copied_bytes()
    }

    /// Rough bytes of the parts of the state a fork copies whole: frames,
    /// operands, globals, tables, the path condition and its facts, the
    /// inputs and the output.
    fn copied_bytes(&self) -> u64 {
        let value = std::mem::size_of::<Val>();
        let frames: usize = self
            .frames
            .iter()
            .map(|f| f.locals.len() * value + std::mem::size_of::<Frame>())
            .sum();
        let tables: usize = self.tables.iter().map(|t| t.entries.len() * 8).sum();
        let inputs: usize = self
            .inputs
            .iter()
            .map(|i| match i {
                Input::Bytes { bytes, .. } | Input::SizedBytes { bytes, .. } => bytes.len() * 4,
                Input::Arg { .. } | Input::Int { .. } => 0,
            } + std::mem::size_of::<Input>())
            .sum();
        let output = self.stdout.len() + self.stderr.len();
        let condition = self.constraints.len() * 4 + self.facts.len() * 16;
        (frames
            + tables
            + inputs
            + output
            + condition
            + (self.stack.len() + self.globals.len()) * value) as u64
    }

    /// A unique input name on this path: `name`, then `name#2`, `name#3`...
    pub fn unique_name(&mut self, name: &str) -> String {
        let uses = self.name_uses.entry(name.to_string()).or_insert(0);
        *uses += 1;
        if *uses == 1 {
            name.to_string()
        } else {
            format!("{name}#{uses}")
        }
    }
}

impl Pending for State {
    fn node(&self) -> usize {
        self.node
    }

    fn next_instruction(&self) -> Option<(u32, u32)> {
        self.frames.last().map(|f| (f.func, f.pc))
    }

    /// A rough size in bytes, for the memory limit.
    fn estimated_bytes(&self) -> u64 {
        let memory: u64 = self.memories.iter().map(|m| m.heap_bytes() as u64).sum();
        memory + self.copied_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::TermStore;

    fn at(func: u32, pc: u32) -> State {
        State {
            frames: vec![Frame {
                func,
                pc,
                locals: vec![Val::i32(0)],
                base: 0,
            }],
            memories: vec![MemoryModel::flat(&mut TermStore::new(), 1, None)],
            ..State::default()
        }
    }

    #[test]
    fn states_at_one_place_share_a_merge_key_whatever_their_values() {
        let a = at(3, 10);
        let mut b = at(3, 10);
        b.frames[0].locals[0] = Val::i32(7);
        b.globals.push(Val::i32(1));
        b.constraints.push(TermStore::new().tru());
        let mut c = at(3, 10);
        c.globals.push(Val::i32(2));
        assert_eq!(b.merge_key(), c.merge_key());
        // Another pc, call stack, stack height, memory size or table: no.
        assert_ne!(a.merge_key(), at(3, 11).merge_key());
        let mut deeper = at(3, 10);
        deeper.frames.insert(0, at(1, 4).frames[0].clone());
        assert_ne!(a.merge_key(), deeper.merge_key());
        let mut pushed = at(3, 10);
        pushed.stack.push(Val::i32(0));
        assert_ne!(a.merge_key(), pushed.merge_key());
        let mut grown = at(3, 10);
        grown.memories[0].grow(1);
        assert_ne!(a.merge_key(), grown.merge_key());
        let mut table = at(3, 10);
        table.tables.push(Table {
            entries: vec![Some(2)],
            max: None,
        });
        assert_ne!(a.merge_key(), table.merge_key());
    }
}
