//! Randomized soundness: random well-sorted terms keep their value under
//! random models after simplification.

use super::{term_gen, Simplifier};
use crate::expr::{TermId, TermStore};

const ALL_WIDTHS: [u8; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 32, 64];

#[test]
fn simplification_preserves_the_value_of_random_terms() {
    let (mut terms, mut changed) = (0, 0);
    for batch in 0..200u64 {
        let mut store = TermStore::new();
        let mut gen = term_gen(0x5eed ^ batch, &mut store, &ALL_WIDTHS);
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
