//! Simplification of constraint sets: flattening, dropping, deduplication,
//! fact substitution, and a randomized check that models are kept.

use super::{term_gen, Fixture, Simplifier};
use crate::expr::random::TermGen;
use crate::expr::{BvBinOp, BvCmp, TermId, TermStore};

fn simplify_constraints(store: &mut TermStore, cs: &[TermId]) -> Vec<TermId> {
    Simplifier::new().simplify_constraints(store, cs)
}

#[test]
fn a_fixed_symbol_is_substituted_into_the_other_constraints() {
    let mut f = Fixture::new();
    let (five, seven, two) = (f.c(5), f.c(7), f.c(2));
    let x_is_five = f.s.eq(f.x, five);
    let sum = f.s.bin(BvBinOp::Add, f.x, f.y);
    let sum_is_seven = f.s.eq(sum, seven);
    let got = simplify_constraints(&mut f.s, &[x_is_five, sum_is_seven]);
    let expected = [f.s.eq(five, f.x), f.s.eq(two, f.y)];
    assert_eq!(got, expected);
}

/// An input buffer's byte is a read of its array symbol at a constant
/// index: pinned, it is a fact like a symbol, so a branch on it needs no
/// query. A read at a symbolic index is not one.
#[test]
fn a_pinned_byte_of_an_array_symbol_is_a_fact() {
    let mut f = Fixture::new();
    let (three, five, two) = (f.s.bv_const(32, 3), f.c(5), f.c(2));
    let byte = f.s.select(f.mem, three);
    let pinned = f.s.eq(byte, five);
    assert_eq!(Simplifier::fact(&mut f.s, pinned), Some((byte, five)));
    let anywhere = f.s.select(f.mem, f.i);
    let unpinned = f.s.eq(anywhere, five);
    assert_eq!(Simplifier::fact(&mut f.s, unpinned), None);
    let sum = f.s.bin(BvBinOp::Add, byte, f.y);
    let seven = f.c(7);
    let sum_is_seven = f.s.eq(sum, seven);
    let got = simplify_constraints(&mut f.s, &[pinned, sum_is_seven]);
    let expected = [f.s.eq(five, byte), f.s.eq(two, f.y)];
    assert_eq!(got, expected);
}

#[test]
fn facts_exposed_by_substitution_are_substituted_in_turn() {
    let mut f = Fixture::new();
    let (one, two, three) = (f.c(1), f.c(2), f.c(3));
    let x_is_one = f.s.eq(f.x, one);
    let x_plus_one = f.s.bin(BvBinOp::Add, f.x, one);
    let y_follows = f.s.eq(f.y, x_plus_one);
    let y_plus_one = f.s.bin(BvBinOp::Add, f.y, one);
    let z_follows = f.s.eq(y_plus_one, f.z);
    let got = simplify_constraints(&mut f.s, &[z_follows, y_follows, x_is_one]);
    let expected = [f.s.eq(three, f.z), f.s.eq(two, f.y), f.s.eq(one, f.x)];
    assert_eq!(got, expected);
}

#[test]
fn boolean_symbols_and_their_negations_are_facts() {
    let mut f = Fixture::new();
    let not_q = f.s.not(f.q);
    let both = f.s.and(f.p, f.q);
    let either = f.s.or(both, f.r);
    let got = simplify_constraints(&mut f.s, &[f.p, not_q, either]);
    // `p and q` is false once q is, leaving r, itself a fact.
    assert_eq!(got, [f.p, not_q, f.r]);
}

#[test]
fn contradictions_give_a_single_false() {
    let mut f = Fixture::new();
    let (five, six, zero) = (f.c(5), f.c(6), f.c(0));
    let x_is_five = f.s.eq(f.x, five);
    let x_is_six = f.s.eq(six, f.x);
    let not_p = f.s.not(f.p);
    let below_zero = f.s.cmp(BvCmp::Ult, f.y, zero);
    let fls = f.s.fls();
    assert_eq!(
        simplify_constraints(&mut f.s, &[x_is_five, x_is_six]),
        [fls]
    );
    assert_eq!(simplify_constraints(&mut f.s, &[f.p, not_p]), [fls]);
    assert_eq!(simplify_constraints(&mut f.s, &[f.p, below_zero]), [fls]);
}

#[test]
fn conjunctions_are_flattened_deduplicated_and_true_dropped() {
    let mut f = Fixture::new();
    let a = f.s.cmp(BvCmp::Ult, f.x, f.y);
    let b = f.s.cmp(BvCmp::Ult, f.y, f.z);
    let c = f.s.cmp(BvCmp::Slt, f.x, f.z);
    let ab = f.s.and(a, b);
    let abc = f.s.and(ab, c);
    let tru = f.s.tru();
    let mut got = simplify_constraints(&mut f.s, &[abc, a, tru, b]);
    got.sort_unstable();
    assert_eq!(got, [a, b, c]);
    // `not (a or b)` is `not a` and `not b`.
    let a_or_b = f.s.or(a, b);
    let neither = f.s.not(a_or_b);
    let (not_a, not_b) = (f.s.cmp(BvCmp::Ule, f.y, f.x), f.s.cmp(BvCmp::Ule, f.z, f.y));
    assert_eq!(simplify_constraints(&mut f.s, &[neither]), [not_a, not_b]);
    assert!(simplify_constraints(&mut f.s, &[tru, tru]).is_empty());
}

/// For random constraint sets rich in facts, a model satisfies the input
/// exactly when it satisfies the output, which mentions no new symbol.
#[test]
fn random_constraint_sets_keep_their_models() {
    let mut satisfied = 0;
    for case in 0..300u64 {
        let mut store = TermStore::new();
        let mut gen = term_gen(0xc0ffee ^ case, &mut store, &[1, 2, 3]);
        let count = 1 + gen.rng.below(6);
        let input: Vec<TermId> = (0..count)
            .map(|_| random_constraint(&mut gen, &mut store))
            .collect();
        let output = Simplifier::new().simplify_constraints(&mut store, &input);
        let input_symbols = store.symbols_in(&input);
        let output_symbols = store.symbols_in(&output);
        assert!(
            output_symbols.iter().all(|s| input_symbols.contains(s)),
            "case {case}: new symbols"
        );
        for _ in 0..40 {
            let model = gen.model(&store);
            let keeps = store.satisfies(&input, &model);
            assert_eq!(
                keeps,
                store.satisfies(&output, &model),
                "case {case}: {:?} became {:?} under {model:?}",
                input
                    .iter()
                    .map(|&c| store.to_smtlib(c))
                    .collect::<Vec<_>>(),
                output
                    .iter()
                    .map(|&c| store.to_smtlib(c))
                    .collect::<Vec<_>>(),
            );
            satisfied += usize::from(keeps);
        }
    }
    assert!(
        satisfied > 200,
        "only {satisfied} models satisfied their input"
    );
}

/// A fact (`x = k`, `p`, `not p`), a conjunction, or any boolean term.
fn random_constraint(gen: &mut TermGen, store: &mut TermStore) -> TermId {
    match gen.rng.below(6) {
        0 | 1 => {
            let width = gen.rng.pick(&[1, 2, 3]);
            let symbol = gen.bv_symbol(width).unwrap();
            let value = gen.value(width);
            let constant = store.bv_const(width, value);
            store.eq(symbol, constant)
        }
        2 => {
            let p = gen.bool_symbol();
            if gen.rng.chance(50) {
                p
            } else {
                store.not(p)
            }
        }
        3 => {
            let (a, b) = (gen.bool_term(store, 2), gen.bool_term(store, 2));
            store.and(a, b)
        }
        _ => gen.bool_term(store, 3),
    }
}
