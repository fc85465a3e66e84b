//! Tests of the simplifier: one named row per rule, randomized soundness
//! against evaluation, and constraint-set simplification.

mod constraints;
mod random;
mod rules;

use super::Simplifier;
use crate::expr::random::{Options, TermGen};
use crate::expr::{
    BvBinOp, Sort, TermId, TermStore, ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH, MAX_WIDTH,
};

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

/// A random term generator over symbols of every width in `widths` and of
/// the array sorts, building terms up to the widest width, with arrays, and
/// rich in the patterns the rules look for: repeated operands, reused
/// subterms and edge-case constants.
fn term_gen(seed: u64, store: &mut TermStore, widths: &[u8]) -> TermGen {
    let mut widths = widths.to_vec();
    widths.extend([ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH]);
    widths.sort_unstable();
    widths.dedup();
    let options = Options {
        bools: 3,
        symbol_widths: widths.clone(),
        per_width: 2,
        widths,
        arrays: true,
        max_width: MAX_WIDTH,
        early_leaf_percent: 15,
        const_percent: 45,
        // Seven of eight constants are edge cases.
        edge_percent: 88,
        exact_symbols: true,
        patterns: true,
    };
    TermGen::new(seed, store, options)
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

/// A run's limit stops simplifying a large term part way; what was done
/// stays remembered, and the next call finishes it.
#[test]
fn a_limit_stops_simplifying_and_the_next_call_goes_on() {
    use crate::limits::{Checkpoint, Limits, Reached};
    let mut f = Fixture::new();
    let one = f.c(1);
    let mut sum = f.x;
    for _ in 0..300_000u64 {
        sum = f.s.bin(BvBinOp::Add, sum, one);
    }
    let past = Limits {
        deadline: Some(web_time::Instant::now() - web_time::Duration::from_millis(1)),
        ..Limits::default()
    };
    let mut simplifier = Simplifier::new();
    let stopped = simplifier.simplify_within(&mut f.s, sum, &mut Checkpoint::new(past));
    assert_eq!(stopped, Err(Reached::Time));
    let total = f.c(300_000 % 256);
    let expected = f.s.bin(BvBinOp::Add, total, f.x);
    assert_eq!(simplifier.simplify(&mut f.s, sum), expected);
    // Evaluation stops at the limit too.
    let is_expected = f.s.eq(sum, expected);
    let model = crate::expr::Model::new();
    let checked =
        f.s.satisfies_within(&[is_expected], &model, &mut Checkpoint::new(past));
    assert_eq!(checked, Err(Reached::Time));
    assert!(f.s.satisfies(&[is_expected], &model));
    let value = f.s.eval_within(sum, &model, &mut Checkpoint::new(past));
    assert_eq!(value, Err(Reached::Time));
    assert_eq!(f.s.eval(sum, &model).as_bv(), Some(300_000 % 256));
    // So does a path's end evaluating its values together; a symbol alone
    // takes no walk.
    let both = [f.x, sum];
    let stopped =
        f.s.eval_each_within(&both, &model, &mut Checkpoint::new(past));
    assert_eq!(stopped, Err(Reached::Time));
    let unlimited = &mut Checkpoint::new(Limits::default());
    let values = f.s.eval_each_within(&both, &model, unlimited).unwrap();
    let values: Vec<Option<u64>> = values.iter().map(|v| v.as_bv()).collect();
    assert_eq!(values, [Some(0), Some(300_000 % 256)]);
    let alone =
        f.s.eval_each_within(&[f.x], &model, &mut Checkpoint::new(past));
    assert_eq!(alone.map(|v| v[0].as_bv()), Ok(Some(0)));
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
