//! One path's state: call frames, operand stack, the store's globals,
//! memories and tables, path condition and the symbolic inputs created so far,
//! and its node in the execution tree. What two states must share to be
//! merged is their [`MergeKey`].
//!
//! A fork ([`State::fork`]) shares what it can with the state it was forked
//! from: memory is a persistent trie, the path condition a [`Chain`](chain::Chain) of
//! links frozen at forks, and the parts written rarely (inputs, notes,
//! output, tables) sit behind [`Rc`] until a write copies them
//! (`Rc::make_mut`). Frames, operands and globals, which nearly every
//! step writes, are copied.

mod branches;
mod chain;
mod condition;
mod merge;
pub mod value;

use crate::expr::TermId;
use crate::memory::{DeadStack, MemoryModel};
use crate::search::Pending;
pub use branches::{Branches, Taken, MAX_BRANCHES, MERGED_SIDE};
pub use condition::PathCondition;
pub use merge::{MergeMode, MergeOptions, MergeProgress, Slot, MAX_MERGED_STATES};
use std::collections::BTreeMap;
use std::rc::Rc;
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
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// The store of every instance is part of the state: a fork shares it (the
/// parts behind `Rc` are copied by the first write), and instances address
/// it through their links.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub frames: Vec<Frame>,
    pub stack: Vec<Val>,
    pub globals: Vec<Val>,
    pub memories: Vec<MemoryModel>,
    /// The C stack variables of the frames that have returned.
    pub dead_stack: DeadStack,
    pub tables: Rc<Vec<Table>>,
    /// Per instance, per segment: dropped (by `data.drop`, or instantiation).
    pub dropped_data: Rc<Vec<Vec<bool>>>,
    pub dropped_elems: Rc<Vec<Vec<bool>>>,
    pub condition: PathCondition,
    pub inputs: Rc<Vec<Input>>,
    /// How often each input name was used, for unique names (`x`, `x#2`).
    pub name_uses: Rc<BTreeMap<String, u32>>,
    pub notes: Rc<Vec<String>>,
    /// What this path made concrete, and where (function, pc).
    pub concretised: Rc<Vec<(String, (u32, u32))>>,
    pub stdout: Rc<Vec<u8>>,
    pub stderr: Rc<Vec<u8>>,
    /// The execution-tree node this state is in.
    pub node: usize,
    /// Forks on this path so far.
    pub depth: u32,
    /// The merging context this state belongs to while it runs a loop
    /// whose states wait for each other at its exits.
    pub merging: Option<u32>,
    /// The branches it took inside that loop, for the regular patterns of
    /// the states that merge there.
    pub branches: Branches,
    /// Whether it stands where incremental merging looks and has not yet:
    /// on the side of a fork it just took, or just come to its loop's
    /// head (the seed's snapshots at basic blocks' entries).
    pub at_merge_point: bool,
    /// Function and pc of the instruction executing (or last executed).
    pub at: (u32, u32),
    /// Where the path returned, bit `i` set when result `i` was a pointer
    /// to a heap block (a term over a base symbol, under `--bases
    /// symbolic`) before it was made a number: the report says where it
    /// points.
    pub pointer_results: u64,
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
            tables: self.tables.to_vec(),
            dead_stack: self.dead_stack.clone(),
        }
    }

    /// The path condition as it is at a fork, shared with this state from
    /// here on (what a merge puts its disjunction after).
    pub fn condition_at_fork(&mut self) -> PathCondition {
        self.condition.freeze();
        self.condition.clone()
    }

    /// A copy of this state for another side of a fork, sharing all but
    /// the frames, operands and globals with it.
    pub fn fork(&mut self) -> State {
        self.condition.freeze();
        self.clone()
    }

    pub(crate) fn add_input(&mut self, input: Input) {
        Rc::make_mut(&mut self.inputs).push(input);
    }

    /// The tables, this state's own from here on.
    pub(crate) fn tables_mut(&mut self) -> &mut Vec<Table> {
        Rc::make_mut(&mut self.tables)
    }

    /// Per instance, per data segment: dropped; this state's own from here on.
    pub(crate) fn dropped_data_mut(&mut self) -> &mut Vec<Vec<bool>> {
        Rc::make_mut(&mut self.dropped_data)
    }

    /// Per instance, per element segment: dropped; this state's own from
    /// here on.
    pub(crate) fn dropped_elems_mut(&mut self) -> &mut Vec<Vec<bool>> {
        Rc::make_mut(&mut self.dropped_elems)
    }

    /// What the program wrote to file descriptor 1 (`stderr` false) or 2,
    /// this state's own from here on.
    pub(crate) fn output_mut(&mut self, stderr: bool) -> &mut Vec<u8> {
        Rc::make_mut(if stderr {
            &mut self.stderr
        } else {
            &mut self.stdout
        })
    }

    /// A warning for the path's report.
    pub(crate) fn note(&mut self, text: String) {
        Rc::make_mut(&mut self.notes).push(text);
    }

    /// Records that the path made `what` concrete at `at`.
    pub(crate) fn mark_concretised(&mut self, what: String, at: (u32, u32)) {
        Rc::make_mut(&mut self.concretised).push((what, at));
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
    /// memory since it was forked, the parts a fork copies, and those it
    /// shares no more.
    pub fn own_bytes(&self) -> u64 {
        let memory: usize = self.memories.iter().map(MemoryModel::own_bytes).sum();
        let rest = self.copied_bytes() + self.condition.own_bytes() + self.rc_bytes(Held::Own);
        (memory + rest) as u64
    }

    /// Rough bytes of the parts of the state a fork copies: frames,
    /// operands and globals.
    fn copied_bytes(&self) -> usize {
        let value = std::mem::size_of::<Val>();
        let frames: usize = self
            .frames
            .iter()
            .map(|f| f.locals.len() * value + std::mem::size_of::<Frame>())
            .sum();
        frames + (self.stack.len() + self.globals.len()) * value
    }

    /// Rough bytes of the parts behind `Rc`: inputs, names, notes, output,
    /// tables and dropped segments, as `held` counts them.
    fn rc_bytes(&self, held: Held) -> usize {
        use std::mem::size_of;
        let input = |i: &Input| {
            size_of::<Input>()
                + match i {
                    Input::Bytes { bytes, .. } | Input::SizedBytes { bytes, .. } => {
                        bytes.len() * size_of::<TermId>()
                    }
                    Input::Arg { .. } | Input::Int { .. } => 0,
                }
        };
        let text = |t: &String| size_of::<String>() + t.len();
        let table = |t: &Table| size_of::<Table>() + t.entries.len() * size_of::<Option<u32>>();
        let dropped = |d: &Rc<Vec<Vec<bool>>>| {
            held.of(d, || {
                d.iter().map(|s| size_of::<Vec<bool>>() + s.len()).sum()
            })
        };
        held.of(&self.inputs, || self.inputs.iter().map(input).sum())
            + held.of(&self.name_uses, || {
                self.name_uses
                    .keys()
                    .map(|k| text(k) + size_of::<u32>())
                    .sum()
            })
            + held.of(&self.notes, || self.notes.iter().map(text).sum())
            + held.of(&self.concretised, || {
                self.concretised.iter().map(|(c, _)| text(c) + 8).sum()
            })
            + held.of(&self.stdout, || self.stdout.len())
            + held.of(&self.stderr, || self.stderr.len())
            + held.of(&self.tables, || self.tables.iter().map(table).sum())
            + dropped(&self.dropped_data)
            + dropped(&self.dropped_elems)
    }

    /// A unique input name on this path: `name`, then `name#2`, `name#3`...
    pub fn unique_name(&mut self, name: &str) -> String {
        let uses = Rc::make_mut(&mut self.name_uses)
            .entry(name.to_string())
            .or_insert(0);
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

    /// A rough size in bytes, for the memory limit: a part that `n`
    /// states share counts `1 / n` in each, so the states' figures add up
    /// to what they hold together.
    fn estimated_bytes(&self) -> u64 {
        let memory: usize = self.memories.iter().map(MemoryModel::heap_bytes).sum();
        let rest =
            self.copied_bytes() + self.condition.shared_bytes() + self.rc_bytes(Held::Shared);
        (memory + rest) as u64
    }
}

/// How a state counts a part behind `Rc` that others may share.
#[derive(Clone, Copy)]
enum Held {
    /// All of it while no other state holds it, else nothing.
    Own,
    /// Its share: `1 / n` of it when `n` states hold it.
    Shared,
}

impl Held {
    /// What `part`, of `bytes`, counts for one of its holders.
    fn of<T>(self, part: &Rc<T>, bytes: impl FnOnce() -> usize) -> usize {
        let holders = Rc::strong_count(part);
        match self {
            Held::Own if holders > 1 => 0,
            Held::Own => bytes(),
            Held::Shared => bytes() / holders,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvBinOp, BvCmp, Sort, TermStore};
    use crate::limits::Limits;
    use crate::solver::{Beside, Solver};

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
        table.tables_mut().push(Table {
            entries: vec![Some(2)],
            max: None,
        });
        assert_ne!(a.merge_key(), table.merge_key());
    }

    /// A state with something in every part a fork shares, and its terms.
    fn full() -> (State, TermStore) {
        let mut terms = TermStore::new();
        let mut s = at(0, 0);
        let x = terms.declare("x", Sort::Bv(32)).unwrap();
        let five = terms.bv_const(32, 5);
        let fact = terms.eq(x, five);
        let small = terms.cmp(BvCmp::Ult, x, five);
        let limits = Limits::default();
        let Beside::Sat(witness) =
            Solver::default().check_beside_within(&mut terms, &[], &[small], &limits)
        else {
            panic!("x < 5 holds");
        };
        s.condition.assume(&mut terms, small, Some(witness));
        s.condition.assume(&mut terms, fact, None);
        let name = s.unique_name("x");
        s.add_input(Input::Int {
            name,
            width: 32,
            term: x,
        });
        s.note("a note".into());
        s.mark_concretised("a value".into(), (0, 1));
        s.output_mut(false).extend(b"out");
        s.output_mut(true).extend(b"err");
        s.tables_mut().push(Table {
            entries: vec![None; 4],
            max: None,
        });
        s.dropped_data_mut().push(vec![false; 2]);
        s.dropped_elems_mut().push(vec![false; 2]);
        (s, terms)
    }

    /// Whether `a` and `b` hold the same allocation of each shared part.
    fn shared_parts(a: &State, b: &State) -> [bool; 10] {
        [
            a.condition.shares_with(&b.condition),
            Rc::ptr_eq(&a.inputs, &b.inputs),
            Rc::ptr_eq(&a.name_uses, &b.name_uses),
            Rc::ptr_eq(&a.notes, &b.notes),
            Rc::ptr_eq(&a.concretised, &b.concretised),
            Rc::ptr_eq(&a.stdout, &b.stdout),
            Rc::ptr_eq(&a.stderr, &b.stderr),
            Rc::ptr_eq(&a.tables, &b.tables),
            Rc::ptr_eq(&a.dropped_data, &b.dropped_data),
            Rc::ptr_eq(&a.dropped_elems, &b.dropped_elems),
        ]
    }

    #[test]
    fn a_fork_shares_every_part_until_one_side_writes_it() {
        let (mut a, mut terms) = full();
        let before = a.condition.constraints();
        let mut b = a.fork();
        assert_eq!(shared_parts(&a, &b), [true; 10]);
        let y = terms.declare("y", Sort::Bv(32)).unwrap();
        let zero = terms.bv_const(32, 0);
        let new = terms.eq(y, zero);
        b.condition.assume(&mut terms, new, None);
        b.unique_name("x");
        b.note("another".into());
        b.output_mut(false).push(b'!');
        b.tables_mut()[0].entries[0] = Some(1);
        b.dropped_data_mut()[0][1] = true;
        assert_eq!(
            shared_parts(&a, &b),
            [true, true, false, false, true, false, true, false, false, true],
            "what b wrote is its own, the rest still shared"
        );
        // None of it shows in a.
        assert_eq!(a.condition.constraints(), before);
        assert_eq!(a.condition.fact(y), None);
        assert_eq!(b.condition.fact(y), Some(zero));
        assert_eq!(a.unique_name("x"), "x#2");
        assert_eq!(*a.notes, ["a note"]);
        assert_eq!(*a.stdout, b"out");
        assert_eq!(a.tables[0].entries[0], None);
        assert_eq!(a.dropped_data[0], [false, false]);
        assert_eq!(b.condition.constraints()[..before.len()], before[..]);
    }

    #[test]
    fn a_fresh_fork_owns_little_and_pays_for_what_it_adds() {
        let (mut a, mut terms) = full();
        let held_alone = a.own_bytes();
        let mut b = a.fork();
        // Frames, operands and globals only: the rest is shared.
        let copied = b.copied_bytes() as u64;
        assert_eq!(b.own_bytes(), copied);
        assert_eq!(a.own_bytes(), copied);
        assert!(held_alone > copied + 100, "{held_alone} against {copied}");
        let y = terms.declare("y", Sort::Bv(32)).unwrap();
        let zero = terms.bv_const(32, 0);
        let new = terms.eq(y, zero);
        b.condition.assume(&mut terms, new, None);
        let with_constraint = b.own_bytes();
        assert!(with_constraint > copied && with_constraint < copied + 200);
        // A note copies the notes: b pays for all of them, a for none.
        b.note("x".repeat(1000));
        assert!(b.own_bytes() >= with_constraint + 1000);
        // a holds its notes alone now.
        let notes = std::mem::size_of::<String>() + "a note".len();
        assert_eq!(a.own_bytes(), copied + notes as u64);
    }

    #[test]
    fn the_memory_limit_counts_what_forks_share_once() {
        let (mut a, _) = full();
        a.note("x".repeat(10_000));
        let alone = a.estimated_bytes();
        let b = a.fork();
        let together = a.estimated_bytes() + b.estimated_bytes();
        // The copied frames count twice, and the links the fork froze the
        // path condition in are new; the notes (and the rest) count once.
        let copied = a.copied_bytes() as u64;
        assert!(
            together <= alone + copied + 200,
            "{together} against {alone}"
        );
        assert!(together >= alone);
    }

    #[test]
    fn the_witnesses_of_a_path_make_a_model_of_its_condition() {
        let mut terms = TermStore::new();
        let input = terms.declare("input", Sort::Array).unwrap();
        let x = terms.declare("x", Sort::Bv(8)).unwrap();
        let mut solver = Solver::default();
        let limits = Limits::default();
        let mut s = at(0, 0);
        let mut forks = Vec::new();
        // Conditions on eight bytes of `input` and on `x`, some tying `x`
        // to a byte, each added beside the ones before with its witness.
        for k in 0..48u64 {
            let at = terms.bv_const(32, k % 8);
            let byte = terms.select(input, at);
            let c = match k % 4 {
                0 => {
                    let bound = terms.bv_const(8, 5 * k + 10);
                    terms.cmp(BvCmp::Ult, byte, bound)
                }
                1 => {
                    let value = terms.bv_const(8, k);
                    let equal = terms.eq(byte, value);
                    terms.not(equal)
                }
                2 => {
                    let sum = terms.bin(BvBinOp::Add, x, byte);
                    let value = terms.bv_const(8, 3 * k);
                    terms.eq(sum, value)
                }
                _ => {
                    let bound = terms.bv_const(8, 200 - k);
                    terms.cmp(BvCmp::Ult, x, bound)
                }
            };
            let known = s.condition.constraints();
            let Beside::Sat(witness) =
                solver.check_beside_within(&mut terms, &known, &[c], &limits)
            else {
                continue;
            };
            s.condition.assume(&mut terms, c, Some(witness));
            if k % 3 == 0 {
                forks.push(s.fork());
            }
        }
        // A read at a symbolic index depends on every byte of `input`; the
        // byte conditions after it join its slice.
        let y = terms.declare("y", Sort::Bv(32)).unwrap();
        let anywhere = terms.select(input, y);
        let three = terms.bv_const(8, 3);
        let at_y = terms.eq(anywhere, three);
        let one = terms.bv_const(32, 1);
        let first = terms.select(input, one);
        let not_three = terms.eq(first, three);
        let not_three = terms.not(not_three);
        for c in [at_y, not_three] {
            let known = s.condition.constraints();
            let Beside::Sat(witness) =
                solver.check_beside_within(&mut terms, &known, &[c], &limits)
            else {
                panic!("satisfiable");
            };
            s.condition.assume(&mut terms, c, Some(witness));
            forks.push(s.fork());
        }
        let all = s.condition.constraints();
        assert!(all.len() > 30, "{} constraints held", all.len());
        let model = s.condition.model().expect("every constraint has a witness");
        assert!(terms.satisfies(&all, &model));
        for fork in &forks {
            let model = fork.condition.model().expect("witnessed");
            assert!(terms.satisfies(&fork.condition.constraints(), &model));
        }
        // A constraint added without one leaves the solver to find a model.
        let zero = terms.bv_const(8, 0);
        let pinned = terms.eq(x, zero);
        s.condition.assume(&mut terms, pinned, None);
        assert_eq!(s.condition.model(), None);
        assert!(forks[0].condition.model().is_some());
    }

    #[test]
    fn a_path_whose_slices_keep_growing_stops_keeping_witnesses() {
        let mut terms = TermStore::new();
        let input = terms.declare("input", Sort::Array).unwrap();
        let mut solver = Solver::default();
        let limits = Limits::default();
        let mut s = at(0, 0);
        let byte = |terms: &mut TermStore, k: u64| {
            let at = terms.bv_const(32, k);
            terms.select(input, at)
        };
        // Byte k differs from byte k - 1: each slice holds every byte so far,
        // so the witnesses' atoms grow as the square of the path's length.
        let mut held = 0;
        for k in 1..120u64 {
            let (a, b) = (byte(&mut terms, k), byte(&mut terms, k - 1));
            let equal = terms.eq(a, b);
            let c = terms.not(equal);
            let known = s.condition.constraints();
            let Beside::Sat(witness) =
                solver.check_beside_within(&mut terms, &known, &[c], &limits)
            else {
                panic!("satisfiable");
            };
            held += witness.atoms();
            s.condition.assume(&mut terms, c, Some(witness));
            let model = s.condition.model();
            assert_eq!(model.is_some(), held <= 4096, "after {k} constraints");
            if let Some(model) = model {
                assert!(terms.satisfies(&s.condition.constraints(), &model));
            }
        }
        assert!(held > 4096);
    }

    #[test]
    fn the_path_condition_keeps_its_order_across_forks() {
        let mut terms = TermStore::new();
        let mut s = at(0, 0);
        let mut expected = Vec::new();
        let mut forks = Vec::new();
        for k in 0..300u64 {
            let x = terms.declare(&format!("x{}", k % 7), Sort::Bv(32)).unwrap();
            let value = terms.bv_const(32, k);
            let c = terms.eq(x, value);
            s.condition.assume(&mut terms, c, None);
            expected.push(c);
            // Forks at irregular steps, some kept alive, some dropped.
            if k % 3 != 1 {
                let fork = s.fork();
                if k % 5 == 0 {
                    forks.push((fork, expected.clone()));
                }
            }
        }
        assert_eq!(s.condition.constraints(), expected);
        for (fork, theirs) in &forks {
            assert_eq!(&fork.condition.constraints(), theirs);
        }
        // The first fact of a symbol holds, as in the path condition.
        for k in 0..7 {
            let x = terms.declare(&format!("x{k}"), Sort::Bv(32)).unwrap();
            assert_eq!(s.condition.fact(x), Some(terms.bv_const(32, k)));
        }
    }
}
