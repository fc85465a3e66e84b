//! Random well-sorted terms and models for the engine's randomized tests.
//!
//! One generator serves every suite: [`Options`] choose the symbols, the
//! widths, whether arrays occur, how often leaves, constants and repeated
//! operands appear, so each suite gets the terms its checks need (narrow
//! symbols that can be enumerated, or wide terms that exercise the rules).

use super::eval::{ArrayValue, Model, Value};
use super::node::{
    mask, BvBinOp, BvCmp, BvUnOp, Node, Sort, TermId, ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH,
    MAX_WIDTH,
};
use super::store::TermStore;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::rc::Rc;

/// A 64-bit generator (splitmix64): deterministic tests from a seed.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, for `n > 0`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `percent` / 100.
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// A value of `width` bits: `edge_percent` percent of the time one of the
    /// edge cases (0, 1, 2, all ones, all ones minus 1, the signed minimum
    /// and maximum), otherwise uniformly random.
    pub(crate) fn value(&mut self, width: u8, edge_percent: u64) -> u64 {
        let ones = mask(width);
        if !self.chance(edge_percent) {
            return self.next() & ones;
        }
        let signed_min = 1u64 << (width - 1);
        self.pick(&[0, 1, 2 & ones, ones, ones - 1, signed_min, signed_min - 1])
    }
}

/// What [`TermGen`] builds.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    /// Boolean symbols to declare.
    pub(crate) bools: usize,
    /// Widths of the bit-vector symbols that leaves use.
    pub(crate) symbol_widths: Vec<u8>,
    /// Bit-vector symbols of each of those widths.
    pub(crate) per_width: usize,
    /// Widths that equalities and comparisons compare at, and that
    /// [`TermGen::any_term`] builds.
    pub(crate) widths: Vec<u8>,
    /// Whether terms read, write and choose between arrays. Indices use the
    /// symbols of the index width, declared `i{k}` if that width is not in
    /// `symbol_widths`.
    pub(crate) arrays: bool,
    /// Widest bit-vector built, apart from array indices and widths asked for.
    pub(crate) max_width: u8,
    /// Chance, in percent, that a term above depth 0 is a leaf anyway.
    pub(crate) early_leaf_percent: u64,
    /// Chance, in percent, that a bit-vector leaf is a constant.
    pub(crate) const_percent: u64,
    /// Share of constants, in percent, that are edge cases (see
    /// [`Rng::value`]).
    pub(crate) edge_percent: u64,
    /// Whether a symbol leaf is a symbol of its width when there is one, and
    /// otherwise the low bits of a random symbol zero-extended to
    /// [`MAX_WIDTH`]; if not, it is a random symbol cut to the width at a
    /// random offset, or zero- or sign-extended to it.
    pub(crate) exact_symbols: bool,
    /// Whether to favour the patterns rewrite rules look for: leaves reuse
    /// terms built earlier, operators repeat an operand or its negation
    /// (`x - x`, `a and not a`), and Booleans include `ite(c, k1, k2) = k3`
    /// and comparisons with edge-case constants. Otherwise every comparison
    /// is between two random terms.
    pub(crate) patterns: bool,
}

/// Random terms and models over a few symbols of each sort.
pub(crate) struct TermGen {
    pub(crate) rng: Rng,
    opts: Options,
    bools: Vec<TermId>,
    bvs: FxHashMap<u8, Vec<TermId>>,
    /// Every bit-vector symbol for leaves, in declaration order.
    all_bvs: Vec<TermId>,
    /// Symbols of the index width that indices use.
    indices: Vec<TermId>,
    arrays: Vec<TermId>,
    /// Every symbol, in declaration order.
    declared: Vec<TermId>,
    /// Terms built so far, by sort, with [`Options::patterns`].
    built: FxHashMap<Sort, Vec<TermId>>,
}

impl TermGen {
    /// Declares the symbols `opts` asks for in `store`: Booleans `p{k}`,
    /// bit-vectors `v{width}_{k}`, and with arrays, arrays `m0` and `m1`
    /// and the indices `i{k}` if needed.
    pub(crate) fn new(seed: u64, store: &mut TermStore, opts: Options) -> TermGen {
        let mut symbol_widths = opts.symbol_widths.clone();
        symbol_widths.sort_unstable();
        symbol_widths.dedup();
        let mut declared = Vec::new();
        let mut declare = |name: String, sort| {
            let t = store.declare(&name, sort).unwrap();
            declared.push(t);
            t
        };
        let bools = (0..opts.bools)
            .map(|k| declare(format!("p{k}"), Sort::Bool))
            .collect();
        let mut bvs = FxHashMap::default();
        let mut all_bvs = Vec::new();
        for &w in &symbol_widths {
            let symbols: Vec<TermId> = (0..opts.per_width)
                .map(|k| declare(format!("v{w}_{k}"), Sort::Bv(w)))
                .collect();
            all_bvs.extend(&symbols);
            bvs.insert(w, symbols);
        }
        let (indices, arrays) = if opts.arrays {
            let indices = match bvs.get(&ARRAY_INDEX_WIDTH) {
                Some(symbols) => symbols.clone(),
                None => (0..opts.per_width)
                    .map(|k| declare(format!("i{k}"), Sort::Bv(ARRAY_INDEX_WIDTH)))
                    .collect(),
            };
            let arrays = (0..2)
                .map(|k| declare(format!("m{k}"), Sort::Array))
                .collect();
            (indices, arrays)
        } else {
            (Vec::new(), Vec::new())
        };
        TermGen {
            rng: Rng::new(seed),
            opts,
            bools,
            bvs,
            all_bvs,
            indices,
            arrays,
            declared,
            built: FxHashMap::default(),
        }
    }

    /// Every symbol declared, in declaration order.
    pub(crate) fn symbols(&self) -> &[TermId] {
        &self.declared
    }

    /// A term of a random sort.
    pub(crate) fn any_term(&mut self, s: &mut TermStore, depth: u32) -> TermId {
        match self.rng.below(10) {
            0..=3 => self.bool_term(s, depth),
            4 if self.opts.arrays => self.array_term(s, depth),
            _ => {
                let width = self.rng.pick(&self.opts.widths);
                self.bv_term(s, width, depth)
            }
        }
    }

    /// A constant of `width` bits, often an edge case.
    pub(crate) fn value(&mut self, width: u8) -> u64 {
        self.rng.value(width, self.opts.edge_percent)
    }

    pub(crate) fn bv_symbol(&mut self, width: u8) -> Option<TermId> {
        let symbols = self.bvs.get(&width)?;
        let k = self.rng.below(symbols.len() as u64) as usize;
        symbols.get(k).copied()
    }

    pub(crate) fn bool_symbol(&mut self) -> TermId {
        self.rng.pick(&self.bools)
    }

    fn remember(&mut self, s: &TermStore, t: TermId) -> TermId {
        if self.opts.patterns {
            self.built.entry(s.sort(t)).or_default().push(t);
        }
        t
    }

    fn reuse(&mut self, sort: Sort) -> Option<TermId> {
        let built = self.built.get(&sort)?;
        let k = self.rng.below(built.len() as u64) as usize;
        built.get(k).copied()
    }

    fn stop_early(&mut self, depth: u32) -> bool {
        depth == 0 || self.rng.chance(self.opts.early_leaf_percent)
    }

    /// A symbol fitted to `width` bits, as [`Options::exact_symbols`] says.
    fn fitted_symbol(&mut self, s: &mut TermStore, width: u8) -> TermId {
        let x = if self.opts.exact_symbols {
            if let Some(symbol) = self.bv_symbol(width) {
                return symbol;
            }
            // The low bits of a symbol zero-extended to the widest width.
            let x = self.rng.pick(&self.all_bvs);
            let xw = s.width(x);
            let wide = if xw < MAX_WIDTH {
                s.zero_ext(MAX_WIDTH - xw, x)
            } else {
                x
            };
            return s.extract(width - 1, 0, wide);
        } else {
            self.rng.pick(&self.all_bvs)
        };
        let xw = s.width(x);
        match xw.cmp(&width) {
            Ordering::Equal => x,
            Ordering::Greater => {
                let lo = self.rng.below(u64::from(xw - width) + 1) as u8;
                s.extract(lo + width - 1, lo, x)
            }
            Ordering::Less if self.rng.chance(50) => s.zero_ext(width - xw, x),
            Ordering::Less => s.sign_ext(width - xw, x),
        }
    }

    fn bv_leaf(&mut self, s: &mut TermStore, width: u8) -> TermId {
        if self.opts.patterns && self.rng.chance(25) {
            if let Some(t) = self.reuse(Sort::Bv(width)) {
                return t;
            }
        }
        if self.rng.chance(self.opts.const_percent) {
            let value = self.value(width);
            return s.bv_const(width, value);
        }
        self.fitted_symbol(s, width)
    }

    pub(crate) fn bv_term(&mut self, s: &mut TermStore, width: u8, depth: u32) -> TermId {
        if self.stop_early(depth) {
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
                    0 if self.opts.patterns => a,
                    1 if self.opts.patterns => s.bvnot(a),
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
                let widest = self.opts.max_width.max(width);
                let source_width = width + self.rng.below(u64::from(widest - width) + 1) as u8;
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
            10 if self.opts.arrays => {
                let array = self.array_term(s, d);
                let index = self.index_term(s, d);
                let byte = s.select(array, index);
                match width.cmp(&ARRAY_VALUE_WIDTH) {
                    Ordering::Less => s.extract(width - 1, 0, byte),
                    Ordering::Equal => byte,
                    Ordering::Greater => s.zero_ext(width - ARRAY_VALUE_WIDTH, byte),
                }
            }
            _ => self.bv_leaf(s, width),
        };
        self.remember(s, t)
    }

    pub(crate) fn bool_term(&mut self, s: &mut TermStore, depth: u32) -> TermId {
        if self.stop_early(depth) {
            return match self.rng.below(10) {
                0 => s.bool_const(self.rng.chance(50)),
                1..=3 if self.opts.patterns => self.reuse(Sort::Bool).unwrap_or(self.bools[0]),
                1 => s.bool_const(self.rng.chance(50)),
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
                    0 if self.opts.patterns => a,
                    1 if self.opts.patterns => s.not(a),
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
            8 if self.opts.patterns => {
                // `ite(c, k1, k2) = k3`, which the rules decide.
                let width = self.rng.pick(&self.opts.widths);
                let c = self.bool_term(s, d);
                let mut constant = |g: &mut TermGen| {
                    let value = g.rng.below(3);
                    s.bv_const(width, value)
                };
                let (k1, k2, k3) = (constant(self), constant(self), constant(self));
                let choice = s.ite(c, k1, k2);
                s.eq(choice, k3)
            }
            9 | 10 if self.opts.patterns => {
                // A comparison with an edge-case constant.
                let width = self.rng.pick(&self.opts.widths);
                let a = self.bv_term(s, width, d);
                let value = self.value(width);
                let k = s.bv_const(width, value);
                let op = self.rng.pick(&BvCmp::ALL);
                if self.rng.chance(50) {
                    s.cmp(op, a, k)
                } else {
                    s.cmp(op, k, a)
                }
            }
            _ => {
                let width = self.rng.pick(&self.opts.widths);
                let (a, b) = (self.bv_term(s, width, d), self.bv_term(s, width, d));
                if self.rng.chance(50) {
                    s.eq(a, b)
                } else {
                    s.cmp(self.rng.pick(&BvCmp::ALL), a, b)
                }
            }
        };
        self.remember(s, t)
    }

    /// An array term; only with [`Options::arrays`].
    pub(crate) fn array_term(&mut self, s: &mut TermStore, depth: u32) -> TermId {
        assert!(self.opts.arrays, "array terms need Options::arrays");
        // Arrays stop early a fifth of the time whatever the options, which
        // keeps store chains short.
        if depth == 0 || self.rng.chance(20) {
            return match self.rng.below(4) {
                0 => {
                    let byte = self.bv_term(s, ARRAY_VALUE_WIDTH, depth.saturating_sub(1));
                    s.const_array(byte)
                }
                1 if self.opts.patterns => self.reuse(Sort::Array).unwrap_or(self.arrays[0]),
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
                let array = self.array_term(s, depth);
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
        match self.rng.below(7) {
            0 | 1 => s.bv_const(ARRAY_INDEX_WIDTH, small),
            2 => self.rng.pick(&self.indices),
            3 => {
                let base = self.rng.pick(&self.indices);
                let offset = s.bv_const(ARRAY_INDEX_WIDTH, small);
                s.bin(BvBinOp::Add, base, offset)
            }
            4 | 5 if self.opts.max_width >= ARRAY_INDEX_WIDTH => {
                self.bv_term(s, ARRAY_INDEX_WIDTH, depth.min(2))
            }
            _ => {
                // A symbolic index among the small constants.
                let narrow = self.bv_term(s, 2, depth);
                s.zero_ext(ARRAY_INDEX_WIDTH - 2, narrow)
            }
        }
    }

    /// A model for every symbol of `store`, favouring edge cases and small
    /// array indices.
    pub(crate) fn model(&mut self, store: &TermStore) -> Model {
        let mut model = Model::new();
        for symbol in store.symbols() {
            let value = match store.symbol_sort(symbol) {
                Sort::Bool => Value::Bool(self.rng.chance(50)),
                Sort::Bv(width) => {
                    let value = if width == ARRAY_INDEX_WIDTH && self.rng.chance(50) {
                        self.rng.below(6)
                    } else {
                        self.value(width)
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
