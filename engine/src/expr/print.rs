//! SMT-LIB2 text for sorts, values and terms. Shared subterms are printed once
//! through `let`, so a DAG prints in size linear in its number of nodes.

use super::eval::Value;
use super::node::{sort_to_smtlib, BvUnOp, Node, Sort, TermId};
use super::store::TermStore;
use std::borrow::Cow;
use std::fmt::Write;

/// A symbol as SMT-LIB writes it: bare when it is a simple symbol, else `|quoted|`.
pub fn quote_symbol(name: &str) -> Cow<'_, str> {
    let simple_char = |c: char| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c);
    let simple = !name.is_empty()
        && name.chars().all(simple_char)
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if simple {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(format!("|{name}|"))
    }
}

fn bv_literal(width: u8, value: u64) -> String {
    if width.is_multiple_of(4) {
        format!("#x{:0digits$x}", value, digits = usize::from(width / 4))
    } else {
        format!("#b{:0digits$b}", value, digits = usize::from(width))
    }
}

pub fn value_to_smtlib(value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::Bv { width, value } => bv_literal(*width, *value),
        Value::Array(a) => {
            let mut s = format!(
                "((as const {}) {})",
                sort_to_smtlib(Sort::Array),
                bv_literal(8, u64::from(a.default))
            );
            for (&i, &v) in &a.entries {
                s = format!(
                    "(store {s} {} {})",
                    bv_literal(32, u64::from(i)),
                    bv_literal(8, u64::from(v))
                );
            }
            s
        }
    }
}

impl TermStore {
    /// `t` as one SMT-LIB2 term.
    pub fn to_smtlib(&self, t: TermId) -> String {
        let order = self.reachable(&[t]);
        let mut uses = vec![0u32; self.len()];
        for &u in &order {
            for c in self.node(u).children() {
                uses[c.index()] += 1;
            }
        }
        let prefix = self.let_prefix();
        let mut text: Vec<Option<String>> = vec![None; self.len()];
        let mut bindings = Vec::new();
        for &u in &order {
            let s = self.node_text(u, &mut text, &uses);
            let leaf = self.node(u).children().next().is_none();
            if uses[u.index()] > 1 && !leaf {
                let name = format!("{prefix}{}", u.index());
                bindings.push((name.clone(), s));
                text[u.index()] = Some(name);
            } else {
                text[u.index()] = Some(s);
            }
        }
        // The bindings around the root, in order, built once.
        let mut out = String::new();
        for (name, value) in &bindings {
            let _ = write!(out, "(let (({name} {value})) ");
        }
        out.push_str(&text[t.index()].take().expect("root printed"));
        out.extend(std::iter::repeat_n(')', bindings.len()));
        out
    }

    /// A prefix for `let` names that no declared symbol starts with.
    fn let_prefix(&self) -> String {
        let mut prefix = "?t".to_string();
        while self
            .symbols()
            .any(|s| self.symbol_name(s).starts_with(&prefix))
        {
            prefix.push('_');
        }
        prefix
    }

    /// Text of one node whose children are already in `text`; single-use
    /// children are moved into the parent (copies of them would make a
    /// chain print in quadratic time and memory), shared ones (let names,
    /// leaves) copied.
    fn node_text(&self, t: TermId, text: &mut [Option<String>], uses: &[u32]) -> String {
        let mut arg = |c: TermId| -> String {
            let slot = &mut text[c.index()];
            let printed = if uses[c.index()] > 1 {
                slot.clone()
            } else {
                slot.take()
            };
            printed.expect("children print before parents")
        };
        let app = |name: &str, args: &[String]| {
            let mut s = format!("({name}");
            for a in args {
                s.push(' ');
                s.push_str(a);
            }
            s.push(')');
            s
        };
        match *self.node(t) {
            Node::BoolConst(b) => b.to_string(),
            Node::BvConst { width, value } => bv_literal(width, value),
            Node::Symbol(s) => quote_symbol(self.symbol_name(s)).into_owned(),
            Node::Not(a) => app("not", &[arg(a)]),
            Node::And(a, b) => app("and", &[arg(a), arg(b)]),
            Node::Or(a, b) => app("or", &[arg(a), arg(b)]),
            Node::Xor(a, b) => app("xor", &[arg(a), arg(b)]),
            Node::Ite(c, a, b) => app("ite", &[arg(c), arg(a), arg(b)]),
            Node::Eq(a, b) => app("=", &[arg(a), arg(b)]),
            Node::BvUn(BvUnOp::Not, a) => app("bvnot", &[arg(a)]),
            Node::BvUn(BvUnOp::Neg, a) => app("bvneg", &[arg(a)]),
            Node::BvBin(op, a, b) => app(op.smtlib_name(), &[arg(a), arg(b)]),
            Node::BvCmp(op, a, b) => app(op.smtlib_name(), &[arg(a), arg(b)]),
            Node::Extract { hi, lo, arg: a } => app(&format!("(_ extract {hi} {lo})"), &[arg(a)]),
            Node::Concat(a, b) => app("concat", &[arg(a), arg(b)]),
            Node::ZeroExt(k, a) => app(&format!("(_ zero_extend {k})"), &[arg(a)]),
            Node::SignExt(k, a) => app(&format!("(_ sign_extend {k})"), &[arg(a)]),
            Node::RotateLeft(k, a) => app(&format!("(_ rotate_left {k})"), &[arg(a)]),
            Node::RotateRight(k, a) => app(&format!("(_ rotate_right {k})"), &[arg(a)]),
            Node::Select(a, i) => app("select", &[arg(a), arg(i)]),
            Node::Store(a, i, v) => app("store", &[arg(a), arg(i), arg(v)]),
            Node::ConstArray(v) => app(
                &format!("(as const {})", sort_to_smtlib(Sort::Array)),
                &[arg(v)],
            ),
        }
    }

    /// `declare-fun` lines for every symbol in `terms`.
    pub fn declarations(&self, terms: &[TermId]) -> String {
        let mut out = String::new();
        for s in self.symbols_in(terms) {
            let _ = writeln!(
                out,
                "(declare-fun {} () {})",
                quote_symbol(self.symbol_name(s)),
                sort_to_smtlib(self.symbol_sort(s))
            );
        }
        out
    }

    /// A self-contained script that asserts `terms` and checks satisfiability.
    pub fn to_smtlib_script(&self, terms: &[TermId]) -> String {
        // Constant arrays are not part of QF_ABV, and z3 rejects them there.
        let const_arrays = self
            .reachable(terms)
            .into_iter()
            .any(|t| matches!(self.node(t), Node::ConstArray(_)));
        let logic = if const_arrays { "ALL" } else { "QF_ABV" };
        let mut out = format!("(set-logic {logic})\n");
        out.push_str(&self.declarations(terms));
        for &t in terms {
            let _ = writeln!(out, "(assert {})", self.to_smtlib(t));
        }
        out.push_str("(check-sat)\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{ArrayValue, BvBinOp};
    use std::rc::Rc;

    #[test]
    fn shared_subterms_are_let_bound_once() {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let one = s.bv_const(8, 1);
        let sum = s.bin(BvBinOp::Add, x, one);
        let prod = s.bin(BvBinOp::Mul, sum, sum);
        let text = s.to_smtlib(prod);
        let name = format!("?t{}", sum.index());
        assert_eq!(
            text,
            format!("(let (({name} (bvadd x #x01))) (bvmul {name} {name}))")
        );
    }

    #[test]
    fn literals_symbols_and_values() {
        let mut s = TermStore::new();
        let odd = s.declare("a b", Sort::Bv(3)).unwrap();
        let c = s.bv_const(3, 5);
        let e = s.eq(odd, c);
        assert_eq!(s.to_smtlib(e), "(= |a b| #b101)");
        let mut a = ArrayValue {
            default: 7,
            ..ArrayValue::default()
        };
        a.set(2, 9);
        assert_eq!(
            value_to_smtlib(&Value::Array(Rc::new(a))),
            "(store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x07) #x00000002 #x09)"
        );
        assert_eq!(quote_symbol("1x"), "|1x|");
    }
}
