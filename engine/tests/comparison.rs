//! Two runs of one module compared, as `symplay compare` and the page's
//! compare mode show them: figures, where paths end, and the bugs one run
//! found and the other missed.

use symplay_engine::exec::{explore, Options};
use symplay_engine::memory::{HeapOptions, SizeMode};
use symplay_engine::report::comparison::Comparison;
use symplay_engine::report::Report;
use symplay_engine::search::SearchKind;

fn run(name: &str, entry: &str, size_mode: SizeMode, capacity: u32) -> Report {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/heap/size/");
    let text = std::fs::read_to_string(format!("{dir}{name}.wat")).unwrap();
    let module = symplay_wasm::load(text.as_bytes()).unwrap();
    let options = Options {
        search: SearchKind::Dfs,
        max_paths: Some(1000),
        // The seed's model: sizes past the capacity left out.
        heap: HeapOptions {
            size_mode,
            capacity,
            past_capacity: false,
            ..HeapOptions::default()
        },
        ..Options::default()
    };
    explore(&module, entry, &options).unwrap()
}

fn figure(c: &Comparison, name: &str) -> (f64, f64) {
    let f = c.figures.iter().find(|f| f.name == name).unwrap();
    (f.left, f.right)
}

#[test]
fn a_bug_only_the_range_mode_finds_is_told_apart() {
    let base = run("headers", "headers", SizeMode::Base, 8);
    let lazy = run("headers", "headers", SizeMode::ForkLazy, 8);
    let c = Comparison::of(&base, &lazy);
    assert_eq!(
        figure(&c, "paths"),
        (base.paths.len() as f64, lazy.paths.len() as f64)
    );
    assert_eq!(figure(&c, "distinct bugs"), (0.0, 1.0));
    assert!(c.figures.iter().any(|f| f.name == "paths" && f.differs()));
    // Time is measured, not counted: never flagged as a difference.
    assert!(!c
        .figures
        .iter()
        .any(|f| f.name == "time (ms)" && f.differs()));
    assert_eq!(c.bugs_only(true).count(), 0);
    let only_lazy: Vec<_> = c.bugs_only(false).collect();
    assert_eq!(only_lazy.len(), 1);
    let bug = only_lazy[0];
    assert!(
        bug.what.starts_with("buffer_overflow at headers+0x"),
        "{}",
        bug.what
    );
    assert_eq!((bug.left, bug.right, bug.left_path), (0, 1, None));
    let path = &lazy.paths[bug.right_path.unwrap()];
    assert!(path.memory_error.is_some());
    // Bugs come first, and every path of both runs is counted once.
    assert!(c.endings[0].bug);
    assert!(c.endings.windows(2).all(|w| w[0].bug >= w[1].bug));
    let (left, right) = c
        .endings
        .iter()
        .fold((0, 0), |(l, r), e| (l + e.left, r + e.right));
    assert_eq!((left, right), (base.paths.len(), lazy.paths.len()));
    let [stopped_left, stopped_right] = &c.stopped;
    assert_eq!(
        (stopped_left.as_str(), stopped_right.as_str()),
        ("completed", "completed")
    );
}

#[test]
fn the_same_bug_at_the_same_place_counts_in_both() {
    // Base finds the overflow (at offset 4) on one path; ForkLazy at the
    // same store on two (offsets 2 and 4): one bug, counted in both.
    let base = run("strided", "fill_strided", SizeMode::Base, 4);
    let lazy = run("strided", "fill_strided", SizeMode::ForkLazy, 4);
    let c = Comparison::of(&base, &lazy);
    let shared: Vec<_> = c
        .endings
        .iter()
        .filter(|e| e.bug && e.left > 0 && e.right > 0)
        .collect();
    assert_eq!(shared.len(), 1, "{:?}", c.endings);
    assert!(
        shared[0].what.starts_with("heap_overflow at fill+0x"),
        "{}",
        shared[0].what
    );
    assert_eq!((shared[0].left, shared[0].right), (1, 2));
    assert_eq!(c.bugs_only(true).count() + c.bugs_only(false).count(), 0);
    let returned = c.endings.iter().find(|e| !e.bug).unwrap();
    assert_eq!((returned.left, returned.right), (0, 2));
    // A run compared with itself differs in no count.
    let same = Comparison::of(&lazy, &lazy);
    assert!(same.figures.iter().all(|f| !f.differs()));
    assert_eq!(same.bugs_only(false).count(), 0);
    assert!(same
        .figures
        .iter()
        .all(|f| f.ratio().is_none_or(|r| r == 1.0)));
}
