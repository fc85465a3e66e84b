//! One named row per rewrite rule: the input term and the exact term it
//! must simplify to.

use super::{Fixture, Simplifier};
use crate::expr::{BvBinOp, BvCmp, Node, TermId};

/// A rule's name and a builder of (input, expected result).
type Rule = (&'static str, fn(&mut Fixture) -> (TermId, TermId));

fn check(rules: &[Rule]) {
    for &(name, build) in rules {
        let mut f = Fixture::new();
        let (input, expected) = build(&mut f);
        let got = Simplifier::new().simplify(&mut f.s, input);
        assert_eq!(
            got,
            expected,
            "{name}: {} simplified to {}, expected {}",
            f.s.to_smtlib(input),
            f.s.to_smtlib(got),
            f.s.to_smtlib(expected)
        );
    }
}

fn bin(f: &mut Fixture, op: BvBinOp, a: TermId, b: TermId) -> TermId {
    f.s.bin(op, a, b)
}

#[test]
fn constant_folding() {
    check(&[
        ("add wraps", |f| {
            let (a, b) = (f.c(200), f.c(100));
            (bin(f, BvBinOp::Add, a, b), f.c(44))
        }),
        ("udiv by zero is all ones", |f| {
            let (a, b) = (f.c(7), f.c(0));
            (bin(f, BvBinOp::Udiv, a, b), f.c(255))
        }),
        ("urem by zero is the dividend", |f| {
            let (a, b) = (f.c(7), f.c(0));
            (bin(f, BvBinOp::Urem, a, b), f.c(7))
        }),
        ("sdiv of a negative by zero is one", |f| {
            let (a, b) = (f.c(0x80), f.c(0));
            (bin(f, BvBinOp::Sdiv, a, b), f.c(1))
        }),
        ("srem takes the dividend's sign", |f| {
            let (a, b) = (f.c(0xf9), f.c(2));
            (bin(f, BvBinOp::Srem, a, b), f.c(0xff))
        }),
        ("smod takes the divisor's sign", |f| {
            let (a, b) = (f.c(0xf9), f.c(2));
            (bin(f, BvBinOp::Smod, a, b), f.c(1))
        }),
        ("ashr past the width fills with the sign", |f| {
            let (a, b) = (f.c(0x80), f.c(200));
            (bin(f, BvBinOp::Ashr, a, b), f.c(0xff))
        }),
        ("bvnot", |f| {
            let a = f.c(0x0f);
            (f.s.bvnot(a), f.c(0xf0))
        }),
        ("bvneg", |f| {
            let a = f.c(1);
            (f.s.neg(a), f.c(0xff))
        }),
        ("extract", |f| {
            let a = f.c(0xab);
            (f.s.extract(7, 4, a), f.s.bv_const(4, 0xa))
        }),
        ("concat", |f| {
            let (a, b) = (f.c(0xab), f.c(0xcd));
            (f.s.concat(a, b), f.s.bv_const(16, 0xabcd))
        }),
        ("zero_ext", |f| {
            let a = f.c(0x80);
            (f.s.zero_ext(8, a), f.s.bv_const(16, 0x80))
        }),
        ("sign_ext", |f| {
            let a = f.c(0x80);
            (f.s.sign_ext(8, a), f.s.bv_const(16, 0xff80))
        }),
        ("rotate_left", |f| {
            let a = f.c(0x81);
            (f.s.mk(Node::RotateLeft(1, a)), f.c(0x03))
        }),
        ("rotate_right", |f| {
            let a = f.c(0x81);
            (f.s.mk(Node::RotateRight(1, a)), f.c(0xc0))
        }),
        ("signed comparison", |f| {
            let (a, b) = (f.c(0xff), f.c(0));
            (f.s.cmp(BvCmp::Slt, a, b), f.s.tru())
        }),
        ("unsigned comparison", |f| {
            let (a, b) = (f.c(0xff), f.c(0));
            (f.s.cmp(BvCmp::Ult, a, b), f.s.fls())
        }),
        ("eq of equal constants", |f| {
            let (a, b) = (f.c(3), f.c(3));
            (f.s.eq(a, b), f.s.tru())
        }),
        ("eq of distinct constants", |f| {
            let (a, b) = (f.c(3), f.c(4));
            (f.s.eq(a, b), f.s.fls())
        }),
        ("boolean connectives", |f| {
            let (t, fl) = (f.s.tru(), f.s.fls());
            let both = f.s.and(t, fl);
            let either = f.s.or(both, t);
            let differ = f.s.xor(either, t);
            let negated = f.s.not(differ);
            (negated, f.s.tru())
        }),
        ("ite of constants", |f| {
            let (t, a, b) = (f.s.tru(), f.c(1), f.c(2));
            (f.s.ite(t, a, b), f.c(1))
        }),
        ("select of a constant store chain", |f| {
            let (four, five, six) = (f.c32(4), f.c32(5), f.c32(6));
            let (one, two, three) = (f.c(1), f.c(2), f.c(3));
            let zeros = f.s.const_array(one);
            let a = f.s.store(zeros, four, two);
            let b = f.s.store(a, five, three);
            let (read_four, read_six) = (f.s.select(b, four), f.s.select(b, six));
            (bin(f, BvBinOp::Add, read_four, read_six), f.c(3))
        }),
    ]);
}

#[test]
fn arithmetic_and_bitwise_identities() {
    check(&[
        ("x + 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Add, f.x, z), f.x)
        }),
        ("0 + x", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Add, z, f.x), f.x)
        }),
        ("x - 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Sub, f.x, z), f.x)
        }),
        ("x - x", |f| (bin(f, BvBinOp::Sub, f.x, f.x), f.c(0))),
        ("0 - x is -x", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Sub, z, f.x), f.s.neg(f.x))
        }),
        ("x - c is -c + x", |f| {
            let three = f.c(3);
            let minus_three = f.c(0xfd);
            (
                bin(f, BvBinOp::Sub, f.x, three),
                bin(f, BvBinOp::Add, minus_three, f.x),
            )
        }),
        ("c1 + (c2 + x) is (c1 + c2) + x", |f| {
            let (three, four, seven) = (f.c(3), f.c(4), f.c(7));
            let inner = bin(f, BvBinOp::Add, four, f.x);
            (
                bin(f, BvBinOp::Add, three, inner),
                bin(f, BvBinOp::Add, seven, f.x),
            )
        }),
        ("(x + c1) - c1 is x", |f| {
            let three = f.c(3);
            let inner = bin(f, BvBinOp::Add, f.x, three);
            (bin(f, BvBinOp::Sub, inner, three), f.x)
        }),
        ("x * 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Mul, f.x, z), z)
        }),
        ("x * 1", |f| {
            let one = f.c(1);
            (bin(f, BvBinOp::Mul, f.x, one), f.x)
        }),
        ("x * -1 is -x", |f| {
            let ones = f.c(0xff);
            (bin(f, BvBinOp::Mul, f.x, ones), f.s.neg(f.x))
        }),
        ("c1 * (c2 * x) is (c1 * c2) * x", |f| {
            let (three, five, fifteen) = (f.c(3), f.c(5), f.c(15));
            let inner = bin(f, BvBinOp::Mul, f.x, five);
            (
                bin(f, BvBinOp::Mul, inner, three),
                bin(f, BvBinOp::Mul, fifteen, f.x),
            )
        }),
        ("x & 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::And, f.x, z), z)
        }),
        ("x & ones", |f| {
            let ones = f.c(0xff);
            (bin(f, BvBinOp::And, f.x, ones), f.x)
        }),
        ("x & x", |f| (bin(f, BvBinOp::And, f.x, f.x), f.x)),
        ("x & ~x", |f| {
            let not_x = f.s.bvnot(f.x);
            (bin(f, BvBinOp::And, f.x, not_x), f.c(0))
        }),
        ("x & low mask is a zero-extended slice", |f| {
            let low_nibble = f.c(0x0f);
            let slice = f.s.extract(3, 0, f.x);
            (
                bin(f, BvBinOp::And, f.x, low_nibble),
                f.s.zero_ext(4, slice),
            )
        }),
        ("c1 & (c2 & x) is (c1 & c2) & x", |f| {
            let (a, b, both) = (f.c(0xf3), f.c(0x3e), f.c(0x32));
            let inner = bin(f, BvBinOp::And, b, f.x);
            (
                bin(f, BvBinOp::And, a, inner),
                bin(f, BvBinOp::And, both, f.x),
            )
        }),
        ("x | 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Or, f.x, z), f.x)
        }),
        ("x | ones", |f| {
            let ones = f.c(0xff);
            (bin(f, BvBinOp::Or, f.x, ones), ones)
        }),
        ("x | x", |f| (bin(f, BvBinOp::Or, f.x, f.x), f.x)),
        ("x | ~x", |f| {
            let not_x = f.s.bvnot(f.x);
            (bin(f, BvBinOp::Or, not_x, f.x), f.c(0xff))
        }),
        ("x ^ 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Xor, f.x, z), f.x)
        }),
        ("x ^ x", |f| (bin(f, BvBinOp::Xor, f.x, f.x), f.c(0))),
        ("x ^ ones is ~x", |f| {
            let ones = f.c(0xff);
            (bin(f, BvBinOp::Xor, f.x, ones), f.s.bvnot(f.x))
        }),
        ("bvnot bvnot x", |f| {
            let once = f.s.bvnot(f.x);
            (f.s.bvnot(once), f.x)
        }),
        ("neg neg x", |f| {
            let once = f.s.neg(f.x);
            (f.s.neg(once), f.x)
        }),
        ("x udiv 1", |f| {
            let one = f.c(1);
            (bin(f, BvBinOp::Udiv, f.x, one), f.x)
        }),
        ("x udiv 0 is all ones", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Udiv, f.x, z), f.c(0xff))
        }),
        ("x sdiv 1", |f| {
            let one = f.c(1);
            (bin(f, BvBinOp::Sdiv, f.x, one), f.x)
        }),
        ("x urem 1", |f| {
            let one = f.c(1);
            (bin(f, BvBinOp::Urem, f.x, one), f.c(0))
        }),
        ("x urem 0 is x", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Urem, f.x, z), f.x)
        }),
        ("x srem x", |f| (bin(f, BvBinOp::Srem, f.x, f.x), f.c(0))),
        ("0 smod x", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Smod, z, f.x), z)
        }),
        ("x shl 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Shl, f.x, z), f.x)
        }),
        ("x lshr 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Lshr, f.x, z), f.x)
        }),
        ("x ashr 0", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Ashr, f.x, z), f.x)
        }),
        ("x shl width", |f| {
            let eight = f.c(8);
            (bin(f, BvBinOp::Shl, f.x, eight), f.c(0))
        }),
        ("x lshr past width", |f| {
            let big = f.c(200);
            (bin(f, BvBinOp::Lshr, f.x, big), f.c(0))
        }),
        ("x ashr past width copies the sign bit", |f| {
            let big = f.c(9);
            let sign = f.s.extract(7, 7, f.x);
            (bin(f, BvBinOp::Ashr, f.x, big), f.s.sign_ext(7, sign))
        }),
        ("x shl c is a slice and zeros", |f| {
            let three = f.c(3);
            let slice = f.s.extract(4, 0, f.x);
            let zeros = f.s.bv_const(3, 0);
            (bin(f, BvBinOp::Shl, f.x, three), f.s.concat(slice, zeros))
        }),
        ("x lshr c is a zero-extended slice", |f| {
            let three = f.c(3);
            let slice = f.s.extract(7, 3, f.x);
            (bin(f, BvBinOp::Lshr, f.x, three), f.s.zero_ext(3, slice))
        }),
        ("0 shl x", |f| {
            let z = f.c(0);
            (bin(f, BvBinOp::Shl, z, f.x), z)
        }),
    ]);
}

#[test]
fn slicing_rules() {
    check(&[
        ("extract of the full width", |f| {
            (f.s.extract(7, 0, f.x), f.x)
        }),
        ("extract of extract", |f| {
            let inner = f.s.extract(6, 1, f.x);
            (f.s.extract(3, 2, inner), f.s.extract(4, 3, f.x))
        }),
        ("extract of the low side of a concat", |f| {
            let both = f.s.concat(f.y, f.x);
            (f.s.extract(7, 0, both), f.x)
        }),
        ("extract of the high side of a concat", |f| {
            let both = f.s.concat(f.y, f.x);
            (f.s.extract(13, 10, both), f.s.extract(5, 2, f.y))
        }),
        ("extract across a concat stays", |f| {
            let both = f.s.concat(f.y, f.x);
            let across = f.s.extract(11, 4, both);
            (across, across)
        }),
        ("extract of a zero_ext's low part", |f| {
            let wide = f.s.zero_ext(8, f.x);
            (f.s.extract(5, 1, wide), f.s.extract(5, 1, f.x))
        }),
        ("extract of a zero_ext's high part is zero", |f| {
            let wide = f.s.zero_ext(8, f.x);
            (f.s.extract(15, 9, wide), f.s.bv_const(7, 0))
        }),
        ("extract across a zero_ext's boundary", |f| {
            let wide = f.s.zero_ext(8, f.x);
            let slice = f.s.extract(7, 4, f.x);
            (f.s.extract(11, 4, wide), f.s.zero_ext(4, slice))
        }),
        ("extract of a sign_ext's low part", |f| {
            let wide = f.s.sign_ext(8, f.x);
            (f.s.extract(7, 0, wide), f.x)
        }),
        ("concat of constants", |f| {
            let (a, b) = (f.c(0x12), f.c(0x34));
            (f.s.concat(a, b), f.s.bv_const(16, 0x1234))
        }),
        ("concat of zero and x is zero_ext", |f| {
            let z = f.c(0);
            (f.s.concat(z, f.x), f.s.zero_ext(8, f.x))
        }),
        ("concat of adjacent slices", |f| {
            let high = f.s.extract(7, 4, f.x);
            let low = f.s.extract(3, 0, f.x);
            (f.s.concat(high, low), f.x)
        }),
        ("concat of adjacent slices under a concat", |f| {
            let top = f.s.extract(7, 5, f.x);
            let middle = f.s.extract(4, 2, f.x);
            let rest = f.s.concat(middle, f.y);
            let merged = f.s.extract(7, 2, f.x);
            (f.s.concat(top, rest), f.s.concat(merged, f.y))
        }),
        ("zero_ext by 0", |f| (f.s.zero_ext(0, f.x), f.x)),
        ("sign_ext by 0", |f| (f.s.sign_ext(0, f.x), f.x)),
        ("zero_ext of zero_ext", |f| {
            let inner = f.s.zero_ext(3, f.x);
            (f.s.zero_ext(5, inner), f.s.zero_ext(8, f.x))
        }),
        ("sign_ext of zero_ext is zero_ext", |f| {
            let inner = f.s.zero_ext(3, f.x);
            (f.s.sign_ext(5, inner), f.s.zero_ext(8, f.x))
        }),
        ("rotate by 0", |f| (f.s.mk(Node::RotateLeft(0, f.x)), f.x)),
        ("rotate by a multiple of the width", |f| {
            (f.s.mk(Node::RotateRight(16, f.x)), f.x)
        }),
        ("rotate right is rotate left the other way", |f| {
            (
                f.s.mk(Node::RotateRight(3, f.x)),
                f.s.mk(Node::RotateLeft(5, f.x)),
            )
        }),
        ("rotations combine", |f| {
            let inner = f.s.mk(Node::RotateLeft(3, f.x));
            (
                f.s.mk(Node::RotateLeft(6, inner)),
                f.s.mk(Node::RotateLeft(1, f.x)),
            )
        }),
    ]);
}

#[test]
fn comparison_rules() {
    check(&[
        ("x <u x", |f| (f.s.cmp(BvCmp::Ult, f.x, f.x), f.s.fls())),
        ("x <s x", |f| (f.s.cmp(BvCmp::Slt, f.x, f.x), f.s.fls())),
        ("x <=u x", |f| (f.s.cmp(BvCmp::Ule, f.x, f.x), f.s.tru())),
        ("x <=s x", |f| (f.s.cmp(BvCmp::Sle, f.x, f.x), f.s.tru())),
        ("x <u 0", |f| {
            let z = f.c(0);
            (f.s.cmp(BvCmp::Ult, f.x, z), f.s.fls())
        }),
        ("0 <=u x", |f| {
            let z = f.c(0);
            (f.s.cmp(BvCmp::Ule, z, f.x), f.s.tru())
        }),
        ("x <=u ones", |f| {
            let ones = f.c(0xff);
            (f.s.cmp(BvCmp::Ule, f.x, ones), f.s.tru())
        }),
        ("ones <u x", |f| {
            let ones = f.c(0xff);
            (f.s.cmp(BvCmp::Ult, ones, f.x), f.s.fls())
        }),
        ("x <u 1 is x = 0", |f| {
            let (one, z) = (f.c(1), f.c(0));
            (f.s.cmp(BvCmp::Ult, f.x, one), f.s.eq(z, f.x))
        }),
        ("x <s min", |f| {
            let min = f.c(0x80);
            (f.s.cmp(BvCmp::Slt, f.x, min), f.s.fls())
        }),
        ("x <=s max", |f| {
            let max = f.c(0x7f);
            (f.s.cmp(BvCmp::Sle, f.x, max), f.s.tru())
        }),
        ("not (x <u y) is y <=u x", |f| {
            let lt = f.s.cmp(BvCmp::Ult, f.x, f.y);
            (f.s.not(lt), f.s.cmp(BvCmp::Ule, f.y, f.x))
        }),
        ("eq x x", |f| (f.s.eq(f.x, f.x), f.s.tru())),
        ("c1 + x = c2 is x = c2 - c1", |f| {
            let (five, seven, two) = (f.c(5), f.c(7), f.c(2));
            let sum = bin(f, BvBinOp::Add, f.x, five);
            (f.s.eq(sum, seven), f.s.eq(two, f.x))
        }),
        ("~x = c is x = ~c", |f| {
            let (k, not_k) = (f.c(0x0f), f.c(0xf0));
            let not_x = f.s.bvnot(f.x);
            (f.s.eq(not_x, k), f.s.eq(not_k, f.x))
        }),
        ("zero_ext x = c with high bits set is false", |f| {
            let wide = f.s.zero_ext(8, f.x);
            let k = f.s.bv_const(16, 0x100);
            (f.s.eq(wide, k), f.s.fls())
        }),
        ("zero_ext x = c narrows", |f| {
            let wide = f.s.zero_ext(8, f.x);
            let k = f.s.bv_const(16, 0x42);
            let narrow = f.c(0x42);
            (f.s.eq(k, wide), f.s.eq(narrow, f.x))
        }),
        ("ite(c, k1, k2) = k1 is c", |f| {
            let (three, four) = (f.c(3), f.c(4));
            let choice = f.s.ite(f.p, three, four);
            (f.s.eq(choice, three), f.p)
        }),
        ("ite(c, k1, k2) = k2 is not c", |f| {
            let (three, four) = (f.c(3), f.c(4));
            let choice = f.s.ite(f.p, three, four);
            (f.s.eq(four, choice), f.s.not(f.p))
        }),
        ("ite(c, k1, k2) = k3 is false", |f| {
            let (three, four, five) = (f.c(3), f.c(4), f.c(5));
            let choice = f.s.ite(f.p, three, four);
            (f.s.eq(choice, five), f.s.fls())
        }),
    ]);
}

#[test]
fn read_over_write_rules() {
    check(&[
        ("select at the written index term", |f| {
            let written = f.s.store(f.mem, f.i, f.x);
            (f.s.select(written, f.i), f.x)
        }),
        ("select at an equal constant index", |f| {
            let four = f.c32(4);
            let written = f.s.store(f.mem, four, f.x);
            let four_again = f.c32(4);
            (f.s.select(written, four_again), f.x)
        }),
        ("select past distinct constant indices", |f| {
            let (four, five) = (f.c32(4), f.c32(5));
            let written = f.s.store(f.mem, four, f.x);
            (f.s.select(written, five), f.s.select(f.mem, five))
        }),
        ("select at i + 2 past a write at i + 1", |f| {
            let (one, two) = (f.c32(1), f.c32(2));
            let at_one = bin(f, BvBinOp::Add, f.i, one);
            let at_two = bin(f, BvBinOp::Add, two, f.i);
            let written = f.s.store(f.mem, at_one, f.x);
            (f.s.select(written, at_two), f.s.select(f.mem, at_two))
        }),
        ("select at i + 1 past a write at i", |f| {
            let one = f.c32(1);
            let at_one = bin(f, BvBinOp::Add, one, f.i);
            let written = f.s.store(f.mem, f.i, f.x);
            (f.s.select(written, at_one), f.s.select(f.mem, at_one))
        }),
        ("select past a possibly equal index stays", |f| {
            let written = f.s.store(f.mem, f.i, f.x);
            let read = f.s.select(written, f.j);
            (read, read)
        }),
        ("select of a constant array", |f| {
            let five = f.c(5);
            let array = f.s.const_array(five);
            (f.s.select(array, f.i), five)
        }),
        ("store over a store to the same index", |f| {
            let first = f.s.store(f.mem, f.i, f.x);
            (f.s.store(first, f.i, f.y), f.s.store(f.mem, f.i, f.y))
        }),
        ("store of the value already there", |f| {
            let current = f.s.select(f.mem, f.i);
            (f.s.store(f.mem, f.i, current), f.mem)
        }),
    ]);
}

#[test]
fn boolean_and_ite_rules() {
    check(&[
        ("ite(true, a, b)", |f| {
            let t = f.s.tru();
            (f.s.ite(t, f.x, f.y), f.x)
        }),
        ("ite(false, a, b)", |f| {
            let fl = f.s.fls();
            (f.s.ite(fl, f.x, f.y), f.y)
        }),
        ("ite(c, a, a)", |f| (f.s.ite(f.p, f.x, f.x), f.x)),
        ("ite(not c, a, b)", |f| {
            let not_p = f.s.not(f.p);
            (f.s.ite(not_p, f.x, f.y), f.s.ite(f.p, f.y, f.x))
        }),
        ("ite(c, ite(c, a, b), d)", |f| {
            let inner = f.s.ite(f.p, f.x, f.y);
            (f.s.ite(f.p, inner, f.z), f.s.ite(f.p, f.x, f.z))
        }),
        ("ite(c, true, false)", |f| {
            let (t, fl) = (f.s.tru(), f.s.fls());
            (f.s.ite(f.p, t, fl), f.p)
        }),
        ("ite(c, false, true)", |f| {
            let (t, fl) = (f.s.tru(), f.s.fls());
            (f.s.ite(f.p, fl, t), f.s.not(f.p))
        }),
        ("ite(c, true, b) is c or b", |f| {
            let t = f.s.tru();
            (f.s.ite(f.p, t, f.q), f.s.or(f.p, f.q))
        }),
        ("ite(c, a, false) is c and a", |f| {
            let fl = f.s.fls();
            (f.s.ite(f.p, f.q, fl), f.s.and(f.p, f.q))
        }),
        ("ite(c, false, b) is not c and b", |f| {
            let fl = f.s.fls();
            let not_p = f.s.not(f.p);
            (f.s.ite(f.p, fl, f.q), f.s.and(f.q, not_p))
        }),
        ("ite(c, a, true) is not c or a", |f| {
            let t = f.s.tru();
            let not_p = f.s.not(f.p);
            (f.s.ite(f.p, f.q, t), f.s.or(f.q, not_p))
        }),
        ("ite(c, c, b) is c or b", |f| {
            (f.s.ite(f.p, f.p, f.q), f.s.or(f.p, f.q))
        }),
        ("ite(c, a, c) is c and a", |f| {
            (f.s.ite(f.p, f.q, f.p), f.s.and(f.p, f.q))
        }),
        ("ite of arrays with one branch", |f| {
            (f.s.ite(f.p, f.mem, f.mem), f.mem)
        }),
        ("not not a", |f| {
            let once = f.s.not(f.p);
            (f.s.not(once), f.p)
        }),
        ("not true", |f| {
            let t = f.s.tru();
            (f.s.not(t), f.s.fls())
        }),
        ("a and true", |f| {
            let t = f.s.tru();
            (f.s.and(f.p, t), f.p)
        }),
        ("false and a", |f| {
            let fl = f.s.fls();
            (f.s.and(fl, f.p), fl)
        }),
        ("a or false", |f| {
            let fl = f.s.fls();
            (f.s.or(f.p, fl), f.p)
        }),
        ("true or a", |f| {
            let t = f.s.tru();
            (f.s.or(t, f.p), t)
        }),
        ("a xor false", |f| {
            let fl = f.s.fls();
            (f.s.xor(f.p, fl), f.p)
        }),
        ("a xor true", |f| {
            let t = f.s.tru();
            (f.s.xor(f.p, t), f.s.not(f.p))
        }),
        ("a xor a", |f| (f.s.xor(f.p, f.p), f.s.fls())),
        ("a and a", |f| (f.s.and(f.p, f.p), f.p)),
        ("a or a", |f| (f.s.or(f.p, f.p), f.p)),
        ("a and not a", |f| {
            let not_p = f.s.not(f.p);
            (f.s.and(f.p, not_p), f.s.fls())
        }),
        ("a or not a", |f| {
            let not_p = f.s.not(f.p);
            (f.s.or(not_p, f.p), f.s.tru())
        }),
        ("b = true", |f| {
            let t = f.s.tru();
            (f.s.eq(f.p, t), f.p)
        }),
        ("false = b", |f| {
            let fl = f.s.fls();
            (f.s.eq(fl, f.p), f.s.not(f.p))
        }),
        ("b = not b", |f| {
            let not_p = f.s.not(f.p);
            (f.s.eq(f.p, not_p), f.s.fls())
        }),
    ]);
}

#[test]
fn commutative_operators_have_one_canonical_order() {
    check(&[
        ("y + x", |f| {
            (
                bin(f, BvBinOp::Add, f.y, f.x),
                bin(f, BvBinOp::Add, f.x, f.y),
            )
        }),
        ("x + c puts the constant first", |f| {
            let three = f.c(3);
            (
                bin(f, BvBinOp::Add, f.x, three),
                bin(f, BvBinOp::Add, three, f.x),
            )
        }),
        ("y * x", |f| {
            (
                bin(f, BvBinOp::Mul, f.y, f.x),
                bin(f, BvBinOp::Mul, f.x, f.y),
            )
        }),
        ("y & x", |f| {
            (
                bin(f, BvBinOp::And, f.y, f.x),
                bin(f, BvBinOp::And, f.x, f.y),
            )
        }),
        ("y | x", |f| {
            (bin(f, BvBinOp::Or, f.y, f.x), bin(f, BvBinOp::Or, f.x, f.y))
        }),
        ("y ^ x", |f| {
            (
                bin(f, BvBinOp::Xor, f.y, f.x),
                bin(f, BvBinOp::Xor, f.x, f.y),
            )
        }),
        ("y = x", |f| (f.s.eq(f.y, f.x), f.s.eq(f.x, f.y))),
        ("x = c puts the constant first", |f| {
            let three = f.c(3);
            (f.s.eq(f.x, three), f.s.eq(three, f.x))
        }),
        ("q and p", |f| (f.s.and(f.q, f.p), f.s.and(f.p, f.q))),
        ("q or p", |f| (f.s.or(f.q, f.p), f.s.or(f.p, f.q))),
        ("q xor p", |f| (f.s.xor(f.q, f.p), f.s.xor(f.p, f.q))),
        ("r = q", |f| (f.s.eq(f.r, f.q), f.s.eq(f.q, f.r))),
    ]);
}
