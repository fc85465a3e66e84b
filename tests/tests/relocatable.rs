//! The worked examples of relocatable addressing, dynamic segments,
//! splitting and address-aware caching (`../shared/design/
//! relocatable_and_caching.md` §5, E1-E6 and E8) as C programs
//! (`tests/data/relocatable/examples.c`, built by its `build.sh`), explored
//! as Symplay resolves a symbolic pointer today: one state per object it
//! can point to. These are the baselines the segment, split and
//! address-aware modes are measured against: each of those adds its
//! figures beside these.

use symplay_engine::exec::{explore, Options};
use symplay_engine::report::{
    Access, InputValue, MemoryErrorKind, Number, PathReport, Report, Status,
};
use symplay_engine::search::SearchKind;

fn explored(entry: &str) -> Report {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/relocatable/examples.wasm"
    );
    let module = symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap();
    let options = Options {
        search: SearchKind::Dfs,
        ..Options::default()
    };
    let report = explore(&module, entry, &options).unwrap();
    assert_eq!(report.stop_reason, "completed", "{entry}");
    report
}

fn returned(p: &PathReport) -> i64 {
    assert_eq!(p.status, Status::Returned, "{:?}", p.outcome());
    match p.returns[..] {
        [Number::Int(v)] => v,
        _ => panic!("one integer result: {:?}", p.returns),
    }
}

/// The integer input `name` of path `p`.
fn input(p: &PathReport, name: &str) -> i64 {
    let named = p.inputs.named.iter().find(|n| n.name == name).unwrap();
    match named.value {
        InputValue::Int(v) => v,
        _ => panic!("{name}: an integer input"),
    }
}

/// Input `name` of each path of `r` (of those that `keep`), sorted.
fn inputs(r: &Report, name: &str, keep: impl Fn(&PathReport) -> bool) -> Vec<i64> {
    let mut values: Vec<i64> = r
        .paths
        .iter()
        .filter(|p| keep(p))
        .map(|p| input(p, name))
        .collect();
    values.sort_unstable();
    values
}

#[test]
fn e1_a_read_through_a_symbolic_pointer_forks_once_per_block() {
    let r = explored("blocks");
    // Two blocks the pointer can name, both zero-filled: the branch on the
    // byte is never taken.
    assert_eq!(r.paths.len(), 2);
    assert_eq!(r.stats.forks, 1);
    assert!(r.paths.iter().all(|p| returned(p) == 0));
    // Each path read the block its `i` chose.
    assert_eq!(inputs(&r, "i", |_| true), [0, 1]);
    assert!(r.paths.iter().all(|p| p.leaks.is_empty()));
}

#[test]
fn e4_two_states_reach_the_same_read_and_each_forks_over_the_blocks() {
    let r = explored("blocks_twice");
    assert_eq!(r.paths.len(), 4);
    assert_eq!(r.stats.forks, 3);
    assert!(r.paths.iter().all(|p| returned(p) == 0));
    assert_eq!(inputs(&r, "i", |_| true), [0, 0, 1, 1]);
}

#[test]
fn e5_a_lookup_resolves_among_the_first_tables_nodes_only() {
    let r = explored("hash_tables");
    let found = r.paths.iter().filter(|p| returned(p) == 1).count();
    // Each of the five keys of the first table is found on a path of its
    // own; the others miss, in an empty bucket or past a node.
    assert_eq!(found, 5);
    assert_eq!(r.paths.len(), 11);
    // The first table's keys, 7k + 1, and none of the others' (7k + 101,
    // 7k + 201).
    assert_eq!(inputs(&r, "key", |p| returned(p) == 1), [1, 8, 15, 22, 29]);
}

#[test]
fn e6_blocks_allocated_after_diverging_histories_fork_on_each_side() {
    let r = explored("divergent_allocations");
    // Per side of `z > 0`: block 0 with its byte 7 read or not, block 1
    // (zero) read: three paths.
    assert_eq!(r.paths.len(), 6);
    let found = r.paths.iter().filter(|p| returned(p) == 1).count();
    assert_eq!(found, 2);
    assert!(r.paths.iter().all(|p| p.leaks.is_empty()));
}

#[test]
fn e8_a_read_far_past_a_block_is_a_heap_overflow() {
    let r = explored("address_dependent");
    // The blocks' order is fixed by the allocator, so `p > q` does not
    // fork; the read at p + 100 is past its 10 bytes.
    assert_eq!(r.paths.len(), 1);
    assert_eq!(r.stats.forks, 0);
    let error = r.paths[0].memory_error.as_ref().expect("a memory error");
    assert_eq!(error.kind, MemoryErrorKind::HeapOverflow);
    assert_eq!(error.access, Access::Read);
    assert_eq!(error.offset, Some(100));
    let line = r.paths[0].location.source.as_ref().map(|s| s.line);
    assert_eq!(line, Some(131));
}
