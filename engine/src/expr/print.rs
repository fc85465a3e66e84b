//! SMT-LIB2 text for sorts, values and terms. Shared subterms are printed once
//! through `let`, so a DAG prints in size linear in its number of nodes.

use super::eval::Value;
use super::node::{sort_to_smtlib, BvUnOp, Node, Sort, SymbolId, TermId};
use super::store::TermStore;
use std::borrow::Cow;
use std::fmt::Write;

/// The logic a script of terms declares: QF_ABV, or ALL when a term holds
/// a constant array, which QF_ABV lacks (z3 rejects one there), or a
/// forall.
pub fn script_logic(const_arrays: bool, quantified: bool) -> &'static str {
    if const_arrays || quantified {
        "ALL"
    } else {
        "QF_ABV"
    }
}

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
            // The stores open before the constant array they wrap.
            let mut s = "(store ".repeat(a.entries.len());
            let _ = write!(
                s,
                "((as const {}) {})",
                sort_to_smtlib(Sort::Array),
                bv_literal(8, u64::from(a.default))
            );
            for (&i, &v) in &a.entries {
                let _ = write!(
                    s,
                    " {} {})",
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
        // Shared inner nodes are bound once, in order, around the root; a
        // node open in a forall's variable stays inside its forall.
        let bound: Vec<TermId> = order
            .iter()
            .copied()
            .filter(|&u| uses[u.index()] > 1 && self.node(u).children().next().is_some())
            .filter(|&u| !self.is_open(u))
            .collect();
        let mut is_bound = vec![false; self.len()];
        for &u in &bound {
            is_bound[u.index()] = true;
        }
        let mut out = String::new();
        for &u in &bound {
            let _ = write!(out, "(let (({prefix}{} ", u.index());
            self.write_node(u, &is_bound, &prefix, &mut out);
            out.push_str(")) ");
        }
        self.write_node(t, &is_bound, &prefix, &mut out);
        out.extend(std::iter::repeat_n(')', bound.len()));
        out
    }

    /// A prefix for `let` names that no declared symbol starts with.
    fn let_prefix(&self) -> String {
        self.unused_prefix("?t")
    }

    /// The name of a forall's variable, which no declared symbol starts
    /// with. Every forall binds it: a variable is its nearest forall's,
    /// and a forall's bounds use none.
    pub fn bound_name(&self) -> String {
        self.unused_prefix("?i")
    }

    /// `prefix`, lengthened until no declared symbol starts with it.
    fn unused_prefix(&self, prefix: &str) -> String {
        let mut prefix = prefix.to_string();
        while self
            .symbols()
            .any(|s| self.symbol_name(s).starts_with(&prefix))
        {
            prefix.push('_');
        }
        prefix
    }

    /// Appends `root` to `out`, its `is_bound` subterms by their `let`
    /// names. Written into one string without recursion, so that a chain
    /// of a million stores prints in linear time and constant stack.
    fn write_node(&self, root: TermId, is_bound: &[bool], prefix: &str, out: &mut String) {
        enum Item {
            Term(TermId),
            Text(&'static str),
            Owned(String),
        }
        let mut todo = vec![Item::Term(root)];
        while let Some(item) = todo.pop() {
            let t = match item {
                Item::Text(text) => {
                    out.push_str(text);
                    continue;
                }
                Item::Owned(text) => {
                    out.push_str(&text);
                    continue;
                }
                Item::Term(t) => t,
            };
            if t != root && is_bound[t.index()] {
                let _ = write!(out, "{prefix}{}", t.index());
                continue;
            }
            let head: Cow<'static, str> = match *self.node(t) {
                Node::BoolConst(b) => {
                    let _ = write!(out, "{b}");
                    continue;
                }
                Node::BvConst { width, value } => {
                    out.push_str(&bv_literal(width, value));
                    continue;
                }
                Node::Symbol(s) => {
                    out.push_str(&quote_symbol(self.symbol_name(s)));
                    continue;
                }
                Node::Bound(_) => {
                    out.push_str(&self.bound_name());
                    continue;
                }
                Node::Forall(lo, hi, body) => {
                    // (forall ((i w)) (=> (and (bvule lo i) (bvule i hi)) body))
                    let i = self.bound_name();
                    let sort = sort_to_smtlib(self.sort(lo));
                    let _ = write!(out, "(forall (({i} {sort})) (=> (and (bvule ");
                    todo.push(Item::Text("))"));
                    todo.push(Item::Term(body));
                    todo.push(Item::Text(")) "));
                    todo.push(Item::Term(hi));
                    todo.push(Item::Owned(format!(" {i}) (bvule {i} ")));
                    todo.push(Item::Term(lo));
                    continue;
                }
                Node::Not(_) => "not".into(),
                Node::And(..) => "and".into(),
                Node::Or(..) => "or".into(),
                Node::Xor(..) => "xor".into(),
                Node::Ite(..) => "ite".into(),
                Node::Eq(..) => "=".into(),
                Node::BvUn(BvUnOp::Not, _) => "bvnot".into(),
                Node::BvUn(BvUnOp::Neg, _) => "bvneg".into(),
                Node::BvBin(op, ..) => op.smtlib_name().into(),
                Node::BvCmp(op, ..) => op.smtlib_name().into(),
                Node::Extract { hi, lo, .. } => format!("(_ extract {hi} {lo})").into(),
                Node::Concat(..) => "concat".into(),
                Node::ZeroExt(k, _) => format!("(_ zero_extend {k})").into(),
                Node::SignExt(k, _) => format!("(_ sign_extend {k})").into(),
                Node::RotateLeft(k, _) => format!("(_ rotate_left {k})").into(),
                Node::RotateRight(k, _) => format!("(_ rotate_right {k})").into(),
                Node::Select(..) => "select".into(),
                Node::Store(..) => "store".into(),
                Node::ConstArray(_) => format!("(as const {})", sort_to_smtlib(Sort::Array)).into(),
            };
            out.push('(');
            out.push_str(&head);
            todo.push(Item::Text(")"));
            let children: Vec<TermId> = self.node(t).children().collect();
            for &c in children.iter().rev() {
                todo.push(Item::Term(c));
                todo.push(Item::Text(" "));
            }
        }
    }

    /// `declare-fun` lines for every symbol in `terms`.
    pub fn declarations(&self, terms: &[TermId]) -> String {
        let mut out = String::new();
        for s in self.symbols_in(terms) {
            out.push_str(&self.declaration(s));
            out.push('\n');
        }
        out
    }

    /// The `declare-fun` of symbol `s`, without a line end.
    pub fn declaration(&self, s: SymbolId) -> String {
        format!(
            "(declare-fun {} () {})",
            quote_symbol(self.symbol_name(s)),
            sort_to_smtlib(self.symbol_sort(s))
        )
    }

    /// Whether `terms` hold a constant array.
    pub fn has_const_arrays(&self, terms: &[TermId]) -> bool {
        self.reachable(terms)
            .into_iter()
            .any(|t| matches!(self.node(t), Node::ConstArray(_)))
    }

    /// A self-contained script that asserts `terms` and checks satisfiability.
    pub fn to_smtlib_script(&self, terms: &[TermId]) -> String {
        let quantified = terms.iter().any(|&t| self.has_forall(t));
        let logic = script_logic(self.has_const_arrays(terms), quantified);
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
    fn a_long_store_chain_prints_in_one_pass() {
        let mut s = TermStore::new();
        let zero = s.bv_const(8, 0);
        let mut array = s.const_array(zero);
        let n = 200_000u64;
        for k in 0..n {
            let (i, v) = (s.bv_const(32, k), s.bv_const(8, k & 0xff));
            array = s.store(array, i, v);
        }
        let i = s.declare("i", Sort::Bv(32)).unwrap();
        let read = s.select(array, i);
        let text = s.to_smtlib(read);
        let head = "(select ".to_string() + &"(store ".repeat(n as usize);
        assert!(text.starts_with(&head));
        assert!(text.ends_with(" #x00030d3e #x3e) #x00030d3f #x3f) i)"));
        // ` #x........ #x..)` closes each store, around the constant array.
        let constant = "((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00)";
        assert_eq!(
            text.len(),
            head.len() + constant.len() + n as usize * 17 + " i)".len()
        );
    }

    /// An input buffer is declared once, as an array, and its bytes are
    /// reads of it at constant indices.
    #[test]
    fn an_input_buffer_is_declared_as_one_array() {
        let mut s = TermStore::new();
        let text = s.declare("text", Sort::Array).unwrap();
        let three = s.bv_const(32, 3);
        let byte = s.select(text, three);
        let a = s.bv_const(8, u64::from(b'a'));
        let is_a = s.eq(byte, a);
        assert_eq!(s.to_smtlib(is_a), "(= (select text #x00000003) #x61)");
        assert_eq!(
            s.declarations(&[is_a]),
            "(declare-fun text () (Array (_ BitVec 32) (_ BitVec 8)))\n"
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
