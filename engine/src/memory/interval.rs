//! The values a bit-vector term can take, as an unsigned interval read off
//! its shape (`i & 255` is at most 255, `zext(b) * 4 + 16` lies in
//! `[16, 1036]`): sound for every assignment of the symbols, so a symbolic
//! address's interval bounds the bytes an access can touch without asking
//! the solver. Memory uses it to build a read's array from those bytes
//! only, not from the whole memory.

use crate::expr::{mask, BvBinOp, Node, TermId, TermStore};

/// Nodes looked through before a term counts as able to take any value:
/// bounds the walk over deep terms.
const DEPTH: u32 = 24;

/// `[lo, hi]`, the unsigned values `t` can take.
pub fn unsigned_interval(store: &TermStore, t: TermId) -> (u64, u64) {
    interval(store, t, DEPTH)
}

fn interval(store: &TermStore, t: TermId, depth: u32) -> (u64, u64) {
    let width = store.width(t);
    let full = (0, mask(width));
    if depth == 0 {
        return full;
    }
    let of = |x: TermId| interval(store, x, depth - 1);
    let constant = |x: TermId| store.as_bv_const(x);
    let fits = |lo: u64, hi: Option<u64>| match hi {
        Some(hi) if hi <= mask(width) => (lo, hi),
        _ => full,
    };
    match *store.node(t) {
        Node::BvConst { value, .. } => (value, value),
        Node::ZeroExt(_, x) => of(x),
        Node::Extract { hi: _, lo: 0, arg } => {
            let (l, h) = of(arg);
            if h <= mask(width) {
                (l, h)
            } else {
                full
            }
        }
        Node::Concat(high, low) => {
            let shift = store.width(low);
            let ((hl, hh), (ll, lh)) = (of(high), of(low));
            (hl << shift | ll, hh << shift | lh)
        }
        Node::Ite(_, a, b) => {
            let ((al, ah), (bl, bh)) = (of(a), of(b));
            (al.min(bl), ah.max(bh))
        }
        Node::BvBin(op, x, y) => match op {
            BvBinOp::Add => {
                let ((xl, xh), (yl, yh)) = (of(x), of(y));
                fits(xl + yl, xh.checked_add(yh))
            }
            BvBinOp::Mul => {
                let ((xl, xh), (yl, yh)) = (of(x), of(y));
                fits(xl.saturating_mul(yl), xh.checked_mul(yh))
            }
            BvBinOp::Shl => match constant(y) {
                Some(s) if s < u64::from(width) => {
                    let (xl, xh) = of(x);
                    fits(xl << s, xh.checked_mul(1 << s))
                }
                _ => full,
            },
            BvBinOp::Lshr => match constant(y) {
                Some(s) if s < u64::from(width) => {
                    let (xl, xh) = of(x);
                    (xl >> s, xh >> s)
                }
                _ => (0, of(x).1),
            },
            BvBinOp::Udiv => match constant(y) {
                Some(d) if d > 0 => {
                    let (xl, xh) = of(x);
                    (xl / d, xh / d)
                }
                // Division by zero gives all ones.
                _ => full,
            },
            BvBinOp::Urem => {
                let (yl, yh) = of(y);
                let xh = of(x).1;
                if yl > 0 {
                    (0, xh.min(yh - 1))
                } else {
                    // The remainder by zero is the dividend.
                    (0, xh)
                }
            }
            BvBinOp::And => {
                let ((_, xh), (_, yh)) = (of(x), of(y));
                (0, xh.min(yh))
            }
            BvBinOp::Or | BvBinOp::Xor => {
                let ((xl, xh), (yl, yh)) = (of(x), of(y));
                let top = xh.max(yh);
                let ones = if top == 0 {
                    0
                } else {
                    mask(64 - top.leading_zeros() as u8)
                };
                let lo = if op == BvBinOp::Or { xl.max(yl) } else { 0 };
                (lo, ones)
            }
            BvBinOp::Sub | BvBinOp::Sdiv | BvBinOp::Srem | BvBinOp::Smod | BvBinOp::Ashr => full,
        },
        _ => full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Model, Sort, TermStore, Value};

    /// Checks the interval against every value of the 8-bit symbol `b`
    /// in the term `make` builds.
    fn sound_for_every_byte(make: impl Fn(&mut TermStore, TermId) -> TermId) -> (u64, u64) {
        let mut store = TermStore::new();
        let b = store.declare("b", Sort::Bv(8)).expect("fresh name");
        let t = make(&mut store, b);
        let (lo, hi) = unsigned_interval(&store, t);
        let Node::Symbol(symbol) = *store.node(b) else {
            unreachable!("a declared symbol")
        };
        for v in 0..=255u64 {
            let mut model = Model::new();
            model.set(symbol, Value::Bv { width: 8, value: v });
            let value = store.eval(t, &model).as_bv().expect("a bit-vector");
            assert!(
                lo <= value && value <= hi,
                "{value} outside [{lo}, {hi}] for b = {v}"
            );
        }
        (lo, hi)
    }

    #[test]
    fn a_masked_index_is_at_most_its_mask() {
        let got = sound_for_every_byte(|s, b| {
            let wide = s.zero_ext(24, b);
            let m = s.bv_const(32, 0x3f);
            s.bin(BvBinOp::And, wide, m)
        });
        assert_eq!(got, (0, 0x3f));
    }

    #[test]
    fn scaled_and_offset_index_is_tight() {
        let got = sound_for_every_byte(|s, b| {
            let wide = s.zero_ext(24, b);
            let four = s.bv_const(32, 4);
            let scaled = s.bin(BvBinOp::Mul, wide, four);
            let base = s.bv_const(32, 1024);
            s.bin(BvBinOp::Add, scaled, base)
        });
        assert_eq!(got, (1024, 1024 + 255 * 4));
    }

    #[test]
    fn an_add_that_may_wrap_can_take_any_value() {
        let got = sound_for_every_byte(|s, b| {
            let c = s.bv_const(8, 200);
            s.bin(BvBinOp::Add, b, c)
        });
        assert_eq!(got, (0, 255));
    }

    #[test]
    fn remainder_shift_division_and_choice_stay_sound() {
        assert_eq!(
            sound_for_every_byte(|s, b| {
                let c = s.bv_const(8, 10);
                s.bin(BvBinOp::Urem, b, c)
            }),
            (0, 9)
        );
        assert_eq!(
            sound_for_every_byte(|s, b| {
                let c = s.bv_const(8, 3);
                s.bin(BvBinOp::Lshr, b, c)
            }),
            (0, 31)
        );
        assert_eq!(
            sound_for_every_byte(|s, b| {
                let c = s.bv_const(8, 16);
                s.bin(BvBinOp::Udiv, b, c)
            }),
            (0, 15)
        );
        let (lo, hi) = sound_for_every_byte(|s, b| {
            let hundred = s.bv_const(8, 100);
            let small = s.cmp(BvCmp::Ult, b, hundred);
            let x = s.bv_const(8, 7);
            let y = s.bv_const(8, 40);
            s.ite(small, x, y)
        });
        assert!(lo <= 7 && hi >= 40);
        sound_for_every_byte(|s, b| {
            let c = s.bv_const(8, 0x21);
            s.bin(BvBinOp::Or, b, c)
        });
        sound_for_every_byte(|s, b| {
            let c = s.bv_const(8, 5);
            s.bin(BvBinOp::Xor, b, c)
        });
        sound_for_every_byte(|s, b| {
            let c = s.bv_const(8, 3);
            s.bin(BvBinOp::Shl, b, c)
        });
    }
}
