//! Bit-vector circuits over an [`Aig`]. A word is a slice of literals, least
//! significant bit first; operands of one operator have equal, non-zero widths.

use super::aig::{Aig, AigLit};
use crate::expr::{BvBinOp, BvCmp};
use std::iter;

pub fn constant(width: u8, value: u64) -> Vec<AigLit> {
    (0..width)
        .map(|i| AigLit::constant((value >> i) & 1 == 1))
        .collect()
}

fn msb(a: &[AigLit]) -> AigLit {
    a[a.len() - 1]
}

/// `if c { t } else { e }`, bit by bit.
pub fn mux(aig: &mut Aig, c: AigLit, t: &[AigLit], e: &[AigLit]) -> Vec<AigLit> {
    t.iter().zip(e).map(|(&t, &e)| aig.mux(c, t, e)).collect()
}

pub fn eq(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> AigLit {
    // Differing constant bits decide without building gates, which matters
    // when a read walks a long chain of stores at constant addresses.
    let differ = |(x, y): (&AigLit, &AigLit)| matches!((x.as_constant(), y.as_constant()), (Some(p), Some(q)) if p != q);
    if a.iter().zip(b).any(differ) {
        return AigLit::FALSE;
    }
    let same: Vec<AigLit> = a.iter().zip(b).map(|(&x, &y)| aig.xnor(x, y)).collect();
    aig.and_all(same)
}

fn is_zero(aig: &mut Aig, a: &[AigLit]) -> AigLit {
    aig.and_all(a.iter().map(|&l| !l))
}

/// Sum and carry out of `a + b + carry`.
fn full_add(aig: &mut Aig, a: AigLit, b: AigLit, carry: AigLit) -> (AigLit, AigLit) {
    let half = aig.xor(a, b);
    let sum = aig.xor(half, carry);
    let both = aig.and(a, b);
    let carried = aig.and(carry, half);
    (sum, aig.or(both, carried))
}

/// `a + b + carry_in`, and the carry out of the top bit.
fn add_with_carry(
    aig: &mut Aig,
    a: &[AigLit],
    b: &[AigLit],
    carry_in: AigLit,
) -> (Vec<AigLit>, AigLit) {
    let mut carry = carry_in;
    let sum = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let (s, c) = full_add(aig, x, y, carry);
            carry = c;
            s
        })
        .collect();
    (sum, carry)
}

/// `a + b + carry_in` without the carry out, so the top carry gate is never built.
fn add(aig: &mut Aig, a: &[AigLit], b: &[AigLit], carry_in: AigLit) -> Vec<AigLit> {
    let top = a.len() - 1;
    let (mut sum, carry) = add_with_carry(aig, &a[..top], &b[..top], carry_in);
    let half = aig.xor(a[top], b[top]);
    sum.push(aig.xor(half, carry));
    sum
}

fn not(a: &[AigLit]) -> Vec<AigLit> {
    a.iter().map(|&l| !l).collect()
}

pub fn neg(aig: &mut Aig, a: &[AigLit]) -> Vec<AigLit> {
    let zero = vec![AigLit::FALSE; a.len()];
    add(aig, &not(a), &zero, AigLit::TRUE)
}

fn sub(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    add(aig, a, &not(b), AigLit::TRUE)
}

/// Shift-and-add. The operand with more constant bits is the multiplier, so
/// multiplying by a constant only adds the partial products of its one bits.
fn mul(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    let constant_bits = |w: &[AigLit]| w.iter().filter(|l| l.as_constant().is_some()).count();
    let (multiplicand, multiplier) = if constant_bits(a) > constant_bits(b) {
        (b, a)
    } else {
        (a, b)
    };
    let width = a.len();
    let mut acc = vec![AigLit::FALSE; width];
    for (shift, &m) in multiplier.iter().enumerate() {
        if m == AigLit::FALSE {
            continue;
        }
        // Partial products only reach the bits at and above the shift.
        let partial: Vec<AigLit> = multiplicand[..width - shift]
            .iter()
            .map(|&x| aig.and(x, m))
            .collect();
        let upper = add(aig, &acc[shift..], &partial, AigLit::FALSE);
        acc[shift..].copy_from_slice(&upper);
    }
    acc
}

/// Restoring division: quotient and remainder. Dividing by zero gives an
/// all-ones quotient and the dividend as remainder, as SMT-LIB requires,
/// because every trial subtraction of zero succeeds.
fn udiv_urem(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> (Vec<AigLit>, Vec<AigLit>) {
    let width = a.len();
    // `b` zero-extended by one bit, complemented for subtraction.
    let not_b: Vec<AigLit> = not(b).into_iter().chain(iter::once(AigLit::TRUE)).collect();
    let mut quotient = vec![AigLit::FALSE; width];
    let mut rem = vec![AigLit::FALSE; width];
    for i in (0..width).rev() {
        // The remainder is below `b`, so shifting in one bit needs one bit more.
        let shifted: Vec<AigLit> = iter::once(a[i]).chain(rem.iter().copied()).collect();
        let (diff, fits) = add_with_carry(aig, &shifted, &not_b, AigLit::TRUE);
        quotient[i] = fits;
        rem = mux(aig, fits, &diff[..width], &shifted[..width]);
    }
    (quotient, rem)
}

/// The absolute value of a two's-complement word, and its sign bit.
fn abs(aig: &mut Aig, a: &[AigLit]) -> (Vec<AigLit>, AigLit) {
    let sign = msb(a);
    let negated = neg(aig, a);
    (mux(aig, sign, &negated, a), sign)
}

/// `bvsdiv` as SMT-LIB defines it: divide the absolute values, negate the
/// quotient when the signs differ.
fn sdiv(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    let (abs_a, sign_a) = abs(aig, a);
    let (abs_b, sign_b) = abs(aig, b);
    let (q, _) = udiv_urem(aig, &abs_a, &abs_b);
    let negated = neg(aig, &q);
    let signs_differ = aig.xor(sign_a, sign_b);
    mux(aig, signs_differ, &negated, &q)
}

/// `bvsrem`: the remainder of the absolute values, with the dividend's sign.
fn srem(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    let (abs_a, sign_a) = abs(aig, a);
    let (abs_b, _) = abs(aig, b);
    let (_, r) = udiv_urem(aig, &abs_a, &abs_b);
    let negated = neg(aig, &r);
    mux(aig, sign_a, &negated, &r)
}

/// `bvsmod`: with `u` the remainder of the absolute values, `u` when it is
/// zero or both signs are positive, `-u + b` or `u + b` when only the dividend
/// or only the divisor is negative, `-u` when both are.
fn smod(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    let (abs_a, sign_a) = abs(aig, a);
    let (abs_b, sign_b) = abs(aig, b);
    let (_, u) = udiv_urem(aig, &abs_a, &abs_b);
    let negated = neg(aig, &u);
    let signed_u = mux(aig, sign_a, &negated, &u);
    let plus_b = add(aig, &signed_u, b, AigLit::FALSE);
    let signs_differ = aig.xor(sign_a, sign_b);
    let adjusted = mux(aig, signs_differ, &plus_b, &signed_u);
    let u_is_zero = is_zero(aig, &u);
    mux(aig, u_is_zero, &u, &adjusted)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shift {
    Left,
    LogicalRight,
    ArithmeticRight,
}

/// Barrel shifter: stage `k` shifts by `2^k` when bit `k` of the amount is
/// set. Amount bits worth the width or more shift everything out.
fn shift(aig: &mut Aig, a: &[AigLit], amount: &[AigLit], kind: Shift) -> Vec<AigLit> {
    let width = a.len();
    let fill = match kind {
        Shift::Left | Shift::LogicalRight => AigLit::FALSE,
        Shift::ArithmeticRight => msb(a),
    };
    let mut word = a.to_vec();
    let mut too_far = AigLit::FALSE;
    for (k, &bit) in amount.iter().enumerate() {
        // `amount` has at most 64 bits, so `k < 64`.
        let distance = 1u64 << k;
        if distance >= width as u64 {
            too_far = aig.or(too_far, bit);
            continue;
        }
        let d = distance as usize;
        word = (0..width)
            .map(|i| {
                let moved = match kind {
                    Shift::Left if i >= d => word[i - d],
                    Shift::Left => AigLit::FALSE,
                    _ if i + d < width => word[i + d],
                    _ => fill,
                };
                aig.mux(bit, moved, word[i])
            })
            .collect();
    }
    word.iter().map(|&l| aig.mux(too_far, fill, l)).collect()
}

/// `a < b` unsigned: the subtraction `a - b` borrows, so `a + !b + 1` has no
/// carry out.
fn ult(aig: &mut Aig, a: &[AigLit], b: &[AigLit]) -> AigLit {
    let carry = a
        .iter()
        .zip(b)
        .fold(AigLit::TRUE, |carry, (&x, &y)| aig.majority(x, !y, carry));
    !carry
}

/// Complementing the sign bits turns a signed order into an unsigned one.
fn flip_sign(a: &[AigLit]) -> Vec<AigLit> {
    let mut flipped = a.to_vec();
    let top = flipped.len() - 1;
    flipped[top] = !flipped[top];
    flipped
}

pub fn compare(aig: &mut Aig, op: BvCmp, a: &[AigLit], b: &[AigLit]) -> AigLit {
    match op {
        BvCmp::Ult => ult(aig, a, b),
        BvCmp::Ule => !ult(aig, b, a),
        BvCmp::Slt => ult(aig, &flip_sign(a), &flip_sign(b)),
        BvCmp::Sle => !ult(aig, &flip_sign(b), &flip_sign(a)),
    }
}

pub fn binary(aig: &mut Aig, op: BvBinOp, a: &[AigLit], b: &[AigLit]) -> Vec<AigLit> {
    let bitwise = |aig: &mut Aig, f: fn(&mut Aig, AigLit, AigLit) -> AigLit| {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| f(aig, x, y))
            .collect::<Vec<_>>()
    };
    match op {
        BvBinOp::Add => add(aig, a, b, AigLit::FALSE),
        BvBinOp::Sub => sub(aig, a, b),
        BvBinOp::Mul => mul(aig, a, b),
        BvBinOp::Udiv => udiv_urem(aig, a, b).0,
        BvBinOp::Urem => udiv_urem(aig, a, b).1,
        BvBinOp::Sdiv => sdiv(aig, a, b),
        BvBinOp::Srem => srem(aig, a, b),
        BvBinOp::Smod => smod(aig, a, b),
        BvBinOp::Shl => shift(aig, a, b, Shift::Left),
        BvBinOp::Lshr => shift(aig, a, b, Shift::LogicalRight),
        BvBinOp::Ashr => shift(aig, a, b, Shift::ArithmeticRight),
        BvBinOp::And => bitwise(aig, Aig::and),
        BvBinOp::Or => bitwise(aig, Aig::or),
        BvBinOp::Xor => bitwise(aig, Aig::xor),
    }
}
