//! A tidy layout of a tree (Walker's algorithm in the linear-time form of
//! Buchheim, Jünger and Leipert, 2002): parents centred over their children,
//! subtrees at least one unit apart and packed as close as that allows.
//! Both walks are iterative, since symbolic execution trees are often
//! thousands of levels deep.

/// A tree as lists of children; node 0 is the root and every other node
/// appears in exactly one list.
pub struct Shape {
    pub children: Vec<Vec<usize>>,
}

/// Positions in units: `x` one unit between neighbours, `depth` in levels.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub x: Vec<f64>,
    pub depth: Vec<u32>,
    pub width: f64,
    pub height: u32,
}

struct Work {
    parent: Vec<Option<usize>>,
    /// Index among siblings.
    number: Vec<usize>,
    prelim: Vec<f64>,
    modifier: Vec<f64>,
    shift: Vec<f64>,
    change: Vec<f64>,
    thread: Vec<Option<usize>>,
    ancestor: Vec<usize>,
}

/// Lays `shape` out; an empty shape gives an empty layout.
pub fn tidy(shape: &Shape) -> Layout {
    let n = shape.children.len();
    if n == 0 {
        return Layout {
            x: Vec::new(),
            depth: Vec::new(),
            width: 0.0,
            height: 0,
        };
    }
    let mut w = Work {
        parent: vec![None; n],
        number: vec![0; n],
        prelim: vec![0.0; n],
        modifier: vec![0.0; n],
        shift: vec![0.0; n],
        change: vec![0.0; n],
        thread: vec![None; n],
        ancestor: (0..n).collect(),
    };
    for (v, kids) in shape.children.iter().enumerate() {
        for (i, &c) in kids.iter().enumerate() {
            w.parent[c] = Some(v);
            w.number[c] = i;
        }
    }
    first_walk(shape, &mut w);
    second_walk(shape, &w)
}

/// Post-order: each node is placed once its children are, then fitted
/// against its left siblings.
fn first_walk(shape: &Shape, w: &mut Work) {
    let kids = &shape.children;
    // The default ancestor of each parent's apportioning, as in the paper.
    let mut default_ancestor: Vec<usize> = kids
        .iter()
        .enumerate()
        .map(|(v, k)| k.first().copied().unwrap_or(v))
        .collect();
    let mut stack = vec![(0usize, 0usize)];
    while let Some(&mut (v, ref mut next)) = stack.last_mut() {
        if let Some(&c) = kids[v].get(*next) {
            *next += 1;
            stack.push((c, 0));
            continue;
        }
        stack.pop();
        let left = left_sibling(shape, w, v);
        match (kids[v].first(), kids[v].last()) {
            (Some(&first), Some(&last)) => {
                execute_shifts(shape, w, v);
                let mid = (w.prelim[first] + w.prelim[last]) / 2.0;
                match left {
                    Some(l) => {
                        w.prelim[v] = w.prelim[l] + 1.0;
                        w.modifier[v] = w.prelim[v] - mid;
                    }
                    None => w.prelim[v] = mid,
                }
            }
            _ => w.prelim[v] = left.map_or(0.0, |l| w.prelim[l] + 1.0),
        }
        if let Some(p) = w.parent[v] {
            default_ancestor[p] = apportion(shape, w, v, default_ancestor[p]);
        }
    }
}

fn left_sibling(shape: &Shape, w: &Work, v: usize) -> Option<usize> {
    let p = w.parent[v]?;
    let i = w.number[v].checked_sub(1)?;
    shape.children[p].get(i).copied()
}

fn next_left(shape: &Shape, w: &Work, v: usize) -> Option<usize> {
    shape.children[v].first().copied().or(w.thread[v])
}

fn next_right(shape: &Shape, w: &Work, v: usize) -> Option<usize> {
    shape.children[v].last().copied().or(w.thread[v])
}

/// Pushes `v`'s subtree right until its left contour clears the right
/// contour of its left siblings; threads the shorter contour on.
fn apportion(shape: &Shape, w: &mut Work, v: usize, mut default: usize) -> usize {
    let Some(left) = left_sibling(shape, w, v) else {
        return default;
    };
    let Some(p) = w.parent[v] else {
        return default;
    };
    let leftmost = shape.children[p][0];
    let (mut vir, mut vor, mut vil, mut vol) = (v, v, left, leftmost);
    let (mut sir, mut sor) = (w.modifier[vir], w.modifier[vor]);
    let (mut sil, mut sol) = (w.modifier[vil], w.modifier[vol]);
    // The outer contours are at least as deep as the inner ones they enclose.
    while let (Some(il), Some(ir)) = (next_right(shape, w, vil), next_left(shape, w, vir)) {
        let (Some(ol), Some(or)) = (next_left(shape, w, vol), next_right(shape, w, vor)) else {
            break;
        };
        (vil, vir, vol, vor) = (il, ir, ol, or);
        w.ancestor[vor] = v;
        let shift = (w.prelim[vil] + sil) - (w.prelim[vir] + sir) + 1.0;
        if shift > 0.0 {
            let a = w.ancestor[vil];
            let from = if w.parent[a] == Some(p) { a } else { default };
            move_subtree(w, from, v, shift);
            sir += shift;
            sor += shift;
        }
        sil += w.modifier[vil];
        sir += w.modifier[vir];
        sol += w.modifier[vol];
        sor += w.modifier[vor];
    }
    if let (Some(t), None) = (next_right(shape, w, vil), next_right(shape, w, vor)) {
        w.thread[vor] = Some(t);
        w.modifier[vor] += sil - sor;
    }
    if let (Some(t), None) = (next_left(shape, w, vir), next_left(shape, w, vol)) {
        w.thread[vol] = Some(t);
        w.modifier[vol] += sir - sol;
        default = v;
    }
    default
}

/// Records a shift of `wr` by `shift`, spread evenly over the siblings
/// between `wl` and `wr` later by `execute_shifts`.
fn move_subtree(w: &mut Work, wl: usize, wr: usize, shift: f64) {
    let subtrees = w.number[wr].saturating_sub(w.number[wl]).max(1) as f64;
    w.change[wr] -= shift / subtrees;
    w.shift[wr] += shift;
    w.change[wl] += shift / subtrees;
    w.prelim[wr] += shift;
    w.modifier[wr] += shift;
}

fn execute_shifts(shape: &Shape, w: &mut Work, v: usize) {
    let (mut shift, mut change) = (0.0, 0.0);
    for &c in shape.children[v].iter().rev() {
        w.prelim[c] += shift;
        w.modifier[c] += shift;
        change += w.change[c];
        shift += w.shift[c] + change;
    }
}

/// Pre-order: adds up the modifiers of the ancestors; the leftmost node
/// ends at x = 0.
fn second_walk(shape: &Shape, w: &Work) -> Layout {
    let n = shape.children.len();
    let mut x = vec![0.0; n];
    let mut depth = vec![0; n];
    let mut stack = vec![(0usize, 0.0, 0u32)];
    while let Some((v, m, d)) = stack.pop() {
        x[v] = w.prelim[v] + m;
        depth[v] = d;
        for &c in &shape.children[v] {
            stack.push((c, m + w.modifier[v], d + 1));
        }
    }
    let min = x.iter().copied().fold(f64::INFINITY, f64::min);
    let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    for v in &mut x {
        *v -= min;
    }
    Layout {
        x,
        width: max - min,
        height: depth.iter().copied().max().unwrap_or(0),
        depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random tree of `n` nodes from a small linear congruential generator.
    fn random_shape(n: usize, seed: u64, max_fanout: u64) -> Shape {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        let mut children = vec![Vec::new(); n];
        let mut open = vec![0usize];
        let mut added = 1;
        while added < n && !open.is_empty() {
            let i = (next() as usize) % open.len();
            let v = open.swap_remove(i);
            for _ in 0..1 + next() % max_fanout {
                if added == n {
                    break;
                }
                children[v].push(added);
                open.push(added);
                added += 1;
            }
        }
        Shape { children }
    }

    fn check(shape: &Shape, layout: &Layout) {
        let n = shape.children.len();
        let mut levels: Vec<Vec<(f64, usize)>> = vec![Vec::new(); layout.height as usize + 1];
        for v in 0..n {
            levels[layout.depth[v] as usize].push((layout.x[v], v));
            let kids = &shape.children[v];
            if let (Some(&a), Some(&b)) = (kids.first(), kids.last()) {
                let mid = (layout.x[a] + layout.x[b]) / 2.0;
                assert!((layout.x[v] - mid).abs() < 1e-6, "node {v} is not centred");
                for pair in kids.windows(2) {
                    assert!(
                        layout.x[pair[0]] < layout.x[pair[1]],
                        "children out of order"
                    );
                }
            }
        }
        for level in &mut levels {
            level.sort_by(|a, b| a.0.total_cmp(&b.0));
            for pair in level.windows(2) {
                assert!(
                    pair[1].0 - pair[0].0 >= 1.0 - 1e-6,
                    "{:?} and {:?} overlap",
                    pair[0],
                    pair[1]
                );
            }
        }
        assert!(layout
            .x
            .iter()
            .all(|&x| (0.0..=layout.width + 1e-9).contains(&x)));
    }

    #[test]
    fn random_trees_have_no_overlaps_and_centred_parents() {
        for seed in 0..200 {
            let shape = random_shape(1 + (seed as usize * 7) % 300, seed, 1 + seed % 5);
            check(&shape, &tidy(&shape));
        }
    }

    #[test]
    fn small_trees_are_compact() {
        // get_sign: the root's right child is a leaf, its left one forks.
        let shape = Shape {
            children: vec![vec![1, 2], vec![3, 4], vec![], vec![], vec![]],
        };
        let layout = tidy(&shape);
        assert_eq!(layout.x, [1.0, 0.5, 1.5, 0.0, 1.0]);
        assert_eq!(layout.depth, [0, 1, 1, 2, 2]);
        assert_eq!((layout.width, layout.height), (1.5, 2));
        let single = tidy(&Shape {
            children: vec![vec![]],
        });
        assert_eq!((single.x, single.width, single.height), (vec![0.0], 0.0, 0));
        assert!(tidy(&Shape { children: vec![] }).x.is_empty());
    }

    #[test]
    fn the_same_tree_gets_the_same_layout() {
        // Two equal shapes built apart, not one shape laid out twice.
        let (shape, again) = (random_shape(1_000, 42, 3), random_shape(1_000, 42, 3));
        assert_eq!(shape.children, again.children);
        let layout = tidy(&shape);
        assert_eq!(layout, tidy(&again));
        check(&shape, &layout);
        // The layout follows the shape: another shape gets another one.
        let other = random_shape(1_000, 43, 3);
        assert_ne!(shape.children, other.children);
        assert_ne!(layout, tidy(&other));
    }

    /// (How fast, against a walk of the tree, is the `layout` benchmark's.)
    #[test]
    fn deep_and_large_trees_are_laid_out_without_overlaps() {
        // A fork per loop iteration, 5,000 levels deep, as an endless loop
        // gives: both walks are iterative, so no stack overflows.
        let n = 10_001;
        let mut children = vec![Vec::new(); n];
        for v in (0..n - 1).step_by(2) {
            children[v] = vec![v + 1, v + 2];
        }
        let chain = Shape { children };
        let a = tidy(&chain);
        check(&chain, &a);
        assert_eq!(a.height, 5_000);
        // Each fork's leaf sits one unit left of the next fork.
        assert!((0..n - 1)
            .step_by(2)
            .all(|v| (a.x[v + 2] - a.x[v + 1] - 1.0).abs() < 1e-6));
        let wide = random_shape(50_000, 7, 4);
        let b = tidy(&wide);
        assert_eq!(b.x.len(), 50_000);
        check(&wide, &b);
    }
}
