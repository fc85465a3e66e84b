//! Hash-consed terms: booleans, bit-vectors of width 1..=64, and arrays from
//! 32-bit indices to 8-bit values (Wasm linear memory).
//!
//! Every term lives once in a [`TermStore`] and is named by a small [`TermId`]:
//! structural equality is id equality. A term's children are always created
//! before it, so children have smaller ids than their parents and sorting ids
//! gives a topological order; passes use that to work without recursion.
//!
//! `node` says what a term is, `store` owns them; `eval` gives their meaning,
//! `print` their SMT-LIB text and `readable` their infix form for people;
//! `join` how merged states' values become one.

mod eval;
mod join;
mod node;
mod print;
#[cfg(test)]
pub(crate) mod random;
mod readable;
mod store;

pub use eval::{ArrayValue, Model, Value};
pub use join::{Guarded, Join};
pub use node::{
    mask, sort_to_smtlib, to_signed, BvBinOp, BvCmp, BvUnOp, Node, Sort, SymbolId, TermId,
    ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH, MAX_WIDTH,
};
pub use print::{quote_symbol, script_logic, value_to_smtlib};
pub use store::{SortError, TermStore};
