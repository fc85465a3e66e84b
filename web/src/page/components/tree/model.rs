//! What the tree view draws, from a report: the nodes reachable from the
//! root (a malformed tree loses only what it cannot reach), minus the
//! collapsed subtrees, laid out, each with its outcome.

use super::layout::{tidy, Layout, Shape};
use crate::page::describe::{inputs, outcome};
use std::collections::{HashMap, HashSet};
use symplay_engine::report::{ForkKind, RegularPatterns, Report, Status};

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
    /// A leaf whose state waited at a loop's exit and merged into another.
    Merged,
    /// Below a node whose state merged incrementally with a later one:
    /// explored again from the merged state.
    Superseded,
    /// A leaf without a path: still pending when the run stopped.
    Open,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Inner,
        Kind::Returned,
        Kind::Trapped,
        Kind::AssertFailed,
        Kind::MemoryError,
        Kind::Panicked,
        Kind::Limit,
        Kind::Dropped,
        Kind::Merged,
        Kind::Superseded,
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
            Kind::Merged => "merged-away",
            Kind::Superseded => "superseded",
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
            Kind::Limit => "limit (depth, calls, import)",
            Kind::Dropped => "dropped",
            Kind::Merged => "merged into another state",
            Kind::Superseded => "superseded by an incremental merge",
            Kind::Open => "not explored",
        }
    }
}

#[derive(Debug, PartialEq)]
pub struct Model {
    /// The `report.tree` index of each drawn node; drawn node 0 is the root.
    pub nodes: Vec<usize>,
    pub parent: Vec<Option<usize>>,
    /// The drawn children of each drawn node, left to right.
    pub children: Vec<Vec<usize>>,
    pub kind: Vec<Kind>,
    /// Nodes hidden under each drawn node (non-zero when it is collapsed).
    pub hidden: Vec<usize>,
    /// The branch condition that leads to each node, as its label; below
    /// a result split into its values, the value.
    pub labels: Vec<Option<String>>,
    /// What a pointer resting on each node is told: the condition in full,
    /// and for a leaf how its path ended and with which input.
    pub tips: Vec<String>,
    /// Bytes each drawn node's state held of its own where it forked or
    /// ended (none where no state did: pending, dropped, collapsed).
    pub state_bytes: Vec<Option<u64>>,
    /// Each drawn node's letter where its edge is a branch of a merged
    /// state's word: an index into `shapes`, the letters' condition shapes
    /// (constants as `_`) in the order they first come; and each merged
    /// leaf's word.
    pub letters: Vec<Option<usize>>,
    pub shapes: Vec<String>,
    pub words: Vec<Option<String>>,
    pub layout: Layout,
}

/// The letters of the merges' words on the tree (`quantified_merging.md`
/// §9): each node whose edge is a branch of a word, with its letter's
/// shape (an index into the shapes, in the order they first come: a
/// letter is a shape at one branch, and merges number their letters
/// apart, so the tree colours by shape); and each merged leaf's word.
fn letters_of(report: &Report) -> (HashMap<usize, usize>, Vec<String>, HashMap<usize, String>) {
    let (mut by_node, mut shapes, mut words) = (HashMap::new(), Vec::new(), HashMap::new());
    let readable = |f: u32| {
        report
            .formulas
            .terms
            .get(f as usize)
            .map_or("", |t| &t.readable)
    };
    for m in &report.merges {
        let p = &m.patterns;
        for &(v, l) in &p.edges {
            let Some(&f) = p.letters.get(l as usize) else {
                continue;
            };
            let shape = RegularPatterns::shape(readable(f));
            let index = match shapes.iter().position(|s| *s == shape) {
                Some(at) => at,
                None => {
                    shapes.push(shape);
                    shapes.len() - 1
                }
            };
            by_node.insert(v, index);
        }
        let merged_from = report.tree.get(m.node).map_or(&[][..], |n| &n.merged_from);
        for (&leaf, word) in merged_from.iter().zip(&p.words) {
            words.insert(leaf, RegularPatterns::word(word));
        }
    }
    (by_node, shapes, words)
}

/// Shades of the colouring by memory, from the least to the most bytes
/// (the style sheet's `shade-0` to `shade-4`).
pub const MEMORY_SHADES: usize = 5;

/// Each of `bytes`' shade (0 to [`MEMORY_SHADES`] - 1) on a log scale from
/// the least of them to the most, and the bytes where each shade starts.
pub fn memory_shades(bytes: &[Option<u64>]) -> (Vec<Option<usize>>, Vec<u64>) {
    let known = bytes.iter().flatten().copied();
    let (lo, hi) = known.fold((u64::MAX, 0), |(lo, hi), b| (lo.min(b), hi.max(b)));
    if lo > hi {
        return (vec![None; bytes.len()], Vec::new());
    }
    let (lo_log, span) = (
        (lo.max(1) as f64).ln(),
        (hi.max(1) as f64 / lo.max(1) as f64).ln(),
    );
    let shade = |b: u64| {
        if span == 0.0 {
            return 0;
        }
        let t = ((b.max(1) as f64).ln() - lo_log) / span;
        ((t * MEMORY_SHADES as f64) as usize).min(MEMORY_SHADES - 1)
    };
    let starts = (0..MEMORY_SHADES)
        .map(|k| {
            (lo_log + span * k as f64 / MEMORY_SHADES as f64)
                .exp()
                .round() as u64
        })
        .collect();
    (bytes.iter().map(|b| b.map(shade)).collect(), starts)
}

/// Node `v`'s label: its branch condition, or below a result split into
/// its values (`forked`: what made its parent fork), the value its path
/// ended with.
fn label(report: &Report, v: usize, forked: ForkKind) -> Option<String> {
    let path = report.path_at(v).filter(|_| forked == ForkKind::Result);
    match path {
        Some(p) => Some(match p.exit_code {
            Some(code) => format!("exits {code}"),
            None => format!("returns {}", p.results_text()),
        }),
        None => report.branch_condition(v).map(|c| c.readable.clone()),
    }
}

fn tip(report: &Report, v: usize, forked: ForkKind, hidden: usize) -> String {
    let what = match forked {
        ForkKind::Branch => "branch",
        ForkKind::Select => "select",
        ForkKind::Result => "result",
    };
    let mut tip = match report.branch_condition(v) {
        Some(condition) => format!("{what}: {}", condition.readable),
        None => "the root".to_string(),
    };
    if let Some(p) = report.path_at(v) {
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
        let shape = Shape { children: shape };
        let layout = tidy(&shape);
        // What made each drawn node's parent fork.
        let forked: Vec<ForkKind> = parent
            .iter()
            .map(|p| p.map_or(ForkKind::Branch, |p| report.tree[nodes[p]].fork_kind))
            .collect();
        let labels = nodes
            .iter()
            .zip(&forked)
            .map(|(&v, &k)| label(report, v, k))
            .collect();
        let tips = nodes
            .iter()
            .zip(&forked)
            .zip(&hidden)
            .map(|((&v, &k), &h)| tip(report, v, k, h))
            .collect();
        let state_bytes = nodes
            .iter()
            .zip(&hidden)
            .map(|(&v, &h)| report.tree[v].state_bytes.filter(|_| h == 0))
            .collect();
        let (by_node, shapes, by_leaf) = letters_of(report);
        let letters = nodes.iter().map(|v| by_node.get(v).copied()).collect();
        let words = nodes.iter().map(|v| by_leaf.get(v).cloned()).collect();
        Model {
            nodes,
            parent,
            children: shape.children,
            kind,
            hidden,
            labels,
            tips,
            state_bytes,
            letters,
            shapes,
            words,
            layout,
        }
    }

    /// The model with each merged leaf labelled by its word.
    pub fn labelled_by_words(mut self) -> Model {
        for (label, word) in self.labels.iter_mut().zip(&self.words) {
            if let Some(word) = word {
                *label = Some(word.clone());
            }
        }
        self
    }

    /// The drawn index of `report.tree` node `v`, if it is drawn.
    pub fn drawn(&self, v: usize) -> Option<usize> {
        self.nodes.iter().position(|&n| n == v)
    }

    /// The drawn index of `report.tree` node `v`, or of the collapsed
    /// stub it is hidden under (its nearest drawn ancestor).
    pub fn drawn_or_stub(&self, report: &Report, v: usize) -> Option<usize> {
        let drawn: HashMap<usize, usize> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, i))
            .collect();
        let mut at = v;
        // Bounded, since a malformed tree may loop.
        for _ in 0..=report.tree.len() {
            if let Some(&i) = drawn.get(&at) {
                return Some(i);
            }
            at = report.tree.get(at)?.parent?;
        }
        None
    }

    /// Drawn node `i` and its ancestors up to the root, the root first.
    pub fn path_to(&self, i: usize) -> Vec<usize> {
        let mut path = vec![i];
        // Bounded: every drawn node has a drawn parent nearer the root.
        while let Some(p) = path
            .last()
            .and_then(|&v| self.parent.get(v).copied().flatten())
        {
            if path.len() > self.nodes.len() {
                break;
            }
            path.push(p);
        }
        path.reverse();
        path
    }
}

/// The subtrees to collapse so that the tree drawn is readable: cut at
/// the deepest level such that, with every inner node of that level
/// collapsed into a stub (which counts what it hides), at most `max_nodes`
/// are drawn and `fits` takes the layout. Gives the `report.tree` indices
/// to collapse: none when the whole tree is readable, the root alone at
/// worst.
pub fn legible_cut(
    report: &Report,
    max_nodes: usize,
    fits: impl Fn(&Layout) -> bool,
) -> HashSet<usize> {
    let (root, kids) = children(report);
    let Some(root) = root else {
        return HashSet::new();
    };
    // Inner nodes by depth.
    let mut levels: Vec<Vec<usize>> = Vec::new();
    let mut stack = vec![(root, 0usize)];
    while let Some((v, d)) = stack.pop() {
        if kids[v].is_empty() {
            continue;
        }
        if levels.len() <= d {
            levels.resize(d + 1, Vec::new());
        }
        levels[d].push(v);
        stack.extend(kids[v].iter().map(|&c| (c, d + 1)));
    }
    let cut_at = |depth: usize| -> HashSet<usize> {
        levels.get(depth).into_iter().flatten().copied().collect()
    };
    let readable = |collapsed: &HashSet<usize>| {
        let m = Model::new(report, collapsed);
        m.nodes.len() <= max_nodes && fits(&m.layout)
    };
    // Below the deepest level there is nothing to cut: the whole tree.
    let (mut lo, mut hi) = (0, levels.len());
    if readable(&HashSet::new()) {
        return HashSet::new();
    }
    // Drawn nodes and width only grow with the depth of the cut, so the
    // deepest readable one is found by halving.
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if readable(&cut_at(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    cut_at(lo)
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

/// What `report.tree` node `v` is, drawn or not.
pub fn kind_of(report: &Report, v: usize) -> Kind {
    let inner = report.tree.get(v).is_some_and(|n| !n.children.is_empty());
    kind(report, v, inner)
}

fn kind(report: &Report, v: usize, inner: bool) -> Kind {
    if report.tree[v].superseded {
        return Kind::Superseded;
    }
    if inner {
        return Kind::Inner;
    }
    if report.tree[v].dropped {
        return Kind::Dropped;
    }
    if report.tree[v].merged_into.is_some() {
        return Kind::Merged;
    }
    match report.path_at(v).map(|p| p.status) {
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
    use symplay_engine::report::{Formula, TreeNode};

    fn report(tree: &str, paths: usize) -> Report {
        let path = |i: usize| {
            format!(
                r#"{{"id":{i},"status":"returned","returns":[],"inputs":{{}},"location":{{"function":"f","func_index":0,"offset":1}},
                "condition":[],"node":0,"notes":[],"stdout":"","stderr":""}}"#
            )
        };
        let paths: Vec<String> = (0..paths).map(path).collect();
        let json = format!(
            r#"{{"schema_version":2,"entry":"f","search":"dfs","seed":0,"stop_reason":"completed",
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
            side: 0,
            handed_over: false,
            fork: None,
            fork_kind: Default::default(),
            path,
            dropped: false,
            pending: 0,
            memory: None,
            state_bytes: None,
            merged_from: Vec::new(),
            merged_into: None,
            superseded: false,
        }
    }

    /// Gives node `v` a branch condition that reads `readable`.
    fn label_with(r: &mut Report, v: usize, readable: &str) {
        r.tree[v].condition = Some(r.formulas.terms.len() as u32);
        r.formulas.terms.push(Formula {
            readable: readable.into(),
            ..Formula::default()
        });
    }

    fn with_tree(nodes: Vec<TreeNode>, paths: usize) -> Report {
        let mut r = report("[]", paths);
        r.tree = nodes;
        r
    }

    #[test]
    fn memory_shades_run_from_the_least_bytes_to_the_most_on_a_log_scale() {
        let bytes = [Some(1000), None, Some(32_000), Some(1000 * 2), Some(4000)];
        let (shades, starts) = memory_shades(&bytes);
        assert_eq!(shades, [Some(0), None, Some(4), Some(1), Some(2)]);
        assert_eq!(starts, [1000, 2000, 4000, 8000, 16000]);
        // One size for all: one shade; nothing known: no shade.
        assert_eq!(memory_shades(&[Some(5), Some(5)]).0, [Some(0), Some(0)]);
        assert_eq!(memory_shades(&[None]).0, [None]);
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
        let nodes = vec![
            node(0, None, &[1, 2], None),
            node(1, Some(0), &[], Some(0)),
            node(2, Some(0), &[], Some(1)),
        ];
        let mut r = with_tree(nodes, 2);
        label_with(&mut r, 1, "x < 0");
        label_with(&mut r, 2, "x >= 0 && a condition far too long for a label");
        r.params = vec!["x".into()];
        r.paths[0].inputs.args = vec![-1];
        let m = Model::new(&r, &HashSet::new());
        assert_eq!(m.labels[0], None);
        assert_eq!(m.labels[1].as_deref(), Some("x < 0"));
        assert_eq!(
            m.labels[2].as_deref(),
            Some("x >= 0 && a condition far too long for a label")
        );
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

    /// A full binary tree of `levels` levels, its leaves paths.
    fn full_tree(levels: u32) -> Report {
        let count = (1usize << levels) - 1;
        let first_leaf = count / 2;
        let nodes = (0..count)
            .map(|i| {
                let kids: Vec<usize> = [2 * i + 1, 2 * i + 2]
                    .into_iter()
                    .filter(|&c| c < count)
                    .collect();
                let parent = (i > 0).then(|| (i - 1) / 2);
                node(i, parent, &kids, (i >= first_leaf).then(|| i - first_leaf))
            })
            .collect();
        with_tree(nodes, count - first_leaf)
    }

    #[test]
    fn a_legible_cut_collapses_the_deepest_level_that_keeps_the_tree_readable() {
        let r = full_tree(13);
        // At most 300 nodes and 64 units across.
        let cut = legible_cut(&r, 300, |l| l.width <= 64.0);
        let m = Model::new(&r, &cut);
        assert!(
            m.nodes.len() <= 300 && m.layout.width <= 64.0,
            "{}",
            m.nodes.len()
        );
        // Every node is drawn or counted in a stub.
        let hidden: usize = m.hidden.iter().sum();
        assert_eq!(m.nodes.len() + hidden, r.tree.len());
        // The stubs are one level: 64 of them (levels 0 to 6 drawn), since
        // one level more would be 255 nodes 127 units wide.
        assert_eq!(cut.len(), 64);
        assert!(m.hidden.iter().filter(|&&h| h > 0).all(|&h| h == 126));
        // A tree that is readable whole is not cut; nothing fits: the root.
        assert!(legible_cut(&full_tree(3), 300, |_| true).is_empty());
        assert_eq!(legible_cut(&r, 300, |_| false), HashSet::from([0]));
    }

    #[test]
    fn the_path_to_a_node_runs_from_the_root() {
        let m = Model::new(&full_tree(4), &HashSet::new());
        let deepest = m.nodes.iter().position(|&v| v == 14).unwrap();
        let path: Vec<usize> = m.path_to(deepest).iter().map(|&i| m.nodes[i]).collect();
        assert_eq!(path, [0, 2, 6, 14]);
        assert_eq!(m.children[0].len(), 2);
        assert_eq!(m.path_to(0), [0]);
    }

    #[test]
    fn labels_on_screen_never_cover_each_other_nor_leave_the_pane() {
        use super::super::labels::{place, Screen};
        let mut r = full_tree(4);
        for i in 1..r.tree.len() {
            label_with(&mut r, i, &format!("condition number {i}"));
        }
        let m = Model::new(&r, &HashSet::new());
        let layout = &m.layout;
        let at = |scale: f64| {
            move |i: usize| {
                (
                    200.0 + scale * layout.x[i],
                    20.0 + 60.0 * f64::from(layout.depth[i]),
                )
            }
        };
        let wide = at(400.0);
        let roomy = Screen {
            position: &wide,
            width: 3200.0,
            height: 400.0,
            char_px: 7.0,
            gap_px: 6.0,
        };
        let all = place(&m, &roomy);
        assert_eq!(all.len(), 14, "room for every label");
        assert!(all.iter().all(|p| !p.text.contains('…')), "whole");
        let narrow = at(60.0);
        let tight = Screen {
            position: &narrow,
            width: 700.0,
            height: 400.0,
            char_px: 7.0,
            gap_px: 6.0,
        };
        let some = place(&m, &tight);
        assert!(some.iter().any(|p| p.text.contains('…')), "some shortened");
        let span = |p: &super::super::labels::Placed| {
            let w = p.text.chars().count() as f64 * 7.0;
            if p.ends_at_x {
                (p.x - w, p.x)
            } else {
                (p.x, p.x + w)
            }
        };
        for (k, a) in some.iter().enumerate() {
            let (from, to) = span(a);
            assert!(from >= 0.0 && to <= 700.0, "{a:?} leaves the pane");
            for b in &some[k + 1..] {
                let (f2, t2) = span(b);
                assert!(a.y != b.y || to <= f2 || t2 <= from, "{a:?} covers {b:?}");
                if m.parent[a.node] == m.parent[b.node] {
                    assert_ne!(a.text, b.text, "siblings read the same");
                }
            }
        }
    }

    #[test]
    fn a_node_inside_a_collapsed_subtree_is_found_by_its_stub() {
        let r = full_tree(4);
        let m = Model::new(&r, &HashSet::from([2]));
        let stub = m.nodes.iter().position(|&v| v == 2).unwrap();
        assert_eq!(m.drawn_or_stub(&r, 14), Some(stub));
        assert_eq!(m.drawn_or_stub(&r, 2), Some(stub));
        let drawn = m.nodes.iter().position(|&v| v == 3).unwrap();
        assert_eq!(m.drawn_or_stub(&r, 3), Some(drawn));
        assert_eq!(m.drawn_or_stub(&r, 99), None);
    }
}
