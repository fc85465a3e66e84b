//! The bit-blaster against the evaluator, which is the ground truth: every
//! operator at small widths exhaustively and at larger ones on random
//! operands, arrays, random terms, cores, budgets and deep terms.

use super::*;
use crate::expr::random::{Options, Rng, TermGen};
use crate::expr::{mask, BvBinOp, BvCmp, Node, Sort};
use crate::solver::query::Budget;
use web_time::Instant;

/// Share of random operands, in percent, that are edge cases.
const EDGE_PERCENT: u64 = 70;

fn constant(s: &mut TermStore, sort: Sort, v: u64) -> TermId {
    match sort {
        Sort::Bool => s.bool_const(v == 1),
        Sort::Bv(w) => s.bv_const(w, v),
        Sort::Array => unreachable!("no array constants in these tests"),
    }
}

fn value_term(s: &mut TermStore, v: &Value) -> TermId {
    match *v {
        Value::Bool(b) => s.bool_const(b),
        Value::Bv { width, value } => s.bv_const(width, value),
        Value::Array(_) => unreachable!("operators do not return arrays"),
    }
}

fn unbounded() -> QueryBudget {
    QueryBudget::default()
}

fn expect_sat(answer: BlastAnswer) -> Model {
    match answer {
        BlastAnswer::Sat(m) => m,
        other => panic!("expected sat, got {other:?}"),
    }
}

fn expect_unsat(answer: BlastAnswer) -> Vec<TermId> {
    match answer {
        BlastAnswer::Unsat { core } => core,
        other => panic!("expected unsat, got {other:?}"),
    }
}

/// Solves `query` and checks the answer against the evaluator: a model must
/// satisfy it; a core must be a subset that a fresh instance finds unsat.
fn solve_checked(bb: &mut BitBlaster, s: &TermStore, query: &[TermId]) -> BlastAnswer {
    let answer = bb.solve(s, query, &unbounded());
    match &answer {
        BlastAnswer::Sat(m) => {
            assert!(s.satisfies(query, m), "model {m:?} fails {query:?}");
            for sym in s.symbols_in(query) {
                assert!(m.get(sym).is_some(), "{} has no value", s.symbol_name(sym));
            }
        }
        BlastAnswer::Unsat { core } => {
            assert!(!core.is_empty());
            assert!(core.iter().all(|c| query.contains(c)), "core {core:?}");
            expect_unsat(BitBlaster::new().solve(s, core, &unbounded()));
        }
        BlastAnswer::Unknown { why, .. } => panic!("unknown without a budget: {why}"),
    }
    answer
}

/// One store and one bit-blaster shared by many checks, as in a solver.
struct Harness {
    s: TermStore,
    bb: BitBlaster,
}

impl Harness {
    fn new() -> Harness {
        Harness {
            s: TermStore::new(),
            bb: BitBlaster::new(),
        }
    }

    /// With symbols fixed to `args`, `result = build(symbols)` must give
    /// `result` the evaluator's value of `build(constants)`, and the operator
    /// must be unable to produce anything else.
    fn check(&mut self, args: &[(Sort, u64)], build: &dyn Fn(&mut TermStore, &[TermId]) -> TermId) {
        let s = &mut self.s;
        let symbols: Vec<TermId> = args
            .iter()
            .enumerate()
            .map(|(k, &(sort, _))| s.declare(&format!("arg{k}_{sort:?}"), sort).unwrap())
            .collect();
        let constants: Vec<TermId> = args.iter().map(|&(sort, v)| constant(s, sort, v)).collect();
        let term = build(s, &symbols);
        let folded = build(s, &constants);
        let expected = s.eval(folded, &Model::new());
        let result = s
            .declare(&format!("result{}", term.index()), s.sort(term))
            .unwrap();
        let fixed: Vec<TermId> = symbols
            .iter()
            .zip(&constants)
            .map(|(&x, &c)| s.eq(x, c))
            .collect();
        let defined = s.eq(result, term);
        let query = [fixed.clone(), vec![defined]].concat();
        let model = expect_sat(self.bb.solve(s, &query, &unbounded()));
        assert_eq!(
            s.eval(result, &model),
            expected,
            "{:?} on {args:?}",
            s.node(term)
        );
        assert!(s.satisfies(&query, &model));

        let expected_term = value_term(s, &expected);
        let same = s.eq(term, expected_term);
        let differs = s.not(same);
        let query = [fixed, vec![differs]].concat();
        let core = expect_unsat(self.bb.solve(s, &query, &unbounded()));
        assert!(core.iter().all(|c| query.contains(c)));
    }
}

fn bv(w: u8) -> Sort {
    Sort::Bv(w)
}

#[test]
fn binary_operators_match_the_evaluator_exhaustively_at_widths_1_to_4() {
    for w in 1..=4u8 {
        let mut h = Harness::new();
        for op in BvBinOp::ALL {
            for a in 0..1u64 << w {
                for b in 0..1u64 << w {
                    h.check(&[(bv(w), a), (bv(w), b)], &|s, x| s.bin(op, x[0], x[1]));
                }
            }
        }
    }
}

#[test]
fn binary_operators_match_the_evaluator_on_random_wide_operands() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for w in [7u8, 8, 13, 32, 64] {
        let mut h = Harness::new();
        for op in BvBinOp::ALL {
            for _ in 0..10 {
                let (a, b) = (rng.value(w, EDGE_PERCENT), rng.value(w, EDGE_PERCENT));
                h.check(&[(bv(w), a), (bv(w), b)], &|s, x| s.bin(op, x[0], x[1]));
            }
            // Shift amounts around the width.
            let a = rng.value(w, EDGE_PERCENT);
            for amount in [u64::from(w) - 1, u64::from(w), u64::from(w) + 1] {
                h.check(&[(bv(w), a), (bv(w), amount & mask(w))], &|s, x| {
                    s.bin(op, x[0], x[1])
                });
            }
        }
    }
}

#[test]
fn comparisons_and_equality_match_the_evaluator() {
    let mut rng = Rng::new(7);
    for w in [1u8, 2, 3, 4, 7, 8, 13, 32, 64] {
        let mut h = Harness::new();
        let pairs: Vec<(u64, u64)> = if w <= 4 {
            (0..1u64 << w)
                .flat_map(|a| (0..1u64 << w).map(move |b| (a, b)))
                .collect()
        } else {
            (0..12)
                .map(|k| {
                    let a = rng.value(w, EDGE_PERCENT);
                    (
                        a,
                        if k % 3 == 0 {
                            a
                        } else {
                            rng.value(w, EDGE_PERCENT)
                        },
                    )
                })
                .collect()
        };
        for (a, b) in pairs {
            let args = [(bv(w), a), (bv(w), b)];
            for op in BvCmp::ALL {
                h.check(&args, &|s, x| s.cmp(op, x[0], x[1]));
            }
            h.check(&args, &|s, x| s.eq(x[0], x[1]));
        }
    }
}

#[test]
fn unary_boolean_and_ite_operators_match_the_evaluator() {
    let mut rng = Rng::new(11);
    let mut h = Harness::new();
    for w in [1u8, 2, 3, 4, 8, 13, 32, 64] {
        let values: Vec<u64> = if w <= 4 {
            (0..1u64 << w).collect()
        } else {
            (0..8).map(|_| rng.value(w, EDGE_PERCENT)).collect()
        };
        for &a in &values {
            h.check(&[(bv(w), a)], &|s, x| s.bvnot(x[0]));
            h.check(&[(bv(w), a)], &|s, x| s.neg(x[0]));
            for c in 0..2 {
                let b = values[(a as usize).wrapping_add(1) % values.len()];
                let args = [(Sort::Bool, c), (bv(w), a), (bv(w), b)];
                h.check(&args, &|s, x| s.ite(x[0], x[1], x[2]));
            }
        }
    }
    for a in 0..2 {
        let args = [(Sort::Bool, a)];
        h.check(&args, &|s, x| s.not(x[0]));
        for b in 0..2 {
            let args = [(Sort::Bool, a), (Sort::Bool, b)];
            h.check(&args, &|s, x| s.and(x[0], x[1]));
            h.check(&args, &|s, x| s.or(x[0], x[1]));
            h.check(&args, &|s, x| s.xor(x[0], x[1]));
            h.check(&args, &|s, x| s.eq(x[0], x[1]));
            for c in 0..2 {
                let args = [(Sort::Bool, a), (Sort::Bool, b), (Sort::Bool, c)];
                h.check(&args, &|s, x| s.ite(x[0], x[1], x[2]));
            }
        }
    }
}

#[test]
fn extract_concat_extend_and_rotate_match_the_evaluator() {
    let mut rng = Rng::new(13);
    let mut h = Harness::new();
    for w in [1u8, 2, 3, 4, 7, 13, 32, 64] {
        let values: Vec<u64> = if w <= 4 {
            (0..1u64 << w).collect()
        } else {
            (0..4).map(|_| rng.value(w, EDGE_PERCENT)).collect()
        };
        for &a in &values {
            let arg = [(bv(w), a)];
            for hi in 0..w {
                for lo in 0..=hi {
                    if w <= 4 || lo % 5 == 0 && (hi - lo) % 7 == 0 {
                        h.check(&arg, &|s, x| s.extract(hi, lo, x[0]));
                    }
                }
            }
            for extra in [0, 1, 3, 64 - w].into_iter().filter(|e| w + e <= 64) {
                h.check(&arg, &|s, x| s.zero_ext(extra, x[0]));
                h.check(&arg, &|s, x| s.sign_ext(extra, x[0]));
            }
            for k in [0, 1, 2, w - 1, w, w + 1, 2 * w + 1] {
                h.check(&arg, &|s, x| s.mk(Node::RotateLeft(k, x[0])));
                h.check(&arg, &|s, x| s.mk(Node::RotateRight(k, x[0])));
            }
        }
    }
    for (wh, wl) in [
        (1u8, 1u8),
        (1, 3),
        (3, 1),
        (2, 4),
        (4, 4),
        (32, 32),
        (1, 63),
        (63, 1),
    ] {
        for _ in 0..if wh + wl <= 8 { 24 } else { 6 } {
            let args = [
                (bv(wh), rng.value(wh, EDGE_PERCENT)),
                (bv(wl), rng.value(wl, EDGE_PERCENT)),
            ];
            h.check(&args, &|s, x| s.concat(x[0], x[1]));
        }
    }
}

#[test]
fn division_by_zero_follows_smtlib() {
    for w in [1u8, 2, 4, 8, 32, 64] {
        let mut s = TermStore::new();
        let mut bb = BitBlaster::new();
        let m = mask(w);
        let min = 1u64 << (w - 1);
        let x = s.declare("x", bv(w)).unwrap();
        let y = s.declare("y", bv(w)).unwrap();
        let zero = s.bv_const(w, 0);
        let y_is_zero = s.eq(y, zero);
        for a in [0, 1, m, min, min.wrapping_sub(1) & m, 5 & m] {
            let negative = a & min != 0;
            let expected = [
                (BvBinOp::Udiv, m),
                (BvBinOp::Urem, a),
                (BvBinOp::Sdiv, if negative { 1 } else { m }),
                (BvBinOp::Srem, a),
                (BvBinOp::Smod, a),
            ];
            let ca = s.bv_const(w, a);
            let x_is_a = s.eq(x, ca);
            for (op, want) in expected {
                let want = s.bv_const(w, want);
                // Through a divisor the solver must find to be zero...
                let q = s.bin(op, x, y);
                let right = s.eq(q, want);
                let wrong = s.not(right);
                expect_sat(bb.solve(&s, &[x_is_a, y_is_zero, right], &unbounded()));
                expect_unsat(bb.solve(&s, &[x_is_a, y_is_zero, wrong], &unbounded()));
                // ...and through a constant zero that folds the circuit.
                let q = s.bin(op, ca, zero);
                let right = s.eq(q, want);
                let wrong = s.not(right);
                expect_sat(bb.solve(&s, &[right], &unbounded()));
                expect_unsat(bb.solve(&s, &[wrong], &unbounded()));
            }
        }
        // For every dividend at once, where the search space is small enough.
        if w <= 8 {
            let x_negative = s.cmp(BvCmp::Slt, x, zero);
            let one = s.bv_const(w, 1);
            let all_ones = s.bv_const(w, m);
            let sdiv_expected = s.ite(x_negative, one, all_ones);
            for (op, want) in [
                (BvBinOp::Udiv, all_ones),
                (BvBinOp::Urem, x),
                (BvBinOp::Sdiv, sdiv_expected),
                (BvBinOp::Srem, x),
                (BvBinOp::Smod, x),
            ] {
                let q = s.bin(op, x, y);
                let right = s.eq(q, want);
                let wrong = s.not(right);
                expect_unsat(bb.solve(&s, &[y_is_zero, wrong], &unbounded()));
                // With a non-zero divisor any answer must still be sound.
                let y_is_not_zero = s.not(y_is_zero);
                solve_checked(&mut bb, &s, &[y_is_not_zero, wrong]);
            }
        }
    }
}

/// A store with byte and index helpers for the array tests.
struct Arrays {
    s: TermStore,
    bb: BitBlaster,
}

impl Arrays {
    fn new() -> Arrays {
        Arrays {
            s: TermStore::new(),
            bb: BitBlaster::new(),
        }
    }

    fn byte(&mut self, v: u64) -> TermId {
        self.s.bv_const(8, v)
    }

    fn index(&mut self, name: &str) -> TermId {
        self.s.declare(name, bv(32)).unwrap()
    }

    fn is(&mut self, t: TermId, v: u64) -> TermId {
        let c = self.s.bv_const(self.s.width(t), v);
        self.s.eq(t, c)
    }

    fn differ(&mut self, a: TermId, b: TermId) -> TermId {
        let same = self.s.eq(a, b);
        self.s.not(same)
    }

    fn sat(&mut self, query: &[TermId]) -> Model {
        expect_sat(solve_checked(&mut self.bb, &self.s, query))
    }

    fn unsat(&mut self, query: &[TermId]) {
        expect_unsat(solve_checked(&mut self.bb, &self.s, query));
    }
}

#[test]
fn reads_through_stores_at_symbolic_indices() {
    let mut t = Arrays::new();
    let a = t.s.declare("A", Sort::Array).unwrap();
    let (i, j, k) = (t.index("i"), t.index("j"), t.index("k"));
    let (five, seven) = (t.byte(5), t.byte(7));
    let m1 = t.s.store(a, i, five);
    let m2 = t.s.store(m1, k, seven);
    let at_k = t.s.select(m2, k);
    let not_seven = t.differ(at_k, seven);
    t.unsat(&[not_seven]);
    // The later store wins only where the indices meet.
    let at_i = t.s.select(m2, i);
    let at_i_is_7 = t.is(at_i, 7);
    let model = t.sat(&[at_i_is_7]);
    assert_eq!(t.s.eval(i, &model), t.s.eval(k, &model));
    let k_is_not_i = t.differ(k, i);
    t.unsat(&[at_i_is_7, k_is_not_i]);
    // Elsewhere the read falls through to A.
    let at_j = t.s.select(m2, j);
    let a_at_j = t.s.select(a, j);
    let at_j_is_7 = t.is(at_j, 7);
    let j_is_not_k = t.differ(j, k);
    let a_at_j_is_not_7 = t.differ(a_at_j, seven);
    t.unsat(&[at_j_is_7, j_is_not_k, a_at_j_is_not_7]);
    let at_j_is_9 = t.is(at_j, 9);
    let model = t.sat(&[at_j_is_9, j_is_not_k]);
    assert_eq!(t.s.eval(a_at_j, &model).as_bv(), Some(9));
}

#[test]
fn reads_of_constant_arrays_and_array_ites() {
    let mut t = Arrays::new();
    let (i, j) = (t.index("i"), t.index("j"));
    let three = t.byte(3);
    let filled = t.s.const_array(three);
    let read = t.s.select(filled, j);
    let read_is_4 = t.is(read, 4);
    t.unsat(&[read_is_4]);
    let nine = t.byte(9);
    let stored = t.s.store(filled, i, nine);
    let read = t.s.select(stored, j);
    let read_is_9 = t.is(read, 9);
    let j_is_not_i = t.differ(j, i);
    t.unsat(&[read_is_9, j_is_not_i]);
    let read_is_3 = t.is(read, 3);
    let model = t.sat(&[read_is_3]);
    assert_ne!(t.s.eval(i, &model), t.s.eval(j, &model));

    let c = t.s.declare("c", Sort::Bool).unwrap();
    let (one, two) = (t.byte(1), t.byte(2));
    let zero = t.byte(0);
    let zeros = t.s.const_array(zero);
    let left = t.s.store(zeros, i, one);
    let right = t.s.store(zeros, i, two);
    let either = t.s.ite(c, left, right);
    let read = t.s.select(either, i);
    let read_is_2 = t.is(read, 2);
    let model = t.sat(&[read_is_2]);
    assert_eq!(t.s.eval(c, &model), Value::Bool(false));
    let read_is_3 = t.is(read, 3);
    t.unsat(&[read_is_3]);
    // Both branches share `zeros` and `i`; reading elsewhere gives 0 in both.
    let elsewhere = t.s.select(either, j);
    let elsewhere_is_0 = t.is(elsewhere, 0);
    let model = t.sat(&[elsewhere_is_0, read_is_2]);
    assert_ne!(t.s.eval(i, &model), t.s.eval(j, &model));
    // An ite of ites over a symbolic array.
    let a = t.s.declare("A", Sort::Array).unwrap();
    let d = t.s.declare("d", Sort::Bool).unwrap();
    let nested = t.s.ite(d, either, a);
    let read = t.s.select(nested, j);
    let read_is_5 = t.is(read, 5);
    let model = t.sat(&[read_is_5]);
    assert_eq!(t.s.eval(d, &model), Value::Bool(false));
}

#[test]
fn equal_indices_of_a_symbolic_array_read_equal_bytes() {
    let mut t = Arrays::new();
    let a = t.s.declare("A", Sort::Array).unwrap();
    let (i, j) = (t.index("i"), t.index("j"));
    let (at_i, at_j) = (t.s.select(a, i), t.s.select(a, j));
    let at_i_is_1 = t.is(at_i, 1);
    let at_j_is_2 = t.is(at_j, 2);
    let i_is_j = t.s.eq(i, j);
    // The first query makes both reads; the second needs their axiom.
    let model = t.sat(&[at_i_is_1, at_j_is_2]);
    assert_ne!(t.s.eval(i, &model), t.s.eval(j, &model));
    t.unsat(&[at_i_is_1, at_j_is_2, i_is_j]);
    // A read at a constant index against one at a symbolic index.
    let five = t.s.bv_const(32, 5);
    let at_5 = t.s.select(a, five);
    let at_5_is_2 = t.is(at_5, 2);
    let i_is_5 = t.is(i, 5);
    t.unsat(&[at_i_is_1, at_5_is_2, i_is_5]);
    t.sat(&[at_i_is_1, at_5_is_2]);
    // An index read from the array itself: A[A[0]] with A[0] = 0 is A[0].
    let zero = t.s.bv_const(32, 0);
    let at_0 = t.s.select(a, zero);
    let pointer = t.s.zero_ext(24, at_0);
    let indirect = t.s.select(a, pointer);
    let at_0_is_0 = t.is(at_0, 0);
    let indirect_is_1 = t.is(indirect, 1);
    t.unsat(&[at_0_is_0, indirect_is_1]);
    let at_0_is_3 = t.is(at_0, 3);
    let model = t.sat(&[at_0_is_3, indirect_is_1]);
    let memory = model.get(t.s.symbol_named("A").unwrap()).unwrap();
    match memory {
        Value::Array(v) => assert_eq!((v.get(0), v.get(3)), (3, 1)),
        other => panic!("{other:?}"),
    }
}

/// An input buffer's bytes are reads of its array at distinct constant
/// indices, which never alias: a query over all 1,024 bytes of one needs
/// no Ackermann axiom (pairs of them would make it quadratic).
#[test]
fn reads_at_distinct_constant_indices_need_no_axioms() {
    let mut t = Arrays::new();
    let input = t.s.declare("input", Sort::Array).unwrap();
    let ten = t.byte(10);
    let small: Vec<TermId> = (0..1024)
        .map(|k| {
            let at = t.s.bv_const(32, k);
            let byte = t.s.select(input, at);
            t.s.cmp(BvCmp::Ult, byte, ten)
        })
        .collect();
    let model = t.sat(&small);
    assert!(t.bb.instance.axioms.is_empty());
    match model.get(t.s.symbol_named("input").unwrap()) {
        Some(Value::Array(v)) => assert!((0..1024).all(|k| v.get(k) < 10)),
        other => panic!("{other:?}"),
    }
}

/// Random well-sorted terms over few, narrow symbols, so that unsat answers
/// can be confirmed by trying every assignment, and at most 8 bits wide (but
/// for array indices), so that every query stays small.
fn narrow_term_gen(s: &mut TermStore, seed: u64, arrays: bool) -> TermGen {
    let options = Options {
        bools: 2,
        symbol_widths: vec![2, 3, 4],
        per_width: 1,
        widths: vec![1, 2, 3, 4, 5, 8],
        arrays,
        max_width: 8,
        early_leaf_percent: 0,
        const_percent: 25,
        edge_percent: EDGE_PERCENT,
        exact_symbols: false,
        patterns: false,
    };
    TermGen::new(seed, s, options)
}

/// Whether some assignment of `symbols` satisfies `query`, trying them all.
fn satisfiable_by_enumeration(s: &TermStore, symbols: &[TermId], query: &[TermId]) -> bool {
    let total_bits: u32 = symbols.iter().map(|&x| u32::from(s.width(x).max(1))).sum();
    (0..1u64 << total_bits).any(|mut bits| {
        let mut model = Model::new();
        for &x in symbols {
            let Node::Symbol(sym) = *s.node(x) else {
                unreachable!()
            };
            let value = match s.sort(x) {
                Sort::Bool => Value::Bool(bits & 1 == 1),
                _ => Value::Bv {
                    width: s.width(x),
                    value: bits & mask(s.width(x)),
                },
            };
            bits >>= s.width(x).max(1);
            model.set(sym, value);
        }
        s.satisfies(query, &model)
    })
}

#[test]
fn random_terms_get_sound_answers() {
    let mut s = TermStore::new();
    let mut gen = narrow_term_gen(&mut s, 0x5eed, false);
    let symbols = gen.symbols().to_vec();
    let mut bb = BitBlaster::new();
    let (mut sat, mut unsat) = (0, 0);
    for _ in 0..250 {
        let n = 1 + gen.rng.below(3);
        let query: Vec<TermId> = (0..n).map(|_| gen.bool_term(&mut s, 3)).collect();
        match solve_checked(&mut bb, &s, &query) {
            BlastAnswer::Sat(_) => sat += 1,
            _ => {
                assert!(
                    !satisfiable_by_enumeration(&s, &symbols, &query),
                    "unsat but satisfiable: {query:?}"
                );
                unsat += 1;
            }
        }
    }
    assert!(sat > 20 && unsat > 20, "{sat} sat, {unsat} unsat");
}

#[test]
fn random_terms_with_arrays_get_sound_answers() {
    let mut s = TermStore::new();
    let mut gen = narrow_term_gen(&mut s, 0xa77a, true);
    let mut shared = BitBlaster::new();
    let (mut sat, mut unsat) = (0, 0);
    for _ in 0..200 {
        let n = 1 + gen.rng.below(3);
        let query: Vec<TermId> = (0..n).map(|_| gen.bool_term(&mut s, 4)).collect();
        let answer = solve_checked(&mut shared, &s, &query);
        // A fresh instance must agree with the one that has seen everything.
        let fresh = BitBlaster::new().solve(&s, &query, &unbounded());
        match (answer, fresh) {
            (BlastAnswer::Sat(_), BlastAnswer::Sat(_)) => sat += 1,
            (BlastAnswer::Unsat { .. }, BlastAnswer::Unsat { .. }) => unsat += 1,
            (a, b) => panic!("shared says {a:?}, fresh says {b:?} on {query:?}"),
        }
    }
    assert!(sat > 20 && unsat > 10, "{sat} sat, {unsat} unsat");
}

#[test]
fn unsat_cores_are_unsat_subsets() {
    let mut s = TermStore::new();
    let mut bb = BitBlaster::new();
    let x = s.declare("x", bv(8)).unwrap();
    let y = s.declare("y", bv(8)).unwrap();
    let (five, ten, three) = (s.bv_const(8, 5), s.bv_const(8, 10), s.bv_const(8, 3));
    let below_5 = s.cmp(BvCmp::Ult, x, five);
    let above_10 = s.cmp(BvCmp::Ult, ten, x);
    let y_is_3 = s.eq(y, three);
    let core = expect_unsat(solve_checked(&mut bb, &s, &[y_is_3, below_5, above_10]));
    assert_eq!(
        core,
        vec![below_5, above_10].into_iter().collect::<Vec<_>>()
    );
    // A constraint that folds to false is its own core, found without SAT.
    let mut fresh = BitBlaster::new();
    let zero = s.bv_const(8, 0);
    let one = s.bv_const(8, 1);
    let masked = s.bin(BvBinOp::And, x, zero);
    let impossible = s.eq(masked, one);
    let core = expect_unsat(fresh.solve(&s, &[y_is_3, impossible], &unbounded()));
    assert_eq!(core, vec![impossible]);
}

#[test]
fn constraints_are_assumptions_not_permanent_clauses() {
    let mut s = TermStore::new();
    let mut bb = BitBlaster::new();
    let x = s.declare("x", bv(16)).unwrap();
    let y = s.declare("y", bv(16)).unwrap();
    let product = s.bin(BvBinOp::Mul, x, y);
    let target = s.bv_const(16, 391);
    let c = s.eq(product, target);
    let not_c = s.not(c);
    expect_sat(solve_checked(&mut bb, &s, &[c]));
    expect_sat(solve_checked(&mut bb, &s, &[not_c]));
    expect_unsat(solve_checked(&mut bb, &s, &[c, not_c]));
    let model = expect_sat(solve_checked(&mut bb, &s, &[c]));
    assert_eq!(s.eval(product, &model).as_bv(), Some(391));
    // Asking again reuses the circuit: nothing new goes into the instance.
    let (vars, clauses) = (bb.num_vars(), bb.num_clauses());
    expect_sat(solve_checked(&mut bb, &s, &[c]));
    expect_unsat(solve_checked(&mut bb, &s, &[not_c, c]));
    assert_eq!((bb.num_vars(), bb.num_clauses()), (vars, clauses));
}

#[test]
fn symbols_folded_away_still_get_values() {
    let mut s = TermStore::new();
    let mut bb = BitBlaster::new();
    let x = s.declare("x", bv(8)).unwrap();
    let p = s.declare("p", Sort::Bool).unwrap();
    let a = s.declare("A", Sort::Array).unwrap();
    let zero = s.bv_const(8, 0);
    let masked = s.bin(BvBinOp::And, x, zero);
    let always = s.eq(masked, zero);
    let not_p = s.not(p);
    let excluded_middle = s.or(p, not_p);
    let i = s.bv_const(32, 7);
    let stored = s.store(a, i, x);
    let read = s.select(stored, i);
    let read_is_x = s.eq(read, x);
    let query = [always, excluded_middle, read_is_x];
    let model = expect_sat(solve_checked(&mut bb, &s, &query));
    assert_eq!(bb.num_vars(), 0, "everything folds to true");
    for name in ["x", "p", "A"] {
        assert!(model.get(s.symbol_named(name).unwrap()).is_some(), "{name}");
    }
}

/// `s = s * y + x`, `rounds` times over 64-bit symbols, compared with a
/// constant: a circuit of millions of gates for a few thousand rounds.
fn polynomial(s: &mut TermStore, rounds: usize) -> TermId {
    let x = s.declare("x", bv(64)).unwrap();
    let y = s.declare("y", bv(64)).unwrap();
    let mut acc = s.bv_const(64, 0);
    for _ in 0..rounds {
        let product = s.bin(BvBinOp::Mul, acc, y);
        acc = s.bin(BvBinOp::Add, product, x);
    }
    let target = s.bv_const(64, 12345);
    s.eq(acc, target)
}

#[test]
fn the_time_limit_and_the_interrupt_hold_inside_bit_blasting() {
    use crate::limits::{Interrupt, Reached};
    use std::sync::atomic::AtomicBool;
    let mut s = TermStore::new();
    let query = polynomial(&mut s, 3000);
    let mut bb = BitBlaster::new();
    // Unbounded, this circuit takes seconds and gigabytes to build.
    let started = Instant::now();
    let soon = Budget {
        timeout: Some(web_time::Duration::from_millis(100)),
        ..Budget::default()
    };
    match bb.solve(&s, &[query], &soon.starting_now()) {
        BlastAnswer::Unknown { limit, .. } => assert_eq!(limit, Some(Reached::Time)),
        other => panic!("expected unknown, got {other:?}"),
    }
    let took = started.elapsed();
    assert!(took.as_millis() < 1000, "stopped after {took:?}");
    // The graph built so far is dropped.
    assert!(
        bb.translator.aig().len() < 10,
        "{}",
        bb.translator.aig().len()
    );
    static STOP: AtomicBool = AtomicBool::new(true);
    let stopped = Budget {
        interrupt: Some(Interrupt(&STOP)),
        ..Budget::default()
    };
    match bb.solve(&s, &[query], &stopped.starting_now()) {
        BlastAnswer::Unknown { limit, .. } => assert_eq!(limit, Some(Reached::Interrupt)),
        other => panic!("expected unknown, got {other:?}"),
    }
    // The blaster answers the next query, and a small one of the same
    // shape is solved in full.
    let mut small = TermStore::new();
    let few = polynomial(&mut small, 3);
    let model = expect_sat(solve_checked(&mut bb, &small, &[few]));
    assert!(small.satisfies(&[few], &model));
}

#[test]
fn a_budget_gives_unknown_and_the_next_query_starts_fresh() {
    let mut s = TermStore::new();
    let mut bb = BitBlaster::new();
    let x = s.declare("x", bv(32)).unwrap();
    let y = s.declare("y", bv(32)).unwrap();
    let (wide_x, wide_y) = (s.zero_ext(32, x), s.zero_ext(32, y));
    let product = s.bin(BvBinOp::Mul, wide_x, wide_y);
    // The product of two 31-bit primes: factoring it takes many conflicts.
    let semiprime = s.bv_const(64, 2_147_483_647 * 2_147_483_629);
    let factors = s.eq(product, semiprime);
    let one = s.bv_const(32, 1);
    let x_above_1 = s.cmp(BvCmp::Ult, one, x);
    let y_above_1 = s.cmp(BvCmp::Ult, one, y);
    let budget = Budget {
        max_conflicts: Some(200),
        ..Budget::default()
    };
    match bb.solve(&s, &[factors, x_above_1, y_above_1], &budget.starting_now()) {
        BlastAnswer::Unknown { why, .. } => assert!(why.contains("conflict"), "{why}"),
        other => panic!("expected unknown, got {other:?}"),
    }
    assert_eq!(bb.num_clauses(), 0, "the instance is discarded");
    // Its variables were made all the same.
    let made = bb.vars_made();
    assert!(made > 64, "{made} variables made");
    let five = s.bv_const(32, 5);
    let x_is_5 = s.eq(x, five);
    let model = expect_sat(solve_checked(&mut bb, &s, &[x_is_5, x_above_1]));
    assert_eq!(s.eval(x, &model).as_bv(), Some(5));
    assert_eq!(bb.vars_made(), made + bb.num_vars() as u64);
    let x_is_1 = s.eq(x, one);
    expect_unsat(solve_checked(&mut bb, &s, &[x_is_1, x_above_1]));
}

#[test]
fn deep_terms_need_no_recursion() {
    let mut s = TermStore::new();
    let mut bb = BitBlaster::new();
    let x = s.declare("x", bv(8)).unwrap();
    let mut flipped = x;
    for _ in 0..100_000 {
        flipped = s.bvnot(flipped);
    }
    let five = s.bv_const(8, 5);
    let c = s.eq(flipped, five);
    let model = expect_sat(bb.solve(&s, &[c], &unbounded()));
    assert_eq!(s.eval(x, &model).as_bv(), Some(5));

    // A long chain of stores at constant addresses over a stored symbol.
    let a = s.declare("A", Sort::Array).unwrap();
    let zero = s.bv_const(32, 0);
    let mut memory = s.store(a, zero, x);
    for k in 1..100_000u64 {
        let (i, v) = (s.bv_const(32, k), s.bv_const(8, k % 251));
        memory = s.store(memory, i, v);
    }
    let first = s.select(memory, zero);
    let forty_two = s.bv_const(8, 42);
    let first_is_42 = s.eq(first, forty_two);
    let past_the_end = s.bv_const(32, 100_000);
    let beyond = s.select(memory, past_the_end);
    let beyond_is_first = s.eq(beyond, first);
    let query = [first_is_42, beyond_is_first];
    let model = expect_sat(bb.solve(&s, &query, &unbounded()));
    // (The evaluator copies the array at every store, so check by hand.)
    assert_eq!(s.eval(x, &model).as_bv(), Some(42));
    match model.get(s.symbol_named("A").unwrap()) {
        Some(Value::Array(v)) => assert_eq!(v.get(100_000), 42),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_sum_of_input_bytes_is_solved() {
    let mut s = TermStore::new();
    let mut bb = BitBlaster::new();
    let input = s.declare("input", Sort::Array).unwrap();
    let mut sum = s.bv_const(32, 0);
    for k in 0..256 {
        let i = s.bv_const(32, k);
        let byte = s.select(input, i);
        let wide = s.zero_ext(24, byte);
        sum = s.bin(BvBinOp::Add, sum, wide);
    }
    let target = s.bv_const(32, 30_000);
    let c = s.eq(sum, target);
    let (zero, ten) = (s.bv_const(32, 0), s.bv_const(8, 10));
    let first = s.select(input, zero);
    let first_is_small = s.cmp(BvCmp::Ult, first, ten);
    let model = expect_sat(solve_checked(&mut bb, &s, &[c, first_is_small]));
    match model.get(s.symbol_named("input").unwrap()) {
        Some(Value::Array(v)) => {
            let total: u64 = (0..256).map(|k| u64::from(v.get(k))).sum();
            assert_eq!(total, 30_000);
        }
        other => panic!("{other:?}"),
    }
    let other_target = s.bv_const(32, 30_001);
    let other_sum = s.eq(sum, other_target);
    expect_unsat(solve_checked(&mut bb, &s, &[c, first_is_small, other_sum]));
}

#[test]
fn independent_queries_do_not_pile_up_in_one_instance() {
    let mut s = TermStore::new();
    let mut bb = BitBlaster::new();
    let two = s.bv_const(32, 2);
    // Two reads whose axiom goes into the first instance.
    let a = s.declare("A", Sort::Array).unwrap();
    let (i, j) = (
        s.declare("i", bv(32)).unwrap(),
        s.declare("j", bv(32)).unwrap(),
    );
    let (at_i, at_j) = (s.select(a, i), s.select(a, j));
    let (one, two_bytes) = (s.bv_const(8, 1), s.bv_const(8, 2));
    let at_i_is_1 = s.eq(at_i, one);
    let at_j_is_2 = s.eq(at_j, two_bytes);
    expect_sat(solve_checked(&mut bb, &s, &[at_i_is_1, at_j_is_2]));
    let mut all = Vec::new();
    let mut largest = 0;
    for k in 0..40 {
        let x = s.declare(&format!("x{k}"), bv(32)).unwrap();
        let y = s.declare(&format!("y{k}"), bv(32)).unwrap();
        let product = s.bin(BvBinOp::Mul, x, y);
        let target = s.bv_const(32, 1_000_003 * (k + 3));
        let factors = s.eq(product, target);
        let x_big = s.cmp(BvCmp::Ult, two, x);
        let y_big = s.cmp(BvCmp::Ult, two, y);
        let query = [factors, x_big, y_big];
        expect_sat(solve_checked(&mut bb, &s, &query));
        largest = largest.max(bb.num_vars());
        all.extend(query);
    }
    // The instance has been replaced since: the axiom must come back, and
    // the variables made count the replaced instances too.
    assert!(bb.vars_made() > largest as u64);
    let i_is_j = s.eq(i, j);
    expect_unsat(solve_checked(&mut bb, &s, &[at_i_is_1, at_j_is_2, i_is_j]));
    let mut together = BitBlaster::new();
    expect_sat(together.solve(&s, &all, &unbounded()));
    assert!(
        largest * 2 < together.num_vars(),
        "{largest} variables at most, {} for all queries",
        together.num_vars()
    );
}

#[test]
fn a_small_query_beside_a_large_instance_is_solved_in_the_small_one() {
    let mut s = TermStore::new();
    let (x, y) = (
        s.declare("x", Sort::Bv(64)).unwrap(),
        s.declare("y", Sort::Bv(64)).unwrap(),
    );
    let product = s.bin(BvBinOp::Mul, x, y);
    let target = s.bv_const(64, 0x1234_5678_9abc_def1);
    let large = s.eq(product, target);
    let b = s.declare("b", Sort::Bv(8)).unwrap();
    let seven = s.bv_const(8, 7);
    let small = s.cmp(BvCmp::Ult, b, seven);
    let mut blaster = BitBlaster::new();
    let model = expect_sat(blaster.solve(&s, &[large], &unbounded()));
    assert!(s.satisfies(&[large], &model));
    let vars = blaster.num_vars();
    assert!(vars > SMALL_QUERY_VARS, "{vars}");
    let made = blaster.vars_made();
    let model = expect_sat(blaster.solve(&s, &[small], &unbounded()));
    assert!(s.satisfies(&[small], &model));
    // The large instance took no variable; the small one did.
    assert_eq!(blaster.num_vars(), vars);
    assert!(blaster.vars_made() > made);
    // Both together are no small query: the large instance answers.
    let model = expect_sat(blaster.solve(&s, &[large, small], &unbounded()));
    assert!(s.satisfies(&[large, small], &model));
    assert!(blaster.num_vars() > vars);
}
