//! The execution tree, owned by the engine: one node per side of a fork,
//! with the branch condition (its index in the run's formulas, printed
//! once for the run), where its parent forked, the path that ended at a
//! leaf, and the pending states at or below each node (what random path
//! walks by, and what merging contexts count), and the nodes where states
//! merged. The report's tree is rendered from it when a snapshot is taken.

use crate::report::{ForkKind, Location, NodeMemory, TreeNode};

/// A node's index in its tree; the root is 0.
pub type NodeId = usize;

#[derive(Clone, Debug, Default)]
pub struct Node {
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// The condition added on the edge from the parent: its index in the
    /// run's formulas.
    pub condition: Option<u32>,
    /// Which alternative of the parent's fork this node is (its index
    /// among the fork's alternatives, feasible or not): with its
    /// ancestors', what names the node in every run of the same options
    /// (`ExecTree::decisions`).
    pub side: u32,
    /// Its state was handed to another job of a parallel run, which
    /// explored the subtree below.
    pub handed_over: bool,
    /// Where this node forked, for inner nodes.
    pub fork: Option<Location>,
    /// What made it fork there.
    pub fork_kind: ForkKind,
    /// The path that ended here, for leaves.
    pub path: Option<usize>,
    /// The path was dropped here (an infeasible `assume`).
    pub dropped: bool,
    /// States waiting to run at or below this node.
    pub pending: u32,
    /// The memory objects when it forked.
    pub memory: Option<NodeMemory>,
    /// Bytes the state held of its own when it forked here or ended here.
    pub state_bytes: Option<u64>,
    /// The leaves whose states merged into this node's.
    pub merged_from: Vec<NodeId>,
    /// The node this leaf's state merged into.
    pub merged_into: Option<NodeId>,
    /// Below a node whose state merged incrementally with a later one
    /// (`../shared/design/quantified_merging.md` §5): its states were
    /// dropped, and the merged state explores their cases again.
    pub superseded: bool,
}

#[derive(Clone, Debug)]
pub struct ExecTree {
    nodes: Vec<Node>,
}

impl Default for ExecTree {
    fn default() -> Self {
        ExecTree::new()
    }
}

impl ExecTree {
    /// A tree of one root node.
    pub fn new() -> ExecTree {
        ExecTree {
            nodes: vec![Node::default()],
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never: a tree has its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, v: NodeId) -> &Node {
        &self.nodes[v]
    }

    /// A new child of `parent`, entered under the formula `condition`.
    pub fn add_child(&mut self, parent: NodeId, condition: u32) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node {
            parent: Some(parent),
            condition: Some(condition),
            ..Node::default()
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// A child of `parent` for alternative `side` of its fork.
    pub fn add_side(&mut self, parent: NodeId, condition: u32, side: u32) -> NodeId {
        let id = self.add_child(parent, condition);
        self.nodes[id].side = side;
        id
    }

    /// The alternatives taken from the root down to `v`, one per fork.
    pub fn decisions(&self, v: NodeId) -> Vec<u32> {
        let mut decisions = Vec::new();
        let mut at = v;
        while let Some(parent) = self.nodes[at].parent {
            decisions.push(self.nodes[at].side);
            at = parent;
        }
        decisions.reverse();
        decisions
    }

    /// Marks `v` as handed over: its state left this run for another job.
    pub fn hand_over(&mut self, v: NodeId) {
        self.nodes[v].handed_over = true;
    }

    /// A node for the state merged from the states at the leaves `from`:
    /// a child of `parent` (the node where their loop was first watched),
    /// entered under the formula `condition` (the disjunction of theirs).
    pub fn add_merged(&mut self, parent: NodeId, condition: u32, from: Vec<NodeId>) -> NodeId {
        let id = self.add_child(parent, condition);
        for &leaf in &from {
            self.nodes[leaf].merged_into = Some(id);
        }
        self.nodes[id].merged_from = from;
        id
    }

    pub fn set_fork(
        &mut self,
        v: NodeId,
        at: Location,
        kind: ForkKind,
        memory: Option<NodeMemory>,
        state_bytes: u64,
    ) {
        let node = &mut self.nodes[v];
        node.fork = Some(at);
        node.fork_kind = kind;
        node.memory = memory;
        node.state_bytes = Some(state_bytes);
    }

    pub fn end_path(&mut self, v: NodeId, path: usize, state_bytes: u64) {
        self.nodes[v].path = Some(path);
        self.nodes[v].state_bytes = Some(state_bytes);
    }

    /// The most and the mean bytes a state held of its own where it forked
    /// or ended, over the nodes where one did.
    pub fn state_bytes(&self) -> (u64, u64) {
        let held = self.nodes.iter().filter_map(|n| n.state_bytes);
        let (max, sum, n) = held.fold((0, 0, 0), |(max, sum, n), b| (b.max(max), sum + b, n + 1));
        (max, sum.checked_div(n).unwrap_or(0))
    }

    pub fn drop_path(&mut self, v: NodeId) {
        self.nodes[v].dropped = true;
    }

    /// Counts a pending state at `v` in (or out) of `v` and every node above.
    pub fn count_pending(&mut self, v: NodeId, add: bool) {
        let mut at = Some(v);
        while let Some(u) = at {
            let node = &mut self.nodes[u];
            node.pending = if add {
                node.pending + 1
            } else {
                node.pending.saturating_sub(1)
            };
            at = node.parent;
        }
    }

    /// How many edges lie between `v` and the root.
    pub fn depth(&self, v: NodeId) -> usize {
        let mut depth = 0;
        let mut at = self.nodes[v].parent;
        while let Some(u) = at {
            depth += 1;
            at = self.nodes[u].parent;
        }
        depth
    }

    /// Whether `a` is `v` or above it.
    pub fn is_at_or_above(&self, a: NodeId, v: NodeId) -> bool {
        let mut at = Some(v);
        while let Some(u) = at {
            if u == a {
                return true;
            }
            at = self.nodes[u].parent;
        }
        false
    }

    /// The deepest node at or above both `a` and `b`.
    pub fn common_ancestor(&self, mut a: NodeId, mut b: NodeId) -> NodeId {
        let (mut da, mut db) = (self.depth(a), self.depth(b));
        while da > db {
            a = self.nodes[a]
                .parent
                .expect("a node deeper than another has a parent");
            da -= 1;
        }
        while db > da {
            b = self.nodes[b]
                .parent
                .expect("a node deeper than another has a parent");
            db -= 1;
        }
        while a != b {
            a = self.nodes[a]
                .parent
                .expect("two nodes of one tree meet at its root");
            b = self.nodes[b]
                .parent
                .expect("two nodes of one tree meet at its root");
        }
        a
    }

    /// The node above `v` that forked into more than one way still
    /// explored, or `stop` if that comes first: a node whose other ways
    /// merged away leaves a chain of one child, which counts as one edge.
    pub fn forked_above(&self, v: NodeId, stop: NodeId) -> Option<NodeId> {
        let mut at = self.nodes[v].parent?;
        while at != stop && self.live_children(at) < 2 {
            at = self.nodes[at].parent?;
        }
        Some(at)
    }

    /// Children of `v` that are neither superseded nor merged into
    /// another node.
    fn live_children(&self, v: NodeId) -> usize {
        (self.nodes[v].children.iter())
            .filter(|&&c| !self.nodes[c].superseded && self.nodes[c].merged_into.is_none())
            .count()
    }

    /// Whether a path ended, or was dropped, at or below `v`.
    pub fn ended_below(&self, v: NodeId) -> bool {
        let mut stack = vec![v];
        while let Some(u) = stack.pop() {
            let node = &self.nodes[u];
            if node.path.is_some() || node.dropped {
                return true;
            }
            stack.extend(&node.children);
        }
        false
    }

    /// How many nodes below `v` are superseded.
    pub fn superseded_below(&self, v: NodeId) -> usize {
        let mut stack = self.nodes[v].children.clone();
        let mut superseded = 0;
        while let Some(u) = stack.pop() {
            superseded += usize::from(self.nodes[u].superseded);
            stack.extend(&self.nodes[u].children);
        }
        superseded
    }

    /// Marks every node below `v` superseded.
    pub fn supersede_below(&mut self, v: NodeId) {
        let mut stack = self.nodes[v].children.clone();
        while let Some(u) = stack.pop() {
            self.nodes[u].superseded = true;
            stack.extend(&self.nodes[u].children);
        }
    }

    /// The report's tree.
    pub fn render(&self) -> Vec<TreeNode> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(id, n)| TreeNode {
                id,
                parent: n.parent,
                children: n.children.clone(),
                condition: n.condition,
                side: n.side,
                handed_over: n.handed_over,
                fork: n.fork.clone(),
                fork_kind: n.fork_kind,
                path: n.path,
                dropped: n.dropped,
                pending: n.pending,
                memory: n.memory.clone(),
                state_bytes: n.state_bytes,
                merged_from: n.merged_from.clone(),
                merged_into: n.merged_into,
                superseded: n.superseded,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::record::formulas::FormulaTable;
    use crate::expr::{BvCmp, Sort, TermStore};

    #[test]
    fn pending_states_are_counted_up_to_the_root() {
        let mut st = TermStore::new();
        let x = st.declare("x", Sort::Bv(32)).unwrap();
        let zero = st.bv_const(32, 0);
        let negative = st.cmp(BvCmp::Slt, x, zero);
        let not_negative = st.not(negative);
        let mut formulas = FormulaTable::default();
        let (yes, no) = (
            formulas.intern(&st, negative),
            formulas.intern(&st, not_negative),
        );
        let mut tree = ExecTree::new();
        let a = tree.add_child(0, yes);
        let b = tree.add_child(0, no);
        let b1 = tree.add_child(b, yes);
        for v in [a, b1, b1] {
            tree.count_pending(v, true);
        }
        tree.count_pending(b1, false);
        let pending: Vec<u32> = (0..tree.len()).map(|v| tree.node(v).pending).collect();
        assert_eq!(pending, [2, 1, 1, 1]);
        let report = tree.render();
        let formula = |v: usize| formulas.formulas().get(report[v].condition.unwrap());
        assert_eq!(formula(1).unwrap().smtlib, "(bvslt x #x00000000)");
        assert_eq!(formula(1).unwrap().readable, "x < 0");
        assert_eq!(formula(2).unwrap().readable, "x >= 0");
        assert_eq!(report[3].condition, report[1].condition);
        assert_eq!(
            formulas.formulas().declarations_of(&[yes, no]),
            ["(declare-fun x () (_ BitVec 32))"]
        );
        assert_eq!(report[0].condition, None);
        assert_eq!(report[2].children, [3]);
        assert_eq!(report[3].pending, 1);
    }
}
