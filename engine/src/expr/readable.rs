//! Terms in a readable infix form, for people (the page's tree and node
//! details, the CLI): `(bvslt arg0 #x00000000)` reads `arg0 <s 0`. Printed
//! from the term graph itself; the SMT-LIB form (`print.rs`) stays the exact
//! one. A shared subterm is printed at each use, so the text is cut off (with
//! `…`) past a length and a nesting depth.

use super::{BvBinOp, BvCmp, BvUnOp, Node, TermId, TermStore};

/// Characters of readable text before it is cut off.
const MAX_CHARS: usize = 2000;
/// Nesting printed before a subterm is elided; also bounds the recursion.
const MAX_DEPTH: u32 = 48;

/// Binding strengths: a higher one binds tighter; an operand of a weaker
/// operator than its context is parenthesised.
const TERNARY: u8 = 0;
const OR: u8 = 1;
const AND: u8 = 2;
const EQUALITY: u8 = 3;
const COMPARISON: u8 = 4;
const PREFIX: u8 = 12;

fn bin_op(op: BvBinOp) -> Option<(&'static str, u8)> {
    Some(match op {
        BvBinOp::Or => ("|", 5),
        BvBinOp::Xor => ("^", 6),
        BvBinOp::And => ("&", 7),
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

fn cmp_op(c: BvCmp) -> &'static str {
    match c {
        BvCmp::Ult => "<u",
        BvCmp::Ule => "<=u",
        BvCmp::Slt => "<s",
        BvCmp::Sle => "<=s",
    }
}

/// The comparison that holds where `c` does not: `!(a <s b)` is `a >=s b`.
fn negated_cmp_op(c: BvCmp) -> &'static str {
    match c {
        BvCmp::Ult => ">=u",
        BvCmp::Ule => ">u",
        BvCmp::Slt => ">=s",
        BvCmp::Sle => ">s",
    }
}

/// A constant as a decimal: signed when its top bit is set, as inputs are
/// mostly signed (`#xffffffff` reads `-1`).
fn literal(width: u8, value: u64) -> String {
    if width > 1 && width <= 64 && value >> (width - 1) == 1 {
        (i128::from(value) - (1i128 << width)).to_string()
    } else {
        value.to_string()
    }
}

struct Printer<'s> {
    terms: &'s TermStore,
    out: String,
}

impl Printer<'_> {
    fn full(&self) -> bool {
        self.out.len() >= MAX_CHARS
    }

    /// Prints `t` in a context of binding strength `outer`.
    fn term(&mut self, t: TermId, outer: u8, depth: u32) {
        if self.full() {
            if !self.out.ends_with('…') {
                self.out.push('…');
            }
            return;
        }
        if depth >= MAX_DEPTH {
            self.out.push('…');
            return;
        }
        let depth = depth + 1;
        match *self.terms.node(t) {
            Node::BoolConst(b) => self.out.push_str(if b { "true" } else { "false" }),
            Node::BvConst { width, value } => self.out.push_str(&literal(width, value)),
            Node::Symbol(s) => self.out.push_str(self.terms.symbol_name(s)),
            Node::Not(a) => match *self.terms.node(a) {
                Node::Eq(x, y) => self.infix(&[x, y], "!=", EQUALITY, outer, depth),
                Node::BvCmp(c, x, y) => {
                    self.infix(&[x, y], negated_cmp_op(c), COMPARISON, outer, depth)
                }
                _ => self.prefix("!", a, depth),
            },
            Node::And(a, b) => self.infix(&[a, b], "&&", AND, outer, depth),
            Node::Or(a, b) => self.infix(&[a, b], "||", OR, outer, depth),
            Node::Xor(a, b) => self.infix(&[a, b], "^", 6, outer, depth),
            Node::Eq(a, b) => self.infix(&[a, b], "==", EQUALITY, outer, depth),
            Node::BvCmp(c, a, b) => self.infix(&[a, b], cmp_op(c), COMPARISON, outer, depth),
            Node::BvUn(BvUnOp::Not, a) => self.prefix("~", a, depth),
            Node::BvUn(BvUnOp::Neg, a) => self.prefix("-", a, depth),
            Node::BvBin(op, a, b) => match bin_op(op) {
                Some((sign, strength)) => self.infix(&[a, b], sign, strength, outer, depth),
                None => self.call("smod", "", &[a, b], depth),
            },
            Node::Concat(a, b) => self.infix(&[a, b], "++", 11, outer, depth),
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
            Node::Extract { hi, lo, arg } => {
                self.term(arg, PREFIX, depth);
                self.out.push_str(&format!("[{hi}:{lo}]"));
            }
            Node::ZeroExt(n, a) => self.call("zext", &n.to_string(), &[a], depth),
            Node::SignExt(n, a) => self.call("sext", &n.to_string(), &[a], depth),
            Node::RotateLeft(n, a) => self.call("rotl", &n.to_string(), &[a], depth),
            Node::RotateRight(n, a) => self.call("rotr", &n.to_string(), &[a], depth),
            Node::Select(array, index) => {
                self.term(array, PREFIX, depth);
                self.out.push('[');
                self.term(index, TERNARY, depth);
                self.out.push(']');
            }
            Node::Store(array, index, value) => {
                self.term(array, PREFIX, depth);
                self.out.push('[');
                self.term(index, TERNARY, depth);
                self.out.push_str(" := ");
                self.term(value, TERNARY, depth);
                self.out.push(']');
            }
            Node::ConstArray(value) => self.call("const", "", &[value], depth),
        }
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
        self.term(a, PREFIX, depth);
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
            .map(|&t| self.readable_in(t, AND + 1))
            .collect();
        parts.join(" && ")
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
        assert_eq!(st.to_readable(negative), "arg0 <s 0");
        let not_negative = st.not(negative);
        assert_eq!(st.to_readable(not_negative), "arg0 >=s 0");
        let eq = st.eq(minus_one, x);
        assert_eq!(st.to_readable(eq), "-1 == arg0");
        let ne = st.not(eq);
        assert_eq!(st.to_readable(ne), "-1 != arg0");
        let sum = st.bin(BvBinOp::Add, x, y);
        let product = st.bin(BvBinOp::Mul, sum, one);
        assert_eq!(st.to_readable(product), "(arg0 + y) * 1");
        let below = st.cmp(BvCmp::Ult, x, y);
        let both = st.and(below, negative);
        let either = st.or(ne, both);
        assert_eq!(
            st.to_readable(either),
            "-1 != arg0 || arg0 <u y && arg0 <s 0"
        );
        let low = st.extract(7, 0, x);
        assert_eq!(st.to_readable(low), "arg0[7:0]");
        let wide = st.zero_ext(32, x);
        assert_eq!(st.to_readable(wide), "zext32(arg0)");
        assert_eq!(
            st.conjunction_to_readable(&[either, negative]),
            "(-1 != arg0 || arg0 <u y && arg0 <s 0) && arg0 <s 0"
        );
        assert_eq!(st.conjunction_to_readable(&[]), "true");
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
