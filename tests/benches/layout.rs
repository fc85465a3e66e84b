//! The execution tree's layout (`tidy` of the playground's
//! `web/src/page/components/tree/layout.rs`) is linear in the tree's size:
//! each shape is laid out, and walked once depth first (the baseline: a
//! visit of every node, which any layout must do), and the bench prints the
//! quickest CPU time of each and their ratio. A linear layout costs a few
//! dozen walks at any size; the quadratic contour walk that the iterative
//! Buchheim form avoids costs thousands on a chain thousands of levels
//! deep. The shapes: a fork per loop iteration, as an endless loop gives,
//! and a wide random tree. The goal: no layout costs more than 100 walks.
//!
//! Run with `cargo bench -p symplay-tests --bench layout`;
//! `SYMPLAY_BENCH_RUNS` sets the runs per shape (default 11, 5 in the
//! short form, which lays out smaller trees).

use std::process::ExitCode;
use std::time::Duration;
use symplay_tests::bench::{self, cpu_timed, Bound, Settings};
use symplay_tests::rng::Rng;

// The layout's source file, which uses nothing but `std`, compiled in:
// the web crate would bring yew and web-sys, minutes of building on two
// cores for this one file. (Checked as a test, the bench compiles the
// file's tests too, whose helpers it leaves unused.)
#[path = "../../web/src/page/components/tree/layout.rs"]
#[allow(dead_code)]
mod layout;
use layout::{tidy, Shape};

/// Goal: a layout within this many walks of the tree.
const GOAL_RATIO: f64 = 100.0;

fn main() -> ExitCode {
    bench::exit(run())
}

/// A chain of `levels` forks, each with a leaf and the next fork.
fn chain(levels: usize) -> Shape {
    let n = 2 * levels + 1;
    let mut children = vec![Vec::new(); n];
    for v in (0..n - 1).step_by(2) {
        children[v] = vec![v + 1, v + 2];
    }
    Shape { children }
}

/// A random tree of `n` nodes, each opened node with one to four children.
fn random(n: usize) -> Shape {
    let mut rng = Rng::new(7);
    let mut children = vec![Vec::new(); n];
    let (mut open, mut added) = (vec![0usize], 1);
    while added < n && !open.is_empty() {
        let v = open.swap_remove(rng.below(open.len() as u64) as usize);
        for _ in 0..rng.range(1, 4) {
            if added < n {
                children[v].push(added);
                open.push(added);
                added += 1;
            }
        }
    }
    Shape { children }
}

/// Every node's depth, by one depth-first walk: the baseline.
fn walk(shape: &Shape) -> Vec<u32> {
    let mut depth = vec![0; shape.children.len()];
    let mut stack = vec![0];
    while let Some(v) = stack.pop() {
        for &c in &shape.children[v] {
            depth[c] = depth[v] + 1;
            stack.push(c);
        }
    }
    depth
}

/// The quickest of `runs` calls of `f` (in CPU time), after one to warm
/// up: the work is the same every time.
fn quickest<T>(runs: usize, f: impl Fn() -> T) -> Duration {
    (0..=runs)
        .map(|_| cpu_timed(&f).1)
        .min()
        .unwrap_or_default()
}

/// Runs the benchmark; `Ok(false)` when a layout costs more walks than
/// the goal allows.
fn run() -> Result<bool, String> {
    let settings = Settings::from_env(11, 5)?;
    let scale = if settings.short { 1 } else { 4 };
    let shapes = [
        ("chain of forks", chain(10_000 * scale)),
        ("random tree", random(50_000 * scale)),
    ];
    println!("layout benchmark: the quickest of {} runs", settings.runs);
    println!(
        "  {:<16} {:>8} {:>8} {:>11} {:>11} {:>7}",
        "shape", "nodes", "depth", "layout", "walk", "ratio"
    );
    let mut worst: f64 = 0.0;
    for (name, shape) in &shapes {
        let depth = walk(shape).into_iter().max().unwrap_or(0);
        let layout = tidy(shape);
        if layout.x.len() != shape.children.len() || layout.height != depth {
            return Err(format!("{name}: the layout is not of the tree"));
        }
        let laid_out = quickest(settings.runs, || tidy(shape));
        let walked = quickest(settings.runs, || walk(shape));
        let ratio = laid_out.as_secs_f64() / walked.as_secs_f64().max(1e-9);
        worst = worst.max(ratio);
        println!(
            "  {name:<16} {:>8} {depth:>8} {laid_out:>11.2?} {walked:>11.2?} {ratio:>6.1}x",
            shape.children.len()
        );
    }
    Ok(settings.goal(
        "a layout's time / a walk's",
        worst,
        Bound::AtMost(GOAL_RATIO),
        "x",
    ))
}
