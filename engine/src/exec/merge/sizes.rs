//! How large a merge's formulas are ([`FormulaSize`]): the terms' DAG, its
//! disjunctions and `ite`s, and for a condition the CNF the SAT back end
//! would be given, which shows what SMOpt's formulas save against SM's.

use crate::expr::{Node, TermId, TermStore};
use crate::limits::{Checkpoint, Limits};
use crate::report::FormulaSize;
use crate::solver::bitblast::BitBlaster;

/// Past this many DAG nodes a condition's CNF is not counted: the count
/// bit-blasts it anew, which a merge should not pay for a large one.
const MAX_CNF_NODES: u64 = 20_000;

/// The size of the terms `roots` together; with `cnf` (one boolean root),
/// its CNF too, within `limits`.
pub(super) fn size_of(
    terms: &TermStore,
    roots: &[TermId],
    cnf: bool,
    limits: Limits,
) -> FormulaSize {
    let reachable = terms.reachable(roots);
    let (mut ors, mut ites) = (0, 0);
    for &t in &reachable {
        match terms.node(t) {
            Node::Or(..) => ors += 1,
            Node::Ite(..) => ites += 1,
            _ => {}
        }
    }
    let nodes = reachable.len() as u64;
    let counted = match roots {
        // A quantified condition has no CNF of its own (the solver's
        // procedure makes several).
        [root] if cnf && nodes <= MAX_CNF_NODES && !terms.has_forall(*root) => {
            BitBlaster::cnf_size(terms, *root, &mut Checkpoint::new(limits)).ok()
        }
        _ => None,
    };
    FormulaSize {
        nodes,
        ors,
        ites,
        cnf_variables: counted.map(|(variables, _)| variables),
        cnf_clauses: counted.map(|(_, clauses)| clauses),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::Sort;

    #[test]
    fn a_formula_counts_its_shared_subterms_once_and_its_cnf() {
        let mut st = TermStore::new();
        let [a, b] = ["a", "b"].map(|n| st.declare(n, Sort::Bool).unwrap());
        let both = st.and(a, b);
        let either = st.or(both, a);
        let size = size_of(&st, &[either], true, Limits::default());
        // a, b, a ∧ b, (a ∧ b) ∨ a
        assert_eq!((size.nodes, size.ors, size.ites), (4, 1, 0));
        let (variables, clauses) = (size.cnf_variables.unwrap(), size.cnf_clauses.unwrap());
        assert!(variables >= 2 && clauses >= 3, "{variables} {clauses}");
        let x = st.declare("x", Sort::Bv(8)).unwrap();
        let one = st.bv_const(8, 1);
        let value = st.ite(a, x, one);
        let values = size_of(&st, &[value, x], false, Limits::default());
        assert_eq!(
            (values.nodes, values.ites, values.cnf_variables),
            (4, 1, None)
        );
    }
}
