//! The walk every pass makes: the terms still to do below a root, children
//! first, without recursing on term depth.

use crate::expr::{TermId, TermStore};
use crate::limits::{Checkpoint, Reached};
use rustc_hash::FxHashSet;

/// The terms below `root` (and `root` itself) that are not `done`, children
/// first; the walk does not enter terms that are `done`. Stops at the limit
/// `checkpoint` reaches.
pub(super) fn pending_terms(
    store: &TermStore,
    root: TermId,
    done: impl Fn(TermId) -> bool,
    checkpoint: &mut Checkpoint,
) -> Result<Vec<TermId>, Reached> {
    let mut seen = FxHashSet::default();
    let mut stack = vec![root];
    let mut out = Vec::new();
    while let Some(u) = stack.pop() {
        if done(u) || !seen.insert(u) {
            continue;
        }
        if let Some(limit) = checkpoint.after(1) {
            return Err(limit);
        }
        out.push(u);
        stack.extend(store.node(u).children());
    }
    // Children have smaller ids than their parents.
    out.sort_unstable();
    Ok(out)
}
