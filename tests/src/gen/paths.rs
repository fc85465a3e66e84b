//! Query sequences shaped like a symbolic executor's, for the benchmark.
//!
//! The "program" reads a symbolic input buffer (`input`: bytes at constant
//! indices, little-endian 32-bit words) and two parameters, and branches on
//! conditions over them: byte ranges, masks, magic numbers, word arithmetic
//! at 32 and 64 bits, table lookups and reads at symbolic indices. Its branch
//! tree is explored the way a concolic executor does: a concrete input picks
//! each path, and at every branch first reached the executor asks
//! `pc ∧ cond` and `pc ∧ ¬cond`. Consecutive queries share path prefixes, and
//! every path condition is satisfiable (its concrete input satisfies it).

use super::interesting_value;
use crate::rng::Rng;
use std::collections::HashMap;
use std::rc::Rc;
use symplay_engine::expr::{
    ArrayValue, BvBinOp, BvCmp, Model, Node, Sort, SymbolId, TermId, TermStore, Value,
    ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH,
};

/// Bytes of `input` the program reads at constant indices.
const INPUT_BYTES: u32 = 24;
/// Branches on each path.
const PATH_DEPTH: usize = 12;
/// Concrete inputs tried before giving up on reaching the requested count.
const MAX_PATHS: usize = 10_000;
/// The leading bytes (a header) that most conditions test, so that
/// conditions on one path constrain each other and some branches are
/// infeasible, as in real parsers.
const HOT_BYTES: usize = 4;
/// Percentage of conditions on the header rather than anywhere in the input.
const HOT_PERCENT: u64 = 60;
/// Percentage of conditions that test a value an earlier branch on the path
/// compared against a bound.
const RETEST_PERCENT: u64 = 40;
/// Contents of the program's lookup table.
const TABLE: [u64; 16] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];

/// At least `min_queries` queries (when the branch tree has that many) in the
/// order a symbolic executor asks them; each is a conjunction of constraints.
pub fn symex_queries(store: &mut TermStore, rng: &mut Rng, min_queries: usize) -> Vec<Vec<TermId>> {
    let mut program = Program::new(store);
    let mut queries = Vec::new();
    for _ in 0..MAX_PATHS {
        if queries.len() >= min_queries {
            break;
        }
        let input = program.random_input(rng);
        program.explore(store, rng, &input, &mut queries);
    }
    queries
}

/// The symbolic inputs, the words built from them, and the branch tree,
/// whose conditions are drawn the first time a path reaches them.
struct Program {
    input: TermId,
    input_symbol: SymbolId,
    arg32: TermId,
    arg32_symbol: SymbolId,
    arg64: TermId,
    arg64_symbol: SymbolId,
    bytes: Vec<TermId>,
    words: Vec<TermId>,
    /// A constant array with stores, read at symbolic indices.
    table: TermId,
    /// Branch conditions by the directions taken to reach them.
    branches: HashMap<Vec<bool>, TermId>,
}

impl Program {
    fn new(store: &mut TermStore) -> Program {
        let mut declare = |name: &str, sort| {
            let term = store.declare(name, sort).expect("one declaration per name");
            let symbol = store.symbol_named(name).expect("just declared");
            (term, symbol)
        };
        let (input, input_symbol) = declare("input", Sort::Array);
        let (arg32, arg32_symbol) = declare("arg0", Sort::Bv(32));
        let (arg64, arg64_symbol) = declare("arg1", Sort::Bv(64));
        let bytes: Vec<TermId> = (0..INPUT_BYTES)
            .map(|i| {
                let index = store.bv_const(ARRAY_INDEX_WIDTH, u64::from(i));
                store.select(input, index)
            })
            .collect();
        let words = bytes
            .chunks(4)
            .map(|b| {
                let high = store.concat(b[3], b[2]);
                let high = store.concat(high, b[1]);
                store.concat(high, b[0])
            })
            .collect();
        let zero = store.bv_const(ARRAY_VALUE_WIDTH, 0);
        let mut table = store.const_array(zero);
        for (i, &v) in TABLE.iter().enumerate() {
            let index = store.bv_const(ARRAY_INDEX_WIDTH, i as u64);
            let value = store.bv_const(ARRAY_VALUE_WIDTH, v);
            table = store.store(table, index, value);
        }
        Program {
            input,
            input_symbol,
            arg32,
            arg32_symbol,
            arg64,
            arg64_symbol,
            bytes,
            words,
            table,
            branches: HashMap::new(),
        }
    }

    /// A concrete input: bytes that are random, small or printable, and
    /// parameters biased to edge values.
    fn random_input(&self, rng: &mut Rng) -> Model {
        let mut buffer = ArrayValue::default();
        for i in 0..INPUT_BYTES {
            let byte = match rng.below(4) {
                0 | 1 => rng.below(256),
                2 => rng.below(16),
                _ => rng.range(u64::from(b'0'), u64::from(b'z')),
            };
            buffer.set(i, byte as u8);
        }
        let mut model = Model::new();
        model.set(self.input_symbol, Value::Array(Rc::new(buffer)));
        let bv = |width, value| Value::Bv { width, value };
        model.set(self.arg32_symbol, bv(32, interesting_value(rng, 32)));
        model.set(self.arg64_symbol, bv(64, interesting_value(rng, 64)));
        model
    }

    /// Follows the path `input` takes, adding the two queries of every branch
    /// reached for the first time.
    fn explore(
        &mut self,
        store: &mut TermStore,
        rng: &mut Rng,
        input: &Model,
        queries: &mut Vec<Vec<TermId>>,
    ) {
        let mut pc: Vec<TermId> = Vec::new();
        let mut path: Vec<bool> = Vec::new();
        for _ in 0..PATH_DEPTH {
            let cond = match self.branches.get(&path) {
                Some(&cond) => cond,
                None => {
                    let cond = self.condition(store, rng, &pc);
                    self.branches.insert(path.clone(), cond);
                    let not_cond = store.not(cond);
                    for side in [cond, not_cond] {
                        let mut query = pc.clone();
                        query.push(side);
                        queries.push(query);
                    }
                    cond
                }
            };
            let taken = store.eval(cond, input) == Value::Bool(true);
            pc.push(if taken { cond } else { store.not(cond) });
            path.push(taken);
        }
    }

    /// A branch condition of one of the shapes programs test inputs with,
    /// for a branch reached under `pc`.
    fn condition(&self, store: &mut TermStore, rng: &mut Rng, pc: &[TermId]) -> TermId {
        // Programs test a value again against another bound; given the first
        // test, one side of the second is often infeasible.
        let retestable = bounded_terms(store, pc);
        if !retestable.is_empty() && rng.chance(RETEST_PERCENT) {
            let term = rng.pick(&retestable);
            let bound = self.threshold(store, rng, term);
            return store.cmp(rng.pick(&BvCmp::ALL), term, bound);
        }
        let byte = hot_pick(rng, &self.bytes);
        let word = hot_pick(rng, &self.words);
        let other_word = hot_pick(rng, &self.words);
        match rng.below(10) {
            // Byte range checks, signed or not.
            0 | 1 => {
                let op = rng.pick(&BvCmp::ALL);
                let bound = self.threshold(store, rng, byte);
                if rng.chance(50) {
                    store.cmp(op, byte, bound)
                } else {
                    store.cmp(op, bound, byte)
                }
            }
            // Flag tests: one bit or one byte of a word.
            2 => {
                let shift = rng.below(32);
                let m = if rng.chance(50) {
                    1 << shift
                } else {
                    0xff << (shift / 8 * 8)
                };
                let m = store.bv_const(32, m);
                let masked = store.bin(BvBinOp::And, word, m);
                let zero = store.bv_const(32, 0);
                store.eq(masked, zero)
            }
            // Magic numbers and characters.
            3 => {
                if rng.chance(50) {
                    let magic = store.bv_const(32, rng.next_u64());
                    store.eq(word, magic)
                } else {
                    let c = store.bv_const(8, rng.range(u64::from(b'A'), u64::from(b'Z')));
                    store.eq(byte, c)
                }
            }
            // Word arithmetic: a checksum-like sum against a bound.
            4 => {
                let factor = store.bv_const(32, rng.pick(&[3, 5, 31, 0x101]));
                let scaled = store.bin(BvBinOp::Mul, other_word, factor);
                let sum = store.bin(rng.pick(&[BvBinOp::Add, BvBinOp::Sub]), word, scaled);
                let bound = self.threshold(store, rng, sum);
                store.cmp(BvCmp::Ult, sum, bound)
            }
            // Bit twiddling: xor, shifts, then a masked compare.
            5 => {
                let mixed = store.bin(BvBinOp::Xor, word, other_word);
                let amount = store.bv_const(32, rng.range(1, 24));
                let op = rng.pick(&[BvBinOp::Shl, BvBinOp::Lshr, BvBinOp::Ashr]);
                let shifted = store.bin(op, mixed, amount);
                let low = store.extract(7, 0, shifted);
                let c = self.threshold(store, rng, low);
                store.eq(low, c)
            }
            // 64-bit arithmetic after zero or sign extension.
            6 => {
                let a = store.zero_ext(32, word);
                let b = store.sign_ext(32, other_word);
                let combined = if rng.chance(50) {
                    store.bin(BvBinOp::Mul, a, b)
                } else {
                    let sum = store.bin(BvBinOp::Add, a, b);
                    store.bin(BvBinOp::Add, sum, self.arg64)
                };
                let bound = self.threshold(store, rng, combined);
                let op = rng.pick(&[BvCmp::Ult, BvCmp::Slt]);
                store.cmp(op, combined, bound)
            }
            // Table lookup at an index taken from the input.
            7 => {
                let index = self.nibble_index(store, byte);
                let entry = store.select(self.table, index);
                let c = store.bv_const(8, rng.pick(&TABLE));
                store.eq(entry, c)
            }
            // A read of the input at an index taken from the input.
            8 => {
                let index = self.nibble_index(store, byte);
                let read = store.select(self.input, index);
                let other = hot_pick(rng, &self.bytes);
                store.eq(read, other)
            }
            // The parameters against the input, including a remainder.
            _ => {
                if rng.chance(50) {
                    store.cmp(BvCmp::Slt, self.arg32, word)
                } else {
                    let divisor = store.bv_const(32, rng.range(3, 17));
                    let rem = store.bin(BvBinOp::Urem, word, divisor);
                    let seven = store.bv_const(32, 7);
                    let low = store.bin(BvBinOp::And, self.arg32, seven);
                    store.eq(rem, low)
                }
            }
        }
    }

    /// `zext(byte & 0xf)`: an index into a 16-entry table.
    fn nibble_index(&self, store: &mut TermStore, byte: TermId) -> TermId {
        let mask = store.bv_const(8, 0xf);
        let nibble = store.bin(BvBinOp::And, byte, mask);
        store.zero_ext(ARRAY_INDEX_WIDTH - 8, nibble)
    }

    /// The value of `term` on another random input, as a constant: comparing
    /// against it splits inputs roughly in half.
    fn threshold(&self, store: &mut TermStore, rng: &mut Rng, term: TermId) -> TermId {
        let sample = self.random_input(rng);
        let width = store.width(term);
        let value = store.eval(term, &sample).as_bv().expect("bit-vector term");
        store.bv_const(width, value)
    }
}

/// The terms that conditions in `pc` compare against a constant.
fn bounded_terms(store: &TermStore, pc: &[TermId]) -> Vec<TermId> {
    pc.iter()
        .filter_map(|&c| {
            let c = match *store.node(c) {
                Node::Not(inner) => inner,
                _ => c,
            };
            match *store.node(c) {
                Node::BvCmp(_, a, b) if store.as_bv_const(b).is_some() => Some(a),
                Node::BvCmp(_, a, b) if store.as_bv_const(a).is_some() => Some(b),
                _ => None,
            }
        })
        .collect()
}

/// An element of `items`, usually one of the first [`HOT_BYTES`] bytes' worth.
fn hot_pick(rng: &mut Rng, items: &[TermId]) -> TermId {
    let hot = (HOT_BYTES * items.len() / INPUT_BYTES as usize).max(1);
    if rng.chance(HOT_PERCENT) {
        rng.pick(&items[..hot])
    } else {
        rng.pick(items)
    }
}
