//! Terms in a readable infix form, for people (the page's tree and node
//! details, the CLI): `(bvslt arg0 #x00000000)` reads `arg0 < 0`. Printed
//! from the term graph itself; the SMT-LIB form (`print.rs`) stays the exact
//! one. It reads as the program means it: a flag compared with 0 (`0 !=
//! (x <s 0 ? 1 : 0)[0:0]`, how Wasm tests a C condition) is the condition
//! (`x < 0`); a constant goes on the right, as a character when the other
//! side is a byte (`guess[0] == 's'`) and unsigned in an unsigned
//! comparison; a read of memory at a known place is the byte stored there
//! (`text[3]`), and low bits of a widened value are that value. A shared
//! subterm is printed at each use, so the text is cut off (with `…`) past
//! a length and a nesting depth.

use super::node::{BvBinOp, BvCmp, BvUnOp, Node, Sort, TermId};
use super::store::TermStore;

/// Characters of readable text before it is cut off.
const MAX_CHARS: usize = 2000;
/// Nesting printed before a subterm is elided; also bounds the recursion.
const MAX_DEPTH: u32 = 48;

/// Binding strengths: a higher one binds tighter; an operand of a weaker
/// operator than its context is parenthesised.
/// C's order, so that a C reader reads the text right: `(x & 255) == 0`.
const TERNARY: u8 = 0;
const OR: u8 = 1;
const AND: u8 = 2;
const BIT_OR: u8 = 3;
const BIT_XOR: u8 = 4;
const BIT_AND: u8 = 5;
const EQUALITY: u8 = 6;
const COMPARISON: u8 = 7;
const PREFIX: u8 = 12;

fn bin_op(op: BvBinOp) -> Option<(&'static str, u8)> {
    Some(match op {
        BvBinOp::Or => ("|", BIT_OR),
        BvBinOp::Xor => ("^", BIT_XOR),
        BvBinOp::And => ("&", BIT_AND),
        BvBinOp::Shl => ("<<", 8),
        BvBinOp::Lshr => (">>u", 8),
        BvBinOp::Ashr => (">>s", 8),
        BvBinOp::Add => ("+", 9),
        BvBinOp::Sub => ("-", 9),
        BvBinOp::Mul => ("*", 10),
        BvBinOp::Sdiv => ("/s", 10),
        BvBinOp::Udiv => ("/u", 10),
        BvBinOp::Srem => ("%s", 10),
        BvBinOp::Urem => ("%u", 10),
        // No infix sign is common for it: printed as a call.
        BvBinOp::Smod => return None,
    })
}

/// A comparison's sign: signed ones as C writes them, unsigned ones marked
/// `u`. `negated` gives the one that holds where `c` does not (`!(a < b)`
/// is `a >= b`), `swapped` the one with its operands exchanged (`0 < a` is
/// `a > 0`).
fn cmp_op(c: BvCmp, negated: bool, swapped: bool) -> &'static str {
    // Below, below or equal; and each negated, which is the swapped order.
    let (below, at_most, above, at_least) = match c {
        BvCmp::Ult | BvCmp::Ule => ("<u", "<=u", ">u", ">=u"),
        BvCmp::Slt | BvCmp::Sle => ("<", "<=", ">", ">="),
    };
    let strict = matches!(c, BvCmp::Ult | BvCmp::Slt);
    match (strict, negated, swapped) {
        (true, false, false) => below,
        (true, true, false) => at_least,
        (true, false, true) => above,
        (true, true, true) => at_most,
        (false, false, false) => at_most,
        (false, true, false) => above,
        (false, false, true) => at_least,
        (false, true, true) => below,
    }
}

/// How a constant reads where it stands.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// Signed when its top bit is set, as inputs are mostly signed
    /// (`#xffffffff` reads `-1`).
    Signed,
    /// In an unsigned comparison.
    Unsigned,
    /// Beside a byte: a character when it is one (`'s'`), else signed
    /// or not as the comparison (or the widening) says.
    Byte { signed: bool },
    /// In an address: hexadecimal past 255 (`0x1040e`).
    Address,
}

fn literal(width: u8, value: u64, style: Style) -> String {
    if matches!(style, Style::Byte { .. }) && width == 8 {
        match value as u8 {
            b'\\' => return "'\\\\'".into(),
            b'\'' => return "'\\''".into(),
            c @ 0x20..=0x7e => return format!("'{}'", c as char),
            0 => return "'\\0'".into(),
            b'\n' => return "'\\n'".into(),
            _ => {}
        }
    }
    if style == Style::Address && value > 255 {
        return format!("{value:#x}");
    }
    let signed = matches!(style, Style::Signed | Style::Byte { signed: true });
    if signed && width > 1 && width <= 64 && value >> (width - 1) == 1 {
        (i128::from(value) - (1i128 << width)).to_string()
    } else {
        value.to_string()
    }
}

/// Where a range check keeps its value: inside `[lo, hi]` or outside it.
#[derive(Clone, Copy)]
enum Range {
    Inside(i128, i128),
    Outside(i128, i128),
}

/// The right side of a pair: a term, or a constant already written out.
enum Operand {
    Term(TermId),
    Text(String),
}

/// A read under writes at symbolic addresses: at a constant address
/// (`index`), over the byte `below` the writes or, when `below` is an
/// input's array symbol, its byte there; or at a symbolic index of an
/// input's array.
#[derive(Clone, Copy)]
enum Overwritten {
    Address {
        at: u64,
        index: TermId,
        below: TermId,
    },
    Index {
        index: TermId,
        input: TermId,
    },
}

/// Stores walked down a memory's chain before a read is left as it is.
const MAX_STORES_WALKED: usize = 4096;
/// The values of a symbolic offset looked at before a read is left as it is.
const MAX_OFFSETS: usize = 16;
/// Writes at symbolic addresses over a read shown as choices, at most.
const MAX_SYMBOLIC_WRITES: usize = 4;

struct Printer<'s> {
    terms: &'s TermStore,
    out: String,
}

impl Printer<'_> {
    fn full(&self) -> bool {
        self.out.len() >= MAX_CHARS
    }

    fn constant(&self, t: TermId) -> Option<(u8, u64)> {
        match *self.terms.node(t) {
            Node::BvConst { width, value } => Some((width, value)),
            _ => None,
        }
    }

    /// A byte, or a byte widened: a constant beside it reads as a
    /// character. Gives whether the byte was widened with its sign.
    fn byte(&self, t: TermId) -> Option<bool> {
        match *self.terms.node(t) {
            Node::ZeroExt(_, x) => self.byte(x).map(|_| false),
            Node::SignExt(_, x) => self.byte(x).map(|_| true),
            _ => (self.terms.width(t) == 8).then_some(false),
        }
    }

    /// A flag, `c ? 1 : 0` (or `c ? 0 : 1`, or its low bits, or widened):
    /// how Wasm holds a condition as a number. Gives `c` and whether the
    /// flag is 1 where `c` holds.
    fn flag(&self, t: TermId) -> Option<(TermId, bool)> {
        match *self.terms.node(t) {
            Node::Ite(c, a, b) => match (self.constant(a), self.constant(b)) {
                (Some((_, 1)), Some((_, 0))) => Some((c, true)),
                (Some((_, 0)), Some((_, 1))) => Some((c, false)),
                _ => None,
            },
            Node::Extract { lo: 0, arg, .. } => self.flag(arg),
            Node::ZeroExt(_, x) => self.flag(x),
            _ => None,
        }
    }

    /// Prints `t` in a context of binding strength `outer`.
    fn term(&mut self, t: TermId, outer: u8, depth: u32) {
        self.styled(t, outer, depth, Style::Signed);
    }

    /// Whether the text is cut off here, too long or too deep (saying so
    /// with `…`): a shared subterm is printed at each use.
    fn cut_off(&mut self, depth: u32) -> bool {
        if self.full() {
            if !self.out.ends_with('…') {
                self.out.push('…');
            }
            return true;
        }
        if depth >= MAX_DEPTH {
            self.out.push('…');
            return true;
        }
        false
    }

    /// Prints `t`, a constant in `style`.
    fn styled(&mut self, t: TermId, outer: u8, depth: u32, style: Style) {
        if self.cut_off(depth) {
            return;
        }
        let depth = depth + 1;
        match *self.terms.node(t) {
            Node::BoolConst(b) => self.out.push_str(if b { "true" } else { "false" }),
            Node::BvConst { width, value } => self.out.push_str(&literal(width, value, style)),
            Node::Symbol(s) => self.out.push_str(self.terms.symbol_name(s)),
            Node::Not(a) => self.negation(a, outer, depth),
            Node::And(a, b) => self.infix(&[a, b], "&&", AND, outer, depth),
            Node::Or(a, b) => self.infix(&[a, b], "||", OR, outer, depth),
            Node::Xor(a, b) => self.infix(&[a, b], "^", BIT_XOR, outer, depth),
            Node::Eq(a, b) => self.equality(a, b, true, outer, depth),
            Node::BvCmp(c, a, b) => self.comparison(c, a, b, false, outer, depth),
            Node::BvUn(BvUnOp::Not, a) => self.prefix("~", a, depth),
            Node::BvUn(BvUnOp::Neg, a) => self.prefix("-", a, depth),
            Node::BvBin(op, a, b) => self.binary(op, a, b, outer, depth, style),
            Node::Concat(a, b) => match self.doubled(a, b) {
                // `x[30:0] ++ 0`, how the simplifier keeps `x * 2`.
                Some((x, factor)) => {
                    let open = 10 < outer;
                    if open {
                        self.out.push('(');
                    }
                    self.term(x, 10, depth);
                    self.out.push_str(&format!(" * {factor}"));
                    if open {
                        self.out.push(')');
                    }
                }
                None => self.infix(&[a, b], "++", 11, outer, depth),
            },
            Node::Ite(c, a, b) => {
                let open = TERNARY < outer;
                if open {
                    self.out.push('(');
                }
                self.term(c, OR, depth);
                self.out.push_str(" ? ");
                self.term(a, OR, depth);
                self.out.push_str(" : ");
                self.term(b, OR, depth);
                if open {
                    self.out.push(')');
                }
            }
            Node::Extract { hi, lo: 0, arg } => self.low_bits(arg, hi + 1, outer, depth),
            Node::Extract { hi, lo, arg } => {
                self.term(arg, PREFIX, depth);
                self.out.push_str(&format!("[{hi}:{lo}]"));
            }
            Node::ZeroExt(n, a) => self.call("zext", &n.to_string(), &[a], depth),
            Node::SignExt(n, a) => self.call("sext", &n.to_string(), &[a], depth),
            Node::RotateLeft(n, a) => self.call("rotl", &n.to_string(), &[a], depth),
            Node::RotateRight(n, a) => self.call("rotr", &n.to_string(), &[a], depth),
            Node::Select(array, index) => self.read(array, index, outer, depth, style),
            Node::Store(array, index, value) => {
                self.term(array, PREFIX, depth);
                self.out.push('[');
                self.term(index, TERNARY, depth);
                self.out.push_str(" := ");
                self.term(value, TERNARY, depth);
                self.out.push(']');
            }
            Node::ConstArray(value) => self.call("const", "", &[value], depth),
            // A variable is its nearest forall's; a forall's bounds use none.
            Node::Bound(_) => self.out.push('i'),
            Node::Forall(lo, hi, body) => {
                let open = TERNARY < outer;
                if open {
                    self.out.push('(');
                }
                self.out.push_str("∀i ∈ [");
                self.term(lo, TERNARY, depth);
                self.out.push_str(", ");
                self.term(hi, TERNARY, depth);
                self.out.push_str("]: ");
                self.term(body, OR, depth);
                if open {
                    self.out.push(')');
                }
            }
        }
    }

    /// Prints what holds where the condition `c` does not.
    fn negation(&mut self, c: TermId, outer: u8, depth: u32) {
        match *self.terms.node(c) {
            Node::Eq(x, y) => self.equality(x, y, false, outer, depth),
            Node::BvCmp(op, x, y) => self.comparison(op, x, y, true, outer, depth),
            Node::Not(x) => self.term(x, outer, depth),
            _ => self.prefix("!", c, depth),
        }
    }

    /// `a == b`, or `a != b` when not `equal`: a flag compared with 0 or 1
    /// is its condition, held or not; a constant goes on the right.
    fn equality(&mut self, a: TermId, b: TermId, equal: bool, outer: u8, depth: u32) {
        let (a, b) = if self.constant(a).is_some() && self.constant(b).is_none() {
            (b, a)
        } else {
            (a, b)
        };
        if let (Some((c, one_where_c)), Some((_, k @ (0 | 1)))) = (self.flag(a), self.constant(b)) {
            // The flag equals k where c holds if k is the flag's value there.
            let holds_where_c = one_where_c == (k == 1);
            return if holds_where_c == equal {
                self.term(c, outer, depth)
            } else {
                self.negation(c, outer, depth)
            };
        }
        let style = match self.byte(a) {
            Some(signed) => Style::Byte { signed },
            None => Style::Signed,
        };
        let sign = if equal { "==" } else { "!=" };
        let (a, b) = match self
            .unwidened(a, b, style)
            .or_else(|| self.unwidened_signed(a, b))
        {
            Some((x, k)) => (x, Operand::Text(k)),
            None => (a, Operand::Term(b)),
        };
        self.pair(a, b, sign, EQUALITY, outer, depth, style);
    }

    /// `x[w-k-1:0] ++ 0` (k zero bits) is `x * 2^k` for an `x` of width
    /// `w`: `x` and the factor.
    fn doubled(&self, high: TermId, low: TermId) -> Option<(TermId, u64)> {
        let (Some((k, 0)), Node::Extract { hi, lo: 0, arg }) =
            (self.constant(low), *self.terms.node(high))
        else {
            return None;
        };
        let width = self.terms.width(arg);
        (u32::from(hi) + 1 + u32::from(k) == u32::from(width) && k < 63).then(|| (arg, 1 << k))
    }

    /// `sext(x)` compared for equality with a constant that is `x`'s
    /// value widened reads as `x` compared with it: a signed byte as the
    /// character (`p[8] != 'P'`).
    fn unwidened_signed(&self, a: TermId, b: TermId) -> Option<(TermId, String)> {
        let (Node::SignExt(_, x), Some((outer, k))) = (*self.terms.node(a), self.constant(b))
        else {
            return None;
        };
        let width = self.terms.width(x);
        let low = k & super::mask(width);
        let widened = (super::to_signed(width, low) as u64) & super::mask(outer);
        if width >= 64 || widened != k {
            return None;
        }
        let style = if width == 8 {
            Style::Byte { signed: true }
        } else {
            Style::Signed
        };
        Some((x, literal(width, low, style)))
    }

    /// `zext(x)` compared with a constant `k` that fits in `x`'s width
    /// reads as `x` compared with `k` (an equality or an unsigned comparison
    /// means the same then): `x` and `k` as it reads there.
    fn unwidened(&self, a: TermId, b: TermId, style: Style) -> Option<(TermId, String)> {
        let (_, k) = self.constant(b)?;
        let x = self.narrower(a, k)?;
        let style = match style {
            Style::Byte { .. } => Style::Byte { signed: false },
            _ => Style::Unsigned,
        };
        Some((x, literal(self.terms.width(x), k, style)))
    }

    /// `x` when `a` is `zext(x)` and the value `k` fits in `x`'s width.
    fn narrower(&self, a: TermId, k: u64) -> Option<TermId> {
        let Node::ZeroExt(_, x) = *self.terms.node(a) else {
            return None;
        };
        let width = self.terms.width(x);
        (width < 64 && k >> width == 0).then_some(x)
    }

    /// `x` and `c` when `t` is `x + c` with one constant operand.
    fn plus_constant(&self, t: TermId) -> Option<(TermId, u64)> {
        let Node::BvBin(BvBinOp::Add, p, q) = *self.terms.node(t) else {
            return None;
        };
        match (self.constant(p), self.constant(q)) {
            (None, Some((_, c))) => Some((p, c)),
            (Some((_, c)), None) => Some((q, c)),
            _ => None,
        }
    }

    /// `a op b` for a comparison (negated when asked), a constant on the
    /// right.
    fn comparison(&mut self, c: BvCmp, a: TermId, b: TermId, negated: bool, outer: u8, depth: u32) {
        if let Some((x, range)) = self.range_check(c, a, b, negated) {
            let strength = match range {
                Range::Inside(lo, hi) | Range::Outside(lo, hi) if lo == hi => EQUALITY,
                Range::Inside(..) => COMPARISON,
                Range::Outside(..) => OR,
            };
            let open = strength < outer;
            if open {
                self.out.push('(');
            }
            match range {
                Range::Inside(k, hi) | Range::Outside(k, hi) if k == hi => {
                    let sign = if matches!(range, Range::Inside(..)) {
                        "=="
                    } else {
                        "!="
                    };
                    self.term(x, EQUALITY + 1, depth);
                    self.out.push_str(&format!(" {sign} {k}"));
                }
                Range::Inside(lo, hi) => {
                    self.out.push_str(&format!("{lo} <= "));
                    self.term(x, COMPARISON + 1, depth);
                    self.out.push_str(&format!(" <= {hi}"));
                }
                Range::Outside(lo, hi) => {
                    self.term(x, COMPARISON + 1, depth);
                    self.out.push_str(&format!(" < {lo} || "));
                    self.term(x, COMPARISON + 1, depth);
                    self.out.push_str(&format!(" > {hi}"));
                }
            }
            if open {
                self.out.push(')');
            }
            return;
        }
        let swapped = self.constant(a).is_some() && self.constant(b).is_none();
        let (a, b) = if swapped { (b, a) } else { (a, b) };
        let signed = matches!(c, BvCmp::Slt | BvCmp::Sle);
        let style = match (self.byte(a), signed) {
            (Some(_), signed) => Style::Byte { signed },
            (None, true) => Style::Signed,
            (None, false) => Style::Unsigned,
        };
        let sign = cmp_op(c, negated, swapped);
        let unsigned = matches!(c, BvCmp::Ult | BvCmp::Ule);
        let (a, b) = match self.unwidened(a, b, style).filter(|_| unsigned) {
            Some((x, k)) => (x, Operand::Text(k)),
            None => (a, Operand::Term(b)),
        };
        self.pair(a, b, sign, COMPARISON, outer, depth, style);
    }

    /// A range check as compilers write it, `x + c <u k` (or its
    /// negation, `x + c >=u k`): the `x` it holds for lie in one interval,
    /// `lo <= x <= hi` with signed bounds (`port - 65536 >u 4294901760` is
    /// `1 <= port <= 65535`), or outside one (`port - 1 >=u 65535` is
    /// `port < 1 || port > 65535`). `None` for any other comparison.
    fn range_check(
        &self,
        c: BvCmp,
        a: TermId,
        b: TermId,
        negated: bool,
    ) -> Option<(TermId, Range)> {
        // `k <=u x + c` is `!(x + c <u k)`; `k <u x + c` is `!(x + c <=u k)`.
        let (c, a, b, negated) = match (self.constant(a), c) {
            (Some(_), BvCmp::Ule) => (BvCmp::Ult, b, a, !negated),
            (Some(_), BvCmp::Ult) => (BvCmp::Ule, b, a, !negated),
            _ => (c, a, b, negated),
        };
        let ((x, add), (width, k)) = (self.plus_constant(a)?, self.constant(b)?);
        if width > 64 || !matches!(c, BvCmp::Ult | BvCmp::Ule) {
            return None;
        }
        let modulus = 1i128 << width;
        // x + add lies in [0, top] where the comparison holds.
        let top = i128::from(k) - i128::from(c == BvCmp::Ult);
        if top < 0 || top >= modulus - 1 {
            return None;
        }
        let start = (modulus - i128::from(add)).rem_euclid(modulus);
        let (lo, len) = if negated {
            ((start + top + 1) % modulus, modulus - top - 1)
        } else {
            (start, top + 1)
        };
        let signed = |v: i128| if v >= modulus / 2 { v - modulus } else { v };
        let interval = |lo: i128, len: i128| {
            let (lo, hi) = (signed(lo), signed((lo + len - 1) % modulus));
            (lo <= hi && hi - lo + 1 == len).then_some((lo, hi))
        };
        let range = match interval(lo, len) {
            Some((lo, hi)) => Range::Inside(lo, hi),
            // Wrapping in signed terms: the values left out are one interval.
            None => {
                let (lo, hi) = interval((lo + len) % modulus, modulus - len)?;
                Range::Outside(lo, hi)
            }
        };
        // A widened value whose bounds it can hold reads as itself.
        let (Range::Inside(lo, hi) | Range::Outside(lo, hi)) = range;
        if let Node::ZeroExt(_, inner) = *self.terms.node(x) {
            if lo >= 0 && hi < 1i128 << (self.terms.width(inner) - 1) {
                return Some((inner, range));
            }
        }
        Some((x, range))
    }

    /// `a sign b`, constants in `style`.
    #[allow(clippy::too_many_arguments)]
    fn pair(
        &mut self,
        a: TermId,
        b: Operand,
        sign: &str,
        strength: u8,
        outer: u8,
        depth: u32,
        style: Style,
    ) {
        let open = strength < outer;
        if open {
            self.out.push('(');
        }
        self.styled(a, strength + 1, depth, style);
        self.out.push_str(&format!(" {sign} "));
        match b {
            Operand::Term(b) => self.styled(b, strength + 1, depth, style),
            Operand::Text(text) => self.out.push_str(&text),
        }
        if open {
            self.out.push(')');
        }
    }

    /// The operands of `op` with a constant second, where `op` commutes.
    fn constant_second(&self, op: BvBinOp, a: TermId, b: TermId) -> (TermId, TermId) {
        let commutes = matches!(
            op,
            BvBinOp::Add | BvBinOp::Mul | BvBinOp::And | BvBinOp::Or | BvBinOp::Xor
        );
        if commutes && self.constant(a).is_some() && self.constant(b).is_none() {
            (b, a)
        } else {
            (a, b)
        }
    }

    /// When `op` adds the negative constant `b` (taken in `width` bits, or
    /// its own), what it subtracts.
    fn negative_addend(&self, op: BvBinOp, b: TermId, width: Option<u8>) -> Option<u128> {
        let (own, value) = self.constant(b).filter(|_| op == BvBinOp::Add)?;
        let width = width.unwrap_or(own);
        let value = u128::from(value) & ((1u128 << width) - 1);
        (width > 1 && value >> (width - 1) == 1).then(|| (1u128 << width) - value)
    }

    /// An arithmetic or bitwise operation; adding a negative constant reads
    /// as a subtraction (`x - 58`), and a constant goes second. In an
    /// address (`style`), its constants are in hexadecimal.
    fn binary(&mut self, op: BvBinOp, a: TermId, b: TermId, outer: u8, depth: u32, style: Style) {
        let Some((sign, strength)) = bin_op(op) else {
            return self.call("smod", "", &[a, b], depth);
        };
        let (a, b) = self.constant_second(op, a, b);
        if let Some(magnitude) = self.negative_addend(op, b, None) {
            let open = strength < outer;
            if open {
                self.out.push('(');
            }
            self.term(a, strength, depth);
            self.out.push_str(&format!(" - {magnitude}"));
            if open {
                self.out.push(')');
            }
            return;
        }
        if style == Style::Address {
            self.pair(a, Operand::Term(b), sign, strength, outer, depth, style);
        } else {
            self.infix(&[a, b], sign, strength, outer, depth);
        }
    }

    /// The low `width` bits of `t`: of a widened value, that value; of a
    /// bitwise operation, the operation on the operands' low bits; of a
    /// sum, difference or product, the same marked as done in `width` bits
    /// (`u8(c - 58)`: it wraps where C's int arithmetic would not).
    fn low_bits(&mut self, t: TermId, width: u8, outer: u8, depth: u32) {
        if self.cut_off(depth) {
            return;
        }
        let depth = depth + 1;
        if self.terms.width(t) == width {
            return self.term(t, outer, depth);
        }
        match *self.terms.node(t) {
            Node::ZeroExt(_, x) | Node::SignExt(_, x) if self.terms.width(x) >= width => {
                self.low_bits(x, width, outer, depth)
            }
            Node::BvConst { value, .. } => {
                let value = value & ((1u64 << width) - 1);
                self.out.push_str(&literal(width, value, Style::Signed));
            }
            Node::BvBin(op @ (BvBinOp::And | BvBinOp::Or | BvBinOp::Xor), a, b) => {
                self.low_bits_of(op, a, b, width, outer, depth)
            }
            Node::BvBin(op @ (BvBinOp::Add | BvBinOp::Sub | BvBinOp::Mul), a, b) => {
                self.out.push_str(&format!("u{width}("));
                self.low_bits_of(op, a, b, width, TERNARY, depth);
                self.out.push(')');
            }
            _ => {
                self.term(t, PREFIX, depth);
                self.out.push_str(&format!("[{}:0]", width - 1));
            }
        }
    }

    /// `a op b` on the low `width` bits of each; a constant second, and a
    /// negative one added as a subtraction.
    fn low_bits_of(&mut self, op: BvBinOp, a: TermId, b: TermId, width: u8, outer: u8, depth: u32) {
        let (sign, strength) = bin_op(op).expect("an infix operation");
        let (a, b) = self.constant_second(op, a, b);
        let subtracted = self.negative_addend(op, b, Some(width));
        let open = strength < outer;
        if open {
            self.out.push('(');
        }
        self.low_bits(a, width, strength, depth);
        match subtracted {
            Some(magnitude) => self.out.push_str(&format!(" - {magnitude}")),
            None => {
                self.out.push_str(&format!(" {sign} "));
                self.low_bits(b, width, strength + 1, depth);
            }
        }
        if open {
            self.out.push(')');
        }
    }

    /// The value that `array` holds at the constant `at`: the last store
    /// there, or the array's default; `None` past a symbolic store.
    fn stored_at(&self, array: TermId, at: u64) -> Option<TermId> {
        let mut a = array;
        for _ in 0..MAX_STORES_WALKED {
            match *self.terms.node(a) {
                Node::Store(inner, index, value) => match self.constant(index) {
                    Some((_, i)) if i == at => return Some(value),
                    Some(_) => a = inner,
                    None => return None,
                },
                Node::ConstArray(value) => return Some(value),
                _ => return None,
            }
        }
        None
    }

    /// The value at the constant `at` of an array written at symbolic
    /// addresses too: those writes, the latest first (each an address term
    /// and its value), and the value below them, or the input's array
    /// symbol they were written over (an object's array: its byte `at`).
    /// `None` where the writes are many, or an address is not `x + c`.
    fn written_at(&self, array: TermId, at: u64) -> Option<(Vec<(TermId, TermId)>, TermId)> {
        let mut writes = Vec::new();
        let mut a = array;
        for _ in 0..MAX_STORES_WALKED {
            match *self.terms.node(a) {
                Node::Store(inner, index, value) => {
                    match self.constant(index) {
                        Some((_, i)) if i == at => return Some((writes, value)),
                        Some(_) => {}
                        None if writes.len() < MAX_SYMBOLIC_WRITES => writes.push((index, value)),
                        None => return None,
                    }
                    a = inner;
                }
                Node::ConstArray(value) => return Some((writes, value)),
                Node::Symbol(_) => return Some((writes, a)),
                _ => return None,
            }
        }
        None
    }

    /// A byte read under writes at symbolic addresses, as the choice it
    /// is: at a constant address, `(headers.len == 2 ? '\0' : headers[1])`;
    /// at a symbolic index of an input's array, `(i - 1 == j - 1 ? '\0' :
    /// text[i - 1])`.
    fn overwritten(
        &mut self,
        writes: &[(TermId, TermId)],
        read: Overwritten,
        outer: u8,
        depth: u32,
        style: Style,
    ) {
        let open = TERNARY < outer;
        if open {
            self.out.push('(');
        }
        let style = match style {
            Style::Byte { .. } => style,
            _ => Style::Byte { signed: false },
        };
        for &(written, value) in writes {
            match read {
                Overwritten::Address { at, .. } => self.address_is(written, at, depth),
                Overwritten::Index { index, .. } => {
                    self.term(index, EQUALITY + 1, depth);
                    self.out.push_str(" == ");
                    self.term(written, EQUALITY + 1, depth);
                }
            }
            self.out.push_str(" ? ");
            self.styled(value, OR, depth, style);
            self.out.push_str(" : ");
        }
        match read {
            Overwritten::Address { below, index, .. } if self.terms.sort(below) == Sort::Array => {
                self.read(below, index, OR, depth, style)
            }
            Overwritten::Address { below, .. } => self.styled(below, OR, depth, style),
            Overwritten::Index { index, input } => self.read(input, index, OR, depth, style),
        }
        if open {
            self.out.push(')');
        }
    }

    /// The few writes (index and value, newest first) an array holds over
    /// an input's array symbol: an object's array after writes at its
    /// offsets.
    fn writes_over_input(&self, array: TermId) -> Option<(Vec<(TermId, TermId)>, TermId)> {
        let mut writes = Vec::new();
        let mut a = array;
        while let Node::Store(inner, index, value) = *self.terms.node(a) {
            if writes.len() == MAX_SYMBOLIC_WRITES {
                return None;
            }
            writes.push((index, value));
            a = inner;
        }
        matches!(self.terms.node(a), Node::Symbol(_)).then_some((writes, a))
    }

    /// `index == at` for an address term, the constant moved to the right
    /// and a widening left out where the value fits (`0x10407 +
    /// zext(len) == 0x10409` reads `len == 2`).
    fn address_is(&mut self, index: TermId, at: u64, depth: u32) {
        let width = self.terms.width(index);
        let (x, k) = match self.plus_constant(index) {
            Some((x, add)) => (x, at.wrapping_sub(add) & super::mask(width)),
            None => (index, at),
        };
        let (x, style) = match self.narrower(x, k) {
            Some(inner) => (inner, Style::Unsigned),
            None => (x, Style::Address),
        };
        self.term(x, EQUALITY + 1, depth);
        self.out.push_str(" == ");
        self.out.push_str(&literal(self.terms.width(x), k, style));
    }

    /// The values `t` may take when it is a constant or a choice between
    /// constants (`c ? 1 : 0`).
    fn choices(&self, t: TermId, out: &mut Vec<u64>) -> bool {
        match *self.terms.node(t) {
            Node::BvConst { value, .. } => {
                out.push(value);
                out.len() <= MAX_OFFSETS
            }
            Node::Ite(_, a, b) => self.choices(a, out) && self.choices(b, out),
            _ => false,
        }
    }

    /// An input buffer's byte, a read of its array symbol at a constant
    /// index: `text[3]` is (`text`, 3).
    fn buffer_byte(&self, t: TermId) -> Option<(&str, u64)> {
        let Node::Select(array, index) = *self.terms.node(t) else {
            return None;
        };
        let Node::Symbol(s) = *self.terms.node(array) else {
            return None;
        };
        Some((self.terms.symbol_name(s), self.constant(index)?.1))
    }

    /// A read of an input buffer, `text[3]` or `text[i - 1]`; a read of
    /// memory: the value stored at a constant address; at a symbolic one,
    /// `base + offset` whose every value lands on the bytes of one input
    /// buffer, that buffer at the offset (`text[c ? 1 : 0]`).
    fn read(&mut self, array: TermId, index: TermId, outer: u8, depth: u32, style: Style) {
        if let Node::Symbol(s) = *self.terms.node(array) {
            self.out.push_str(self.terms.symbol_name(s));
            self.out.push('[');
            self.term(index, TERNARY, depth);
            self.out.push(']');
            return;
        }
        if let Some((_, at)) = self.constant(index) {
            if let Some(value) = self.stored_at(array, at) {
                return self.styled(value, outer, depth, style);
            }
            if let Some((writes, value)) = self.written_at(array, at) {
                let read = Overwritten::Address {
                    at,
                    index,
                    below: value,
                };
                return self.overwritten(&writes, read, outer, depth, style);
            }
        } else if let Some((writes, input)) = self.writes_over_input(array) {
            let read = Overwritten::Index { index, input };
            return self.overwritten(&writes, read, outer, depth, style);
        }
        if let Some((offset, base)) = self.plus_constant(index) {
            let mut offsets = Vec::new();
            if self.choices(offset, &mut offsets) {
                let bytes: Option<Vec<(String, u64)>> = offsets
                    .iter()
                    .map(|&d| {
                        let byte = self.stored_at(array, base.wrapping_add(d))?;
                        let (name, i) = self.buffer_byte(byte)?;
                        Some((name.to_string(), i.checked_sub(d)?))
                    })
                    .collect();
                if let Some(bytes) = bytes.filter(|b| b.windows(2).all(|w| w[0] == w[1])) {
                    let (name, start) = &bytes[0];
                    self.out.push_str(name);
                    self.out.push('[');
                    self.term(offset, if *start == 0 { TERNARY } else { 10 }, depth);
                    if *start > 0 {
                        self.out.push_str(&format!(" + {start}"));
                    }
                    self.out.push(']');
                    return;
                }
            }
        }
        // Else memory at that address: what the memory holds is in the
        // SMT-LIB form.
        self.out.push_str("mem[");
        self.styled(index, TERNARY, depth, Style::Address);
        self.out.push(']');
    }

    fn infix(&mut self, args: &[TermId], sign: &str, strength: u8, outer: u8, depth: u32) {
        let open = strength < outer;
        if open {
            self.out.push('(');
        }
        for (i, &a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(&format!(" {sign} "));
            }
            self.term(a, strength + 1, depth);
        }
        if open {
            self.out.push(')');
        }
    }

    fn prefix(&mut self, sign: &str, a: TermId, depth: u32) {
        self.out.push_str(sign);
        // `-(-1)`, not `--1`.
        let negative = self
            .constant(a)
            .is_some_and(|(w, v)| w > 1 && v >> (w - 1) == 1);
        if negative {
            self.out.push('(');
        }
        self.term(a, PREFIX, depth);
        if negative {
            self.out.push(')');
        }
    }

    /// `name{suffix}(args, ...)`, as `zext24(x)`.
    fn call(&mut self, name: &str, suffix: &str, args: &[TermId], depth: u32) {
        self.out.push_str(name);
        self.out.push_str(suffix);
        self.out.push('(');
        for (i, &a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.term(a, TERNARY, depth);
        }
        self.out.push(')');
    }
}

impl TermStore {
    /// `t` in readable infix form, cut off with `…` when very large.
    pub fn to_readable(&self, t: TermId) -> String {
        self.readable_in(t, TERNARY)
    }

    /// The conjunction of `terms`, readable; `true` when there are none.
    pub fn conjunction_to_readable(&self, terms: &[TermId]) -> String {
        if terms.is_empty() {
            return "true".into();
        }
        let parts: Vec<String> = terms
            .iter()
            .map(|&t| self.conjunct_to_readable(t))
            .collect();
        parts.join(" && ")
    }

    /// `t` readable as one conjunct of a conjunction: parenthesised where
    /// it must be to stand beside `&&`.
    pub fn conjunct_to_readable(&self, t: TermId) -> String {
        self.readable_in(t, AND + 1)
    }

    /// `t` readable in a context of binding strength `outer`.
    fn readable_in(&self, t: TermId, outer: u8) -> String {
        let mut printer = Printer {
            terms: self,
            out: String::new(),
        };
        printer.term(t, outer, 0);
        printer.out
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::{BvBinOp, BvCmp, Sort, TermStore};

    #[test]
    fn terms_read_as_infix() {
        let mut st = TermStore::new();
        let x = st.declare("arg0", Sort::Bv(32)).unwrap();
        let y = st.declare("y", Sort::Bv(32)).unwrap();
        let zero = st.bv_const(32, 0);
        let one = st.bv_const(32, 1);
        let minus_one = st.bv_const(32, u64::from(u32::MAX));
        let negative = st.cmp(BvCmp::Slt, x, zero);
        assert_eq!(st.to_readable(negative), "arg0 < 0");
        let not_negative = st.not(negative);
        assert_eq!(st.to_readable(not_negative), "arg0 >= 0");
        // The constant goes on the right.
        let eq = st.eq(minus_one, x);
        assert_eq!(st.to_readable(eq), "arg0 == -1");
        let ne = st.not(eq);
        assert_eq!(st.to_readable(ne), "arg0 != -1");
        let positive = st.cmp(BvCmp::Slt, zero, x);
        assert_eq!(st.to_readable(positive), "arg0 > 0");
        let at_most = st.cmp(BvCmp::Ule, x, minus_one);
        let not_at_most = st.not(at_most);
        // Unsigned: marked, and its constants unsigned.
        assert_eq!(st.to_readable(not_at_most), "arg0 >u 4294967295");
        let sum = st.bin(BvBinOp::Add, x, y);
        let product = st.bin(BvBinOp::Mul, sum, one);
        assert_eq!(st.to_readable(product), "(arg0 + y) * 1");
        let below = st.cmp(BvCmp::Ult, x, y);
        let both = st.and(below, negative);
        let either = st.or(ne, both);
        assert_eq!(
            st.to_readable(either),
            "arg0 != -1 || arg0 <u y && arg0 < 0"
        );
        let low = st.extract(7, 0, x);
        assert_eq!(st.to_readable(low), "arg0[7:0]");
        let wide = st.zero_ext(32, x);
        assert_eq!(st.to_readable(wide), "zext32(arg0)");
        assert_eq!(
            st.conjunction_to_readable(&[either, negative]),
            "(arg0 != -1 || arg0 <u y && arg0 < 0) && arg0 < 0"
        );
        assert_eq!(st.conjunction_to_readable(&[]), "true");
        let minus_58 = st.bv_const(32, u64::from(58u32.wrapping_neg()));
        let shifted = st.bin(BvBinOp::Add, minus_58, x);
        assert_eq!(st.to_readable(shifted), "arg0 - 58");
    }

    /// What the simplifier keeps of the compiler's arithmetic reads as the
    /// source wrote it: `y == x * 2` (kept as `x[30:0] ++ 0`), `p[8] != 'P'`
    /// (a signed char widened and compared with 80).
    #[test]
    fn a_doubling_and_a_widened_character_read_as_the_source() {
        let mut st = TermStore::new();
        let x = st.declare("x", Sort::Bv(32)).unwrap();
        let y = st.declare("y", Sort::Bv(32)).unwrap();
        let low = st.extract(30, 0, x);
        let zero_bit = st.bv_const(1, 0);
        let doubled = st.concat(low, zero_bit);
        let eq = st.eq(y, doubled);
        assert_eq!(st.to_readable(eq), "y == x * 2");
        let low = st.extract(29, 0, x);
        let two_zero_bits = st.bv_const(2, 0);
        let quadrupled = st.concat(low, two_zero_bits);
        let sum = st.bin(BvBinOp::Add, quadrupled, y);
        assert_eq!(st.to_readable(sum), "x * 4 + y");
        let p = st.declare("p8", Sort::Bv(8)).unwrap();
        let wide = st.sign_ext(24, p);
        let p_char = st.bv_const(32, u64::from(b'P'));
        let ne = st.eq(wide, p_char);
        let ne = st.not(ne);
        assert_eq!(st.to_readable(ne), "p8 != 'P'");
        // -1 widened is still one byte's value; 200 is not.
        let minus_one = st.bv_const(32, u64::from(u32::MAX));
        let is_minus_one = st.eq(wide, minus_one);
        assert_eq!(st.to_readable(is_minus_one), "p8 == -1");
        let two_hundred = st.bv_const(32, 200);
        let is_200 = st.eq(wide, two_hundred);
        assert_eq!(st.to_readable(is_200), "sext24(p8) == 200");
    }

    /// `port <= 0 || port > 65535`, compiled as one unsigned comparison of
    /// `port - 65536`, reads as the range it keeps.
    #[test]
    fn a_range_check_reads_as_its_range() {
        let mut st = TermStore::new();
        let port = st.declare("port", Sort::Bv(32)).unwrap();
        let minus = st.bv_const(32, u64::from(65536u32.wrapping_neg()));
        let shifted = st.bin(BvBinOp::Add, port, minus);
        let k = st.bv_const(32, 4_294_901_760);
        let at_most = st.cmp(BvCmp::Ule, shifted, k);
        let above = st.not(at_most);
        assert_eq!(st.to_readable(above), "1 <= port <= 65535");
        // Its negation, the values the check refuses, lie outside it.
        assert_eq!(st.to_readable(at_most), "port < 1 || port > 65535");
        // As clang -O1 writes `port <= 0 || port > 65535`.
        let minus_one = st.bv_const(32, u64::from(u32::MAX));
        let less_one = st.bin(BvBinOp::Add, port, minus_one);
        let max_port = st.bv_const(32, 65535);
        let refused = st.cmp(BvCmp::Ult, less_one, max_port);
        let refused = st.not(refused);
        assert_eq!(st.to_readable(refused), "port < 1 || port > 65535");
        // The constant on the left, one value left out (`1 <=u n - 1`).
        let wide = st.zero_ext(32, port);
        let (one, minus_one) = (st.bv_const(64, 1), st.bv_const(64, u64::MAX));
        let less = st.bin(BvBinOp::Add, wide, minus_one);
        let not_one = st.cmp(BvCmp::Ule, one, less);
        assert_eq!(st.to_readable(not_one), "port != 1");
        let is_one = st.not(not_one);
        assert_eq!(st.to_readable(is_one), "port == 1");
        // An interval across the signed boundary is the signed values
        // outside its complement.
        let minus_big = st.bv_const(32, u64::from(0x7fff_fff0u32.wrapping_neg()));
        let around = st.bin(BvBinOp::Add, port, minus_big);
        let thirty_two = st.bv_const(32, 32);
        let across = st.cmp(BvCmp::Ult, around, thirty_two);
        assert_eq!(
            st.to_readable(across),
            "port < -2147483632 || port > 2147483631"
        );
        // `c - 'a' <u 26`: a lowercase letter.
        let c = st.declare("c", Sort::Bv(32)).unwrap();
        let minus_a = st.bv_const(32, u64::from(97u32.wrapping_neg()));
        let from_a = st.bin(BvBinOp::Add, c, minus_a);
        let twenty_six = st.bv_const(32, 26);
        let letter = st.cmp(BvCmp::Ult, from_a, twenty_six);
        assert_eq!(st.to_readable(letter), "97 <= c <= 122");
        let both = st.and(letter, above);
        assert_eq!(st.to_readable(both), "97 <= c <= 122 && 1 <= port <= 65535");
        let either = st.and(letter, refused);
        assert_eq!(
            st.to_readable(either),
            "97 <= c <= 122 && (port < 1 || port > 65535)"
        );
    }

    /// How Wasm compiled from C tests `if (x < 0)`: the comparison as a 0/1
    /// value, its low bit, compared with 0.
    #[test]
    fn a_flag_compared_with_zero_reads_as_its_condition() {
        let mut st = TermStore::new();
        let x = st.declare("arg0", Sort::Bv(32)).unwrap();
        let (zero, one) = (st.bv_const(32, 0), st.bv_const(32, 1));
        let negative = st.cmp(BvCmp::Slt, x, zero);
        let flag = st.ite(negative, one, zero);
        let bit = st.extract(0, 0, flag);
        let bit_zero = st.bv_const(1, 0);
        let is_zero = st.eq(bit_zero, bit);
        assert_eq!(st.to_readable(is_zero), "arg0 >= 0");
        let not_zero = st.not(is_zero);
        assert_eq!(st.to_readable(not_zero), "arg0 < 0");
        // A flag 0 where the condition holds, compared with 1.
        let reversed = st.ite(negative, zero, one);
        let is_one = st.eq(reversed, one);
        assert_eq!(st.to_readable(is_one), "arg0 >= 0");
        // Compared with anything else, it stays as it is.
        let two = st.bv_const(32, 2);
        let is_two = st.eq(flag, two);
        assert_eq!(st.to_readable(is_two), "(arg0 < 0 ? 1 : 0) == 2");
    }

    /// A C string in memory: the program's bytes from a data segment, the
    /// input buffer `text` at 0x1040a, a read at a place given by a flag.
    #[test]
    fn memory_reads_at_known_places_read_as_the_bytes_there() {
        let mut st = TermStore::new();
        let zero_byte = st.bv_const(8, 0);
        let mut memory = st.const_array(zero_byte);
        let t = st.bv_const(8, u64::from(b't'));
        let at = st.bv_const(32, 0x400);
        memory = st.store(memory, at, t);
        let input = st.declare("text", Sort::Array).unwrap();
        let mut text = Vec::new();
        for i in 0..5u64 {
            let k = st.bv_const(32, i);
            let byte = st.select(input, k);
            let at = st.bv_const(32, 0x1040a + i);
            memory = st.store(memory, at, byte);
            text.push(byte);
        }
        let read = |st: &mut TermStore, at| {
            let at = st.bv_const(32, at);
            st.select(memory, at)
        };
        let third = read(&mut st, 0x1040d);
        assert_eq!(st.to_readable(third), "text[3]");
        let data = read(&mut st, 0x400);
        let is_t = st.eq(data, t);
        assert_eq!(st.to_readable(is_t), "'t' == 't'");
        let unwritten = read(&mut st, 0x9999);
        assert_eq!(st.to_readable(unwritten), "0");
        // text[0] == '-' ? 1 : 0, the sign's length, as an offset.
        let minus = st.bv_const(8, u64::from(b'-'));
        let signed = st.eq(minus, text[0]);
        assert_eq!(st.to_readable(signed), "text[0] == '-'");
        let (zero, one) = (st.bv_const(32, 0), st.bv_const(32, 1));
        let skip = st.ite(signed, one, zero);
        let base = st.bv_const(32, 0x1040a);
        let at = st.bin(BvBinOp::Add, base, skip);
        let first_digit = st.select(memory, at);
        let is_end = st.eq(zero_byte, first_digit);
        let not_end = st.not(is_end);
        assert_eq!(
            st.to_readable(not_end),
            "text[text[0] == '-' ? 1 : 0] != '\\0'"
        );
        // Its low byte less '0' (58 as the compiler adds -58), widened.
        let digit = st.zero_ext(24, first_digit);
        let minus_58 = st.bv_const(32, u64::from(58u32.wrapping_neg()));
        let shifted = st.bin(BvBinOp::Add, minus_58, digit);
        let low = st.extract(7, 0, shifted);
        let wide = st.zero_ext(24, low);
        let limit = st.bv_const(32, 246);
        let below = st.cmp(BvCmp::Ult, wide, limit);
        assert_eq!(
            st.to_readable(below),
            "u8(text[text[0] == '-' ? 1 : 0] - 58) <u 246"
        );
        // Past a symbolic store, a read is of memory at its address.
        let anywhere = st.declare("p", Sort::Bv(32)).unwrap();
        let written = st.store(memory, anywhere, zero_byte);
        let behind = st.select(written, at);
        assert_eq!(
            st.to_readable(behind),
            "mem[(text[0] == '-' ? 1 : 0) + 0x1040a]"
        );
        // At a known place past a symbolic store (`buf[len - 1] = 0`, as
        // fork-lazy sizes write), the byte is the choice it is.
        let len = st.declare("text.len", Sort::Bv(32)).unwrap();
        let last = st.bv_const(32, 0x1040a - 1);
        let end = st.bin(BvBinOp::Add, last, len);
        let ended = st.store(memory, end, zero_byte);
        let second = st.bv_const(32, 0x1040b);
        let second = st.select(ended, second);
        let is_dash = st.eq(second, minus);
        assert_eq!(
            st.to_readable(is_dash),
            "(text.len == 2 ? '\\0' : text[1]) == '-'"
        );
        // Two writes, the latest first, each byte as a character.
        let second = st.bv_const(32, 0x1040b);
        let at_len = st.bin(BvBinOp::Add, second, len);
        let twice = st.store(ended, at_len, t);
        let second = st.select(twice, second);
        assert_eq!(
            st.to_readable(second),
            "text.len == 0 ? 't' : text.len == 2 ? '\\0' : text[1]"
        );
    }

    /// An input buffer is an array symbol: its bytes read by index, at a
    /// constant or a symbolic one, and compared with characters.
    #[test]
    fn input_buffers_read_by_index() {
        let mut st = TermStore::new();
        let guess = st.declare("guess", Sort::Array).unwrap();
        let three = st.bv_const(32, 3);
        let third = st.select(guess, three);
        assert_eq!(st.to_readable(third), "guess[3]");
        let zero = st.bv_const(32, 0);
        let first = st.select(guess, zero);
        let s_char = st.bv_const(8, u64::from(b's'));
        let is_s = st.eq(s_char, first);
        let nul = st.bv_const(8, 0);
        let ends = st.eq(third, nul);
        assert_eq!(
            st.conjunction_to_readable(&[is_s, ends]),
            "guess[0] == 's' && guess[3] == '\\0'"
        );
        // `record[0] < 5` on the byte widened, as C compares a char.
        let record = st.declare("record", Sort::Array).unwrap();
        let kind = st.select(record, zero);
        let wide = st.zero_ext(24, kind);
        let five = st.bv_const(32, 5);
        let below = st.cmp(BvCmp::Ult, wide, five);
        assert_eq!(st.to_readable(below), "record[0] <u 5");
        // At a symbolic index: `text[i - 1]`, the index as a term.
        let i = st.declare("i", Sort::Bv(32)).unwrap();
        let minus_one = st.bv_const(32, u64::from(u32::MAX));
        let before = st.bin(BvBinOp::Add, i, minus_one);
        let text = st.declare("text", Sort::Array).unwrap();
        let read = st.select(text, before);
        let is_s = st.eq(read, s_char);
        assert_eq!(st.to_readable(is_s), "text[i - 1] == 's'");
    }

    /// Signs and precedence as a C reader takes them.
    #[test]
    fn signed_bytes_and_bitwise_operations_read_as_in_c() {
        let mut st = TermStore::new();
        let text = st.declare("text", Sort::Array).unwrap();
        let zero = st.bv_const(32, 0);
        let c = st.select(text, zero);
        // `c >= 0` for a signed char, compiled as `sext(c) > -1`.
        let wide = st.sign_ext(24, c);
        let minus_one = st.bv_const(32, u64::from(u32::MAX));
        let not_negative = st.cmp(BvCmp::Slt, minus_one, wide);
        assert_eq!(st.to_readable(not_negative), "sext24(text[0]) > -1");
        let top = st.bv_const(8, 0x80);
        let below = st.cmp(BvCmp::Slt, c, top);
        assert_eq!(st.to_readable(below), "text[0] < -128");
        let x = st.declare("x", Sort::Bv(32)).unwrap();
        let mask = st.bv_const(32, 255);
        let low = st.bin(BvBinOp::And, x, mask);
        let zero = st.bv_const(32, 0);
        let is_zero = st.eq(low, zero);
        assert_eq!(st.to_readable(is_zero), "(x & 255) == 0");
        let negated = st.neg(minus_one);
        let sum = st.bin(BvBinOp::Add, x, negated);
        assert!(
            !st.to_readable(sum).contains("--"),
            "{}",
            st.to_readable(sum)
        );
    }

    /// The low bits of a term whose subterms are shared: cut off like any
    /// other, however the term grows (a Fibonacci chain doubles).
    #[test]
    fn the_low_bits_of_a_huge_shared_term_are_cut_off() {
        let mut st = TermStore::new();
        let (mut a, mut b) = (
            st.declare("a", Sort::Bv(64)).unwrap(),
            st.declare("b", Sort::Bv(64)).unwrap(),
        );
        for _ in 0..60 {
            (a, b) = (b, st.bin(BvBinOp::Add, a, b));
        }
        let low = st.extract(31, 0, b);
        let text = st.to_readable(low);
        assert!(text.contains('…'), "{}", &text[..80]);
        assert!(text.len() < 2 * super::MAX_CHARS, "{}", text.len());
    }

    #[test]
    fn a_deep_or_wide_term_is_cut_off() {
        let mut st = TermStore::new();
        let x = st.declare("x", Sort::Bv(64)).unwrap();
        // s = s * x + x, 3,000 times: a chain far deeper than the printer
        // goes, and exponentially long if printed whole.
        let mut s = x;
        for _ in 0..3000 {
            let m = st.bin(BvBinOp::Mul, s, s);
            s = st.bin(BvBinOp::Add, m, x);
        }
        let text = st.to_readable(s);
        assert!(text.contains('…'), "{}", &text[..80]);
        assert!(text.len() < 2 * super::MAX_CHARS, "{}", text.len());
    }
}
