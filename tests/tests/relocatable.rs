//! The worked examples of relocatable addressing, dynamic segments,
//! splitting and address-aware caching (`../shared/design/
//! relocatable_and_caching.md` §5, E1-E6 and E8) as C programs
//! (`tests/data/relocatable/examples.c`, built by its `build.sh`), explored
//! as Symplay resolves a symbolic pointer today: one state per object it
//! can point to. These are the baselines the segment, split and
//! address-aware modes are measured against; splitting (E3, and E5 under
//! it) and relocatable bases (E1) have their figures beside them.

use symplay_engine::exec::{explore, replay_traced, Options, ReplayOptions};
use symplay_engine::memory::{AaCacheMode, BaseMode, Segments, Split};
use symplay_engine::report::{
    Access, InputValue, LayerReport, MemoryErrorKind, Number, PathReport, Report, Status,
};
use symplay_engine::search::SearchKind;
use symplay_wasm::Module;

fn explored(entry: &str) -> Report {
    explored_split(entry, None)
}

/// `entry` explored depth first, splitting objects as `split` says.
fn explored_split(entry: &str, split: Option<Split>) -> Report {
    explored_with(entry, |o| o.heap.split = split)
}

/// The examples' module (`tests/data/relocatable/examples.wasm`).
fn examples() -> Module {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/relocatable/examples.wasm"
    );
    symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap()
}

/// `entry` explored depth first, with the options `set` changes.
fn explored_with(entry: &str, set: impl FnOnce(&mut Options)) -> Report {
    explored_in(&examples(), entry, set)
}

/// `entry` of `module` explored depth first, with the options `set`
/// changes, to its end.
fn explored_in(module: &Module, entry: &str, set: impl FnOnce(&mut Options)) -> Report {
    let mut options = Options {
        search: SearchKind::Dfs,
        ..Options::default()
    };
    set(&mut options);
    let report = explore(module, entry, &options).unwrap();
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

/// E1 with relocatable bases: the pointers in the array are terms over the
/// blocks' base symbols, and the read forks as it does over addresses.
#[test]
fn e1_under_symbolic_bases_the_read_forks_once_per_block_alike() {
    let concrete = explored("blocks");
    let r = explored_with("blocks", |o| o.heap.bases = BaseMode::Symbolic);
    assert_eq!(r.paths.len(), 2);
    assert_eq!(r.stats.forks, 1);
    assert!(r.paths.iter().all(|p| returned(p) == 0));
    assert_eq!(inputs(&r, "i", |_| true), [0, 1]);
    assert_eq!(r.stats.queries, concrete.stats.queries);
    // The array and the two blocks, each with its symbol; the hidden
    // addresses lie in the arena, as far apart as the blocks' addresses.
    let objects = &r.paths[0].objects;
    let symbols: Vec<_> = objects.iter().map(|o| o.base_symbol.as_deref()).collect();
    assert_eq!(symbols, [Some("&obj0"), Some("&obj1"), Some("&obj2")]);
    let bases = |r: &Report| -> Vec<u64> { r.paths[0].objects.iter().map(|o| o.base).collect() };
    let (hidden, addresses) = (bases(&r), bases(&concrete));
    assert!(hidden.iter().all(|&b| b >= 0x4000_0000));
    let apart = |b: &[u64]| -> Vec<u64> { b.iter().map(|x| x - b[0]).collect() };
    assert_eq!(apart(&hidden), apart(&addresses));
}

/// `entry` explored depth first under `--resolve segment` (segments of
/// at most `cap` bytes).
fn explored_segments(entry: &str, cap: u32) -> Report {
    explored_with(entry, |o| {
        o.heap.bases = BaseMode::Symbolic;
        o.heap.segments = Some(Segments {
            cap,
            ..Segments::default()
        });
    })
}

#[test]
fn e2_the_two_blocks_become_one_segment_and_the_read_does_not_fork() {
    let r = explored_segments("blocks", 2048);
    assert_eq!(r.paths.len(), 1);
    assert_eq!(r.stats.forks, 0);
    assert_eq!(returned(&r.paths[0]), 0);
    assert_eq!(r.stats.segments, 1);
    // Two blocks of 256 bytes and the gap between them.
    assert_eq!(r.stats.largest_segment_bytes, 256 + 32 + 256);
    let fork = explored_with("blocks", |o| o.heap.bases = BaseMode::Symbolic);
    let objects = &r.paths[0].objects;
    // The array of pointers (mo1) stays where it was; the two blocks moved
    // next to each other, past every slot allocated before.
    assert_eq!(objects[0].base, fork.paths[0].objects[0].base);
    assert!(objects[1].base > fork.paths[0].objects[2].base);
    assert_eq!(objects[2].base, objects[1].base + 256 + 32);
    // The one read's array held the segment's bytes.
    assert_eq!(r.stats.largest_array_bytes, 256 + 32 + 256);
}

#[test]
fn e2_past_the_segment_cap_the_read_forks_per_block_as_without_segments() {
    let r = explored_segments("blocks", 256);
    assert_eq!(r.stats.segments, 0);
    assert_eq!(r.paths.len(), 2);
    assert_eq!(r.stats.forks, 1);
}

/// A pointer result replays by where it points, not by its number: the
/// exploration moved its block into a segment, a replay that forks moves
/// nothing and returns another address for the same byte of the block.
#[test]
fn a_pointer_result_replays_to_the_same_place_of_its_block_after_a_segment_moved_it() {
    let leaks_off = |o: &mut Options| {
        o.heap.leaks = false;
        o.heap.bases = BaseMode::Symbolic;
    };
    let r = explored_with("chosen_block", |o| {
        leaks_off(o);
        o.heap.segments = Some(Segments::default());
    });
    assert_eq!(r.stats.segments, 1);
    assert_eq!(r.paths.len(), 2);
    let module = examples();
    let mut forking = Options::default();
    leaks_off(&mut forking);
    let replay_options = ReplayOptions {
        heap: forking.heap,
        ..ReplayOptions::default()
    };
    let mut places = Vec::new();
    for p in &r.paths {
        let [Some(place)] = p.points_into[..] else {
            panic!("one pointer result: {:?}", p.points_into);
        };
        let replayed = replay_traced(&module, "chosen_block", &p.inputs, &replay_options)
            .unwrap()
            .path;
        // Another number: the block is where the allocator put it.
        assert_ne!(replayed.returns, p.returns, "{}", p.outcome());
        assert_eq!(replayed.points_into, p.points_into, "{}", p.outcome());
        assert!(p.same_results(&replayed) && replayed.same_results(p));
        // A block's second byte on the path where it holds 2 (block 2,
        // allocated after the array, block 0), else the first.
        let i = input(p, "i");
        assert_eq!((place.object, place.offset), (i as u32 + 1, i as u64));
        places.push(place);
    }
    // Another place at another number is another result.
    assert_ne!(places[0], places[1]);
    assert!(!r.paths[0].same_results(&r.paths[1]));
}

#[test]
fn e4_the_read_comes_before_the_branch_so_one_segment_serves_both_sides() {
    // clang computes `array[i][j]` before the select on `z`: the read
    // merges the blocks once, and the branch then forks the one state.
    let r = explored_segments("blocks_twice", 2048);
    assert_eq!(r.paths.len(), 2);
    assert_eq!(r.stats.forks, 1);
    assert_eq!(r.stats.segments, 1);
    assert!(r.paths.iter().all(|p| returned(p) == 0));
    let at = |p: &PathReport| p.objects[1].segment.as_ref().map(|s| s.base);
    assert!(at(&r.paths[0]).is_some());
    assert_eq!(at(&r.paths[0]), at(&r.paths[1]));
}

/// E4 with the branch before the read (segment reuse, §2.4): neither side
/// allocates after the fork, and each side's allocator state is its own,
/// so each merges the two blocks at the same place with the same bytes.
/// The second side's merge and read then ask nothing the first did not:
/// the query cache answers every query, where the thesis's global
/// allocator needed a table of segments to reuse.
#[test]
fn e4_a_merge_after_the_branch_is_the_same_on_both_sides_and_the_cache_answers_the_second() {
    let both = explored_segments("blocks_after_branch", 2048);
    assert_eq!(both.paths.len(), 2);
    assert_eq!(both.stats.segments, 2);
    let segment = |p: &PathReport| p.objects[1].segment.clone().expect("block 1 merged");
    assert_eq!(segment(&both.paths[0]), segment(&both.paths[1]));
    assert_eq!(segment(&both.paths[0]).members, [1, 2]);
    let module = examples();
    let mut first_side = Options {
        search: SearchKind::Dfs,
        max_paths: Some(1),
        ..Options::default()
    };
    first_side.heap.bases = BaseMode::Symbolic;
    first_side.heap.segments = Some(Segments::default());
    let one = explore(&module, "blocks_after_branch", &first_side).unwrap();
    assert_eq!((one.paths.len(), one.stats.segments), (1, 1));
    assert_eq!(both.stats.sat_calls, one.stats.sat_calls);
    assert!(both.stats.answered.query_cache > one.stats.answered.query_cache);
}

#[test]
fn e5_a_segment_of_the_first_tables_nodes_finds_every_key_on_one_path() {
    let r = explored_segments("hash_tables", 2048);
    let fork = explored("hash_tables");
    // An empty bucket, a key found and a key missed: the five keys are
    // one path, where forking per node made one each.
    assert_eq!(r.paths.len(), 3);
    assert!(r.stats.forks < fork.stats.forks);
    let found: Vec<&PathReport> = r.paths.iter().filter(|p| returned(p) == 1).collect();
    assert_eq!(found.len(), 1);
    assert!([1, 8, 15, 22, 29].contains(&input(found[0], "key")));
    // Objects 0, 6 and 12 are the tables' bucket arrays, each followed by
    // its five nodes: only the first table's nodes are merged, into one
    // segment (the bucket read lands in one array and merges nothing).
    for p in &r.paths {
        let merged: Vec<(u32, u32)> = p
            .objects
            .iter()
            .filter_map(|o| Some((o.id, o.segment.as_ref()?.id)))
            .collect();
        let nodes = (1..=5).map(|id| (id, 0)).collect::<Vec<_>>();
        assert!(merged.is_empty() || merged == nodes, "{merged:?}");
        assert!(p.leaks.is_empty(), "{:?}", p.leaks);
    }
    assert_eq!(r.stats.segments, 1);
}

#[test]
fn e3_split_blocks_fork_over_the_two_pieces_the_offset_reaches_in_each() {
    let unsplit = explored("blocks");
    assert_eq!(unsplit.stats.largest_array_bytes, 256);
    assert_eq!(unsplit.stats.split_accesses, 0);
    let split = Some(Split {
        threshold: 200,
        piece: 64,
    });
    let r = explored_split("blocks", split);
    // Each block is four 64-byte pieces, of which j < 100 reaches the
    // first two: two paths per block, each reading one piece.
    assert_eq!(r.paths.len(), 4);
    assert_eq!(r.stats.forks, 3);
    assert_eq!(r.stats.split_accesses, 2);
    assert_eq!(r.stats.largest_array_bytes, 64);
    assert!(r.paths.iter().all(|p| returned(p) == 0));
    assert_eq!(inputs(&r, "i", |_| true), [0, 0, 1, 1]);
    // One path per piece: j below 64 on one, from 64 to 99 on the other.
    let mut pieces: Vec<(i64, bool)> = r
        .paths
        .iter()
        .map(|p| (input(p, "i"), input(p, "j") >= 64))
        .collect();
    pieces.sort_unstable();
    assert_eq!(pieces, [(0, false), (0, true), (1, false), (1, true)]);
    // Each path's report names the block it split, in four pieces; the
    // other block and the pointer array stay whole.
    for p in &r.paths {
        let split: Vec<u64> = p.objects.iter().filter_map(|o| o.pieces).collect();
        assert_eq!(split, [4], "{:?}", p.objects);
    }
    // Blocks no larger than the threshold stay whole.
    let high = Some(Split {
        threshold: 256,
        piece: 64,
    });
    assert_eq!(explored_split("blocks", high).paths.len(), 2);
}

#[test]
fn e5_split_buckets_fork_over_their_pieces_and_find_the_same_keys() {
    let r = explored_split("hash_tables", Some(Split::default()));
    // The 1,200-byte bucket array of the first table is ten 128-byte
    // pieces; `key % 300` reaches each, and the five keys are found as
    // before, on a path each.
    assert_eq!(r.stats.split_accesses, 1);
    assert!(r.stats.largest_array_bytes <= 128 + 3);
    assert_eq!(inputs(&r, "key", |p| returned(p) == 1), [1, 8, 15, 22, 29]);
    assert!(r.paths.len() > 11, "{} paths", r.paths.len());
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
    assert_eq!(line, Some(232));
}

/// `entry` over symbolic bases with address-aware caching in `mode`.
fn explored_aa(entry: &str, mode: AaCacheMode) -> Report {
    explored_with(entry, |o| {
        o.heap.bases = BaseMode::Symbolic;
        o.heap.aa_cache = mode;
    })
}

/// The address-aware cache's row of the solver layers of `r`.
fn aa_layer(r: &Report) -> &LayerReport {
    let layers = &r.stats.layers;
    let row = layers.iter().position(|l| l.name == "address-aware cache");
    let row = row.expect("a row of the address-aware cache");
    // In front of SAT, after the exact caches.
    assert_eq!(row + 2, layers.len());
    &layers[row]
}

/// What the paths of `r` ended with, sorted (a cached model may give a
/// path other inputs than the solver would).
fn outcomes(r: &Report) -> Vec<String> {
    let mut all: Vec<String> = r.paths.iter().map(|p| p.outcome()).collect();
    all.sort();
    all
}

#[test]
fn e6_address_aware_caching_answers_the_second_sides_queries_from_the_first() {
    let plain = explored_aa("divergent_buffer", AaCacheMode::Off);
    let aa = explored_aa("divergent_buffer", AaCacheMode::On);
    // Per side of `z > 0`: the read past the buffer's end, and inside it
    // the byte 7 read or another: three paths, six in all, either way.
    assert_eq!(aa.paths.len(), 6);
    assert_eq!(outcomes(&aa), outcomes(&plain));
    let layer = aa_layer(&aa);
    // The branches' queries in the buffer on each side: the second side
    // of `z` asks what the first asked about a buffer elsewhere (the
    // thesis's q7 matches q5). The counterexample cache answers the sat
    // ones with the first side's models before they reach SAT; the
    // unsat one (`c == 9`) reaches it, and the address-aware cache in
    // front of SAT answers it: one SAT call fewer. Where the read lands
    // is the engine's own question, never asked of it.
    assert_eq!((layer.queries, layer.answered), (3, 1));
    assert_eq!(aa.stats.answered.address_aware, 1);
    assert!(aa.stats.queries > 6);
    assert_eq!(aa.stats.sat_calls + 1, plain.stats.sat_calls);
    // Every branch's answer is kept by its key, whichever layer gave it.
    let held = aa.stats.address_aware.unwrap();
    assert_eq!((held.entries, held.guarded), (3, 0));
    assert!(held.bytes > 0);
    // Plain runs have no such layer.
    assert!(plain
        .stats
        .layers
        .iter()
        .all(|l| l.name != "address-aware cache"));
    assert_eq!(plain.stats.address_aware, None);
}

#[test]
fn e6_through_a_pointer_loaded_from_memory_the_queries_keep_their_addresses() {
    let plain = explored_aa("divergent_branch", AaCacheMode::Off);
    let aa = explored_aa("divergent_branch", AaCacheMode::On);
    assert_eq!(outcomes(&aa), outcomes(&plain));
    // `array[i] + j` may be either block's pointer: whether it lands in
    // one depends on where the other lies (E7's argument needs the bounds
    // of j against the blocks' sizes), so its cases keep the model's
    // conditions over addresses, and its branch asks as without the
    // cache.
    assert_eq!(aa_layer(&aa).queries, 0);
    assert_eq!(aa.stats.sat_calls, plain.stats.sat_calls);
}

#[test]
fn e6_every_answer_the_address_aware_cache_gives_is_the_solvers() {
    for entry in [
        "divergent_buffer",
        "divergent_branch",
        "ordered_blocks",
        "hash_tables",
    ] {
        let checked = explored_aa(entry, AaCacheMode::Check);
        let aa = checked.stats.address_aware.unwrap();
        assert_eq!(aa.disagreements, 0, "{entry}");
        assert_eq!(
            outcomes(&checked),
            outcomes(&explored_aa(entry, AaCacheMode::Off)),
            "{entry}"
        );
    }
    let checked = explored_aa("divergent_buffer", AaCacheMode::Check);
    assert_eq!(aa_layer(&checked).answered, 1);
}

#[test]
fn e8_address_dependent_branches_pin_their_blocks_or_are_left_to_the_chain() {
    let r = explored_aa("ordered_blocks", AaCacheMode::On);
    // `(p < q) == (k > 0)`, then `(r & 7) == k`: k > 0; k = 0; k < 0.
    assert_eq!(r.paths.len(), 3);
    // The order pins p and q: in a key they are their addresses. The low
    // bits of r are the same in every layout tried, so r stays free, and
    // the guard trusts the second branch's keys with models only: the
    // exact layers answer all but one of those queries, which reaches the
    // cache in front of SAT guarded.
    for p in &r.paths {
        let pinned: Vec<bool> = p.objects.iter().map(|o| o.pinned_at.is_some()).collect();
        assert_eq!(pinned, [true, true, false]);
    }
    let aa = r.stats.address_aware.unwrap();
    assert_eq!(aa.guarded, 1, "{aa:?}");
    assert_eq!((aa_layer(&r).queries, aa_layer(&r).answered), (1, 0));
    assert_eq!(aa.entries, 3);
}

/// A state whose blocks moved into a segment still asks its branches
/// through the address-aware cache: the keys it may answer unsat are
/// offsets into a block's own bytes and NULL checks, the same wherever
/// the block lies, and a decision on where a block lies pinned it.
#[test]
fn e5_under_segments_the_branches_after_the_merge_go_through_the_address_aware_cache() {
    let segments = |aa_cache| {
        explored_with("hash_tables", |o| {
            o.heap.bases = BaseMode::Symbolic;
            o.heap.segments = Some(Segments::default());
            o.heap.aa_cache = aa_cache;
        })
    };
    let (plain, checked) = (segments(AaCacheMode::Off), segments(AaCacheMode::Check));
    assert_eq!(checked.stats.segments, 1);
    assert_eq!(outcomes(&checked), outcomes(&plain));
    // The branches on the key read from the segment, after the merge.
    assert!(aa_layer(&checked).queries >= 4, "{:?}", aa_layer(&checked));
    assert_eq!(checked.stats.address_aware.unwrap().disagreements, 0);
}

/// A module of one page (its heap starts at 65536) that reads a byte of
/// a 65,600-byte block at the symbolic index `k & 0x1ffff`, through a load
/// whose memory offset is `offset`, and branches on whether it is the 7
/// stored at `offset + 3`.
fn offset_load(offset: u32) -> Module {
    let wat = format!(
        r#"(module
          (import "env" "malloc" (func $malloc (param i32) (result i32)))
          (memory 1)
          (func (export "load_at") (param $k i32) (result i32)
            (local $p i32)
            (local.set $p (call $malloc (i32.const 65600)))
            (i32.store8 offset={seven} (local.get $p) (i32.const 7))
            (if (result i32)
              (i32.eq
                (i32.load8_u offset={offset}
                  (i32.add (local.get $p) (i32.and (local.get $k) (i32.const 0x1ffff))))
                (i32.const 7))
              (then (i32.const 1)) (else (i32.const 0)))))"#,
        seven = offset + 3
    );
    symplay_wasm::load(&wat::parse_str(wat).unwrap()).unwrap()
}

/// Wasm adds a load's memory offset past the 32-bit pointer, so with an
/// offset above some block's address a pointer that wrapped below 0 may
/// land back in its block in one layout and not in another: the access's
/// case keeps its condition over addresses there, and its branch has no
/// base form. At an offset no larger than the heap start it has one.
#[test]
fn a_load_offset_past_the_heap_start_keeps_its_case_out_of_address_aware_keys() {
    let run = |offset: u32, aa_cache: AaCacheMode| {
        explored_in(&offset_load(offset), "load_at", |o| {
            o.heap.bases = BaseMode::Symbolic;
            o.heap.aa_cache = aa_cache;
        })
    };
    for offset in [16, 65_540] {
        let (plain, checked) = (
            run(offset, AaCacheMode::Off),
            run(offset, AaCacheMode::Check),
        );
        // Past memory, past the block, the 7, another byte: the same four
        // outcomes, none contradicted.
        assert_eq!(outcomes(&checked), outcomes(&plain), "offset {offset}");
        assert_eq!(checked.paths.len(), 4, "offset {offset}");
        assert_eq!(checked.stats.address_aware.unwrap().disagreements, 0);
        let keyed = aa_layer(&checked).queries;
        assert_eq!(
            keyed > 0,
            offset == 16,
            "offset {offset}: {keyed} keyed queries"
        );
    }
}

#[test]
fn address_aware_caching_needs_symbolic_bases() {
    let module = examples();
    let mut options = Options::default();
    options.heap.aa_cache = AaCacheMode::On;
    let e = explore(&module, "divergent_branch", &options).unwrap_err();
    assert!(
        e.message.contains("--aa-cache needs --bases symbolic"),
        "{}",
        e.message
    );
}
