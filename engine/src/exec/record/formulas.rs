//! The run's table of formulas ([`Formulas`]): each branch condition and
//! path-condition term is printed once, when the run first meets it, and
//! the tree and the paths refer to it by index.

use crate::expr::{SymbolId, TermId, TermStore};
use crate::report::{Formula, Formulas};
use rustc_hash::FxHashMap;

#[derive(Clone, Debug, Default)]
pub(crate) struct FormulaTable {
    table: Formulas,
    /// Each term's index in `table.terms`.
    by_term: FxHashMap<TermId, u32>,
    /// Each symbol's index in `table.declarations`.
    by_symbol: FxHashMap<SymbolId, u32>,
}

impl FormulaTable {
    /// The index of formula `t`, printed now if the run has not met it.
    pub(crate) fn intern(&mut self, terms: &TermStore, t: TermId) -> u32 {
        if let Some(&index) = self.by_term.get(&t) {
            return index;
        }
        let mut symbols: Vec<u32> = terms
            .symbols_in(&[t])
            .into_iter()
            .map(|s| {
                let next = self.table.declarations.len() as u32;
                *self.by_symbol.entry(s).or_insert_with(|| {
                    self.table.declarations.push(terms.declaration(s));
                    next
                })
            })
            .collect();
        symbols.sort_unstable();
        let index = self.table.terms.len() as u32;
        self.table.terms.push(Formula {
            smtlib: terms.to_smtlib(t),
            readable: terms.conjunct_to_readable(t),
            symbols,
            const_arrays: terms.has_const_arrays(&[t]),
            quantified: terms.has_forall(t),
        });
        self.by_term.insert(t, index);
        index
    }

    /// The index of formula `t`, if the run has met it.
    pub(crate) fn index_of(&self, t: TermId) -> Option<u32> {
        self.by_term.get(&t).copied()
    }

    /// The indices of the conjuncts `ts`, in order.
    pub(crate) fn intern_all(&mut self, terms: &TermStore, ts: &[TermId]) -> Vec<u32> {
        ts.iter().map(|&t| self.intern(terms, t)).collect()
    }

    pub(crate) fn formulas(&self) -> &Formulas {
        &self.table
    }

    /// The table, leaving an empty one: what a finished run reports.
    pub(crate) fn take(&mut self) -> Formulas {
        std::mem::take(self).table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Sort};

    #[test]
    fn a_formula_met_again_keeps_its_index_and_prints_as_the_store_does() {
        let mut st = TermStore::new();
        let x = st.declare("x", Sort::Bv(32)).unwrap();
        let y = st.declare("y", Sort::Bv(32)).unwrap();
        let zero = st.bv_const(32, 0);
        let negative = st.cmp(BvCmp::Slt, y, zero);
        let below = st.cmp(BvCmp::Ult, x, y);
        let mut table = FormulaTable::default();
        assert_eq!(table.intern_all(&st, &[negative, below]), [0, 1]);
        assert_eq!(table.intern(&st, negative), 0);
        let formulas = table.formulas();
        assert_eq!(formulas.terms.len(), 2);
        // y was used first: it is declared first.
        assert_eq!(formulas.terms[0].symbols, [0]);
        assert_eq!(formulas.terms[1].symbols, [0, 1]);
        assert_eq!(
            formulas.script(&[0, 1]),
            format!(
                "(set-logic QF_ABV)\n{}\n{}\n(assert {})\n(assert {})\n(check-sat)\n",
                st.declaration(st.symbols_in(&[y])[0]),
                st.declaration(st.symbols_in(&[x])[0]),
                st.to_smtlib(negative),
                st.to_smtlib(below)
            )
        );
        assert_eq!(
            formulas.readable(&[0, 1]),
            st.conjunction_to_readable(&[negative, below])
        );
    }
}
