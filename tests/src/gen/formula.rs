//! Random ABV formulas that use every operator of the term language, a
//! bounded forall now and then among them, for the differential test
//! against z3.
//!
//! A formula is a conjunction of one to four atoms. Atoms draw on a small pool
//! of symbols and mostly share one width, so they constrain each other and
//! unsat answers are as common as sat ones. Wide non-linear operators get a
//! constant operand to keep each query quick for a SAT solver.

use super::interesting_value;
use crate::rng::Rng;
use symplay_engine::expr::{
    BvBinOp, BvCmp, BvUnOp, Node, Sort, TermId, TermStore, ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH,
};

/// Symbols of each sort and width a formula may use.
const SYMBOLS_PER_SORT: u64 = 2;
/// Nesting depth of the operands of each atom.
const ATOM_DEPTH: u32 = 3;
/// Nesting depth of array terms (stores, ites, constant arrays).
const ARRAY_DEPTH: u32 = 3;
/// Widest multiplication or division whose operands may both be symbolic.
const WIDEST_SYMBOLIC_NONLINEAR: u8 = 16;

/// Builds a random formula (a boolean term) in `store`.
pub fn random_formula(store: &mut TermStore, rng: &mut Rng) -> TermId {
    let home_width = random_width(rng);
    let mut gen = FormulaGen {
        store,
        rng,
        home_width,
    };
    let mut atoms: Vec<TermId> = (0..gen.rng.range(1, 4)).map(|_| gen.atom()).collect();
    if gen.rng.chance(15) {
        atoms.push(gen.forall());
    }
    gen.store.and_all(&atoms)
}

/// Widths from 1 to 64, weighted toward the ones programs use.
fn random_width(rng: &mut Rng) -> u8 {
    match rng.below(20) {
        0 => 1,
        1..=5 => rng.range(2, 7) as u8,
        6..=9 => 8,
        10..=12 => rng.pick(&[12, 16]),
        13..=14 => rng.range(17, 63) as u8,
        15..=17 => 32,
        _ => 64,
    }
}

fn is_nonlinear(op: BvBinOp) -> bool {
    use BvBinOp::*;
    matches!(op, Mul | Udiv | Urem | Sdiv | Srem | Smod)
}

struct FormulaGen<'a> {
    store: &'a mut TermStore,
    rng: &'a mut Rng,
    /// The width most atoms share, so that they share symbols.
    home_width: u8,
}

impl FormulaGen<'_> {
    fn width(&mut self) -> u8 {
        if self.rng.chance(60) {
            self.home_width
        } else {
            random_width(self.rng)
        }
    }

    fn atom(&mut self) -> TermId {
        match self.rng.below(10) {
            0..=3 => self.equation(),
            4..=6 => self.comparison(ATOM_DEPTH - 1),
            7..=8 => self.boolean(ATOM_DEPTH - 1),
            _ => {
                let c = self.comparison(ATOM_DEPTH - 1);
                self.store.not(c)
            }
        }
    }

    /// `forall i in [lo, hi]. body` over a range of one to three values
    /// (empty where it wraps), or over `[lo, k]` with `k <= hi` for a
    /// symbol `k`, the body comparing `i` through an operator
    /// with a term of the formula's symbols, or reading an array at `i`.
    fn forall(&mut self) -> TermId {
        let w = self.home_width;
        let m = symplay_engine::expr::mask(w);
        let lo_value = self.rng.below(4) & m;
        let hi_value = (lo_value + self.rng.below(3)) & m;
        let (lo, hi) = (
            self.store.bv_const(w, lo_value),
            self.store.bv_const(w, hi_value),
        );
        let i = self.store.bound(w);
        let body = if self.rng.chance(50) {
            let op = self
                .rng
                .pick(&[BvBinOp::Add, BvBinOp::Sub, BvBinOp::Xor, BvBinOp::And]);
            let other = self.bv(w, 1);
            let through = self.store.bin(op, i, other);
            let rhs = self.bv(w, 1);
            let cmp = self.rng.pick(&BvCmp::ALL);
            self.store.cmp(cmp, through, rhs)
        } else {
            let index = match w.cmp(&ARRAY_INDEX_WIDTH) {
                std::cmp::Ordering::Less => self.store.zero_ext(ARRAY_INDEX_WIDTH - w, i),
                std::cmp::Ordering::Equal => i,
                std::cmp::Ordering::Greater => self.store.extract(ARRAY_INDEX_WIDTH - 1, 0, i),
            };
            let array = self.array_symbol();
            let read = self.store.select(array, index);
            let byte = self.bv(ARRAY_VALUE_WIDTH, 1);
            self.store.eq(read, byte)
        };
        if self.rng.chance(50) {
            return self
                .store
                .forall(lo, hi, body)
                .expect("bounds of one width, a boolean body");
        }
        // Half of them over a symbolic upper bound (as a quantified merge's
        // k), which a conjunct bounds by the constant.
        let k = self.bv_symbol(w);
        let bounded = self.store.cmp(BvCmp::Ule, k, hi);
        let all = (self.store.forall(lo, k, body)).expect("bounds of one width, a boolean body");
        self.store.and(bounded, all)
    }

    /// `op(x, c1) = c2` and its relatives: a symbol (or small term) through one
    /// operator against constants. These hit division by zero, overflow and
    /// out-of-range shifts head on, and are unsat often.
    fn equation(&mut self) -> TermId {
        let w = self.width();
        let x = self.bv(w, 1);
        let lhs = if self.rng.chance(75) {
            let op = self.rng.pick(&BvBinOp::ALL);
            let c = self.constant(w);
            // A wide symbolic divisor or factor makes a factoring problem.
            let symbolic_right = !(is_nonlinear(op) && w > WIDEST_SYMBOLIC_NONLINEAR);
            if symbolic_right && self.rng.chance(50) {
                self.store.bin(op, c, x)
            } else {
                self.store.bin(op, x, c)
            }
        } else {
            self.unary_like(w, x)
        };
        let rhs_width = self.store.width(lhs);
        let rhs = self.constant(rhs_width);
        if self.rng.chance(70) {
            self.store.eq(lhs, rhs)
        } else {
            let op = self.rng.pick(&BvCmp::ALL);
            self.store.cmp(op, lhs, rhs)
        }
    }

    /// One width-changing or unary operator applied to `x` of width `w`.
    fn unary_like(&mut self, w: u8, x: TermId) -> TermId {
        let extra = self.rng.range(1, 8).min(u64::from(64 - w)) as u8;
        match self.rng.below(7) {
            0 => self.store.bvnot(x),
            1 => self.store.neg(x),
            2 if extra > 0 => self.store.zero_ext(extra, x),
            3 if extra > 0 => self.store.sign_ext(extra, x),
            4 => {
                let lo = self.rng.below(u64::from(w)) as u8;
                let hi = self.rng.range(u64::from(lo), u64::from(w) - 1) as u8;
                self.store.extract(hi, lo, x)
            }
            5 => self.rotate(true, w, x),
            _ => self.rotate(false, w, x),
        }
    }

    fn comparison(&mut self, depth: u32) -> TermId {
        let w = self.width();
        let a = self.bv(w, depth);
        let b = self.bv(w, depth);
        // Swapped operands give bvugt, bvuge, bvsgt and bvsge.
        let (a, b) = if self.rng.chance(50) { (a, b) } else { (b, a) };
        match self.rng.below(5) {
            0 => self.store.eq(a, b),
            k => self.store.cmp(BvCmp::ALL[k as usize - 1], a, b),
        }
    }

    fn boolean(&mut self, depth: u32) -> TermId {
        if depth == 0 {
            return if self.rng.chance(70) {
                self.comparison(0)
            } else {
                self.bool_symbol()
            };
        }
        let d = depth - 1;
        match self.rng.below(13) {
            0..=3 => self.comparison(depth),
            4 => {
                let a = self.boolean(d);
                self.store.not(a)
            }
            5 => {
                let (a, b) = (self.boolean(d), self.boolean(d));
                self.store.and(a, b)
            }
            6 => {
                let (a, b) = (self.boolean(d), self.boolean(d));
                self.store.or(a, b)
            }
            7 => {
                let (a, b) = (self.boolean(d), self.boolean(d));
                self.store.xor(a, b)
            }
            8 => {
                let (a, b) = (self.boolean(d), self.boolean(d));
                self.store.implies(a, b)
            }
            9 => {
                let (a, b) = (self.boolean(d), self.boolean(d));
                self.store.eq(a, b)
            }
            10 => {
                let (c, a, b) = (self.boolean(d), self.boolean(d), self.boolean(d));
                self.store.ite(c, a, b)
            }
            11 => self.bool_symbol(),
            _ => {
                let b = self.rng.chance(50);
                self.store.bool_const(b)
            }
        }
    }

    fn bv(&mut self, w: u8, depth: u32) -> TermId {
        if depth == 0 || self.rng.chance(20) {
            return if self.rng.chance(65) {
                self.bv_symbol(w)
            } else {
                self.constant(w)
            };
        }
        let d = depth - 1;
        match self.rng.below(20) {
            0..=7 => self.binary(w, d),
            8 => {
                let op = self.rng.pick(&[BvUnOp::Not, BvUnOp::Neg]);
                let a = self.bv(w, d);
                self.store.mk(Node::BvUn(op, a))
            }
            9 | 10 => {
                let from = self.wider_width(w);
                let lo = self.rng.range(0, u64::from(from - w)) as u8;
                let a = self.bv(from, d);
                self.store.extract(lo + w - 1, lo, a)
            }
            11 if w >= 2 => {
                let high = self.rng.range(1, u64::from(w) - 1) as u8;
                let (h, l) = (self.bv(high, d), self.bv(w - high, d));
                self.store.concat(h, l)
            }
            12 | 13 if w >= 2 => {
                let from = self.narrower_width(w);
                let a = self.bv(from, d);
                if self.rng.chance(50) {
                    self.store.zero_ext(w - from, a)
                } else {
                    self.store.sign_ext(w - from, a)
                }
            }
            14 | 15 => {
                let a = self.bv(w, d);
                let left = self.rng.chance(50);
                self.rotate(left, w, a)
            }
            16 => {
                let c = self.boolean(d);
                let (a, b) = (self.bv(w, d), self.bv(w, d));
                self.store.ite(c, a, b)
            }
            17..=19 => self.memory_read(w, d),
            _ => self.binary(w, d),
        }
    }

    fn binary(&mut self, w: u8, depth: u32) -> TermId {
        let op = self.rng.pick(&BvBinOp::ALL);
        let a = self.bv(w, depth);
        let b = if is_nonlinear(op) && w > WIDEST_SYMBOLIC_NONLINEAR {
            self.constant(w)
        } else {
            self.bv(w, depth)
        };
        self.store.bin(op, a, b)
    }

    /// Rotation by a constant that may exceed the width.
    fn rotate(&mut self, left: bool, w: u8, a: TermId) -> TermId {
        let k = self.rng.range(0, u64::from(w) + 1) as u8;
        if left {
            self.store.mk(Node::RotateLeft(k, a))
        } else {
            self.store.mk(Node::RotateRight(k, a))
        }
    }

    /// A byte read from an array term, fitted to width `w`.
    fn memory_read(&mut self, w: u8, depth: u32) -> TermId {
        // Arrays nest on their own budget: chains of stores are what array
        // reasoning is about, and their operands stay shallow.
        let array_depth = self.rng.range(0, u64::from(ARRAY_DEPTH)) as u32;
        let array = self.array(array_depth);
        let index = self.index(depth);
        let byte = self.store.select(array, index);
        match w.cmp(&ARRAY_VALUE_WIDTH) {
            std::cmp::Ordering::Equal => byte,
            std::cmp::Ordering::Less => {
                let lo = self.rng.range(0, u64::from(ARRAY_VALUE_WIDTH - w)) as u8;
                self.store.extract(lo + w - 1, lo, byte)
            }
            std::cmp::Ordering::Greater => {
                let extra = w - ARRAY_VALUE_WIDTH;
                match self.rng.below(3) {
                    0 => self.store.zero_ext(extra, byte),
                    1 => self.store.sign_ext(extra, byte),
                    _ => {
                        let rest = self.bv(extra, depth);
                        self.store.concat(rest, byte)
                    }
                }
            }
        }
    }

    fn array(&mut self, depth: u32) -> TermId {
        if depth == 0 || self.rng.chance(20) {
            return if self.rng.chance(75) {
                self.array_symbol()
            } else {
                let v = self.constant(ARRAY_VALUE_WIDTH);
                self.store.const_array(v)
            };
        }
        let d = depth - 1;
        let operand_depth = d.min(1);
        match self.rng.below(10) {
            0..=5 => {
                let base = self.array(d);
                let index = self.index(operand_depth);
                let value = self.bv(ARRAY_VALUE_WIDTH, operand_depth);
                self.store.store(base, index, value)
            }
            6 | 7 => {
                let c = self.boolean(operand_depth);
                let (a, b) = (self.array(d), self.array(d));
                self.store.ite(c, a, b)
            }
            _ => {
                let v = self.bv(ARRAY_VALUE_WIDTH, operand_depth);
                self.store.const_array(v)
            }
        }
    }

    /// An array index: mostly a few small constants and symbols, so that
    /// reads and writes alias.
    fn index(&mut self, depth: u32) -> TermId {
        match self.rng.below(10) {
            0..=4 => {
                let i = if self.rng.chance(90) {
                    self.rng.below(4)
                } else {
                    u64::from(u32::MAX)
                };
                self.store.bv_const(ARRAY_INDEX_WIDTH, i)
            }
            5..=7 => self.bv_symbol(ARRAY_INDEX_WIDTH),
            _ => self.bv(ARRAY_INDEX_WIDTH, depth),
        }
    }

    /// A width in `w..=64` for an extract source; often a common one.
    fn wider_width(&mut self, w: u8) -> u8 {
        let common = [8, 16, 32, 64].into_iter().filter(|&c| c >= w);
        let common: Vec<u8> = common.collect();
        if self.rng.chance(50) {
            self.rng.pick(&common)
        } else {
            self.rng
                .range(u64::from(w), u64::from(w.saturating_add(8).min(64))) as u8
        }
    }

    /// A width in `1..w` for an extension source; often a byte.
    fn narrower_width(&mut self, w: u8) -> u8 {
        if w > ARRAY_VALUE_WIDTH && self.rng.chance(40) {
            ARRAY_VALUE_WIDTH
        } else {
            self.rng.range(1, u64::from(w) - 1) as u8
        }
    }

    fn constant(&mut self, w: u8) -> TermId {
        let v = interesting_value(self.rng, w);
        self.store.bv_const(w, v)
    }

    fn bv_symbol(&mut self, w: u8) -> TermId {
        let k = self.rng.below(SYMBOLS_PER_SORT);
        self.symbol(&format!("x{w}_{k}"), Sort::Bv(w))
    }

    fn bool_symbol(&mut self) -> TermId {
        let k = self.rng.below(SYMBOLS_PER_SORT);
        self.symbol(&format!("p{k}"), Sort::Bool)
    }

    fn array_symbol(&mut self) -> TermId {
        let k = self.rng.below(SYMBOLS_PER_SORT);
        self.symbol(&format!("mem{k}"), Sort::Array)
    }

    fn symbol(&mut self, name: &str, sort: Sort) -> TermId {
        self.store
            .declare(name, sort)
            .expect("generated names encode their sort")
    }
}
