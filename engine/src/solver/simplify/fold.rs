//! Constant folding, through the evaluator's one definition of each operator
//! (`TermStore::fold_constants`), so folding never disagrees with evaluation.

use crate::expr::{Node, TermId, TermStore, Value};

/// The constant that `node` evaluates to, if all its operands are constants
/// and its value is a boolean or a bit-vector.
pub(super) fn fold(store: &mut TermStore, node: &Node) -> Option<TermId> {
    match store.fold_constants(node)? {
        Value::Bool(b) => Some(store.bool_const(b)),
        Value::Bv { width, value } => Some(store.bv_const(width, value)),
        Value::Array(_) => None,
    }
}
