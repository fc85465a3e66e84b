//! The formulas of a run's conditions, each printed once: a tree node's
//! branch condition and a path's condition are indices into one table.
//! Paths share most of their conditions (a path's condition holds the
//! branch conditions on its way from the root), so printing each formula
//! once for the run, and a path's whole SMT-LIB script only when someone
//! asks for it, keeps a report's size and the cost of a path's end
//! independent of how many paths share a formula.

use crate::expr::script_logic;
use serde::{Deserialize, Serialize};

/// Every formula of a run's tree and paths, and the declarations of the
/// symbols they use.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Formulas {
    /// `(declare-fun NAME () SORT)` for each symbol a formula uses, in the
    /// order the run first used them.
    pub declarations: Vec<String>,
    /// Each formula once, in the order the run first met them.
    pub terms: Vec<Formula>,
}

/// One boolean term of a condition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Formula {
    /// The term in SMT-LIB2, shared subterms `let`-bound.
    pub smtlib: String,
    /// The term in readable infix form, parenthesised where it must be to
    /// stand in a conjunction (`a && b`); long terms are cut off with `…`.
    pub readable: String,
    /// The symbols it uses: indices into `declarations`, ascending.
    pub symbols: Vec<u32>,
    /// It holds a constant array, which QF_ABV lacks.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub const_arrays: bool,
    /// It holds a forall, which the quantifier-free logics lack.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quantified: bool,
}

impl Formulas {
    /// The formula at `index`; `None` past the table (a report edited by
    /// hand or cut short).
    pub fn get(&self, index: u32) -> Option<&Formula> {
        self.terms.get(index as usize)
    }

    /// A self-contained SMT-LIB2 script that asserts the formulas at
    /// `conjuncts`, in order, and checks satisfiability: the declarations
    /// of their symbols in the order the run first used them, one `assert`
    /// each. An index past the table is left out.
    pub fn script(&self, conjuncts: &[u32]) -> String {
        let formulas: Vec<&Formula> = conjuncts.iter().filter_map(|&i| self.get(i)).collect();
        let logic = script_logic(
            formulas.iter().any(|f| f.const_arrays),
            formulas.iter().any(|f| f.quantified),
        );
        let mut out = format!("(set-logic {logic})\n");
        for declaration in self.declarations_of(conjuncts) {
            out.push_str(declaration);
            out.push('\n');
        }
        for f in formulas {
            out.push_str("(assert ");
            out.push_str(&f.smtlib);
            out.push_str(")\n");
        }
        out.push_str("(check-sat)\n");
        out
    }

    /// The declarations of the symbols the formulas at `conjuncts` use,
    /// each once, in the order the run first used them.
    pub fn declarations_of(&self, conjuncts: &[u32]) -> Vec<&str> {
        let mut symbols: Vec<u32> = conjuncts
            .iter()
            .filter_map(|&i| self.get(i))
            .flat_map(|f| f.symbols.iter().copied())
            .collect();
        symbols.sort_unstable();
        symbols.dedup();
        symbols
            .into_iter()
            .filter_map(|s| self.declarations.get(s as usize).map(String::as_str))
            .collect()
    }

    /// The formulas at `conjuncts` in readable form, joined by `&&`;
    /// `true` for none.
    pub fn readable(&self, conjuncts: &[u32]) -> String {
        let parts: Vec<&str> = conjuncts
            .iter()
            .filter_map(|&i| self.get(i).map(|f| f.readable.as_str()))
            .collect();
        if parts.is_empty() {
            "true".into()
        } else {
            parts.join(" && ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Formulas {
        Formulas {
            declarations: vec![
                "(declare-fun x () (_ BitVec 32))".into(),
                "(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))".into(),
            ],
            terms: vec![
                Formula {
                    smtlib: "(bvslt x #x00000000)".into(),
                    readable: "x < 0".into(),
                    symbols: vec![0],
                    const_arrays: false,
                    quantified: false,
                },
                Formula {
                    smtlib: "(= #x61 (select a x))".into(),
                    readable: "a[x] == 'a'".into(),
                    symbols: vec![0, 1],
                    const_arrays: false,
                    quantified: false,
                },
                Formula {
                    smtlib: "(= a ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00))".into(),
                    readable: "a == [0 ...]".into(),
                    symbols: vec![1],
                    const_arrays: true,
                    quantified: false,
                },
            ],
        }
    }

    #[test]
    fn a_script_declares_each_symbol_once_and_asserts_in_order() {
        let t = table();
        assert_eq!(
            t.script(&[1, 0]),
            "(set-logic QF_ABV)\n\
             (declare-fun x () (_ BitVec 32))\n\
             (declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))\n\
             (assert (= #x61 (select a x)))\n\
             (assert (bvslt x #x00000000))\n\
             (check-sat)\n"
        );
        assert_eq!(t.readable(&[1, 0]), "a[x] == 'a' && x < 0");
    }

    #[test]
    fn a_constant_array_needs_the_logic_that_has_one() {
        let t = table();
        assert!(t.script(&[2]).starts_with("(set-logic ALL)\n"));
        assert!(t.script(&[0, 1]).starts_with("(set-logic QF_ABV)\n"));
    }

    #[test]
    fn no_conjunct_is_true_and_an_index_past_the_table_is_left_out() {
        let t = table();
        assert_eq!(t.readable(&[]), "true");
        assert_eq!(t.script(&[]), "(set-logic QF_ABV)\n(check-sat)\n");
        assert_eq!(t.readable(&[7, 0]), "x < 0");
        assert_eq!(t.declarations_of(&[7]), Vec::<&str>::new());
    }
}
