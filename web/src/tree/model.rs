//! What the tree view draws, from a report: the nodes reachable from the
//! root (a malformed tree loses only what it cannot reach), minus the
//! collapsed subtrees, laid out, each with its outcome.

use super::layout::{tidy, Layout, Shape};
use crate::describe::{inputs, outcome};
use std::collections::{HashMap, HashSet};
use symplay_engine::report::{PathReport, Report, Status};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Inner,
    Returned,
    Trapped,
    AssertFailed,
    MemoryError,
    Panicked,
    Limit,
    Dropped,
    /// A leaf without a path: still pending when the run stopped.
    Open,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Inner,
        Kind::Returned,
        Kind::Trapped,
        Kind::AssertFailed,
        Kind::MemoryError,
        Kind::Panicked,
        Kind::Limit,
        Kind::Dropped,
        Kind::Open,
    ];

    /// The CSS class, also the legend's order.
    pub fn class(self) -> &'static str {
        match self {
            Kind::Inner => "inner",
            Kind::Returned => "returned",
            Kind::Trapped => "trapped",
            Kind::AssertFailed => "assert-failed",
            Kind::MemoryError => "memory-error",
            Kind::Panicked => "panicked",
            Kind::Limit => "limit",
            Kind::Dropped => "dropped",
            Kind::Open => "open",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Kind::Inner => "branch",
            Kind::Returned => "returned",
            Kind::Trapped => "trapped",
            Kind::AssertFailed => "assertion failed",
            Kind::MemoryError => "memory error",
            Kind::Panicked => "panicked",
            Kind::Limit => "depth limit",
            Kind::Dropped => "dropped",
            Kind::Open => "not explored",
        }
    }
}

#[derive(Debug, PartialEq)]
pub struct Model {
    /// The `report.tree` index of each drawn node; drawn node 0 is the root.
    pub nodes: Vec<usize>,
    pub parent: Vec<Option<usize>>,
    pub kind: Vec<Kind>,
    /// Nodes hidden under each drawn node (non-zero when it is collapsed).
    pub hidden: Vec<usize>,
    /// The branch condition that leads to each node, short, as its label.
    pub labels: Vec<Option<String>>,
    /// What a pointer resting on each node is told: the condition in full,
    /// and for a leaf how its path ended and with which input.
    pub tips: Vec<String>,
    pub layout: Layout,
}

/// Characters of a node's label before it is cut.
const LABEL_CHARS: usize = 24;

fn label(readable: &str) -> String {
    match readable.char_indices().nth(LABEL_CHARS) {
        Some((cut, _)) => format!("{}…", &readable[..cut]),
        None => readable.to_string(),
    }
}

fn tip(report: &Report, v: usize, hidden: usize) -> String {
    let node = &report.tree[v];
    let mut tip = match &node.readable {
        Some(condition) => format!("branch: {condition}"),
        None => "the root".to_string(),
    };
    if let Some(p) = path_of(report, v) {
        tip.push_str(&format!("\npath {}: {}", p.id, outcome(p)));
        let input = inputs(p, &report.params);
        if !input.is_empty() {
            tip.push_str(&format!(" with {input}"));
        }
    }
    if hidden > 0 {
        tip.push_str(&format!("\n{hidden} nodes collapsed below"));
    }
    tip
}

/// The path that ended at a tree node, by its id.
pub fn path_of(report: &Report, tree_index: usize) -> Option<&PathReport> {
    let p = report.tree.get(tree_index)?.path?;
    report
        .paths
        .get(p)
        .filter(|path| path.id == p)
        .or_else(|| report.paths.iter().find(|path| path.id == p))
}

/// Children of every `report.tree` node by index, each node reached once.
pub fn children(report: &Report) -> (Option<usize>, Vec<Vec<usize>>) {
    let tree = &report.tree;
    let index: HashMap<usize, usize> = tree.iter().enumerate().map(|(i, n)| (n.id, i)).collect();
    let mut kids = vec![Vec::new(); tree.len()];
    let Some(root) = tree.iter().position(|n| n.parent.is_none()) else {
        return (None, kids);
    };
    let mut seen = HashSet::from([root]);
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        for c in tree[v]
            .children
            .iter()
            .filter_map(|id| index.get(id).copied())
        {
            if seen.insert(c) {
                kids[v].push(c);
                stack.push(c);
            }
        }
    }
    (Some(root), kids)
}

impl Model {
    /// `collapsed` holds `report.tree` indices.
    pub fn new(report: &Report, collapsed: &HashSet<usize>) -> Model {
        let (root, kids) = children(report);
        let mut nodes = Vec::new();
        let mut parent = Vec::new();
        let mut shape: Vec<Vec<usize>> = Vec::new();
        let mut hidden = Vec::new();
        if let Some(root) = root {
            let mut stack: Vec<(usize, Option<usize>)> = vec![(root, None)];
            while let Some((v, p)) = stack.pop() {
                let me = nodes.len();
                nodes.push(v);
                parent.push(p);
                shape.push(Vec::new());
                hidden.push(0);
                if let Some(p) = p {
                    shape[p].push(me);
                }
                if collapsed.contains(&v) {
                    hidden[me] = subtree_size(&kids, v) - 1;
                } else {
                    stack.extend(kids[v].iter().rev().map(|&c| (c, Some(me))));
                }
            }
        }
        let kind = nodes
            .iter()
            .zip(&shape)
            .map(|(&v, drawn)| kind(report, v, !drawn.is_empty() || !kids[v].is_empty()))
            .collect();
        let layout = tidy(&Shape { children: shape });
        let labels = nodes
            .iter()
            .map(|&v| report.tree[v].readable.as_deref().map(label))
            .collect();
        let tips = nodes
            .iter()
            .zip(&hidden)
            .map(|(&v, &h)| tip(report, v, h))
            .collect();
        Model {
            nodes,
            parent,
            kind,
            hidden,
            labels,
            tips,
            layout,
        }
    }
}

fn subtree_size(kids: &[Vec<usize>], v: usize) -> usize {
    let mut stack = vec![v];
    let mut size = 0;
    while let Some(v) = stack.pop() {
        size += 1;
        stack.extend(&kids[v]);
    }
    size
}

fn kind(report: &Report, v: usize, inner: bool) -> Kind {
    if inner {
        return Kind::Inner;
    }
    if report.tree[v].dropped {
        return Kind::Dropped;
    }
    match path_of(report, v).map(|p| p.status) {
        Some(Status::Returned) => Kind::Returned,
        Some(Status::Trapped) => Kind::Trapped,
        Some(Status::MemoryError) => Kind::MemoryError,
        Some(Status::AssertFailed) => Kind::AssertFailed,
        Some(Status::Panicked) => Kind::Panicked,
        Some(Status::Limit) => Kind::Limit,
        None => Kind::Open,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symplay_engine::report::TreeNode;

    fn report(tree: &str, paths: usize) -> Report {
        let path = |i: usize| {
            format!(
                r#"{{"id":{i},"status":"returned","returns":[],"inputs":{{}},"location":{{"function":"f","func_index":0,"offset":1}},
                "path_condition":"","node":0,"notes":[],"stdout":"","stderr":""}}"#
            )
        };
        let paths: Vec<String> = (0..paths).map(path).collect();
        let json = format!(
            r#"{{"schema_version":1,"entry":"f","search":"dfs","seed":0,"stop_reason":"completed",
            "paths":[{}],"tree":{tree},"coverage":{{"covered_instructions":0,"total_instructions":0}},
            "stats":{{"instructions":0,"forks":0,"paths":0,"dropped_paths":0,"pending_states":0,"queries":0,
            "query_cache_hits":0,"cex_cache_hits":0,"sat_calls":0,"solver_unknown":0,"terms":0,
            "peak_memory_bytes":0,"timing":{{"total_ms":0,"solver_ms":0}}}}}}"#,
            paths.join(",")
        );
        serde_json::from_str(&json).unwrap()
    }

    fn node(id: usize, parent: Option<usize>, children: &[usize], path: Option<usize>) -> TreeNode {
        TreeNode {
            id,
            parent,
            children: children.to_vec(),
            condition: None,
            readable: None,
            declarations: Vec::new(),
            fork: None,
            path,
            dropped: false,
            pending: 0,
            memory: None,
        }
    }

    fn with_tree(nodes: Vec<TreeNode>, paths: usize) -> Report {
        let mut r = report("[]", paths);
        r.tree = nodes;
        r
    }

    #[test]
    fn get_sign_has_two_forks_and_three_leaves() {
        let r = with_tree(
            vec![
                node(0, None, &[1, 2], None),
                node(1, Some(0), &[3, 4], None),
                node(2, Some(0), &[], Some(2)),
                node(3, Some(1), &[], Some(0)),
                node(4, Some(1), &[], Some(1)),
            ],
            3,
        );
        let m = Model::new(&r, &HashSet::new());
        assert_eq!(m.nodes, [0, 1, 3, 4, 2]);
        assert_eq!(m.kind.iter().filter(|&&k| k == Kind::Returned).count(), 3);
        let collapsed = Model::new(&r, &HashSet::from([1]));
        assert_eq!(collapsed.nodes, [0, 1, 2]);
        assert_eq!(collapsed.hidden, [0, 2, 0]);
        assert_eq!(collapsed.kind[1], Kind::Inner);
    }

    #[test]
    fn nodes_are_labelled_with_their_branch_and_tell_more_on_hover() {
        let mut nodes = vec![
            node(0, None, &[1, 2], None),
            node(1, Some(0), &[], Some(0)),
            node(2, Some(0), &[], Some(1)),
        ];
        nodes[1].readable = Some("x < 0".into());
        nodes[2].readable = Some("x >= 0 && a condition far too long for a label".into());
        let mut r = with_tree(nodes, 2);
        r.params = vec!["x".into()];
        r.paths[0].inputs.args = vec![-1];
        let m = Model::new(&r, &HashSet::new());
        assert_eq!(m.labels[0], None);
        assert_eq!(m.labels[1].as_deref(), Some("x < 0"));
        assert_eq!(m.labels[2].as_deref(), Some("x >= 0 && a condition fa…"));
        assert_eq!(m.tips[0], "the root");
        assert_eq!(m.tips[1], "branch: x < 0\npath 0: returned [] with x = -1");
        assert!(
            m.tips[2].contains("a condition far too long for a label"),
            "{}",
            m.tips[2]
        );
        let collapsed = Model::new(&r, &HashSet::from([0]));
        assert_eq!(collapsed.tips[0], "the root\n2 nodes collapsed below");
    }

    #[test]
    fn odd_trees_do_not_panic() {
        let cases = vec![
            vec![],
            vec![node(0, None, &[], None)],
            // A cycle, a missing child, a duplicate child, a stray path index.
            vec![
                node(0, None, &[1, 9, 1], None),
                node(1, Some(0), &[0], Some(7)),
            ],
            // No root at all.
            vec![node(0, Some(1), &[1], None), node(1, Some(0), &[0], None)],
        ];
        for tree in cases {
            let r = with_tree(tree, 1);
            let m = Model::new(&r, &HashSet::from([0, 1, 5]));
            assert_eq!(m.nodes.len(), m.layout.x.len());
            let m = Model::new(&r, &HashSet::new());
            assert!(m.nodes.len() <= r.tree.len());
        }
        let r = with_tree(
            vec![node(0, None, &[1], None), node(1, Some(0), &[0], Some(7))],
            1,
        );
        assert_eq!(
            Model::new(&r, &HashSet::new()).kind,
            [Kind::Inner, Kind::Open]
        );
    }
}
