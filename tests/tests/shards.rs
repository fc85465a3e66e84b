//! A run in shards (`--shard I/N`): every shard runs the same first
//! stretch and explores its share of the states it made; the shards'
//! reports joined hold the paths, stop reason and coverage of one whole
//! run, on every C example and pointer program, each shard doing a part of
//! the work. Reports that are not shards of one run are refused, each with
//! what is wrong; a missing shard leaves its states pending.

use symplay_engine::exec::{explore, explore_shard, Options, Shard};
use symplay_engine::report::shards::join_shards;
use symplay_engine::report::Report;
use symplay_engine::search::SearchKind;
use symplay_tests::corpus::{bits_wat, examples_and_pointer_programs, integer_entries};
use symplay_tests::parts::paths_differ;
use symplay_wasm::Module;

/// The reports of the `count` shards of `entry`, named by their index.
fn shards(module: &Module, entry: &str, options: &Options, count: u32) -> Vec<(String, Report)> {
    (0..count)
        .map(|index| {
            let shard = Shard { index, count };
            let r = explore_shard(module, entry, options, shard, &mut |_| true).unwrap();
            (format!("shard {index}"), r)
        })
        .collect()
}

#[test]
fn every_example_in_shards_gives_one_runs_paths() {
    let modules = examples_and_pointer_programs().unwrap();
    let mut compared = 0;
    for (name, wasm) in &modules {
        let module = symplay_wasm::load(wasm).unwrap();
        for entry in integer_entries(&module) {
            let options = Options::default();
            let whole = explore(&module, &entry, &options).unwrap();
            for count in [2, 3] {
                let what = format!("{name} {entry}, {count} shards");
                let joined = join_shards(shards(&module, &entry, &options, count)).unwrap();
                assert_eq!(joined.stop_reason, whole.stop_reason, "{what}");
                assert_eq!(joined.coverage, whole.coverage, "{what}");
                assert_eq!(joined.stats.pending_states, 0, "{what}");
                assert!(joined.shard.is_none());
                // Values made concrete come from models, which differ.
                if whole.concretised.is_empty() {
                    if let Some(why) = paths_differ(&joined, &whole) {
                        panic!("{what}: {why}");
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 40, "only {compared} runs compared");
}

/// 1,024 paths in 4 shards, under each searcher: every shard explores
/// about a quarter of them, after the first stretch they all ran.
#[test]
fn each_shard_explores_its_share() {
    let module = symplay_wasm::load(bits_wat(10).as_bytes()).unwrap();
    for search in [SearchKind::Dfs, SearchKind::Bfs, SearchKind::RandomPath] {
        let options = Options {
            search,
            ..Options::default()
        };
        let parts = shards(&module, "f", &options, 4);
        for (name, r) in &parts {
            let shard = r.shard.as_ref().unwrap();
            assert_eq!(shard.frontier, 32, "{search:?} {name}: 8 states a shard");
            assert_eq!(r.search, search.name(), "{name}");
            assert_eq!(r.stop_reason, "completed", "{name}");
            assert_eq!(r.paths.len(), 256, "{search:?} {name}");
            assert_eq!(r.tree.iter().filter(|n| n.handed_over).count(), 24);
        }
        let joined = join_shards(parts).unwrap();
        assert_eq!(joined.paths.len(), 1024);
        assert!(joined.tree.iter().all(|n| !n.handed_over));
    }
}

#[test]
fn a_missing_shard_leaves_its_states_pending() {
    let module = symplay_wasm::load(bits_wat(6).as_bytes()).unwrap();
    let mut parts = shards(&module, "f", &Options::default(), 3);
    parts.remove(1);
    let joined = join_shards(parts).unwrap();
    assert_eq!(joined.stop_reason, "shards missing");
    assert!(joined.paths.len() < 64);
    // 24 states shared out, 8 to each shard.
    let given = joined.tree.iter().filter(|n| n.handed_over).count();
    assert_eq!(given, 8, "the missing shard's states stay handed over");
    assert_eq!(
        joined.stats.pending_states as usize, given,
        "each state the missing shard was given is pending"
    );
    assert!(
        joined
            .warnings
            .iter()
            .any(|w| w.contains("shard 1/3 missing")),
        "{:?}",
        joined.warnings
    );
}

#[test]
fn reports_that_are_not_one_runs_shards_are_refused() {
    let module = symplay_wasm::load(bits_wat(5).as_bytes()).unwrap();
    let options = Options::default();
    let two = shards(&module, "f", &options, 2);
    let refused = |reports: Vec<(String, Report)>, why: &str| {
        let e = join_shards(reports).unwrap_err();
        assert!(e.contains(why), "{e}");
    };
    refused(vec![two[0].clone(), two[0].clone()], "are both shard 0/2");
    let three = shards(&module, "f", &options, 3);
    refused(vec![two[0].clone(), three[1].clone()], "one of 2");
    let seeded = Options {
        seed: 7,
        ..options.clone()
    };
    let other = shards(&module, "f", &seeded, 2);
    refused(
        vec![two[0].clone(), other[1].clone()],
        "another searcher or seed",
    );
    let whole = explore(&module, "f", &options).unwrap();
    refused(vec![("whole".into(), whole)], "not of a shard");
    let mut looped = two[1].clone();
    looped.1.tree[3].children.push(1);
    refused(vec![two[0].clone(), looped], "the tree is damaged");
    let mut ranges = two[1].clone();
    ranges.1.shard.as_mut().unwrap().ran[0].push([u32::MAX - 1, u32::MAX]);
    refused(
        vec![two[0].clone(), ranges],
        "the instructions it ran are damaged",
    );
    let mut huge = two[1].clone();
    huge.1.shard.as_mut().unwrap().count = u32::MAX;
    refused(vec![two[0].clone(), huge], "is damaged: 4294967295 shards");
    refused(Vec::new(), "no report");
}
