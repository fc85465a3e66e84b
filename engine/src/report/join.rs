//! Reports of parts of one run joined into one: the jobs of a parallel run,
//! each of which explored the subtree below the state it was handed. A
//! node is named by the alternatives taken from the root down to it
//! (`TreeNode::side`), the same in every part, so the parts' trees are
//! joined where they name the same node. The joined report is numbered
//! canonically: nodes depth first, a fork's sides in the order of its
//! alternatives (a split result's by condition, as its order comes from a
//! model), paths in the order of their leaves, formulas and symbols in the
//! order first used. A single run's report joined alone is numbered the
//! same way, which is how two runs are compared.

use super::{
    ConcretisedSite, Coverage, DropSite, ForkKind, Formula, Formulas, PathReport, Report, Stats,
    TreeNode,
};
use std::collections::{BTreeMap, HashMap};

/// One part's report, and where in the run's tree its root is.
pub struct Part {
    pub report: Report,
    /// The alternatives from the run's root to the part's root (none: the
    /// run's root).
    pub at: Vec<u32>,
    /// The instructions it ran, per function and pc, when known; without
    /// it the joined coverage is the largest part's.
    pub covered: Option<Vec<Vec<bool>>>,
}

/// Where one part holds a node: the part and the node's id there.
#[derive(Clone, Copy)]
struct Held {
    part: usize,
    node: usize,
}

/// `parts` as one report. Run-wide fields (entry, options, limits) come
/// from the first part; `stop_reason` and the total time are the caller's
/// to set.
pub fn join(parts: &[Part]) -> Report {
    let Some(first) = parts.first() else {
        panic!("a joined report has one part at least");
    };
    let layered = JoinedTree::of(parts);
    let order = layered.canonical_order(parts);
    let mut ids = vec![0; layered.nodes.len()];
    for (id, &at) in order.iter().enumerate() {
        ids[at] = id;
    }
    let mut formulas = FormulaJoin {
        seen: vec![Vec::new(); parts.len()],
        ..FormulaJoin::default()
    };
    let mut tree = Vec::with_capacity(order.len());
    let mut paths = Vec::new();
    for (id, &at) in order.iter().enumerate() {
        let joined_node = &layered.nodes[at];
        let held = &joined_node.held;
        // A node on the way to a part's root that no part holds (the part
        // above it is missing) says nothing but its place.
        let blank = TreeNode::default();
        let main = main_holder(parts, held);
        let node = main.map_or(&blank, |m| &parts[m.part].report.tree[m.node]);
        let condition = (held.iter())
            .find_map(|h| Some((h.part, parts[h.part].report.tree[h.node].condition?)))
            .map(|(part, index)| formulas.intern(parts, part, index));
        let mut children: Vec<usize> = joined_node.children.values().map(|&c| ids[c]).collect();
        children.sort_unstable();
        let path = main.zip(node.path).map(|(main, p)| {
            let source = &parts[main.part].report;
            let mut path = source.paths[p].clone();
            path.id = paths.len();
            path.node = id;
            path.condition = (path.condition.iter())
                .map(|&c| formulas.intern(parts, main.part, c))
                .collect();
            paths.push(path);
            paths.len() - 1
        });
        let handed_over = !held.is_empty()
            && (held.iter()).all(|h| parts[h.part].report.tree[h.node].handed_over);
        tree.push(TreeNode {
            id,
            parent: joined_node.parent.map(|p| ids[p]),
            children,
            condition,
            side: joined_node.side,
            handed_over,
            fork: node.fork.clone(),
            fork_kind: node.fork_kind,
            path,
            dropped: held
                .iter()
                .any(|h| parts[h.part].report.tree[h.node].dropped),
            pending: 0,
            memory: node.memory.clone(),
            state_bytes: node.state_bytes,
            merged_from: Vec::new(),
            merged_into: None,
            superseded: false,
        });
    }
    count_pending(parts, &layered, &order, &mut tree);
    let stats = joined_stats(parts, &tree, &paths);
    Report {
        stats,
        coverage: joined_coverage(parts),
        tree,
        paths,
        formulas: formulas.table,
        warnings: joined(parts, |r| r.warnings.clone(), |a, b| a == b),
        drops: sum_sites(
            parts,
            |r| &r.drops,
            |a: &DropSite, b| a.cause == b.cause && a.location == b.location,
            |a, b| a.paths += b.paths,
        ),
        concretised: sum_sites(
            parts,
            |r| &r.concretised,
            |a: &ConcretisedSite, b| a.what == b.what && a.location == b.location,
            |a, b| a.paths += b.paths,
        ),
        merges: parts.iter().flat_map(|p| p.report.merges.clone()).collect(),
        quantified_queries: (parts.iter())
            .flat_map(|p| p.report.quantified_queries.clone())
            .collect(),
        ..settings(&first.report)
    }
}

/// Why a run that ran to its end is not complete, in the order one run
/// tells the first of them.
pub const CUTS: [&str; 4] = [
    "path limit",
    "import not provided",
    "depth limit",
    "call-depth limit",
];

/// Why a run whose parts all ran to their ends ended: as one run says it
/// (`Exploration::end_if_over`), the first of the cuts any part made in
/// that order, else `completed`.
pub fn cut_reason(parts: &[Part]) -> String {
    (CUTS.iter())
        .find(|&&cut| parts.iter().any(|p| p.report.stop_reason == cut))
        .map_or_else(|| "completed".into(), |cut| cut.to_string())
}

/// What the parts of a run share: its entry and options, with no result.
fn settings(r: &Report) -> Report {
    Report {
        schema_version: r.schema_version,
        entry: r.entry.clone(),
        params: r.params.clone(),
        search: r.search.clone(),
        seed: r.seed,
        concrete_args: r.concrete_args.clone(),
        buffer_args: r.buffer_args.clone(),
        heap: r.heap.clone(),
        merge: r.merge,
        memory_model: r.memory_model.clone(),
        warnings: Vec::new(),
        stop_reason: r.stop_reason.clone(),
        limits: r.limits.clone(),
        outcomes: r.outcomes,
        havoc_imports: r.havoc_imports,
        shard: None,
        paths: Vec::new(),
        tree: Vec::new(),
        merges: Vec::new(),
        quantified_queries: Vec::new(),
        formulas: Formulas::default(),
        drops: Vec::new(),
        concretised: Vec::new(),
        coverage: r.coverage.clone(),
        stats: r.stats.clone(),
    }
}

/// The parts' trees laid over each other: one node per name, with the
/// parts that hold it.
struct JoinedTree {
    nodes: Vec<JoinedNode>,
}

struct JoinedNode {
    parent: Option<usize>,
    side: u32,
    /// By side.
    children: BTreeMap<u32, usize>,
    held: Vec<Held>,
}

impl JoinedTree {
    fn of(parts: &[Part]) -> JoinedTree {
        let mut joined = JoinedTree {
            nodes: vec![JoinedNode {
                parent: None,
                side: 0,
                children: BTreeMap::new(),
                held: Vec::new(),
            }],
        };
        for (p, part) in parts.iter().enumerate() {
            let root = part.at.iter().fold(0, |at, &side| joined.child(at, side));
            let tree = &part.report.tree;
            let mut stack = vec![(0, root)];
            while let Some((node, at)) = stack.pop() {
                let Some(n) = tree.get(node) else { continue };
                joined.nodes[at].held.push(Held { part: p, node });
                for &c in &n.children {
                    let child = joined.child(at, tree[c].side);
                    stack.push((c, child));
                }
            }
        }
        joined
    }

    /// The child of `at` for alternative `side`, made if it is new.
    fn child(&mut self, at: usize, side: u32) -> usize {
        if let Some(&c) = self.nodes[at].children.get(&side) {
            return c;
        }
        let c = self.nodes.len();
        self.nodes.push(JoinedNode {
            parent: Some(at),
            side,
            children: BTreeMap::new(),
            held: Vec::new(),
        });
        self.nodes[at].children.insert(side, c);
        c
    }

    /// The nodes depth first, a fork's sides in the order of its
    /// alternatives (a split result's by condition text).
    fn canonical_order(&self, parts: &[Part]) -> Vec<usize> {
        let text = |at: usize| {
            (self.nodes[at].held.iter())
                .find_map(|h| {
                    let report = &parts[h.part].report;
                    let c = report.tree[h.node].condition?;
                    Some(report.formulas.get(c)?.smtlib.clone())
                })
                .unwrap_or_default()
        };
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![0];
        while let Some(at) = stack.pop() {
            order.push(at);
            let node = &self.nodes[at];
            let mut kids: Vec<usize> = node.children.values().copied().collect();
            let by_value = main_holder(parts, &node.held)
                .is_some_and(|m| parts[m.part].report.tree[m.node].fork_kind == ForkKind::Result);
            if by_value {
                kids.sort_by_cached_key(|&k| text(k));
            }
            // Reversed onto the stack, so the first side is visited first.
            stack.extend(kids.into_iter().rev());
        }
        order
    }
}

/// The holder whose node says most: one that explored it (not handed
/// over), with its fork or path, the first such part; `None` for a node
/// no part holds.
fn main_holder(parts: &[Part], held: &[Held]) -> Option<Held> {
    let node = |h: &Held| &parts[h.part].report.tree[h.node];
    let rank = |h: &Held| {
        let n = node(h);
        (n.handed_over, n.fork.is_none() && n.path.is_none(), h.part)
    };
    held.iter().min_by_key(|h| rank(h)).copied()
}

/// Each node's pending states: those its parts count at it and not below
/// (a part counts its own states only), summed up the joined tree, and
/// one for each node handed over to a job whose report is missing.
fn count_pending(parts: &[Part], joined: &JoinedTree, order: &[usize], tree: &mut [TreeNode]) {
    let mut own: Vec<u32> = order
        .iter()
        .map(|&at| {
            let counted: u32 = (joined.nodes[at].held.iter())
                .map(|h| {
                    let t = &parts[h.part].report.tree;
                    let below: u32 = t[h.node].children.iter().map(|&c| t[c].pending).sum();
                    t[h.node].pending.saturating_sub(below)
                })
                .sum();
            counted
        })
        .collect();
    for (id, node) in tree.iter().enumerate() {
        if node.handed_over {
            own[id] += 1;
        }
    }
    // Depth first order puts every node after its parent.
    for id in (0..tree.len()).rev() {
        tree[id].pending += own[id];
        if let Some(parent) = tree[id].parent {
            let pending = tree[id].pending;
            tree[parent].pending += pending;
        }
    }
}

/// The parts' statistics added up: counts summed, sizes their largest,
/// the paths and pending states those of the joined tree.
fn joined_stats(parts: &[Part], tree: &[TreeNode], paths: &[PathReport]) -> Stats {
    let mut stats = parts[0].report.stats.clone();
    for part in &parts[1..] {
        let s = &part.report.stats;
        let t = &mut stats;
        t.instructions += s.instructions;
        t.forks += s.forks;
        t.dropped_paths += s.dropped_paths;
        t.queries += s.queries;
        t.query_cache_hits += s.query_cache_hits;
        t.cex_cache_hits += s.cex_cache_hits;
        t.sat_calls += s.sat_calls;
        t.solver_unknown += s.solver_unknown;
        t.answered.add(&s.answered);
        t.terms += s.terms;
        t.peak_memory_bytes = t.peak_memory_bytes.max(s.peak_memory_bytes);
        t.sat_variables += s.sat_variables;
        t.sat_clauses += s.sat_clauses;
        t.largest_array_bytes = t.largest_array_bytes.max(s.largest_array_bytes);
        t.split_accesses += s.split_accesses;
        t.segments += s.segments;
        t.largest_segment_bytes = t.largest_segment_bytes.max(s.largest_segment_bytes);
        t.context_resolutions += s.context_resolutions;
        for (layer, other) in t.layers.iter_mut().zip(&s.layers) {
            layer.queries += other.queries;
            layer.answered += other.answered;
        }
        if let (Some(aa), Some(other)) = (&mut t.address_aware, &s.address_aware) {
            aa.add(other);
        }
        t.timing.solver_ms += s.timing.solver_ms;
        for (ms, other) in t.timing.layers_ms.iter_mut().zip(&s.timing.layers_ms) {
            *ms += other;
        }
    }
    stats.paths = paths.len() as u64;
    stats.pending_states = u64::from(tree.first().map_or(0, |root| root.pending));
    let held = tree.iter().filter_map(|n| n.state_bytes);
    let (max, sum, n) = held.fold((0, 0, 0), |(max, sum, n), b| (b.max(max), sum + b, n + 1));
    stats.max_state_bytes = max;
    stats.mean_state_bytes = sum.checked_div(n).unwrap_or(0);
    stats
}

/// The instructions any part ran (the largest part's count where a part
/// did not say which).
fn joined_coverage(parts: &[Part]) -> Coverage {
    let total = parts[0].report.coverage.total_instructions;
    let all: Option<Vec<&Vec<Vec<bool>>>> = parts.iter().map(|p| p.covered.as_ref()).collect();
    let covered = match all {
        Some(maps) => {
            let funcs = maps.iter().map(|m| m.len()).max().unwrap_or(0);
            (0..funcs)
                .map(|f| {
                    let pcs = maps.iter().filter_map(|m| m.get(f)).map(Vec::len).max();
                    (0..pcs.unwrap_or(0))
                        .filter(|&pc| {
                            maps.iter()
                                .any(|m| m.get(f).and_then(|c| c.get(pc)) == Some(&true))
                        })
                        .count() as u64
                })
                .sum()
        }
        None => (parts.iter())
            .map(|p| p.report.coverage.covered_instructions)
            .max()
            .unwrap_or(0),
    };
    Coverage {
        covered_instructions: covered,
        total_instructions: total,
    }
}

/// The parts' lists of `field` one after another, each item once.
fn joined<T>(
    parts: &[Part],
    field: impl Fn(&Report) -> Vec<T>,
    same: impl Fn(&T, &T) -> bool,
) -> Vec<T> {
    let mut all: Vec<T> = Vec::new();
    for item in parts.iter().flat_map(|p| field(&p.report)) {
        if !all.iter().any(|a| same(a, &item)) {
            all.push(item);
        }
    }
    all
}

/// The parts' sites of one kind, a site found by several counted once
/// with their counts added.
fn sum_sites<T: Clone>(
    parts: &[Part],
    field: impl Fn(&Report) -> &Vec<T>,
    same: impl Fn(&T, &T) -> bool,
    add: impl Fn(&mut T, &T),
) -> Vec<T> {
    let mut all: Vec<T> = Vec::new();
    for site in parts.iter().flat_map(|p| field(&p.report)) {
        match all.iter_mut().find(|a| same(a, site)) {
            Some(a) => add(a, site),
            None => all.push(site.clone()),
        }
    }
    all
}

/// The joined formula table: each formula and declaration once, by text.
#[derive(Default)]
struct FormulaJoin {
    table: Formulas,
    formulas: HashMap<String, u32>,
    declarations: HashMap<String, u32>,
    /// Each part's formulas met so far, by index there (so that a formula
    /// is looked up by text once per part).
    seen: Vec<Vec<Option<u32>>>,
}

impl FormulaJoin {
    /// The joined index of formula `index` of part `part`.
    fn intern(&mut self, parts: &[Part], part: usize, index: u32) -> u32 {
        let from = &parts[part].report.formulas;
        let seen = &mut self.seen[part];
        if seen.len() < from.terms.len() {
            seen.resize(from.terms.len(), None);
        }
        if let Some(Some(i)) = seen.get(index as usize) {
            return *i;
        }
        let i = self.intern_text(from, index);
        if let Some(slot) = self.seen[part].get_mut(index as usize) {
            *slot = Some(i);
        }
        i
    }

    /// The joined index of formula `index` of the table `from`, by text.
    fn intern_text(&mut self, from: &Formulas, index: u32) -> u32 {
        let Some(formula) = from.get(index) else {
            return index;
        };
        if let Some(&i) = self.formulas.get(&formula.smtlib) {
            return i;
        }
        let mut symbols: Vec<u32> = (formula.symbols.iter())
            .map(|&d| {
                let text = from
                    .declarations
                    .get(d as usize)
                    .cloned()
                    .unwrap_or_default();
                let next = self.table.declarations.len() as u32;
                *self.declarations.entry(text.clone()).or_insert_with(|| {
                    self.table.declarations.push(text);
                    next
                })
            })
            .collect();
        symbols.sort_unstable();
        let i = self.table.terms.len() as u32;
        self.table.terms.push(Formula {
            symbols,
            ..formula.clone()
        });
        self.formulas.insert(formula.smtlib.clone(), i);
        i
    }
}
