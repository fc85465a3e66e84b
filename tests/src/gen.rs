//! Random well-typed terms: general formulas for the differential test
//! ([`formula`]) and symbolic-execution-shaped query sequences for the
//! benchmark ([`paths`]).

pub mod formula;
pub mod paths;

use crate::rng::Rng;
use symplay_engine::expr::mask;

/// A `width`-bit value, biased toward the edges where operators misbehave:
/// zero (division by zero), one, all ones, the signed extremes (overflow),
/// shift amounts around the width, and small numbers.
pub fn interesting_value(rng: &mut Rng, width: u8) -> u64 {
    let m = mask(width);
    let min_signed = 1u64 << (width - 1);
    let v = match rng.below(10) {
        0 => 0,
        1 => 1,
        2 => m,
        3 => min_signed,
        4 => min_signed - 1,
        5 => u64::from(width) + rng.below(3) - 1,
        6 | 7 => rng.below(16),
        _ => rng.next_u64(),
    };
    v & m
}
