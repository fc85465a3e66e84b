//! Randomized soundness: random well-sorted terms keep their value under
//! random models after simplification.

use super::{Simplifier, SplitMix64};
use crate::expr::{
    mask, ArrayValue, BvBinOp, BvCmp, BvUnOp, Model, Node, Sort, TermId, TermStore, Value,
    ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH, MAX_WIDTH,
};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Random terms and models over a few symbols of each sort.
pub(super) struct TermGen {
    pub(super) rng: SplitMix64,
    /// Widths that have symbols and that comparisons and equalities use.
    widths: Vec<u8>,
    bools: Vec<TermId>,
    bvs: FxHashMap<u8, Vec<TermId>>,
    arrays: Vec<TermId>,
    /// Terms built so far, by sort: reusing them makes equal operands
    /// (`x - x`, `a and not a`) common.
    built: FxHashMap<Sort, Vec<TermId>>,
}

impl TermGen {
    /// Declares symbols of every width in `widths` and of the array sorts.
    pub(super) fn new(seed: u64, store: &mut TermStore, widths: &[u8]) -> TermGen {
        let mut widths = widths.to_vec();
        widths.extend([ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH]);
        widths.sort_unstable();
        widths.dedup();
        let mut declare = |name: String, sort| store.declare(&name, sort).unwrap();
        let bools = (0..3)
            .map(|k| declare(format!("p{k}"), Sort::Bool))
            .collect();
        let bvs = widths
            .iter()
            .map(|&w| {
                let symbols = (0..2)
                    .map(|k| declare(format!("v{w}_{k}"), Sort::Bv(w)))
                    .collect();
                (w, symbols)
            })
            .collect();
        let arrays = (0..2)
            .map(|k| declare(format!("m{k}"), Sort::Array))
            .collect();
        TermGen {
            rng: SplitMix64(seed),
            widths,
            bools,
            bvs,
            arrays,
            built: FxHashMap::default(),
        }
    }

    /// A term of a random sort.
    pub(super) fn any_term(&mut self, s: &mut TermStore, depth: u32) -> TermId {
        match self.rng.below(10) {
            0..=3 => self.bool_term(s, depth),
            4 => self.array_term(s, depth),
            _ => {
                let width = self.rng.pick(&self.widths);
                self.bv_term(s, width, depth)
            }
        }
    }

    fn remember(&mut self, s: &TermStore, t: TermId) -> TermId {
        self.built.entry(s.sort(t)).or_default().push(t);
        t
    }

    fn reuse(&mut self, sort: Sort) -> Option<TermId> {
        let built = self.built.get(&sort)?;
        let k = self.rng.below(built.len() as u64) as usize;
        built.get(k).copied()
    }

    /// One of the values the rules single out, or a random one.
    pub(super) fn interesting_value(&mut self, width: u8) -> u64 {
        let ones = mask(width);
        let signed_min = 1u64 << (width - 1);
        let candidates = [
            0,
            1,
            2 & ones,
            ones,
            ones - 1,
            signed_min,
            signed_min - 1,
            self.rng.next() & ones,
        ];
        self.rng.pick(&candidates)
    }

    pub(super) fn bv_symbol(&mut self, width: u8) -> Option<TermId> {
        let symbols = self.bvs.get(&width)?;
        let k = self.rng.below(symbols.len() as u64) as usize;
        symbols.get(k).copied()
    }

    pub(super) fn bool_symbol(&mut self) -> TermId {
        self.rng.pick(&self.bools)
    }

    fn bv_leaf(&mut self, s: &mut TermStore, width: u8) -> TermId {
        if self.rng.chance(25) {
            if let Some(t) = self.reuse(Sort::Bv(width)) {
                return t;
            }
        }
        if self.rng.chance(45) {
            let value = self.interesting_value(width);
            return s.bv_const(width, value);
        }
        match self.bv_symbol(width) {
            Some(symbol) => symbol,
            // Widths without symbols slice a wide one.
            None => {
                let wide = self.bv_symbol(ARRAY_INDEX_WIDTH).unwrap();
                let wide = s.zero_ext(MAX_WIDTH - ARRAY_INDEX_WIDTH, wide);
                s.extract(width - 1, 0, wide)
            }
        }
    }

    pub(super) fn bv_term(&mut self, s: &mut TermStore, width: u8, depth: u32) -> TermId {
        if depth == 0 || self.rng.chance(15) {
            return self.bv_leaf(s, width);
        }
        let d = depth - 1;
        let t = match self.rng.below(12) {
            0 => {
                let op = self.rng.pick(&[BvUnOp::Not, BvUnOp::Neg]);
                let a = self.bv_term(s, width, d);
                s.mk(Node::BvUn(op, a))
            }
            1..=4 => {
                let op = self.rng.pick(&BvBinOp::ALL);
                let a = self.bv_term(s, width, d);
                let b = match self.rng.below(6) {
                    0 => a,
                    1 => s.bvnot(a),
                    _ => self.bv_term(s, width, d),
                };
                if self.rng.chance(50) {
                    s.bin(op, a, b)
                } else {
                    s.bin(op, b, a)
                }
            }
            5 => {
                let c = self.bool_term(s, d);
                let (a, b) = (self.bv_term(s, width, d), self.bv_term(s, width, d));
                s.ite(c, a, b)
            }
            6 => {
                let source_width = width + self.rng.below(u64::from(MAX_WIDTH - width) + 1) as u8;
                let source_width = if self.rng.chance(50) {
                    source_width.min(width + 8)
                } else {
                    source_width
                };
                let lo = self.rng.below(u64::from(source_width - width) + 1) as u8;
                let a = self.bv_term(s, source_width, d);
                s.extract(lo + width - 1, lo, a)
            }
            7 if width >= 2 => {
                let high = 1 + self.rng.below(u64::from(width) - 1) as u8;
                let a = self.bv_term(s, high, d);
                let b = self.bv_term(s, width - high, d);
                s.concat(a, b)
            }
            8 => {
                let inner = 1 + self.rng.below(u64::from(width)) as u8;
                let a = self.bv_term(s, inner, d);
                if self.rng.chance(50) {
                    s.zero_ext(width - inner, a)
                } else {
                    s.sign_ext(width - inner, a)
                }
            }
            9 => {
                let amount = self.rng.below(2 * u64::from(width) + 1) as u8;
                let a = self.bv_term(s, width, d);
                if self.rng.chance(50) {
                    s.mk(Node::RotateLeft(amount, a))
                } else {
                    s.mk(Node::RotateRight(amount, a))
                }
            }
            10 => {
                let array = self.array_term(s, d);
                let index = self.index_term(s, d);
                let byte = s.select(array, index);
                match width.cmp(&ARRAY_VALUE_WIDTH) {
                    std::cmp::Ordering::Less => s.extract(width - 1, 0, byte),
                    std::cmp::Ordering::Equal => byte,
                    std::cmp::Ordering::Greater => s.zero_ext(width - ARRAY_VALUE_WIDTH, byte),
                }
            }
            _ => self.bv_leaf(s, width),
        };
        self.remember(s, t)
    }

    pub(super) fn bool_term(&mut self, s: &mut TermStore, depth: u32) -> TermId {
        if depth == 0 || self.rng.chance(15) {
            return match self.rng.below(10) {
                0 => s.bool_const(self.rng.chance(50)),
                1..=3 => self.reuse(Sort::Bool).unwrap_or(self.bools[0]),
                _ => self.bool_symbol(),
            };
        }
        let d = depth - 1;
        let t = match self.rng.below(11) {
            0 => {
                let a = self.bool_term(s, d);
                s.not(a)
            }
            1..=3 => {
                let a = self.bool_term(s, d);
                let b = match self.rng.below(4) {
                    0 => a,
                    1 => s.not(a),
                    _ => self.bool_term(s, d),
                };
                match self.rng.below(3) {
                    0 => s.and(a, b),
                    1 => s.or(a, b),
                    _ => s.xor(a, b),
                }
            }
            4 => {
                let c = self.bool_term(s, d);
                let (a, b) = (self.bool_term(s, d), self.bool_term(s, d));
                s.ite(c, a, b)
            }
            5 => {
                let (a, b) = (self.bool_term(s, d), self.bool_term(s, d));
                s.eq(a, b)
            }
            6 | 7 => {
                let width = self.rng.pick(&self.widths);
                let (a, b) = (self.bv_term(s, width, d), self.bv_term(s, width, d));
                if self.rng.chance(50) {
                    s.eq(a, b)
                } else {
                    s.cmp(self.rng.pick(&BvCmp::ALL), a, b)
                }
            }
            8 => {
                // `ite(c, k1, k2) = k3`, which the rules decide.
                let width = self.rng.pick(&self.widths);
                let c = self.bool_term(s, d);
                let mut constant = |g: &mut TermGen| {
                    let value = g.rng.below(3);
                    s.bv_const(width, value)
                };
                let (k1, k2, k3) = (constant(self), constant(self), constant(self));
                let choice = s.ite(c, k1, k2);
                s.eq(choice, k3)
            }
            _ => {
                // A comparison with a constant the rules single out.
                let width = self.rng.pick(&self.widths);
                let a = self.bv_term(s, width, d);
                let value = self.interesting_value(width);
                let k = s.bv_const(width, value);
                let op = self.rng.pick(&BvCmp::ALL);
                if self.rng.chance(50) {
                    s.cmp(op, a, k)
                } else {
                    s.cmp(op, k, a)
                }
            }
        };
        self.remember(s, t)
    }

    pub(super) fn array_term(&mut self, s: &mut TermStore, depth: u32) -> TermId {
        if depth == 0 || self.rng.chance(20) {
            return match self.rng.below(4) {
                0 => {
                    let byte = self.bv_leaf(s, ARRAY_VALUE_WIDTH);
                    s.const_array(byte)
                }
                1 => self.reuse(Sort::Array).unwrap_or(self.arrays[0]),
                _ => self.rng.pick(&self.arrays),
            };
        }
        let d = depth - 1;
        let t = match self.rng.below(6) {
            0 => {
                let c = self.bool_term(s, d);
                let (a, b) = (self.array_term(s, d), self.array_term(s, d));
                s.ite(c, a, b)
            }
            1 => {
                // Writing back what was read.
                let array = self.array_term(s, d);
                let index = self.index_term(s, d);
                let current = s.select(array, index);
                s.store(array, index, current)
            }
            _ => {
                // Stores nest more often than other terms, to make chains.
                let array = self.array_term(s, depth.min(d + 2));
                let index = self.index_term(s, d);
                let byte = self.bv_term(s, ARRAY_VALUE_WIDTH, d);
                s.store(array, index, byte)
            }
        };
        self.remember(s, t)
    }

    /// An array index, mostly near small constants so reads and writes
    /// often hit the same or provably different addresses.
    fn index_term(&mut self, s: &mut TermStore, depth: u32) -> TermId {
        let small = self.rng.below(4);
        match self.rng.below(6) {
            0 | 1 => s.bv_const(ARRAY_INDEX_WIDTH, small),
            2 => self.bv_symbol(ARRAY_INDEX_WIDTH).unwrap(),
            3 => {
                let base = self.bv_symbol(ARRAY_INDEX_WIDTH).unwrap();
                let offset = s.bv_const(ARRAY_INDEX_WIDTH, small);
                s.bin(BvBinOp::Add, base, offset)
            }
            _ => self.bv_term(s, ARRAY_INDEX_WIDTH, depth.min(2)),
        }
    }

    /// A model for every symbol of `store`, favouring the values the rules
    /// single out and small array indices.
    pub(super) fn model(&mut self, store: &TermStore) -> Model {
        let mut model = Model::new();
        for symbol in store.symbols() {
            let value = match store.symbol_sort(symbol) {
                Sort::Bool => Value::Bool(self.rng.chance(50)),
                Sort::Bv(width) => {
                    let value = if width == ARRAY_INDEX_WIDTH && self.rng.chance(50) {
                        self.rng.below(6)
                    } else {
                        self.interesting_value(width)
                    };
                    Value::Bv { width, value }
                }
                Sort::Array => {
                    let mut array = ArrayValue {
                        default: self.rng.below(3) as u8,
                        ..ArrayValue::default()
                    };
                    for index in 0..8 {
                        if self.rng.chance(50) {
                            array.set(index, self.rng.below(4) as u8);
                        }
                    }
                    Value::Array(Rc::new(array))
                }
            };
            model.set(symbol, value);
        }
        model
    }
}

const ALL_WIDTHS: [u8; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 32, 64];

#[test]
fn simplification_preserves_the_value_of_random_terms() {
    let (mut terms, mut changed) = (0, 0);
    for batch in 0..200u64 {
        let mut store = TermStore::new();
        let mut gen = TermGen::new(0x5eed ^ batch, &mut store, &ALL_WIDTHS);
        let mut simplifier = Simplifier::new();
        let originals: Vec<TermId> = (0..40)
            .map(|_| {
                let depth = 2 + gen.rng.below(4) as u32;
                gen.any_term(&mut store, depth)
            })
            .collect();
        let simplified: Vec<TermId> = originals
            .iter()
            .map(|&t| simplifier.simplify(&mut store, t))
            .collect();
        for _ in 0..12 {
            let model = gen.model(&store);
            for (&original, &result) in originals.iter().zip(&simplified) {
                assert_eq!(
                    store.eval(original, &model),
                    store.eval(result, &model),
                    "batch {batch}: {} simplified to {} under {model:?}",
                    store.to_smtlib(original),
                    store.to_smtlib(result),
                );
            }
        }
        terms += originals.len();
        changed += originals
            .iter()
            .zip(&simplified)
            .filter(|(a, b)| a != b)
            .count();
    }
    // The rules must actually fire for the test to mean anything.
    assert!(
        changed * 3 > terms,
        "only {changed} of {terms} terms changed"
    );
}
