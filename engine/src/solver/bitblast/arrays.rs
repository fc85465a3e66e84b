//! Arrays, eliminated by read-over-write expansion.
//!
//! A read through stores, array `ite`s and constant arrays becomes a chain of
//! multiplexers over the stored bytes. What remains are reads of array
//! symbols: each distinct (array, index) pair gets a fresh byte. That equal
//! indices read equal bytes is left to Ackermann axioms, which the caller adds
//! for the pairs of reads that meet in a query.

use super::aig::{Aig, AigLit};
use super::term_bits::TermBits;
use super::words;
use crate::expr::{Node, SymbolId, TermId, TermStore, ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH};
use rustc_hash::FxHashMap;

pub type Index = [AigLit; ARRAY_INDEX_WIDTH as usize];
pub type Byte = [AigLit; ARRAY_VALUE_WIDTH as usize];

/// Position of a read in [`ArrayReads`].
pub type ReadId = u32;

/// A read of an array symbol: `value` is a byte of fresh inputs.
pub struct Read {
    pub array: SymbolId,
    pub index: Index,
    pub value: Byte,
}

impl Read {
    pub fn has_constant_index(&self) -> bool {
        self.index.iter().all(|l| l.as_constant().is_some())
    }
}

#[derive(Default)]
pub struct ArrayReads {
    reads: Vec<Read>,
    by_key: FxHashMap<(SymbolId, Index), ReadId>,
}

/// Work of [`ArrayReads::select`], done from a stack instead of recursion
/// because store chains can be very long.
enum Step {
    /// Push the value of this array at the index.
    Read(TermId),
    /// Replace the top value `v` by `if hit { stored } else { v }`.
    Store { hit: AigLit, stored: TermId },
    /// Replace the top two values by `if cond { lower } else { upper }` and
    /// remember it for this `ite` term.
    Join { ite: TermId, cond: AigLit },
}

impl ArrayReads {
    pub fn read(&self, id: ReadId) -> &Read {
        &self.reads[id as usize]
    }

    /// The byte that `array` holds at `index`. Appends to `reads` the reads of
    /// array symbols it depends on.
    pub fn select(
        &mut self,
        aig: &mut Aig,
        store: &TermStore,
        bits: &TermBits,
        array: TermId,
        index: &Index,
        reads: &mut Vec<ReadId>,
    ) -> Byte {
        // Values of `ite` terms already read at this index: an array term can
        // be shared by both branches of several `ite`s.
        let mut done: FxHashMap<TermId, Byte> = FxHashMap::default();
        let mut values: Vec<Byte> = Vec::new();
        let mut steps = vec![Step::Read(array)];
        while let Some(step) = steps.pop() {
            match step {
                Step::Read(top) => {
                    // Walk down the stores; each one that may match the index
                    // leaves a multiplexer to apply once the value below is known.
                    let mut t = top;
                    loop {
                        match *store.node(t) {
                            Node::Store(below, i, v) => {
                                let hit = words::eq(aig, bits.word(i), index);
                                if hit == AigLit::TRUE {
                                    values.push(byte(bits.word(v)));
                                    break;
                                }
                                if hit != AigLit::FALSE {
                                    steps.push(Step::Store { hit, stored: v });
                                }
                                t = below;
                            }
                            Node::Ite(c, then_array, else_array) => {
                                let cond = bits.word(c)[0];
                                match cond.as_constant() {
                                    Some(true) => t = then_array,
                                    Some(false) => t = else_array,
                                    None => {
                                        if let Some(v) = done.get(&t) {
                                            values.push(*v);
                                        } else {
                                            steps.push(Step::Join { ite: t, cond });
                                            steps.push(Step::Read(else_array));
                                            steps.push(Step::Read(then_array));
                                        }
                                        break;
                                    }
                                }
                            }
                            Node::ConstArray(v) => {
                                values.push(byte(bits.word(v)));
                                break;
                            }
                            Node::Symbol(s) => {
                                let id = self.read_symbol(aig, s, index);
                                reads.push(id);
                                values.push(self.read(id).value);
                                break;
                            }
                            ref other => unreachable!("{other:?} is not array-sorted"),
                        }
                    }
                }
                Step::Store { hit, stored } => {
                    let below = pop(&mut values);
                    values.push(mux(aig, hit, &byte(bits.word(stored)), &below));
                }
                Step::Join { ite, cond } => {
                    let else_value = pop(&mut values);
                    let then_value = pop(&mut values);
                    let v = mux(aig, cond, &then_value, &else_value);
                    done.insert(ite, v);
                    values.push(v);
                }
            }
        }
        pop(&mut values)
    }

    /// The read of array symbol `array` at `index`, made once per distinct index.
    fn read_symbol(&mut self, aig: &mut Aig, array: SymbolId, index: &Index) -> ReadId {
        if let Some(&id) = self.by_key.get(&(array, *index)) {
            return id;
        }
        let id = ReadId::try_from(self.reads.len()).expect("more than 2^32 array reads");
        self.by_key.insert((array, *index), id);
        self.reads.push(Read {
            array,
            index: *index,
            value: std::array::from_fn(|_| aig.input()),
        });
        id
    }
}

/// The stack discipline of `select` leaves a value wherever one is popped.
fn pop(values: &mut Vec<Byte>) -> Byte {
    values.pop().expect("a value below every step")
}

/// A well-sorted byte term's bits.
fn byte(bits: &[AigLit]) -> Byte {
    let mut b = [AigLit::FALSE; ARRAY_VALUE_WIDTH as usize];
    b.copy_from_slice(bits);
    b
}

fn mux(aig: &mut Aig, c: AigLit, t: &Byte, e: &Byte) -> Byte {
    std::array::from_fn(|i| aig.mux(c, t[i], e[i]))
}
