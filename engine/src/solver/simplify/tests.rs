//! Tests of the simplifier: one named row per rule, randomized soundness
//! against evaluation, and constraint-set simplification.

mod constraints;
mod random;
mod rules;

use super::Simplifier;
use crate::expr::{BvBinOp, Sort, TermId, TermStore};

/// A store with a few symbols of each sort.
struct Fixture {
    s: TermStore,
    /// 8-bit symbols.
    x: TermId,
    y: TermId,
    z: TermId,
    /// Boolean symbols.
    p: TermId,
    q: TermId,
    r: TermId,
    mem: TermId,
    /// 32-bit symbols, for array indices.
    i: TermId,
    j: TermId,
}

impl Fixture {
    fn new() -> Fixture {
        let mut s = TermStore::new();
        let mut declare = |name: &str, sort| s.declare(name, sort).unwrap();
        let (x, y, z) = (
            declare("x", Sort::Bv(8)),
            declare("y", Sort::Bv(8)),
            declare("z", Sort::Bv(8)),
        );
        let (p, q, r) = (
            declare("p", Sort::Bool),
            declare("q", Sort::Bool),
            declare("r", Sort::Bool),
        );
        let mem = declare("mem", Sort::Array);
        let (i, j) = (declare("i", Sort::Bv(32)), declare("j", Sort::Bv(32)));
        Fixture {
            s,
            x,
            y,
            z,
            p,
            q,
            r,
            mem,
            i,
            j,
        }
    }

    /// An 8-bit constant.
    fn c(&mut self, value: u64) -> TermId {
        self.s.bv_const(8, value)
    }

    /// A 32-bit constant.
    fn c32(&mut self, value: u64) -> TermId {
        self.s.bv_const(32, value)
    }
}

/// A 64-bit generator (splitmix64): deterministic tests from a seed.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, for `n > 0`.
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

#[test]
fn results_are_remembered_across_calls() {
    let mut f = Fixture::new();
    let zero = f.c(0);
    let sum = f.s.bin(BvBinOp::Add, f.x, zero);
    let twice = f.s.bin(BvBinOp::Mul, sum, sum);
    let mut simplifier = Simplifier::new();
    let first = simplifier.simplify(&mut f.s, twice);
    let terms_after_first = f.s.len();
    assert_eq!(simplifier.simplify(&mut f.s, twice), first);
    assert_eq!(simplifier.simplify(&mut f.s, first), first);
    assert_eq!(f.s.len(), terms_after_first, "a second call builds nothing");
}

/// Terms far deeper than the call stack allows a recursive pass.
#[test]
fn deep_terms_simplify_without_recursion() {
    let mut f = Fixture::new();
    let one = f.c(1);
    let mut sum = f.x;
    let mut memory = f.mem;
    for k in 0..200_000u64 {
        sum = f.s.bin(BvBinOp::Add, sum, one);
        let index = f.c32(k + 1);
        memory = f.s.store(memory, index, f.y);
    }
    let zero_index = f.c32(0);
    let read = f.s.select(memory, zero_index);
    let mut simplifier = Simplifier::new();
    let total = f.c(200_000 % 256);
    let expected_sum = f.s.bin(BvBinOp::Add, total, f.x);
    assert_eq!(simplifier.simplify(&mut f.s, sum), expected_sum);
    let expected_read = f.s.select(f.mem, zero_index);
    assert_eq!(simplifier.simplify(&mut f.s, read), expected_read);
}
