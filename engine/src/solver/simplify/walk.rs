//! The walk every pass makes: the terms still to do below a root, children
//! first, without recursing on term depth.

use crate::expr::{TermId, TermStore};
use rustc_hash::FxHashSet;

/// The terms below `root` (and `root` itself) that are not `done`, children
/// first; the walk does not enter terms that are `done`.
pub(super) fn pending_terms(
    store: &TermStore,
    root: TermId,
    done: impl Fn(TermId) -> bool,
) -> Vec<TermId> {
    let mut seen = FxHashSet::default();
    let mut stack = vec![root];
    let mut out = Vec::new();
    while let Some(u) = stack.pop() {
        if done(u) || !seen.insert(u) {
            continue;
        }
        out.push(u);
        stack.extend(store.node(u).children());
    }
    // Children have smaller ids than their parents.
    out.sort_unstable();
    out
}
